/* DymGPU live: the monitor fed from the scheduler, and re-placement of
 * running vGPUs' high GM over gScale's slots (DymGPU paper §III).
 *
 * The monitor (gpu/policy/monitor.h) is fed at the scheduler's points
 * (vgpu_sched.c): a workload dispatched (the vGPU is active), a workload
 * off the GPU (its busy time, into DymGPU's 1 s buckets over a 20 s
 * window), a switch (entries copied, time). GM use is the count of present
 * entries in the vGPU's private shadow, kept on the GGTT write path.
 *
 * Once a second gvt_place_tick runs the policy (gpu/dymgpu/dymgpu_live.h:
 * busy relative to the fair share, busy vGPUs apart, hysteresis, dwell) and applies its moves here. A move
 * keeps the high GM's size and carries every entry to the same offset of
 * the new range, so GM address A becomes A - old_base + new_base for the
 * guest: only a guest that is told and re-reads its range may be moved
 * (vgpu->movable, set by the hypervisor once the guest negotiated the guest
 * channel). A stock i915 reads PVINFO once at load: pinned, never moved.
 * Work queued or on the GPU names old addresses: such a vGPU is not moved
 * (-GPU_EBUSY, retried next period). Isolation does not depend on the guest
 * cooperating: the old range leaves the GGTT (scrubbed by gScale), GGTT
 * writes and commands outside the new range are refused, fences over the
 * old range go to the hardware invalid. */
#include "gpu/gscale/gscale.h"
#include "gpu/dymgpu/dymgpu_live.h"
#include "gpu/policy/monitor.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "mini/string.h"

#define PLACE_PERIOD_NS 1000000000ull

struct place_last {
	uint64_t at_ns;
	uint32_t from, to;
	int other;		/* vGPU collided with; 0: the operator */
};

struct gvt_place {
	struct mon mon;
	struct dyml dyml;
	uint64_t start_ns, last_tick;
	uint64_t refused_busy;
	struct place_last last[GVT_MAX_VGPUS + 1];
};

int gvt_place_init(struct gvt *gvt)
{
	struct mon_params mp = { .window_ns = gvt->p.place_window_ms * 1000000ull };
	struct gvt_place *pl;
	uint64_t now = gvt_now(gvt);

	gvt->place_pages = (sizeof(*pl) + VGPU_PAGE - 1) / VGPU_PAGE;
	pl = gvt_pages(gvt, gvt->place_pages, NULL);
	if (!pl)
		return -GPU_ENOMEM;
	memset(pl, 0, gvt->place_pages * VGPU_PAGE);
	if (mon_init(&pl->mon, &mp, now) ||
	    dyml_init(&pl->dyml, NULL, gvt->gs->nr_slots)) {
		gvt_free_pages(gvt, pl, gvt->place_pages);
		return -GPU_EINVAL;
	}
	pl->start_ns = pl->last_tick = now;
	gvt->place = pl;
	return 0;
}

void gvt_place_fini(struct gvt *gvt)
{
	if (!gvt->place)
		return;
	gvt_free_pages(gvt, gvt->place, gvt->place_pages);
	gvt->place = NULL;
}

static uint32_t nslots_of(const struct gscale *gs, int gs_id)
{
	return (gs->vgpus[gs_id].high_count + gs->p.slot_entries - 1) /
	       gs->p.slot_entries;
}

/* The policy's view of v's slots: one run, or the set of its ranges. */
static void sync_layout(struct gvt_place *pl, struct vgpu *v)
{
	const struct gscale *gs = v->gvt->gs;
	struct gscale_run runs[GSCALE_MAX_RANGES];
	uint64_t set[DYML_SET_WORDS] = { 0 };
	uint32_t n = gscale_vgpu_runs(gs, v->gs_id, runs);

	if (n == 1) {
		dyml_sync(&pl->dyml, (uint32_t)v->id, runs[0].first,
			  runs[0].count);
		return;
	}
	for (uint32_t r = 0; r < n; r++)
		for (uint32_t x = runs[r].first;
		     x < runs[r].first + runs[r].count && x < DYML_MAX_SLOTS; x++)
			set[x / 64] |= 1ull << (x % 64);
	dyml_sync_set(&pl->dyml, (uint32_t)v->id, set);
}

