/* gScale's mediator part: changing a running vGPU's high GM over gScale's
 * slots (the vgpu.h API), the two ways the research systems drive (they decide, this carries it out):
 *  - reshape (vgpu_set_high_runs): other whole-slot runs (grown, shrunk,
 *    moved, split), entries kept by GM address. gBalloon's decisions
 *    (gpu/gballoon/gballoon_live.c: Algorithm 1 on one run, or a set of
 *    slots for a guest that takes a list of ranges) and hv/gpu's
 *    placement=dymgpu at boot;
 *  - relocate (vgpu_relocate_high, vgpu_move_high): the same size, every
 *    entry carried to the same high offset, so GM address A becomes
 *    A - old_base + new_base for the guest. DymGPU's moves
 *    (gpu/dymgpu/dymgpu_move.c) and the operator's `place`. Only a guest
 *    that is told and re-reads its range may be moved (vgpu->movable, set
 *    by the hypervisor once the guest negotiated the guest channel); a
 *    stock i915 reads PVINFO once at load: pinned, never moved. Work
 *    queued or on the GPU names old addresses: such a vGPU is not moved
 *    (-GPU_EBUSY, retried by the caller).
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
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "mini/string.h"

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
	struct gscale *gs = gvt_gscale(v->gvt);
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

/* ---- relocation ------------------------------------------------------ */

static uint32_t nslots_of(const struct gscale *gs, int gs_id)
{
	return (gs->vgpus[gs_id].high_count + gs->p.slot_entries - 1) /
	       gs->p.slot_entries;
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
	struct gscale *gs = gvt_gscale(v->gvt);
	struct gscale_vgpu old;
	uint64_t moved = 0;
	int err;

	*carried = 0;
	if (!gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	if (!v->movable)
		return -GPU_EPERM;
	if (vgpu_work_pending(v) || v->gm_in_use)
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
	struct gscale *gs = gvt_gscale(v->gvt);
	struct vgpu_slot_run run;

	*carried = 0;
	if (!gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	run.first = slot;
	run.count = nslots_of(gs, v->gs_id);
	return vgpu_relocate_high(v, &run, 1, carried);
}
