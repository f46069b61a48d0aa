/* Physical execution: the engines run one vGPU workload at a time, each
 * in that vGPU's shadow context. This is the one file of the mediator that
 * submits to a physical engine and reads its CSB: through the pGPU driver
 * (gpu/hw/pgpu.h) when the hypervisor gave us one, otherwise straight
 * through gpu_hw register writes (host tests with a fake device).
 *
 * Completion is found by polling the CSB registers (read pointer kept
 * here), not through the interrupt, so it works from a timer as well as
 * from the GPU interrupt handler. An engine error (EIR) or a workload past
 * the hang timeout resets that engine only (gen9 §10). */
#include "gpu/hw/pgpu.h"
#include "gpu/vgpu/vgpu_priv.h"

#define HW_CSB_RPTR_NONE 5 /* after reset the next entry is 0 */
#define FW_TIMEOUT_US 50000
#define FW_MINE FORCEWAKE_USER
#define FW_ALL (GEN9_FW_RENDER_BIT | GEN9_FW_GT_BIT | GEN9_FW_MEDIA_BIT)

static int engine_setup(struct gvt *gvt, struct pexec_engine *pe)
{
	struct gpu_hw *hw = gvt->hw;
	uint32_t wp;

	if (gvt->p.pgpu)
		return pgpu_engine_init(gvt->p.pgpu, (enum gen9_engine_id)pe->id,
					pe->hwsp.gm, (uint32_t *)pe->hwsp.va);

	gpu_hw_write32(hw, RING_HWSTAM(pe->base), ~0u);
	gpu_hw_write32(hw, RING_MODE_GEN7(pe->base),
		       _MASKED_BIT_ENABLE(GFX_RUN_LIST_ENABLE));
	gpu_hw_write32(hw, RING_MI_MODE(pe->base), _MASKED_BIT_DISABLE(STOP_RING));
	gpu_hw_write32(hw, RING_HWS_PGA(pe->base), pe->hwsp.gm);
	gpu_hw_posting_read(hw, RING_HWS_PGA(pe->base));
	wp = gpu_hw_read32(hw, RING_CONTEXT_STATUS_PTR(pe->base)) & GEN8_CSB_PTR_MASK;
	pe->csb_rptr = wp >= GEN8_CSB_ENTRIES ? HW_CSB_RPTR_NONE : (uint8_t)wp;
	return 0;
}

/* Keep every domain awake while the mediator owns the GPU; a bit of our
 * own so a pgpu driver's reference counting on the KERNEL bit is not
 * disturbed. */
static void forcewake_all(struct gvt *gvt)
{
	static const uint32_t req[] = { FORCEWAKE_RENDER_GEN9, FORCEWAKE_GT_GEN9,
					FORCEWAKE_MEDIA_GEN9 };
	static const uint32_t ack[] = { FORCEWAKE_ACK_RENDER_GEN9,
					FORCEWAKE_ACK_GT_GEN9,
					FORCEWAKE_ACK_MEDIA_GEN9 };
	unsigned int i;

	for (i = 0; i < 3; i++) {
		gpu_hw_write32(gvt->hw, req[i], _MASKED_BIT_ENABLE(FW_MINE));
		if (gpu_hw_wait_for(gvt->hw, ack[i], FW_MINE, FW_MINE, FW_TIMEOUT_US))
			gvt_log(gvt, HV_LOG_WARN, 0, "forcewake domain %u: no ack", i);
	}
}

int pexec_init(struct gvt *gvt)
{
	uint32_t cursor = 0;
	int id, ret;

	if (gvt->p.pgpu) {
		/* A reference for as long as the mediator runs the engines. */
		ret = pgpu_forcewake_get(gvt->p.pgpu, FW_ALL);
		gvt->fw_held = !ret;
		if (ret)
			gvt_log(gvt, HV_LOG_WARN, 0, "forcewake: %d", ret);
	} else {
		forcewake_all(gvt);
	}
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pexec_engine *pe = &gvt->pe[id];

		pe->id = id;
		pe->base = gen9_engine_mmio_base((enum gen9_engine_id)id);
		pe->present = gvt->engine_mask & BIT(id);
		if (!pe->present)
			continue;
		ret = gvt_own_obj_alloc(gvt, 0, &cursor, 1, &pe->hwsp);
		if (ret)
			return ret;
		ret = engine_setup(gvt, pe);
		if (ret)
			return ret;
	}
	return 0;
}

void pexec_fini(struct gvt *gvt)
{
	int id;

	if (gvt->p.pgpu && gvt->fw_held)
		pgpu_forcewake_put(gvt->p.pgpu, FW_ALL);
	gvt->fw_held = false;
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		gvt_own_obj_free(gvt, &gvt->pe[id].hwsp);
}

int pexec_submit(struct gvt *gvt, int engine, struct vgpu *v,
		 struct workload *w, uint32_t lrca)
{
	struct pexec_engine *pe = &gvt->pe[engine];
	uint64_t desc;

