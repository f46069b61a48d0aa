/* Ballooning a running vGPU's high GM over gScale's slots (gBalloon,
 * gBalloon paper §3), on one run of slots (Algorithm 1) or, for a
 * guest that takes a list of ranges, on any set of slots (non-contiguous
 * slots, gpu/policy/ncslots.h, issue 17).
 *
 * Guests use GM addresses directly, so changing them needs the guest's
 * cooperation: this implementation does NOT translate addresses. The
 * mediator guarantees isolation whatever the guest does: entries outside
 * the new ranges are dropped (hardware scrubbed by gScale), and from then
 * on GGTT writes and command-buffer addresses outside them are refused as
 * for any vGPU, fences over dropped GM go to the hardware invalid. A guest
 * that keeps using dropped GM gets faults in its own workloads. A
 * cooperating guest (guest-shim's channel) learns the new ranges;
 * PVINFO's ballooning registers name the first. Expansion keeps every
 * existing entry where it is (same GM address), so it is safe even for a
 * guest that never looks. */
#include "gpu/gscale/gscale.h"
#include "gpu/policy/ncslots.h"
#include "gpu/gballoon/gballoon_adjust.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "mini/string.h"

static bool has_work(const struct vgpu *v)
{
	for (int e = 0; e < GEN9_NUM_ENGINES; e++) {
		const struct vgpu_engine *ve = &v->eng[e];

		if (ve->present && ve->wl_count)
			return true;	/* queued or on the GPU */
	}
	return false;
}

/* The GM ranges of whole-slot runs. */
static void runs_to_gm(const struct gscale *gs, const struct vgpu_slot_run *runs,
		       uint32_t n, struct vgpu_gm_range *out,
		       struct gscale_run *gr)
{
	uint64_t slot_bytes = (uint64_t)gs->p.slot_entries << 12;

	for (uint32_t i = 0; i < n; i++) {
		out[i].base = ((uint64_t)gs->p.high.first << 12) +
			      runs[i].first * slot_bytes;
		out[i].size = runs[i].count * slot_bytes;
		gr[i] = (struct gscale_run){ runs[i].first, runs[i].count };
	}
}

static void log_layout(struct vgpu *v, const char *what)
{
	vgpu_info(v, "%s: high GM now %u range(s), 0x%llx+%lluM first, "
		  "%lluM in all", what, v->nr_high,
		  (unsigned long long)v->high_base,
		  (unsigned long long)(v->high_size >> 20),
		  (unsigned long long)(v->high_total >> 20));
}

