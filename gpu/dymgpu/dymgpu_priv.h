/* What dymgpu_attach.c and dymgpu_move.c share: DymGPU's per-gvt state
 * (the monitor, the live policy, the last move of each vGPU) and the
 * tracking of vGPUs in it. */
#ifndef GPU_DYMGPU_DYMGPU_PRIV_H
#define GPU_DYMGPU_DYMGPU_PRIV_H

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/dymgpu/dymgpu_live.h"
#include "gpu/policy/monitor.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"

#define PLACE_PERIOD_NS 1000000000ull

struct place_last {
	uint64_t at_ns;
	uint32_t from, to;
	int other;		/* vGPU collided with; 0: the operator */
};

/* One per gvt under gScale, in the mediator's pages (gvt_pages). */
struct dymgpu {
	struct mon mon;
	struct dyml dyml;
	uint64_t start_ns, last_tick;
	uint64_t refused_busy;
	struct place_last last[GVT_MAX_VGPUS + 1];
	uint32_t pages;		/* of this struct */
	bool off;		/* dymgpu_params.off */
};

/* gvt's DymGPU state, NULL when not attached or not under gScale. */
static inline struct dymgpu *dymgpu_of(const struct gvt *gvt)
{
	return vgpu_ext_gvt_state(gvt, &dymgpu_ext_ops);
}

/* Slots v's high GM occupies in all its ranges (0 when not gScale). */
uint32_t dymgpu_nslots(const struct vgpu *v);
/* The policy's view of v's slots: one run, or the set of its ranges. */
void dymgpu_sync_layout(struct dymgpu *d, struct vgpu *v);
/* v is in the monitor and the policy from the first time the scheduler
 * or the policy sees it (vgpu_create gives the id only after gScale
 * placed the GM); false when it cannot be (not gScale, bad id). */
bool dymgpu_track(struct dymgpu *d, struct vgpu *v);

#endif