	if (pe->inflight)
		return -GPU_EBUSY;
	w->hw_ctx_id = ++gvt->hw_ctx_seq ? gvt->hw_ctx_seq : ++gvt->hw_ctx_seq;
	desc = lrca | GEN8_CTX_VALID | GEN8_CTX_PRIVILEGE |
	       INTEL_LEGACY_64B_CONTEXT << GEN8_CTX_ADDRESSING_MODE_SHIFT |
	       (uint64_t)w->hw_ctx_id << GEN8_CTX_ID_SHIFT;
	if (gvt->p.pgpu) {
		int ret = pgpu_execlist_submit(gvt->p.pgpu,
					       (enum gen9_engine_id)engine, desc, 0);

		if (ret)
			return ret;
	}
	pe->inflight = w;
	pe->owner_vgpu = v;
	pe->t_submit = gvt_now(gvt);
	pe->submits++;
	if (gvt->p.pgpu)
		return 0;
	/* Element 1 empty, then element 0; the 4th write submits. */
	gpu_hw_write32(gvt->hw, RING_ELSP(pe->base), 0);
	gpu_hw_write32(gvt->hw, RING_ELSP(pe->base), 0);
	gpu_hw_write32(gvt->hw, RING_ELSP(pe->base), (uint32_t)(desc >> 32));
	gpu_hw_write32(gvt->hw, RING_ELSP(pe->base), (uint32_t)desc);
	return 0;
}

/* Through the pGPU driver: it keeps the read pointer. */
static int pgpu_done(struct gvt *gvt, struct pexec_engine *pe)
{
	struct pgpu_csb_event ev[GEN8_CSB_ENTRIES];
	int n, i, done = 0;

	n = pgpu_csb_process(gvt->p.pgpu, (enum gen9_engine_id)pe->id, ev,
			     GEN8_CSB_ENTRIES);
	for (i = 0; i < n; i++)
		if ((ev[i].status & GEN8_CTX_STATUS_COMPLETE) &&
		    ev[i].ctx_id == pe->inflight->hw_ctx_id)
			done = 1;
	return done;
}

int pexec_poll(struct gvt *gvt, int engine)
{
	struct pexec_engine *pe = &gvt->pe[engine];
	struct gpu_hw *hw = gvt->hw;
	uint32_t wp, st, id;
	int done = 0;

	if (!pe->inflight)
		return 0;
	if (gvt->p.pgpu) {
		if (pgpu_done(gvt, pe)) {
			pe->completions++;
			return 1;
		}
		return gpu_hw_read32(hw, RING_EIR(pe->base)) ? -GPU_EIO : 0;
	}
	wp = gpu_hw_read32(hw, RING_CONTEXT_STATUS_PTR(pe->base)) & GEN8_CSB_PTR_MASK;
	if (wp >= GEN8_CSB_ENTRIES)
		return 0;
	while (pe->csb_rptr != wp) {
		pe->csb_rptr = (uint8_t)((pe->csb_rptr + 1) % GEN8_CSB_ENTRIES);
		st = gpu_hw_read32(hw, RING_CONTEXT_STATUS_BUF_LO(pe->base, pe->csb_rptr));
		id = gpu_hw_read32(hw, RING_CONTEXT_STATUS_BUF_HI(pe->base, pe->csb_rptr));
		if ((st & GEN8_CTX_STATUS_COMPLETE) && id == pe->inflight->hw_ctx_id)
			done = 1;
	}
	gpu_hw_write32(hw, RING_CONTEXT_STATUS_PTR(pe->base),
		       _MASKED_FIELD(GEN8_CSB_READ_PTR_MASK,
				     (uint32_t)pe->csb_rptr << GEN8_CSB_READ_PTR_SHIFT));
	if (done) {
		pe->completions++;
		return 1;
	}
	if (gpu_hw_read32(hw, RING_EIR(pe->base)))
		return -GPU_EIO;
	return 0;
}

/* Reset one engine (handshake, GDRST domain, wait), then set it up again;
 * what ran on it is lost. */
void pexec_reset_engine(struct gvt *gvt, int engine)
{
	struct pexec_engine *pe = &gvt->pe[engine];
	struct gpu_hw *hw = gvt->hw;
	uint32_t dom = gen9_engine_reset_domain((enum gen9_engine_id)engine);

	if (gvt->p.pgpu) {
		if (pgpu_engine_reset(gvt->p.pgpu, (enum gen9_engine_id)engine))
			gvt_log(gvt, HV_LOG_ERR, 0, "%s: reset did not complete",
				gen9_engine_name((enum gen9_engine_id)engine));
		pe->inflight = NULL;
		pe->owner_vgpu = NULL;
		pe->resets++;
		engine_setup(gvt, pe);
		return;
	}
	gpu_hw_write32(hw, RING_RESET_CTL(pe->base),
		       _MASKED_BIT_ENABLE(RESET_CTL_REQUEST_RESET));
	gpu_hw_wait_for(hw, RING_RESET_CTL(pe->base), RESET_CTL_READY_TO_RESET,
			RESET_CTL_READY_TO_RESET, 700);
	gpu_hw_write32(hw, GEN6_GDRST, dom);
	if (gpu_hw_wait_for(hw, GEN6_GDRST, dom, 0, 2000))
		gvt_log(gvt, HV_LOG_ERR, 0, "%s: reset did not complete",
			gen9_engine_name((enum gen9_engine_id)engine));
	gpu_hw_write32(hw, RING_RESET_CTL(pe->base),
		       _MASKED_BIT_DISABLE(RESET_CTL_REQUEST_RESET));
	gpu_hw_write32(hw, RING_EIR(pe->base), gpu_hw_read32(hw, RING_EIR(pe->base)));
	pe->inflight = NULL;
	pe->owner_vgpu = NULL;
	pe->resets++;
	engine_setup(gvt, pe);
}

bool pexec_busy(const struct gvt *gvt)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (gvt->pe[id].inflight)
			return true;
	return false;
}
