/* Reshaping a running vGPU's high GM over gScale's slots: it becomes
 * other whole-slot runs (grown, shrunk, moved, split), entries kept by GM
 * address. The mechanism gBalloon's decisions are carried out with
 * (gpu/gballoon/gballoon_live.c: Algorithm 1 on one run, or a set of slots
 * for a guest that takes a list of ranges); hv/gpu's placement=dymgpu at
 * boot uses it too.
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
#include "gpu/vgpu/vgpu_priv.h"
#include "mini/string.h"

bool vgpu_work_pending(const struct vgpu *v)
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
	if (vgpu_work_pending(v))
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
