/* Execlists: ELSP submission, logical ring context load/save and the
 * Context Status Buffer (gen9-facts §4.3 - §4.5, §5).
 *
 * Event sequences follow GVT's emulation (gen9-facts §4.5 table):
 *   idle + ELSP                     -> IDLE_TO_ACTIVE (ctx id 0)
 *   running + ELSP, same element 0  -> PREEMPTED | LITE_RESTORE
 *   running + ELSP, other context   -> kept pending, no entry yet
 *     ... at an arbitration point   -> PREEMPTED (the running ctx id),
 *                                      then the pending pair runs
 *   element 0 done, element 1 valid -> COMPLETE | ELEMENT_SWITCH
 *   last element done               -> COMPLETE | ACTIVE_TO_IDLE
 *     ... and a pending pair        -> then IDLE_TO_ACTIVE
 * Each group of entries raises one CONTEXT_SWITCH interrupt. */
#include "gpu/model/model_internal.h"

static uint32_t desc_lrca(uint64_t desc)
{
	return (uint32_t)desc & GEN8_CTX_LRCA_MASK;
}

static uint32_t desc_ctx_id(uint64_t desc)
{
	return (uint32_t)(desc >> GEN8_CTX_ID_SHIFT);
}

/* Mirror the context's ring registers into MMIO, where drivers and error
 * capture read them. */
static void ctx_to_mmio(struct gen9_model *m, struct gen9_model_engine *e)
{
	const struct gen9_model_ctx *c = &e->ctx;
	int n;

	mreg_set(m, RING_HEAD(e->base), c->ring_head);
	mreg_set(m, RING_TAIL(e->base), c->ring_tail);
	mreg_set(m, RING_START(e->base), c->ring_start);
	mreg_set(m, RING_CTL(e->base), c->ring_ctl);
	mreg_set(m, RING_CONTEXT_CONTROL(e->base), c->ctx_ctrl & 0xffff);
	for (n = 0; n < 4; n++) {
		mreg_set(m, GEN8_RING_PDP_LDW(e->base, n), (uint32_t)c->pdp[n]);
		mreg_set(m, GEN8_RING_PDP_UDW(e->base, n),
			 (uint32_t)(c->pdp[n] >> 32));
	}
}

/* Report a context image the GGTT does not map as a GGTT fault. */
static void ctx_fault(struct gen9_model *m, struct gen9_model_engine *e,
		      uint64_t gaddr)
{
	e->fault.kind = GEN9_MODEL_FAULT_GGTT;
	e->fault.addr = gaddr;
	e->fault.ggtt = true;
	e->fault.header = 0;
	model_engine_hang(m, e, I915_ERROR_PAGE_TABLE);
}

static int ctx_load(struct gen9_model *m, struct gen9_model_engine *e,
		    uint64_t desc)
{
	uint32_t st[GEN9_CTX_REG_STATE_DWORDS];
	struct gen9_model_ctx *c = &e->ctx;
	uint64_t at;
	int n;

	if (model_ctx_image_load(m, e, desc_lrca(desc), st, &at)) {
		ctx_fault(m, e, at);
		return -GPU_EFAULT;
	}
	c->desc = desc;
	c->lrca = desc_lrca(desc);
	c->addr_mode = (desc & GEN8_CTX_ADDRESSING_MODE_MASK) >>
		       GEN8_CTX_ADDRESSING_MODE_SHIFT;
	c->ctx_ctrl = st[CTX_CONTEXT_CONTROL];
	c->ring_head = st[CTX_RING_HEAD] & HEAD_ADDR;
	c->ring_tail = st[CTX_RING_TAIL] & TAIL_ADDR;
	c->ring_start = st[CTX_RING_START] & GEN8_CTX_LRCA_MASK;
	c->ring_ctl = st[CTX_RING_CTL];
	for (n = 0; n < 4; n++)
		c->pdp[n] = ((uint64_t)st[CTX_PDP_UDW(n)] << 32) |
			    st[CTX_PDP_LDW(n)];
	c->ictx = e->id == GEN9_RCS0 ? st[CTX_RCS_INDIRECT_CTX] : 0;
	c->per_ctx = e->id == GEN9_RCS0 ? st[CTX_BB_PER_CTX_PTR] : 0;
	e->level = 0;
	e->wa = WA_NONE;
	e->waiting = false;
	ctx_to_mmio(m, e);
	mreg_set(m, CCID(e->base), c->lrca | 1);
	return 0;
}

