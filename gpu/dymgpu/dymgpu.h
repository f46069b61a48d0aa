/* DymGPU live on the running mediator (gpu/dymgpu/dymgpu_attach.c,
 * dymgpu_move.c): the monitor fed at the scheduler's points through the
 * hook table, the 1 s re-placement period that keeps busy vGPUs apart on
 * gScale's slots (dymgpu_live.h), the operator's `place`, and what the
 * shell shows. The hypervisor lists &dymgpu_ext_ops in gvt_params.ext
 * (hv/gpu/gpu_host.c) with its dymgpu_params in gvt_params.ext_params;
 * under gVirt (no gScale) it attaches and does nothing. */
#ifndef GPU_DYMGPU_DYMGPU_H
#define GPU_DYMGPU_DYMGPU_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/vgpu/vgpu.h"
#include "gpu/vgpu/vgpu_ext.h"

/* gvt_params.ext_params for dymgpu_ext_ops (NULL: all defaults). */
struct dymgpu_params {
	/* The monitor's utilization window (0: the paper's 20 s). */
	uint32_t window_ms;
	/* Re-placement off: the monitor, the busy flags and the collisions
	 * are still computed (for `vgpus`), nothing moves by itself. */
	bool off;
};

extern const struct vgpu_ext_ops dymgpu_ext_ops;

/* One period of the placement policy (dymgpu_live.h) fed by the monitor:
 * applies its moves; writes the moved vGPUs (at most max) so the caller
 * can tell their guests. Returns how many moved; 0 when DymGPU is not
 * attached to gvt (not listed, or not gScale). */
uint32_t gvt_place_tick(struct gvt *gvt, struct vgpu **moved, uint32_t max);
/* The operator's `place`: the policy's dwell starts as for its own moves. */
int vgpu_place_at(struct vgpu *v, uint32_t slot, uint64_t *carried);
/* The same onto runs (vgpu_relocate_high: a move, split or merge). */
int vgpu_place_runs(struct vgpu *v, const struct vgpu_slot_run *runs,
		    uint32_t n, uint64_t *carried);
struct vgpu_place_info {
	bool tracked, movable, busy, idle;
	uint32_t util_permille;	/* GPU utilization over the monitor window */
	uint32_t share_permille; /* ... of its fair share (the busy rule's) */
	uint64_t idle_ms;	/* since the last submission */
	uint64_t gm_used, gm_size; /* present GGTT entries, entries */
	uint64_t copied;	/* entries copied in at its switches */
	uint64_t moves, carried;
	/* its last move: when (ms since the mediator started), why, with whom */
	uint64_t last_ms;
	uint32_t last_from, last_to;
	int last_other;		/* vGPU id it collided with, 0 operator */
};
/* -GPU_ENOTSUP when DymGPU is not attached or v is not under gScale. */
int vgpu_place_info(const struct vgpu *v, struct vgpu_place_info *out);
struct gvt_place_stats {
	uint64_t periods, moves, entries_carried, collisions_seen;
	uint64_t held_dwell, held_pinned, no_room, refused_busy;
	uint32_t collisions_now; /* slots with two busy vGPUs now */
};
int gvt_place_stats(const struct gvt *gvt, struct gvt_place_stats *out);

#endif
