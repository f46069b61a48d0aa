/* Slot-level placement of vGPUs' high graphics memory, the common ground of
 * DymGPU (DymGPU paper; its placements: gpu/dymgpu/dymgpu_place.h) and
 * gBalloon (gBalloon paper; its Algorithm 1: gpu/gballoon/gballoon_adjust.h).
 *
 * High GM is M slots (64 MiB each in both papers). vGPU i occupies S[i]
 * consecutive slots starting at P[i]; vGPUs may overlap, and every slot
 * used by more than one vGPU costs private-GTT copies at context switches
 * (gpu/gscale). These are pure functions over that description: the
 * mediator applies their results through gpu/gscale. */
#ifndef GPU_POLICY_SLOTS_H
#define GPU_POLICY_SLOTS_H

#include <stdint.h>

#define SLOTS_MAX_VGPUS 128
#define SLOTS_MAX 256

struct slot_layout {
	uint32_t m;                  /* slots in high GM */
	uint32_t n;                  /* vGPUs */
	uint32_t s[SLOTS_MAX_VGPUS]; /* slots each vGPU occupies */
	uint32_t p[SLOTS_MAX_VGPUS]; /* first slot of each vGPU */
};

/* How many vGPUs occupy slot `slot`. */
uint32_t slots_users(const struct slot_layout *l, uint32_t slot);
/* Slots occupied by two or more vGPUs. */
uint32_t slots_shared(const struct slot_layout *l);
/* 0 when every vGPU lies inside [0, m), else -GPU_EINVAL. */
int slots_check(const struct slot_layout *l);

/* Applies an expansion (+) or reduction (-) computed by gBalloon's
 * Algorithm 1 (gpu/gballoon/gballoon_adjust.h). */
void slots_apply(struct slot_layout *lay, uint32_t k, int32_t l, int32_t r);

#endif
