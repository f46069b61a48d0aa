/* The vGPU scheduler: round robin over vGPUs with queued work, a fixed
 * time slice (16 ms default), idle vGPUs skipped, and vGPU-granular
 * ("gang") switching as GVT does: the GPU's MMIO state belongs to one vGPU
 * at a time, so a switch waits until every engine has finished the
 * current owner's work, then swaps the switched registers
 * (vgpu_mmio_switch.c). Workloads are never preempted. */
#include "gpu/vgpu/vgpu_priv.h"

static struct workload *queue_head(struct vgpu *v, int engine)
{
	struct vgpu_engine *e = &v->eng[engine];

	return e->wl_count ? &e->wl[e->wl_head] : NULL;
}

static bool has_queued(struct vgpu *v)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct workload *w = v->eng[id].present ? queue_head(v, id) : NULL;

		if (w && !w->dispatched)
			return true;
	}
	return false;
}

/* ---- completions ------------------------------------------------------- */

static void finish(struct gvt *gvt, int engine, int status)
{
	struct pexec_engine *pe = &gvt->pe[engine];
	struct vgpu *v = pe->owner_vgpu;
	struct workload *w = pe->inflight;

	pe->inflight = NULL;
	pe->owner_vgpu = NULL;
	if (v && w)
		vgpu_workload_complete(v, &v->eng[engine], w, status);
}

static void collect(struct gvt *gvt)
{
	uint64_t now = gvt_now(gvt);
	uint64_t limit = gvt->p.hang_timeout_ns;
	int id, r;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];

		if (!pe->inflight)
			continue;
		r = pexec_poll(gvt, id);
		if (r > 0) {
			finish(gvt, id, 0);
		} else if (r < 0 || now - pe->t_submit > limit) {
			struct workload *w = pe->inflight;
			struct vgpu *v = pe->owner_vgpu;

			gvt_log(gvt, HV_LOG_ERR, v ? v->id : 0,
				"%s: workload %s, engine reset",
				gen9_engine_name((enum gen9_engine_id)id),
				r < 0 ? "faulted" : "hung");
			pexec_reset_engine(gvt, id);
			if (v && w)
				vgpu_workload_complete(v, &v->eng[id], w,
						       r < 0 ? r : -GPU_ETIMEDOUT);
		}
	}
}

/* ---- picking the owner ------------------------------------------------------ */

static struct vgpu *next_with_work(struct gvt *gvt, int after)
{
	int k, id;

	for (k = 1; k <= GVT_MAX_VGPUS; k++) {
		id = (after + k - 1) % GVT_MAX_VGPUS + 1;
		if (gvt->vgpu[id] && !gvt->vgpu[id]->failed &&
		    has_queued(gvt->vgpu[id]))
			return gvt->vgpu[id];
	}
	return NULL;
}

static void switch_to(struct gvt *gvt, struct vgpu *next, uint64_t now)
{
	struct vgpu *prev = gvt->owner;
	uint64_t t0 = now;

	if (prev)
		prev->slice_used_ns += now - gvt->slice_start;
	gvt_mmio_switch(gvt, prev, next);
	gvt_gscale_switch(gvt, next, next_with_work(gvt, next->id));
	gvt->owner = next;
	gvt->rr_last = next->id;
	gvt->slice_start = now;
	next->stats.vgpu_switches++;
	next->stats.ns_switch += gvt_now(gvt) - t0;
}

static void schedule(struct gvt *gvt)
{
	struct vgpu *cur = gvt->owner, *next;
	uint64_t now = gvt_now(gvt);
	bool expired = now - gvt->slice_start >= gvt->p.timeslice_ns;

	if (cur && has_queued(cur) && !cur->failed && !expired)
		return; /* keep the slice */
	next = next_with_work(gvt, cur ? cur->id : gvt->rr_last);
	if (!next || next == cur) {
		if (next == cur && cur)
			gvt->slice_start = now; /* alone: a fresh slice */
		return;
	}
	gvt->next_owner = next;
	if (pexec_busy(gvt))
		return; /* the current owner's work drains first */
	gvt->next_owner = NULL;
	switch_to(gvt, next, now);
}

/* ---- dispatch ------------------------------------------------------------------ */

static void tlb_invalidate(struct gvt *gvt, int engine)
{
	static const uint32_t reg[GEN9_NUM_ENGINES] = {
		GEN8_RTCR, GEN8_BTCR, GEN8_M1TCR, GEN8_M2TCR, GEN8_VTCR };

	gpu_hw_write32(gvt->hw, reg[engine], 1);
	gpu_hw_wait_for(gvt->hw, reg[engine], 1, 0, 1000);
}

static void dispatch(struct gvt *gvt)
{
	struct vgpu *v = gvt->owner;
	int id, ret;

	if (!v || gvt->next_owner || v->failed)
		return;
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];
		struct workload *w;
		uint64_t t0;

		if (!e->present || gvt->pe[id].inflight)
			continue;
		w = queue_head(v, id);
		if (!w || w->dispatched)
			continue;
		t0 = vgpu_time_start(v);
		ret = vgpu_workload_prepare(v, e, w);
		if (ret) {
			vgpu_workload_complete(v, e, w, ret);
			return; /* v failed; nothing more of it runs */
		}
		if (e->tlb_inval) {
			tlb_invalidate(gvt, id);
			e->tlb_inval = false;
		}
		if (w->schedule_in)
			vgpu_emulate_schedule_in(v, e, w);
		pexec_submit(gvt, id, v, w, e->sctx.gm);
		vgpu_time_add(v, &v->stats.ns_dispatch, t0);
	}
}

void gvt_poll(struct gvt *gvt)
{
	gvt->poll_calls++;
	collect(gvt);
	schedule(gvt);
	dispatch(gvt);
}

bool gvt_idle(const struct gvt *gvt)
{
	int id;

	if (pexec_busy(gvt))
		return false;
	for (id = 1; id <= GVT_MAX_VGPUS; id++)
		if (gvt->vgpu[id] && has_queued(gvt->vgpu[id]))
			return false;
	return true;
}

/* A vGPU going away: stop what it runs, hand the GPU back to the host. */
void gvt_sched_remove(struct gvt *gvt, struct vgpu *v)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];

		if (pe->inflight && pe->owner_vgpu == v)
			pexec_reset_engine(gvt, id);
	}
	if (gvt->next_owner == v)
		gvt->next_owner = NULL;
	if (gvt->owner == v) {
		gvt_mmio_switch(gvt, v, NULL);
		gvt->owner = NULL;
	}
}