/* Lite restore: the context is already loaded; only its tail moves. */
static int ctx_reload_tail(struct gen9_model *m, struct gen9_model_engine *e)
{
	uint64_t at = (uint64_t)e->ctx.lrca + LRC_STATE_OFFSET +
		      CTX_RING_TAIL * 4;
	uint32_t tail;

	if (model_ggtt_read32(m, at, &tail)) {
		ctx_fault(m, e, at);
		return -GPU_EFAULT;
	}
	e->ctx.ring_tail = tail & TAIL_ADDR;
	mreg_set(m, RING_TAIL(e->base), e->ctx.ring_tail);
	return 0;
}

/* Switch-out: the context's registers go back to its image
 * (ctx_image.c) unless it asked for no save. */
static void ctx_save(struct gen9_model *m, struct gen9_model_engine *e)
{
	model_ctx_ts_stop(m, e); /* the context's clock stops with it */
	if (e->ctx.ctx_ctrl & CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT)
		return;
	model_ctx_image_save(m, e);
}

void model_csb_reset(struct gen9_model *m, struct gen9_model_engine *e)
{
	/* After reset the next entry goes to slot 0 (pointer 7 = none). */
	mreg_set(m, RING_CONTEXT_STATUS_PTR(e->base),
		 (GEN8_CSB_PTR_NONE << GEN8_CSB_READ_PTR_SHIFT) |
			 GEN8_CSB_PTR_NONE);
}

/* One CSB entry: MMIO copy and the HWSP mirror (i915 reads the latter). */
static void csb_write(struct gen9_model *m, struct gen9_model_engine *e,
		      uint32_t status, uint32_t ctx_id)
{
	uint32_t ptr = mreg(m, RING_CONTEXT_STATUS_PTR(e->base));
	uint32_t wp = ptr & GEN8_CSB_PTR_MASK;
	uint64_t hwsp = mreg(m, RING_HWS_PGA(e->base)) & GEN8_CTX_LRCA_MASK;

	wp = wp >= GEN8_CSB_ENTRIES - 1 ? 0 : wp + 1;
	mreg_set(m, RING_CONTEXT_STATUS_BUF_LO(e->base, wp), status);
	mreg_set(m, RING_CONTEXT_STATUS_BUF_HI(e->base, wp), ctx_id);
	mreg_set(m, RING_CONTEXT_STATUS_PTR(e->base),
		 (ptr & ~(uint32_t)GEN8_CSB_WRITE_PTR_MASK) | wp);
	if (model_ggtt_write32(m, hwsp + (I915_HWS_CSB_BUF0_INDEX + 2 * wp) * 4,
			       status) ||
	    model_ggtt_write32(m,
			       hwsp + (I915_HWS_CSB_BUF0_INDEX + 2 * wp + 1) * 4,
			       ctx_id) ||
	    model_ggtt_write32(m, hwsp + I915_HWS_CSB_WRITE_INDEX * 4, wp))
		m->stats.hwsp_errors++;
	e->stats.csb_entries++;
}

static void ctx_switch_irq(struct gen9_model *m, struct gen9_model_engine *e)
{
	model_irq_engine(m, e, GT_CONTEXT_SWITCH_INTERRUPT);
}

/* ---- where the command streamer stopped ------------------------------------
 * A context switched out at an arbitration point inside a batch resumes
 * there: the batch positions go to the image's BB_ADDR / BB_STATE (first
 * level) and SBB_ADDR / SBB_STATE (second level) slots. The model marks
 * a level that was running with BB_RESUME in its state dword (the
 * model's own convention; RING_BB_PPGTT keeps its register meaning). A
 * context that completed saves no level, so a stale position is never
 * resumed; a mediator that builds images from guest data clears these
 * dwords itself (gpu/vgpu/exec/vgpu_workload.c). */
#define BB_RESUME BIT(0)

