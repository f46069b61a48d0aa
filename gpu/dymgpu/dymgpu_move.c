/* DymGPU live: re-placement of running vGPUs' high GM over gScale's slots
 * (DymGPU paper §III), as the hypervisor runs it.
 *
 * Once a second gvt_place_tick runs the policy (dymgpu_live.h: busy
 * relative to the fair share, busy vGPUs apart, hysteresis, dwell) on the
 * monitor's figures (dymgpu_attach.c) and applies its moves with the
 * mediator's relocation (vgpu_move_high, gpu/gscale/mediator/gscale_reshape.c): the
 * high GM keeps its size and every entry is carried to the same offset of
 * the new range, so only a guest that is told and re-reads its range may
 * be moved (vgpu_set_movable); a vGPU with work queued or on the GPU is
 * not moved (-GPU_EBUSY, retried next period). Isolation does not depend
 * on the guest cooperating: the old range leaves the GGTT (scrubbed by
 * gScale), GGTT writes and commands outside the new range are refused,
 * fences over the old range go to the hardware invalid. */
#include "gpu/dymgpu/dymgpu_priv.h"
#include "mini/string.h"

static void note(struct dymgpu *d, struct vgpu *v, uint32_t from,
		 uint32_t to, int other, uint8_t why)
{
	dyml_moved(&d->dyml, (uint32_t)v->id, to, dymgpu_nslots(v), why);
	d->last[v->id] = (struct place_last){ gvt_now(v->gvt), from, to,
					      other };
}

int vgpu_place_runs(struct vgpu *v, const struct vgpu_slot_run *runs,
		    uint32_t n, uint64_t *carried)
{
	struct dymgpu *d = dymgpu_of(v->gvt);
	uint32_t from, count;
	uint64_t moves;
	int err;

	*carried = 0;
	if (!d || !dymgpu_track(d, v))
		return -GPU_ENOTSUP;
	vgpu_slots(v, &from, &count);
	moves = v->stats.moves;
	err = vgpu_relocate_high(v, runs, n, carried);
	if (!err && v->stats.moves != moves) {
		note(d, v, from, runs[0].first, 0, DYML_OPERATOR);
		dymgpu_sync_layout(d, v);	/* a split is a set, not a run */
	}
	return err;
}

int vgpu_place_at(struct vgpu *v, uint32_t slot, uint64_t *carried)
{
	struct vgpu_slot_run run = { slot, 0 };

	*carried = 0;
	run.count = dymgpu_nslots(v);
	if (!run.count)
		return -GPU_ENOTSUP;
	return vgpu_place_runs(v, &run, 1, carried);
}

/* ---- the policy period ------------------------------------------------ */

static void feed(struct dymgpu *d, struct gvt *gvt, uint64_t now)
{
	for (int id = 1; id <= GVT_MAX_VGPUS; id++) {
		struct vgpu *v = gvt->vgpu[id];

		if (!v || !dymgpu_track(d, v))
			continue;
		mon_gm(&d->mon, (uint32_t)id, vgpu_gm_entries(v),
		       v->gm_present, vgpu_gm_entries(v));
		dymgpu_sync_layout(d, v);
		if (v->failed)
			dyml_set(&d->dyml, (uint32_t)id, 0, v->gm_present,
				 v->movable);
		else
			dyml_feed(&d->dyml, &d->mon, (uint32_t)id, now,
				  v->gm_present, v->movable);
	}
}

/* Carry out decision dec; true when v moved. */
static bool apply(struct dymgpu *d, struct gvt *gvt,
		  const struct dyml_decision *dec)
{
	struct vgpu *v = gvt->vgpu[dec->vgpu];
	uint64_t carried;
	int err = v ? vgpu_move_high(v, dec->to, &carried) : -GPU_EINVAL;

	if (err) {
		dyml_undo(&d->dyml, dec);
		d->refused_busy += err == -GPU_EBUSY;
		return false;
	}
	note(d, v, dec->from, dec->to, dec->other, DYML_COLLISION);
	vgpu_info(v, "DymGPU: busy with vGPU %u on slot %u: moved to slot %u",
		  dec->other, dec->from, dec->to);
	return true;
}

uint32_t gvt_place_tick(struct gvt *gvt, struct vgpu **moved, uint32_t max)
{
	struct dyml_decision dec[DYML_MAX_MOVES];
	uint64_t now = gvt_now(gvt);
	struct dymgpu *d = dymgpu_of(gvt);
	struct mon_event ev[8];
	uint32_t n, done = 0;

	if (!d || now - d->last_tick < PLACE_PERIOD_NS)
		return 0;
	d->last_tick = now;
	while (mon_poll(&d->mon, now, ev, 8) == 8)
		; /* idle flags for `vgpus`; the policy reads utilization */
	feed(d, gvt, now);
	/* Off: busy flags and collisions are still computed, for `vgpus`. */
	n = dyml_step(&d->dyml, dec, d->off ? 0 : DYML_MAX_MOVES);
	for (uint32_t i = 0; i < n; i++)
		if (apply(d, gvt, &dec[i]) && done < max)
			moved[done++] = gvt->vgpu[dec[i].vgpu];
	return done;
}

/* ---- what the shell shows --------------------------------------------- */

static void last_move(const struct dymgpu *d, int id,
		      struct vgpu_place_info *out)
{
	if (!d->last[id].at_ns)
		return;
	out->last_ms = (d->last[id].at_ns - d->start_ns) / 1000000;
	out->last_from = d->last[id].from;
	out->last_to = d->last[id].to;
	out->last_other = d->last[id].other;
}

int vgpu_place_info(const struct vgpu *v, struct vgpu_place_info *out)
{
	uint64_t now = gvt_now(v->gvt);
	const struct dymgpu *d = dymgpu_of(v->gvt);
	const struct mon_vgpu *m;

	memset(out, 0, sizeof(*out));
	if (!d || v->gs_id < 0 || v->id <= 0 || v->id > GVT_MAX_VGPUS)
		return -GPU_ENOTSUP;
	m = &d->mon.v[v->id];
	out->tracked = m->present;
	out->movable = v->movable;
	out->busy = d->dyml.v[v->id].busy;
	out->idle = mon_is_idle(&d->mon, (uint32_t)v->id, now);
	out->util_permille = mon_util(&d->mon, (uint32_t)v->id, now);
	out->share_permille = d->dyml.v[v->id].util;
	out->idle_ms = now > m->last_active_ns
			       ? (now - m->last_active_ns) / 1000000 : 0;
	out->gm_used = v->gm_present;
	out->gm_size = vgpu_gm_entries(v);
	out->copied = m->copied;
	out->moves = v->stats.moves;
	out->carried = v->stats.entries_carried;
	last_move(d, v->id, out);
	return 0;
}

int gvt_place_stats(const struct gvt *gvt, struct gvt_place_stats *out)
{
	const struct dymgpu *d = dymgpu_of(gvt);
	struct gvt_status st;

	memset(out, 0, sizeof(*out));
	if (!d)
		return -GPU_ENOTSUP;
	memset(&st, 0, sizeof(st));
	gvt_get_status(gvt, &st);
	out->periods = d->dyml.st.periods;
	out->moves = d->dyml.st.moves;
	out->entries_carried = st.entries_carried;
	out->collisions_seen = d->dyml.st.collisions;
	out->held_dwell = d->dyml.st.held_dwell;
	out->held_pinned = d->dyml.st.held_pinned;
	out->no_room = d->dyml.st.no_room;
	out->refused_busy = d->refused_busy;
	out->collisions_now = dyml_collisions(&d->dyml);
	return 0;
}
