/* An engine that refuses its reset (READY_TO_RESET never comes, GDRST
 * never clears) takes the whole GPU with it, as in i915, where a failed
 * engine reset falls back to intel_gt_reset: every engine is reset
 * (pgpu_full_reset: GDRST FULL, up to three attempts), the host-owned GT
 * state it loses is put back (workarounds, PPAT, MOCS) and every engine
 * is brought up again as at pexec_init (execlists, status page, RING_IMR).
 *
 * What was on the other engines:
 *  - finished before the reset (its CSB says so): reported done at the
 *    next poll, as if nothing happened;
 *  - the guilty vGPU's own work: abandoned; that vGPU fails through the
 *    caller's usual path and its next reset is a full one (every engine
 *    of it lost its state, so the guest hears of every engine);
 *  - another vGPU's work: failed (-GPU_EIO, the guest notified as for
 *    any failed workload) with the reason logged. It is not replayed:
 *    the scheduler runs one vGPU at a time (vgpu_sched.c), so every
 *    workload in flight belongs to the owner, i.e. the guilty vGPU, and
 *    this branch is a defined outcome for what should not occur, not a
 *    replay path that nothing could test.
 * Other vGPUs' queued work is untouched (it never reached the GPU) and
 * their switched registers live in their vregs: they run afterwards.
 *
 * A full reset that fails too leaves the GPU wedged: nothing is
 * submitted to it again, every workload fails (-GPU_EIO, the guest told),
 * the counters say so. The hypervisor and the VMs' CPU work go on. */
#include "gpu/hw/pgpu.h"
#include "gpu/hw/pgpu_takeover.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/exec/exec.h"

/* Take the workload off pe; its vGPU learns it was lost. */
static void drop_inflight(struct gvt *gvt, struct pexec_engine *pe,
			  struct vgpu *guilty)
{
	struct workload *w = pe->inflight;
	struct vgpu *v = pe->owner_vgpu;

	pe->inflight = NULL;
	pe->owner_vgpu = NULL;
	if (!v || !w)
		return;
	vgpu_ext_ran(v, pe->t_submit, gvt_now(gvt));
	v->full_reset_due = true;
	if (v == guilty) {
		w->abandoned = true;
		vgpu_workload_complete(v, &v->eng[pe->id], w, 0);
		return;
	}
	vgpu_err(v, "vm %u %s: workload lost to a full GPU reset (another "
		 "vGPU's engine hung)", v->vm,
		 gen9_engine_name((enum gen9_engine_id)pe->id));
	vgpu_workload_complete(v, &v->eng[pe->id], w, -GPU_EIO);
}

/* Before the reset: what completed is kept, the rest dropped. The
 * guilty engine's workload stays for the caller. */
static void settle_others(struct gvt *gvt, int guilty, struct vgpu *gv)
{
	for (int id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];

		if (id == guilty || !pe->inflight)
			continue;
		if (!gvt->wedged && pexec_csb_done(gvt, pe)) {
			pe->done_before_reset = true;
			continue;
		}
		drop_inflight(gvt, pe, gv);
	}
}

static void bring_up(struct gvt *gvt)
{
	pgpu_gt_init_hw(gvt->pgpu);
	for (int id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];

		if (!pe->present)
			continue;
		pe->resets++;
		if (pexec_engine_setup(gvt, pe))
			gvt_log(gvt, HV_LOG_ERR, 0, "%s: not up after the full "
				"GPU reset", gen9_engine_name(
						     (enum gen9_engine_id)id));
	}
}

void pexec_full_reset(struct gvt *gvt, int guilty)
{
	struct pexec_engine *pe = &gvt->pe[guilty];
	struct vgpu *gv = pe->owner_vgpu;
	int ret;

	if (gv)
		gv->full_reset_due = true;
	settle_others(gvt, guilty, gv);
	for (int id = 0; id < GEN9_NUM_ENGINES; id++)
		gvt->pe[id].preempting = false; /* empty contexts go too */
	pe->inflight = NULL; /* the caller completes it */
	pe->owner_vgpu = NULL;
	pe->done_before_reset = false;
	if (gvt->wedged)
		return;
	ret = pgpu_full_reset(gvt->pgpu);
	if (!ret) {
		gvt->full_resets++;
		bring_up(gvt);
		gvt_log(gvt, HV_LOG_ERR, gv ? gv->id : 0,
			"full GPU reset %llu done after %s refused its reset",
			(unsigned long long)gvt->full_resets,
			gen9_engine_name((enum gen9_engine_id)guilty));
		return;
	}
	/* What completed before is still reported done (no hardware read). */
	gvt->full_reset_failures++;
	gvt->wedged = true;
	for (int id = 0; id < GEN9_NUM_ENGINES; id++)
		if (gvt->pe[id].inflight && !gvt->pe[id].done_before_reset)
			drop_inflight(gvt, &gvt->pe[id], gv);
	gvt_log(gvt, HV_LOG_ERR, gv ? gv->id : 0,
		"full GPU reset failed (%d; full resets %llu, failed %llu, "
		"not-ready attempts %llu): GPU wedged, every workload now "
		"fails", ret, (unsigned long long)gvt->full_resets,
		(unsigned long long)gvt->full_reset_failures,
		(unsigned long long)gvt->pgpu->stats.resets_not_ready);
}

/* Reset one engine (handshake, GDRST domain, wait), then set it up again;
 * what ran on it is lost. An engine that cannot be reset takes the whole
 * GPU with it, as in i915 (intel_gt_reset after a failed engine reset);
 * the caller still owns the workload that was on this engine. A wedged
 * GPU is not touched again. */
void pexec_reset_engine(struct gvt *gvt, int engine)
{
	struct pexec_engine *pe = &gvt->pe[engine];
	int ret = 0;

	if (!gvt->wedged)
		ret = pgpu_engine_reset(gvt->pgpu, (enum gen9_engine_id)engine);
	if (ret) {
		gvt_log(gvt, HV_LOG_ERR, pe->owner_vgpu ? pe->owner_vgpu->id : 0,
			"%s: engine reset refused (%d): full GPU reset",
			gen9_engine_name((enum gen9_engine_id)engine), ret);
		pexec_full_reset(gvt, engine);
		return;
	}
	pe->inflight = NULL;
	pe->owner_vgpu = NULL;
	pe->done_before_reset = false;
	pe->preempting = false;
	if (gvt->wedged)
		return;
	pe->resets++;
	pexec_engine_setup(gvt, pe);
}