static void bb_save(struct gen9_model *m, struct gen9_model_engine *e)
{
	static const uint8_t at[2][3] = {
		{ CTX_BB_ADDR, CTX_BB_ADDR_UDW, CTX_BB_STATE },
		{ CTX_SBB_ADDR, CTX_SBB_ADDR_UDW, CTX_SBB_STATE },
	};
	uint64_t st = (uint64_t)e->ctx.lrca + LRC_STATE_OFFSET;
	unsigned int l;

	if (e->ctx.ctx_ctrl & CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT)
		return;
	for (l = 1; l <= GEN9_MODEL_BB_LEVELS; l++) {
		bool run = e->level >= l;
		uint32_t state = (run ? BB_RESUME : 0) |
				 (run && e->bb_ppgtt[l] ? RING_BB_PPGTT : 0);
		uint64_t a = run ? e->bb_addr[l] : 0;

		if (model_ggtt_write32(m, st + at[l - 1][0] * 4, (uint32_t)a) ||
		    model_ggtt_write32(m, st + at[l - 1][1] * 4,
				       (uint32_t)(a >> 32)) ||
		    model_ggtt_write32(m, st + at[l - 1][2] * 4, state))
			m->stats.dma_errors++;
	}
}

/* After a context load: back into the batches it was preempted in (none
 * when its image was not to be restored), arbitration on. */
static void bb_restore(struct gen9_model *m, struct gen9_model_engine *e)
{
	uint32_t st[CTX_SBB_STATE + 1];
	uint64_t img = (uint64_t)e->ctx.lrca + LRC_STATE_OFFSET;
	unsigned int l;

	e->arb_off = false;
	if ((e->ctx.ctx_ctrl & CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT) ||
	    model_ggtt_rw(m, img, st, sizeof(st), false))
		return;
	for (l = 1; l <= GEN9_MODEL_BB_LEVELS; l++) {
		uint32_t state = st[l == 1 ? CTX_BB_STATE : CTX_SBB_STATE];
		uint32_t lo = st[l == 1 ? CTX_BB_ADDR : CTX_SBB_ADDR];
		uint32_t hi = st[l == 1 ? CTX_BB_ADDR_UDW : CTX_SBB_ADDR_UDW];

		if (!(state & BB_RESUME))
			break;
		e->level = l;
		e->bb_addr[l] = ((uint64_t)hi << 32 | lo) &
				GEN9_GENMASK_ULL(47, 0);
		/* Never more privilege than the level that started it. */
		e->bb_ppgtt[l] = (state & RING_BB_PPGTT) ||
				 (l > 1 && e->bb_ppgtt[l - 1]);
	}
}

static int ctx_enter(struct gen9_model *m, struct gen9_model_engine *e,
		     uint64_t desc)
{
	int ret = ctx_load(m, e, desc);

	if (!ret) {
		bb_restore(m, e);
		model_wa_start(e);
	}
	return ret;
}

static void start_pair(struct gen9_model *m, struct gen9_model_engine *e,
		       uint64_t desc0, uint64_t desc1)
{
	e->port[0] = desc0;
	e->port[1] = desc1;
	e->cur = 0;
	e->active = true;
	e->epoch++;
	csb_write(m, e, GEN8_CTX_STATUS_IDLE_ACTIVE, 0);
	ctx_enter(m, e, desc0); /* a failure hangs the engine */
}

static void submit(struct gen9_model *m, struct gen9_model_engine *e,
		   uint64_t desc0, uint64_t desc1)
{
	if (!(mreg(m, RING_MODE_GEN7(e->base)) & GFX_RUN_LIST_ENABLE) ||
	    !(desc0 & GEN8_CTX_VALID) || e->hung) {
		/* Legacy ring-buffer mode is not modelled; a hung engine
		 * waits for reset. */
		e->stats.elsp_ignored++;
		return;
	}
	if (!(desc1 & GEN8_CTX_VALID))
		desc1 = 0;
	e->stats.elsp_submits++;
	if (!e->active) {
		start_pair(m, e, desc0, desc1);
	} else if (desc_lrca(desc0) == e->ctx.lrca) {
		e->port[0] = desc0;
		e->port[1] = desc1;
		e->cur = 0;
		e->ctx.desc = desc0;
		e->stats.lite_restores++;
		csb_write(m, e,
			  GEN8_CTX_STATUS_PREEMPTED | GEN8_CTX_STATUS_LITE_RESTORE,
			  desc_ctx_id(desc0));
		ctx_reload_tail(m, e);
	} else {
		if (e->has_pending)
			e->stats.elsp_ignored++; /* overwritten */
		e->pending[0] = desc0;
		e->pending[1] = desc1;
		e->has_pending = true;
		return;
	}
	ctx_switch_irq(m, e);
}