int vgpu_set_high_runs(struct vgpu *v, const struct vgpu_slot_run *runs,
		       uint32_t n)
{
	struct vgpu_gm_range r[VGPU_MAX_RANGES];
	struct gscale_run gr[VGPU_MAX_RANGES];
	struct gscale *gs = v->gvt->gs;
	struct ggtt_arrays arrays;
	int err;

	if (!gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	if (!n || n > VGPU_MAX_RANGES)
		return -GPU_EINVAL;
	for (uint32_t i = 0; i < n; i++)
		if (!runs[i].count || runs[i].first >= gs->nr_slots ||
		    runs[i].count > gs->nr_slots - runs[i].first)
			return -GPU_EINVAL;
	if (has_work(v))
		return -GPU_EBUSY;
	runs_to_gm(gs, runs, n, r, gr);
	err = vgpu_ggtt_prepare_high(v, r, n, &arrays);
	if (err)
		return err;
	err = gscale_vgpu_reshape(gs, v->gs_id, gr, n, 0);
	if (err) {
		vgpu_ggtt_abandon_high(v, &arrays);
		return err;	/* nothing changed */
	}
	vgpu_ggtt_commit_high(v, &arrays);
	vgpu_fence_recheck_high(v);
	vgpu_pvinfo_update_gm(v);
	v->stats.balloons++;
	log_layout(v, "ballooned");
	return 0;
}

int vgpu_set_high_slots(struct vgpu *v, uint32_t slot, uint32_t nslots)
{
	struct vgpu_slot_run run = { slot, nslots };

	return vgpu_set_high_runs(v, &run, 1);
}

/* Every gScale vGPU's runs of slots, for Algorithm 1 (a vGPU of several
 * ranges counts as one entry per run); *k = v's index in it. */
static int layout_of(const struct vgpu *v, struct slot_layout *l, uint32_t *k)
{
	const struct gscale *gs = v->gvt->gs;
	struct gscale_run runs[GSCALE_MAX_RANGES];

	l->m = gs->nr_slots;
	l->n = 0;
	for (int id = 0; id < GSCALE_MAX_VGPUS; id++) {
		uint32_t nr = gscale_vgpu_runs(gs, id, runs);

		if (id == v->gs_id)
			*k = l->n;
		for (uint32_t r = 0; r < nr; r++) {
			if (l->n >= SLOTS_MAX_VGPUS)
				return -GPU_ENOSPC;
			l->p[l->n] = runs[r].first;
			l->s[l->n] = runs[r].count;
			l->n++;
		}
	}
	return 0;
}

int vgpu_balloon(struct vgpu *v, int32_t delta, uint32_t *l_out,
		 uint32_t *r_out)
{
	struct slot_layout lay;
	uint32_t k = 0, l = 0, r = 0, q;
	int err;

	if (!v->gvt->gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	if (!delta)
		return -GPU_EINVAL;
	/* Several ranges grow and shrink as a set (vgpu_balloon_set). */
	if (v->nr_high > 1)
		return -GPU_ENOTSUP;
	if ((err = layout_of(v, &lay, &k)))
		return err;
	q = (uint32_t)(delta < 0 ? -delta : delta);
	err = delta > 0 ? gballoon_expand(&lay, k, q, &l, &r)
			: gballoon_reduce(&lay, k, q, &l, &r);
	if (err)
		return err;
	*l_out = l;
	*r_out = r;
	if (delta > 0)
		return vgpu_set_high_slots(v, lay.p[k] - l, lay.s[k] + q);
	return vgpu_set_high_slots(v, lay.p[k] + l, lay.s[k] - q);
}

/* ---- non-contiguous slots ("ours" of the balloon study) --------------- */

static void set_of(const struct gscale *gs, int id, struct ncs_set *s)
{
	struct gscale_run runs[GSCALE_MAX_RANGES];
	uint32_t nr = gscale_vgpu_runs(gs, id, runs);

	memset(s, 0, sizeof(*s));
	for (uint32_t r = 0; r < nr; r++)
		for (uint32_t x = runs[r].first; x < runs[r].first + runs[r].count; x++)
			ncs_add(s, x);
}

/* The layout as sets, indexed by gScale id; weight: each vGPU's GPU
 * utilization (the monitor's, permille), as the study passes it. */
static void sets_of(struct gvt *gvt, struct ncs_layout *l, uint32_t *weight)
{
	const struct gscale *gs = gvt->gs;

	memset(l, 0, sizeof(*l));
	memset(weight, 0, SLOTS_MAX_VGPUS * sizeof(weight[0]));
	l->m = gs->nr_slots;
	l->n = GSCALE_MAX_VGPUS <= SLOTS_MAX_VGPUS ? GSCALE_MAX_VGPUS
						     : SLOTS_MAX_VGPUS;
	for (uint32_t id = 0; id < l->n; id++)
		set_of(gs, (int)id, &l->set[id]);
	for (int id = 1; id <= GVT_MAX_VGPUS; id++) {
		struct vgpu *o = gvt->vgpu[id];
		struct vgpu_place_info pi;

		if (o && o->gs_id >= 0 && o->gs_id < (int)l->n &&
		    !vgpu_place_info(o, &pi))
			weight[o->gs_id] = pi.util_permille;
	}
}

int vgpu_balloon_set(struct vgpu *v, int32_t delta, uint32_t *nr_runs)
{
	static struct ncs_layout lay;	/* 4 KiB: not on the stack */
	uint32_t weight[SLOTS_MAX_VGPUS];
	struct ncs_run runs[VGPU_MAX_RANGES];
	struct vgpu_slot_run vr[VGPU_MAX_RANGES];
	uint32_t q, n;
	int err;

	if (!v->gvt->gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	if (!delta || v->gs_id >= SLOTS_MAX_VGPUS)
		return -GPU_EINVAL;
	/* A shrink takes GM away: not while the guest may be using it. */
	if (has_work(v) || (delta < 0 && v->gm_in_use))
		return -GPU_EBUSY;
	sets_of(v->gvt, &lay, weight);
	q = (uint32_t)(delta < 0 ? -delta : delta);
	err = delta > 0 ? ncs_expand(&lay, (uint32_t)v->gs_id, q, weight, NULL)
			: ncs_reduce(&lay, (uint32_t)v->gs_id, q, weight, NULL);
	if (err)
		return err;
	n = ncs_runs(&lay.set[v->gs_id], lay.m, runs, VGPU_MAX_RANGES);
	*nr_runs = n;
	if (!n)
		return -GPU_EINVAL;	/* reduced to nothing */
	if (n > VGPU_MAX_RANGES)
		return -GPU_E2BIG;	/* more ranges than a guest is told */
	for (uint32_t i = 0; i < n; i++)
		vr[i] = (struct vgpu_slot_run){ runs[i].first, runs[i].count };
	return vgpu_set_high_runs(v, vr, n);
}
