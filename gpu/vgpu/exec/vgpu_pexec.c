/* Physical execution: the engines run one vGPU workload at a time, each
 * in that vGPU's shadow context. This is the one file of the mediator that
 * submits to a physical engine and reads its CSB, always through the pGPU
 * driver (gpu/hw/pgpu.h) over whichever gpu_hw backend the GPU has: the
 * real iGPU's MMIO, the software model, or a test's fake device.
 *
 * Completion is found by reading the CSB (pgpu keeps the read pointer),
 * so it works from a timer as well as after the GPU's interrupt (the
 * hypervisor runs gvt_poll from its MSI on the MMIO backend). An engine
 * error (EIR), the pGPU watchdog (no progress, MMIO backend) or a
 * workload past the hang timeout resets that engine only (gen9-facts §10).
 *
 * Preemption: to take an engine from a workload that has not finished,
 * the mediator submits an empty context of its own over it (pexec_preempt).
 * The engine switches at the workload's next arbitration point (MI_ARB_
 * CHECK, a return from a batch to the ring; gpu/model/execlist.c models
 * it), saving the workload where it stopped in its shadow context; the CSB
 * reports it PREEMPTED, the empty context completes at once and the
 * engine is idle. Submitting the same shadow context again continues the
 * workload (i915 preempted to idle on Gen9 the same way). */
#include "gpu/hw/pgpu.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/exec/exec.h"
#include "mini/string.h"

#define FW_ALL (GEN9_FW_RENDER_BIT | GEN9_FW_GT_BIT | GEN9_FW_MEDIA_BIT)

int pexec_engine_setup(struct gvt *gvt, struct pexec_engine *pe)
{
	return pgpu_engine_init(gvt->pgpu, (enum gen9_engine_id)pe->id,
				pe->hwsp.gm, (uint32_t *)pe->hwsp.va);
}

/* The caller's driver, or one of our own on the same device. */
static int attach_pgpu(struct gvt *gvt)
{
	int ret;

	if (gvt->p.pgpu) {
		gvt->pgpu = gvt->p.pgpu;
		return 0;
	}
	ret = pgpu_init(&gvt->own_pgpu, gvt->hw);
	if (ret)
		return ret;
	gvt->pgpu = &gvt->own_pgpu;
	return 0;
}

/* The empty context: its ring's head is its tail, nothing of it is saved
 * or restored beyond the ring registers. */
static int null_ctx_init(struct gvt *gvt, struct pexec_engine *pe,
			 uint32_t *cursor)
{
	uint32_t *st;
	int ret;

	ret = gvt_own_obj_alloc(gvt, 0, cursor, 2, &pe->null_ctx);
	if (!ret)
		ret = gvt_own_obj_alloc(gvt, 0, cursor, 1, &pe->null_ring);
	if (ret)
		return ret;
	memset(pe->null_ctx.va, 0, 2 * VGPU_PAGE);
	memset(pe->null_ring.va, 0, VGPU_PAGE);
	st = (uint32_t *)(pe->null_ctx.va + LRC_STATE_OFFSET);
	vgpu_ctx_state_template(st, pe->id, pe->base);
	st[CTX_CONTEXT_CONTROL] =
		_MASKED_BIT_ENABLE(CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT |
				   CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT);
	st[CTX_RING_START] = pe->null_ring.gm;
	st[CTX_RING_CTL] = RING_CTL_SIZE(VGPU_PAGE) | RING_VALID;
	return 0;
}

int pexec_init(struct gvt *gvt)
{
	uint32_t cursor = 0;
	int id, ret;

	ret = attach_pgpu(gvt);
	if (ret)
		return ret;
	/* A reference for as long as the mediator runs the engines. */
	ret = pgpu_forcewake_get(gvt->pgpu, FW_ALL);
	gvt->fw_held = !ret;
	if (ret)
		gvt_log(gvt, HV_LOG_WARN, 0, "forcewake: %d", ret);
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];

		pe->id = id;
		pe->base = gen9_engine_mmio_base((enum gen9_engine_id)id);
		pe->present = gvt->engine_mask & BIT(id);
		if (!pe->present)
			continue;
		ret = gvt_own_obj_alloc(gvt, 0, &cursor, 1, &pe->hwsp);
		if (!ret)
			ret = null_ctx_init(gvt, pe, &cursor);
		if (ret)
			return ret;
		ret = pexec_engine_setup(gvt, pe);
		if (ret)
			return ret;
	}
	return 0;
}

void pexec_fini(struct gvt *gvt)
{
	int id;

	if (gvt->pgpu && gvt->fw_held)
		pgpu_forcewake_put(gvt->pgpu, FW_ALL);
	gvt->fw_held = false;
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		gvt_own_obj_free(gvt, &gvt->pe[id].hwsp);
		gvt_own_obj_free(gvt, &gvt->pe[id].null_ctx);
		gvt_own_obj_free(gvt, &gvt->pe[id].null_ring);
	}
}