/* The 4th dword (element 0, low) triggers the submission; the order is
 * desc1.hi, desc1.lo, desc0.hi, desc0.lo (gen9-facts §4.3). */
void model_elsp_write(struct gen9_model *m, struct gen9_model_engine *e,
		      uint32_t val)
{
	uint64_t desc0, desc1;

	e->elsp[e->elsp_n++] = val;
	if (e->elsp_n < 4)
		return;
	e->elsp_n = 0;
	desc1 = ((uint64_t)e->elsp[0] << 32) | e->elsp[1];
	desc0 = ((uint64_t)e->elsp[2] << 32) | e->elsp[3];
	submit(m, e, desc0, desc1);
}

/* The running element reached its tail. */
void model_ctx_complete(struct gen9_model *m, struct gen9_model_engine *e)
{
	uint32_t done = desc_ctx_id(e->port[e->cur]);

	ctx_save(m, e);
	bb_save(m, e); /* at the ring's tail: no batch to resume */
	e->stats.ctx_switches++;
	e->epoch++;
	if (e->cur == 0 && (e->port[1] & GEN8_CTX_VALID)) {
		csb_write(m, e,
			  GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ELEMENT_SWITCH,
			  done);
		e->cur = 1;
		ctx_enter(m, e, e->port[1]);
	} else {
		csb_write(m, e,
			  GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE,
			  done);
		e->active = false;
		e->port[0] = e->port[1] = 0;
		if (e->has_pending) {
			e->has_pending = false;
			start_pair(m, e, e->pending[0], e->pending[1]);
		}
	}
	ctx_switch_irq(m, e);
}

/* Preemption (Gen9 execlists): an ELSP pair naming another context while
 * one runs waits (submit) until the running context reaches an
 * arbitration point - MI_ARB_CHECK, or the return from a batch to the
 * ring - with arbitration on (MI_ARB_ON_OFF). There it is saved where it
 * stopped (ctx_save: ring head; bb_save: the batch positions), the CSB
 * reports it PREEMPTED (which promotes the pending pair, as i915's and
 * pgpu's CSB readers take it) and the pending pair runs. Resubmitting the
 * preempted context continues it exactly there. A context that reaches
 * none runs on, and only a reset takes it off. */
bool model_arbitrate(struct gen9_model *m, struct gen9_model_engine *e)
{
	uint32_t out = desc_ctx_id(e->port[e->cur]);

	/* Not inside a context restore's workaround batches. */
	if (e->arb_off || !e->has_pending || !e->active || e->hung || e->wa)
		return false;
	ctx_save(m, e);
	bb_save(m, e);
	e->stats.preemptions++;
	e->stats.ctx_switches++;
	csb_write(m, e, GEN8_CTX_STATUS_PREEMPTED, out);
	e->has_pending = false;
	e->port[0] = e->pending[0];
	e->port[1] = e->pending[1];
	e->cur = 0;
	e->epoch++;
	ctx_enter(m, e, e->port[0]); /* a failure hangs the engine */
	ctx_switch_irq(m, e);
	return true;
}

uint32_t model_execlist_status_lo(const struct gen9_model_engine *e)
{
	uint32_t v = 0;

	if (e->active)
		v |= RING_EXECLIST0_VALID | RING_EXECLIST0_ACTIVE |
		     (e->cur ? EXECLIST_STATUS_CURRENT_PTR : 0);
	if (e->has_pending)
		v |= RING_EXECLIST1_VALID | RING_EXECLIST_QFULL;
	return v;
}

uint32_t model_execlist_status_hi(const struct gen9_model_engine *e)
{
	return e->active ? desc_ctx_id(e->port[e->cur]) : 0;
}
