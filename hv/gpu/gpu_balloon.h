/* gBalloon at run time (hv/gpu/gpu_balloon.c): the 0.5 s policy loop over the
 * real scheduler's steal time and the mediator's copy time, and the queue
 * of guests' GM expansion requests it decides on. */
#ifndef HV_GPU_BALLOON_H
#define HV_GPU_BALLOON_H

#include <stdbool.h>
#include <stdint.h>

#define GPU_BALLOON_MAX_PENDING 8	/* slots one VM may have waiting */

/* A guest asks for `slots` more high-GM slots (the guest channel, or the
 * shell on its behalf). 0, or -HV_EINVAL (no vGPU, 0 slots) / -HV_ENOSPC
 * (more than GPU_BALLOON_MAX_PENDING waiting): bounded, never queued
 * without limit. */
int gpu_balloon_request(unsigned vm_id, uint32_t slots);
/* A guest gives back up to `slots` granted slots: how many it did give
 * back (0 when it holds no grant), or -HV_EINVAL. */
int gpu_balloon_release(unsigned vm_id, uint32_t slots);
/* How a grant or a reduction was laid out: Algorithm 1 on one run (l
 * slots on the left, r on the right), or, for a guest that takes a list
 * of ranges (it set up the guest channel), as a set of slots: the
 * balloon study's "ours" (gpu/policy/ncslots.h); runs = its ranges now. */
struct gpu_balloon_done {
	bool as_set;
	uint32_t l, r, runs;
};
/* Grow (delta > 0) or shrink vm's vGPU now, as the policy's actions do
 * and the operator's `balloon` command; grants are tracked. Returns
 * vgpu_balloon's / vgpu_balloon_set's code. */
int gpu_balloon_apply(unsigned vm_id, int32_t delta,
		      struct gpu_balloon_done *done);
/* The policy's parameters, from hv.cfg and the machine (gpu_host.c). */
struct gpu_balloon_cfg {
	uint32_t period_ms;	/* balloon_ms; the paper's 0.5 s by default */
	uint32_t w_max;		/* balloon_w_max (1/alpha), 0: 1000 x vcpus */
	uint32_t rcopy_max;	/* balloon_rcopy_max (1/beta), 0: 1000 */
	uint32_t vcpus;		/* vCPUs of the VMs configured */
};
void gpu_balloon_init(const struct gpu_balloon_cfg *c);
/* A VM's vGPU is gone (stopped, destroyed, reset): its waiting request
 * and its grants are forgotten. */
void gpu_balloon_forget(unsigned vm_id);
/* Called every main-loop round (gpu_host_poll); acts once per period. */
void gpu_balloon_tick(void);
/* For `sched`: the last evaluation. */
void gpu_balloon_print(void);

#endif
