/* gBalloon on the running mediator (gpu/gballoon/gballoon_live.c): where
 * a vGPU's high GM grows or shrinks, on the live layout of gScale's slots,
 * carried out by the mediator's reshape (vgpu_set_high_runs, vgpu.h).
 * The policy loop that decides how much is balloon_policy.h (run by
 * hv/gpu/gpu_balloon.c); Algorithm 1 itself is gballoon_adjust.h. */
#ifndef GPU_GBALLOON_GBALLOON_H
#define GPU_GBALLOON_GBALLOON_H

#include <stdint.h>

#include "gpu/vgpu/vgpu.h"

/* gBalloon Algorithm 1 on the current layout: grow (delta > 0) or shrink
 * v's high GM by |delta| slots, *l from the left end, *r from the right,
 * chosen to minimize shared slots; then vgpu_set_high_slots. A vGPU of
 * several ranges: -GPU_ENOTSUP (it balloons as a set); -GPU_ENOTSUP
 * under gVirt. */
int vgpu_balloon(struct vgpu *v, int32_t delta, uint32_t *l, uint32_t *r);
/* Non-contiguous slots (gpu/policy/ncslots.h, the balloon study's
 * "ours"): grow v by the delta slots with the fewest users anywhere, or
 * shrink it by the |delta| with the most (ties by the vGPUs' GPU
 * utilization); its high GM may become several ranges. Only for a guest
 * that is told its ranges. *nr_runs: the ranges it would have;
 * -GPU_E2BIG when more than VGPU_MAX_RANGES (nothing changes). */
int vgpu_balloon_set(struct vgpu *v, int32_t delta, uint32_t *nr_runs);

#endif