/* vGPUs are tracked from the first time the scheduler or the policy
 * sees them (vgpu_create gives the id only after gScale placed the GM). */
static bool track(struct gvt_place *pl, struct vgpu *v)
{
	struct gscale *gs = v->gvt->gs;

	if (v->gs_id < 0 || v->id <= 0 || v->id > GVT_MAX_VGPUS)
		return false;
	if (pl->mon.v[v->id].present)
		return true;
	mon_add(&pl->mon, (uint32_t)v->id, gvt_now(v->gvt));
	dyml_add(&pl->dyml, (uint32_t)v->id, gs->vgpus[v->gs_id].slot,
		 nslots_of(gs, v->gs_id), v->movable);
	sync_layout(pl, v);
	memset(&pl->last[v->id], 0, sizeof(pl->last[0]));
	return true;
}

void vgpu_place_remove(struct vgpu *v)
{
	struct gvt_place *pl = v->gvt->place;

	if (!pl || v->id <= 0 || v->id > GVT_MAX_VGPUS)
		return;
	mon_remove(&pl->mon, (uint32_t)v->id);
	dyml_remove(&pl->dyml, (uint32_t)v->id);
}

/* ---- the scheduler's points ------------------------------------------ */

void gvt_mon_dispatch(struct gvt *gvt, struct vgpu *v, uint64_t now)
{
	if (gvt->place && track(gvt->place, v))
		mon_submit(&gvt->place->mon, (uint32_t)v->id, now);
}

void gvt_mon_ran(struct gvt *gvt, struct vgpu *v, uint64_t start,
		 uint64_t end)
{
	if (gvt->place && v && track(gvt->place, v))
		mon_gpu_busy(&gvt->place->mon, (uint32_t)v->id, start, end);
}

void gvt_mon_switch(struct gvt *gvt, struct vgpu *v, uint64_t n, uint64_t ns)
{
	if (gvt->place && track(gvt->place, v))
		mon_copy(&gvt->place->mon, (uint32_t)v->id, n, ns);
}

/* ---- moving ----------------------------------------------------------- */

static bool work_pending(const struct vgpu *v)
{
	for (int e = 0; e < GEN9_NUM_ENGINES; e++)
		if (v->eng[e].present && v->eng[e].wl_count)
			return true;
	return false;
}

/* Halves of entries waiting for their partner were addressed in the old
 * layout: they belong to the same high offsets of the new one. */
static void rebase_partials(struct vgpu *v, const struct gscale_vgpu *old,
			    const struct gscale_vgpu *now)
{
	for (int i = 0; i < VGPU_PARTIAL_PTES; i++) {
		struct ggtt_partial *p = &v->partial[i];
		int64_t off = p->used ? gscale_high_offset(old, p->index) : -1;
		uint32_t rest = (uint32_t)off;

		if (off < 0)
			continue;
		for (uint32_t r = 0; r < now->nr_high; r++) {
			if (rest < now->hr[r].count) {
				p->index = now->hr[r].first + rest;
				break;
			}
			rest -= now->hr[r].count;
		}
	}
}

/* The vGPU's ranges from gScale's layout (same size, same high offsets:
 * its own arrays keep their order). */
static void take_layout(struct vgpu *v, const struct gscale_vgpu *g)
{
	struct vgpu_gm_range r[VGPU_MAX_RANGES];

	for (uint32_t i = 0; i < g->nr_high; i++)
		r[i] = (struct vgpu_gm_range){ (uint64_t)g->hr[i].first << 12,
					       (uint64_t)g->hr[i].count << 12 };
	vgpu_gm_set_high(v, r, g->nr_high);
}

