/* gBalloon's runtime policy (seeds/gballoon.txt §3.2): every 0.5 s,
 * f(W, R_copy) = alpha*W + beta*R_copy decides whether pending GM
 * expansion requests are approved, and whether GM is taken back.
 *
 * Pure and integer-only (the hypervisor is built without floating point):
 * rates are in thousandths (permille), f in thousandths of its 0..2 range.
 * alpha and beta are the reciprocals of the largest W and R_copy the
 * platform shows; the paper measures them on its machine. We cannot
 * calibrate on an emulator, so the defaults are the theoretical maxima:
 * W_max = 100% per VM (every VM always runnable and waiting), R_max = 100%
 * (the CPU does nothing but copy). That makes f conservative: it reaches
 * the thresholds only under real contention. Both are parameters. */
#ifndef GPU_POLICY_GBALLOON_POLICY_H
#define GPU_POLICY_GBALLOON_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#define GBALLOON_PERIOD_NS 500000000ull	/* the paper's 0.5 s */
#define GBALLOON_LOW 500		/* Threshold_low, 0.5 */
#define GBALLOON_HIGH 1000		/* Threshold_high, 1.0 */

enum gballoon_band {
	GBALLOON_CALM,		/* f < low: approve every request */
	GBALLOON_BUSY,		/* low <= f < high: shrink the largest
				 * under-used vGPU by one slot; requests wait */
	GBALLOON_OVERLOADED,	/* f >= high: reject requests, take back two
				 * slots */
};

struct gballoon_params {
	uint32_t w_max_permille;	/* 0: 1000 x number of VMs */
	uint32_t rcopy_max_permille;	/* 0: 1000 */
	uint32_t low, high;		/* 0: GBALLOON_LOW / _HIGH */
};

/* f in thousandths (0..2000) from W (sum over VMs of each VM's steal
 * share, permille, equation 2) and R_copy (permille, equation 1). */
uint32_t gballoon_f(const struct gballoon_params *p, uint32_t nr_vms,
		    uint64_t w_permille, uint64_t rcopy_permille);
enum gballoon_band gballoon_band_of(const struct gballoon_params *p,
				    uint32_t f);

/* One vGPU as the policy sees it. Only slots granted above its configured
 * size (`granted`) can be taken back: a guest never loses the GM it was
 * created with, so a stock i915 guest (which never re-reads its ranges)
 * is safe under this policy. */
struct gballoon_vgpu {
	uint32_t slots;		/* high-GM slots it has now */
	uint32_t granted;	/* of those, given at run time */
	uint32_t used_permille;	/* its high GM in use (GGTT entries present) */
};

/* The vGPU to shrink in the BUSY band: the largest among those holding
 * grants, lowest utilization first among equals (the paper: "occupies a
 * large amount of GPU memory and has the lowest GPU memory utilization").
 * -1 when nobody holds a grant. */
int gballoon_pick_victim(const struct gballoon_vgpu *v, uint32_t n);

#endif
