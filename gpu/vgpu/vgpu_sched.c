/* The vGPU scheduler: round robin over vGPUs with queued work, a fixed
 * time slice (16 ms default), idle vGPUs skipped, and vGPU-granular
 * ("gang") switching as GVT does: the GPU's MMIO state belongs to one vGPU
 * at a time, so a switch waits until every engine has finished the
 * current owner's work, then swaps the switched registers
 * (vgpu_mmio_switch.c).
 *
 * GPU time is bounded: when the owner's slice is over and another vGPU
 * waits, what the owner still has on the GPU overrun_ns later is reset
 * (engine reset; the workload fails, the guest sees an engine error), and
 * the max_overruns-th overrun fails the vGPU for good. Workloads are not
 * preempted: Gen9 preempts only at arbitration points (MI_ARB_CHECK with
 * arbitration on), which a hostile batch need not reach, so a reset is the
 * bound that holds; README.md "Bounded GPU time" has the reasoning. A vGPU
 * alone on the GPU keeps the 2 s hang timeout: it delays nobody. */
#include "gpu/vgpu/vgpu_priv.h"

static struct workload *queue_head(struct vgpu *v, int engine)
{
	struct vgpu_engine *e = &v->eng[engine];

	return e->wl_count ? &e->wl[e->wl_head] : NULL;
}

/* Work not yet on the GPU: only the head of an engine's queue can be in
 * flight, so anything behind a dispatched head counts. */
static bool has_queued(struct vgpu *v)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];
		struct workload *w = e->present ? queue_head(v, id) : NULL;

		if (w && e->wl_count > (w->dispatched ? 1u : 0u))
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
	gvt_mon_ran(gvt, v, pe->t_submit, gvt_now(gvt));
	if (v && w)
		vgpu_workload_complete(v, &v->eng[engine], w, status);
}

/* Someone other than v has work the GPU has not taken yet. */
static bool others_wait(struct gvt *gvt, const struct vgpu *v)
{
	return gvt->next_owner && gvt->next_owner != v;
}

/* The owner's slice is over, a neighbour waits and the owner's work has
 * had overrun_ns more to drain. */
static bool overran(struct gvt *gvt, const struct vgpu *v, uint64_t now)
{
	return v && gvt->owner == v && others_wait(gvt, v) &&
	       now - gvt->slice_start >=
		       gvt->p.timeslice_ns + gvt->p.overrun_ns;
}

/* Count an overrun against v; true when it is the max_overruns-th. */
static bool charge_overrun(struct gvt *gvt, struct vgpu *v, int engine)
{
	if (v->failed || v->banned)
		return false; /* one offence per failure, however many engines */
	v->overruns++;
	v->stats.overruns++;
	vgpu_err(v, "vm %u %s: GPU time overrun %u of %u (slice %llu us + "
		 "%llu us while vGPU %d waits): workload reset",
		 v->vm, gen9_engine_name((enum gen9_engine_id)engine),
		 v->overruns, gvt->p.max_overruns,
		 (unsigned long long)(gvt->p.timeslice_ns / 1000),
		 (unsigned long long)(gvt->p.overrun_ns / 1000),
		 gvt->next_owner->id);
	return v->overruns >= gvt->p.max_overruns;
}

/* Failed for good: queued work dropped now, and enforce_bans keeps it
 * failed across guest resets. */
static void ban(struct vgpu *v)
{
	int id;

	v->banned = true;
	v->failed = true;
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (v->eng[id].present)
			vgpu_workload_drop_all(v, &v->eng[id]);
	vgpu_err(v, "vm %u: failed for good after %u GPU time overruns; a "
		 "guest reset no longer revives it", v->vm, v->overruns);
}

static void reset_inflight(struct gvt *gvt, int id, int status)
{
	struct pexec_engine *pe = &gvt->pe[id];
	struct workload *w = pe->inflight;
	struct vgpu *v = pe->owner_vgpu;

	pexec_reset_engine(gvt, id);
	gvt_mon_ran(gvt, v, pe->t_submit, gvt_now(gvt));
	if (v && w)
		vgpu_workload_complete(v, &v->eng[id], w, status);
}

static void collect(struct gvt *gvt)
{
	uint64_t now = gvt_now(gvt);
	uint64_t limit = gvt->p.hang_timeout_ns;
	int id, r;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];
		struct vgpu *v = pe->owner_vgpu;

		if (!pe->inflight)
			continue;
		r = pexec_poll(gvt, id);
		if (r > 0) {
			finish(gvt, id, 0);
		} else if (r == 0 && overran(gvt, v, now)) {
			bool banned = charge_overrun(gvt, v, id);

			reset_inflight(gvt, id, -GPU_ETIMEDOUT);
			if (banned)
				ban(v);
		} else if (r < 0 || now - pe->t_submit > limit) {
			gvt_log(gvt, HV_LOG_ERR, v ? v->id : 0,
				"%s: workload %s, engine reset",
				gen9_engine_name((enum gen9_engine_id)id),
				r == -GPU_ETIMEDOUT ? "hung (no progress)" :
				r < 0 ? "faulted" : "hung");
			reset_inflight(gvt, id, r < 0 ? r : -GPU_ETIMEDOUT);
		}
	}
}

/* A banned vGPU stays failed whatever the guest resets: what it queued
 * since is dropped and nothing of it is scheduled again. */
static void enforce_bans(struct gvt *gvt)
{
	int i, id;

	for (i = 1; i <= GVT_MAX_VGPUS; i++) {
		struct vgpu *v = gvt->vgpu[i];

		if (!v || !v->banned)
			continue;
		v->failed = true;
		for (id = 0; id < GEN9_NUM_ENGINES; id++)
			if (v->eng[id].present && v->eng[id].wl_count)
				vgpu_workload_drop_all(v, &v->eng[id]);
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

/* A switch once decided stays decided: the owner gets nothing new onto
 * the GPU while its work drains (it used to keep dispatching if it queued
 * more meanwhile, while dispatch() refused it for the pending switch: the
 * GPU then sat idle until the slice expired). */
static void schedule(struct gvt *gvt)
{
	struct vgpu *cur = gvt->owner, *next = gvt->next_owner;
	uint64_t now = gvt_now(gvt);
	bool expired = now - gvt->slice_start >= gvt->p.timeslice_ns;

	if (next && next->failed)
		next = gvt->next_owner = NULL;
	if (!next) {
		if (cur && has_queued(cur) && !cur->failed && !expired)
			return; /* keep the slice */
		next = next_with_work(gvt, cur ? cur->id : gvt->rr_last);
		if (!next || next == cur) {
			if (next == cur && cur)
				gvt->slice_start = now; /* alone: a fresh slice */
			return;
		}
		gvt->next_owner = next;
	}
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
		ret = pexec_submit(gvt, id, v, w, e->sctx.gm);
		if (ret) {
			/* A wedged GPU (vgpu_pexec_full.c): fails as i915
			 * fails requests on a wedged GT. */
			if (gvt->wedged)
				gvt->wedged_fails++;
			vgpu_workload_complete(v, e, w, ret);
			return;
		}
		gvt_mon_dispatch(gvt, v, gvt->pe[id].t_submit);
		vgpu_reset_back_on_gpu(v);
		vgpu_time_add(v, &v->stats.ns_dispatch, t0);
	}
}

void gvt_poll(struct gvt *gvt)
{
	gvt->poll_calls++;
	collect(gvt);
	enforce_bans(gvt);
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