/* The tag on a physical descriptor (its CSB ctx id): never 0. */
static uint32_t next_tag(struct gvt *gvt)
{
	return ++gvt->hw_ctx_seq ? gvt->hw_ctx_seq : ++gvt->hw_ctx_seq;
}

int pexec_submit(struct gvt *gvt, int engine, struct vgpu *v,
		 struct workload *w, uint32_t lrca)
{
	struct pexec_engine *pe = &gvt->pe[engine];
	uint64_t desc;
	int ret;

	if (pe->inflight || pe->preempting)
		return -GPU_EBUSY;
	if (gvt->wedged)
		return -GPU_EIO;
	w->hw_ctx_id = next_tag(gvt);
	desc = pgpu_lrc_descriptor(lrca, w->hw_ctx_id, INTEL_LEGACY_64B_CONTEXT);
	ret = pgpu_execlist_submit(gvt->pgpu, (enum gen9_engine_id)engine,
				   desc, 0);
	if (ret)
		return ret;
	pe->inflight = w;
	pe->owner_vgpu = v;
	pe->t_submit = gvt_now(gvt);
	pe->submits++;
	return 0;
}

int pexec_preempt(struct gvt *gvt, int engine)
{
	struct pexec_engine *pe = &gvt->pe[engine];
	uint32_t tag;
	int ret;

	if (!pe->inflight || pe->preempting || gvt->wedged || !pe->null_ctx.va)
		return -GPU_EBUSY;
	tag = next_tag(gvt);
	ret = pgpu_execlist_submit(gvt->pgpu, (enum gen9_engine_id)engine,
				   pgpu_lrc_descriptor(pe->null_ctx.gm, tag,
						       INTEL_LEGACY_64B_CONTEXT),
				   0);
	if (ret)
		return ret; /* the workload's own submission not yet taken */
	pe->null_id = tag;
	pe->preempting = true;
	pe->t_preempt = gvt_now(gvt);
	pe->preempt_requests++;
	return 0;
}

#define CSB_DONE 1

/* New CSB events: CSB_DONE or PEXEC_PREEMPTED for the in-flight workload
 * (0: neither yet); the empty context's completion ends a preemption. */
static int csb_scan(struct gvt *gvt, struct pexec_engine *pe)
{
	struct pgpu_csb_event ev[GEN8_CSB_ENTRIES];
	uint32_t tag = pe->inflight ? pe->inflight->hw_ctx_id : 0;
	int n, i, got = 0;

	n = pgpu_csb_process(gvt->pgpu, (enum gen9_engine_id)pe->id, ev,
			     GEN8_CSB_ENTRIES);
	for (i = 0; i < n; i++) {
		bool complete = ev[i].status & GEN8_CTX_STATUS_COMPLETE;

		if (pe->preempting && complete && ev[i].ctx_id == pe->null_id)
			pe->preempting = false;
		else if (tag && ev[i].ctx_id == tag && complete)
			got = CSB_DONE;
		else if (tag && ev[i].ctx_id == tag &&
			 (ev[i].status & GEN8_CTX_STATUS_PREEMPTED))
			got = PEXEC_PREEMPTED;
	}
	return got;
}

/* Did the CSB report the in-flight context complete? */
bool pexec_csb_done(struct gvt *gvt, struct pexec_engine *pe)
{
	return csb_scan(gvt, pe) == CSB_DONE;
}

int pexec_poll(struct gvt *gvt, int engine)
{
	struct pexec_engine *pe = &gvt->pe[engine];
	enum gen9_engine_id id = (enum gen9_engine_id)engine;
	int r;

	if (!pe->inflight) {
		if (pe->preempting) /* the empty context still to finish */
			csb_scan(gvt, pe);
		return 0;
	}
	r = pe->done_before_reset ? CSB_DONE : csb_scan(gvt, pe);
	if (r == CSB_DONE) {
		pe->done_before_reset = false;
		pe->completions++;
		return 1;
	}
	if (r == PEXEC_PREEMPTED) {
		pe->preemptions++;
		return PEXEC_PREEMPTED;
	}
	if (pgpu_engine_error(gvt->pgpu, id))
		return -GPU_EIO;
	/* On the MMIO backend (the iGPU, or the model behind it) the
	 * driver's watchdog finds an engine stuck without progress (ACTHD,
	 * head, CSB) well before the mediator's hang timeout. */
	if (!gvt->hw->info.is_model &&
	    pgpu_engine_hung(gvt->pgpu, id, gvt_now(gvt) / 1000,
			     PGPU_HANG_NO_PROGRESS_US))
		return -GPU_ETIMEDOUT;
	return 0;
}

bool pexec_busy(const struct gvt *gvt)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (gvt->pe[id].inflight || gvt->pe[id].preempting)
			return true;
	return false;
}