int vgpu_relocate_high(struct vgpu *v, const struct vgpu_slot_run *runs,
		       uint32_t n, uint64_t *carried)
{
	struct gscale_run gr[GSCALE_MAX_RANGES];
	struct gscale *gs = v->gvt->gs;
	struct gscale_vgpu old;
	uint64_t moved = 0;
	int err;

	*carried = 0;
	if (!gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	if (!v->movable)
		return -GPU_EPERM;
	if (work_pending(v) || v->gm_in_use)
		return -GPU_EBUSY;
	if (!n || n > GSCALE_MAX_RANGES)
		return -GPU_EINVAL;
	for (uint32_t i = 0; i < n; i++)
		gr[i] = (struct gscale_run){ runs[i].first, runs[i].count };
	old = gs->vgpus[v->gs_id];
	err = gscale_vgpu_relocate(gs, v->gs_id, gr, n, &moved);
	if (err)
		return err;
	*carried = moved;
	if (gs->vgpus[v->gs_id].nr_high == old.nr_high &&
	    !memcmp(gs->vgpus[v->gs_id].hr, old.hr, sizeof(old.hr)))
		return 0;	/* already there */
	take_layout(v, &gs->vgpus[v->gs_id]);
	rebase_partials(v, &old, &gs->vgpus[v->gs_id]);
	vgpu_fence_recheck_high(v);
	vgpu_pvinfo_update_gm(v);
	v->stats.moves++;
	v->stats.entries_carried += moved;
	vgpu_info(v, "high GM re-placed: %u range(s) from slot %u -> %u "
		  "range(s) from slot %u (0x%llx), %llu entries carried",
		  old.nr_high, old.slot, v->nr_high,
		  gs->vgpus[v->gs_id].slot, (unsigned long long)v->high_base,
		  (unsigned long long)moved);
	return 0;
}

int vgpu_move_high(struct vgpu *v, uint32_t slot, uint64_t *carried)
{
	struct gscale *gs = v->gvt->gs;
	struct vgpu_slot_run run;

	*carried = 0;
	if (!gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	run.first = slot;
	run.count = nslots_of(gs, v->gs_id);
	return vgpu_relocate_high(v, &run, 1, carried);
}

void vgpu_set_movable(struct vgpu *v, bool movable)
{
	v->movable = movable;
}

void vgpu_set_gm_in_use(struct vgpu *v, bool in_use)
{
	v->gm_in_use = in_use;
}

static void note(struct gvt_place *pl, struct vgpu *v, uint32_t from,
		 uint32_t to, int other, uint8_t why)
{
	struct gscale *gs = v->gvt->gs;

	dyml_moved(&pl->dyml, (uint32_t)v->id, to, nslots_of(gs, v->gs_id),
		   why);
	pl->last[v->id] = (struct place_last){ gvt_now(v->gvt), from, to,
					       other };
}

int vgpu_place_runs(struct vgpu *v, const struct vgpu_slot_run *runs,
		    uint32_t n, uint64_t *carried)
{
	struct gvt_place *pl = v->gvt->place;
	uint64_t moves;
	uint32_t from;
	int err;

	*carried = 0;
	if (!pl || !track(pl, v))
		return -GPU_ENOTSUP;
	from = v->gvt->gs->vgpus[v->gs_id].slot;
	moves = v->stats.moves;
	err = vgpu_relocate_high(v, runs, n, carried);
	if (!err && v->stats.moves != moves) {
		note(pl, v, from, runs[0].first, 0, DYML_OPERATOR);
		sync_layout(pl, v);	/* a split is a set, not a run */
	}
	return err;
}

int vgpu_place_at(struct vgpu *v, uint32_t slot, uint64_t *carried)
{
	struct vgpu_slot_run run = { slot, 0 };

	*carried = 0;
	if (!v->gvt->gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	run.count = nslots_of(v->gvt->gs, v->gs_id);
	return vgpu_place_runs(v, &run, 1, carried);
}

/* ---- the policy period ------------------------------------------------ */

static void feed(struct gvt_place *pl, struct gvt *gvt, uint64_t now)
{
	for (int id = 1; id <= GVT_MAX_VGPUS; id++) {
		struct vgpu *v = gvt->vgpu[id];

		if (!v || !track(pl, v))
			continue;
		mon_gm(&pl->mon, (uint32_t)id, vgpu_gm_entries(v),
		       v->gm_present, vgpu_gm_entries(v));
		sync_layout(pl, v);
		if (v->failed)
			dyml_set(&pl->dyml, (uint32_t)id, 0, v->gm_present,
				 v->movable);
		else
			dyml_feed(&pl->dyml, &pl->mon, (uint32_t)id, now,
				  v->gm_present, v->movable);
	}
}

uint32_t gvt_place_tick(struct gvt *gvt, struct vgpu **moved, uint32_t max)
{
	struct gvt_place *pl = gvt->place;
	struct dyml_decision dec[DYML_MAX_MOVES];
	struct mon_event ev[8];
	uint64_t now = gvt_now(gvt), carried;
	uint32_t n, done = 0;

	if (!pl || now - pl->last_tick < PLACE_PERIOD_NS)
		return 0;
	pl->last_tick = now;
	while (mon_poll(&pl->mon, now, ev, 8) == 8)
		; /* idle flags for `vgpus`; the policy reads utilization */
	feed(pl, gvt, now);
	/* Off: busy flags and collisions are still computed, for `vgpus`. */
	n = dyml_step(&pl->dyml, dec, gvt->p.place_off ? 0 : DYML_MAX_MOVES);
	for (uint32_t i = 0; i < n; i++) {
		struct vgpu *v = gvt->vgpu[dec[i].vgpu];
		int err = v ? vgpu_move_high(v, dec[i].to, &carried) : -GPU_EINVAL;

		if (err) {
			dyml_undo(&pl->dyml, &dec[i]);
			pl->refused_busy += err == -GPU_EBUSY;
			continue;
		}
		note(pl, v, dec[i].from, dec[i].to, dec[i].other, DYML_COLLISION);
		vgpu_info(v, "DymGPU: busy with vGPU %u on slot %u: moved to "
			  "slot %u", dec[i].other, dec[i].from, dec[i].to);
		if (done < max)
			moved[done++] = v;
	}
	return done;
}

/* ---- what the shell shows --------------------------------------------- */

int vgpu_place_info(const struct vgpu *v, struct vgpu_place_info *out)
{
	const struct gvt_place *pl = v->gvt->place;
	const struct dyml_vgpu *d;
	uint64_t now = gvt_now(v->gvt);
	const struct mon_vgpu *m;

	memset(out, 0, sizeof(*out));
	if (!pl || v->gs_id < 0 || v->id <= 0 || v->id > GVT_MAX_VGPUS)
		return -GPU_ENOTSUP;
	m = &pl->mon.v[v->id];
	d = &pl->dyml.v[v->id];
	out->tracked = m->present;
	out->movable = v->movable;
	out->busy = d->busy;
	out->idle = mon_is_idle(&pl->mon, (uint32_t)v->id, now);
	out->util_permille = mon_util(&pl->mon, (uint32_t)v->id, now);
	out->share_permille = d->util;
	out->idle_ms = now > m->last_active_ns
			       ? (now - m->last_active_ns) / 1000000 : 0;
	out->gm_used = v->gm_present;
	out->gm_size = vgpu_gm_entries(v);
	out->copied = m->copied;
	out->moves = v->stats.moves;
	out->carried = v->stats.entries_carried;
	if (pl->last[v->id].at_ns) {
		out->last_ms = (pl->last[v->id].at_ns - pl->start_ns) / 1000000;
		out->last_from = pl->last[v->id].from;
		out->last_to = pl->last[v->id].to;
		out->last_other = pl->last[v->id].other;
	}
	return 0;
}

int gvt_place_stats(const struct gvt *gvt, struct gvt_place_stats *out)
{
	const struct gvt_place *pl = gvt->place;

	memset(out, 0, sizeof(*out));
	if (!pl)
		return -GPU_ENOTSUP;
	out->periods = pl->dyml.st.periods;
	out->moves = pl->dyml.st.moves;
	out->entries_carried = gvt->gs->stats.entries_carried;
	out->collisions_seen = pl->dyml.st.collisions;
	out->held_dwell = pl->dyml.st.held_dwell;
	out->held_pinned = pl->dyml.st.held_pinned;
	out->no_room = pl->dyml.st.no_room;
	out->refused_busy = pl->refused_busy;
	out->collisions_now = dyml_collisions(&pl->dyml);
	return 0;
}
