/* One engine's command streamer loop: fetch from the ring (GGTT) or the
 * current batch level, execute, advance; complete the context when the
 * ring head meets the tail. At most cfg.cmd_budget commands per call, so a
 * batch that jumps to itself costs a bounded amount of host time per poll
 * and keeps running across polls, like the real engine would. */
#include "gpu/model/model_internal.h"
#include "gpu/hw/gen9_cmd_table.h"
#include "mini/string.h"

uint32_t model_ring_size(const struct gen9_model_ctx *c)
{
	return (c->ring_ctl & RING_NR_PAGES) + GEN9_PAGE_SIZE;
}

/* Graphics address of the command being executed (ACTHD). */
uint64_t model_cs_addr(const struct gen9_model_engine *e)
{
	if (e->level)
		return e->bb_addr[e->level];
	return (uint64_t)e->ctx.ring_start + e->ctx.ring_head;
}

static uint32_t ring_space(const struct gen9_model_engine *e)
{
	uint32_t size = model_ring_size(&e->ctx);

	return (e->ctx.ring_tail - e->ctx.ring_head + size) % size;
}

static void advance(struct gen9_model *m, struct gen9_model_engine *e,
		    uint32_t dwords)
{
	if (e->level) {
		e->bb_addr[e->level] += 4ull * dwords;
		return;
	}
	e->ctx.ring_head = (e->ctx.ring_head + 4 * dwords) %
			   model_ring_size(&e->ctx);
	mreg_set(m, RING_HEAD(e->base), e->ctx.ring_head);
}

/* The engine stops as the hardware does in fault-and-hang mode: state
 * frozen, error registers describing why, CS master error interrupt if
 * the error is not masked in EMR. Only a reset moves it again. */
void model_engine_hang(struct gen9_model *m, struct gen9_model_engine *e,
		       uint32_t eir_bit)
{
	const struct gen9_model_fault *f = &e->fault;
	uint32_t eir = mreg(m, RING_EIR(e->base)) | eir_bit;

	e->hung = true;
	e->stats.faults++;
	mreg_set(m, RING_EIR(e->base), eir);
	mreg_set(m, RING_IPEHR(e->base), f->header);
	mreg_set(m, RING_ACTHD(e->base), (uint32_t)model_cs_addr(e));
	mreg_set(m, RING_ACTHD_UDW(e->base), (uint32_t)(model_cs_addr(e) >> 32));
	if (eir_bit & I915_ERROR_PAGE_TABLE) {
		/* Fault type field: the model uses 0 for "not present", 1
		 * for a write to a read-only page (its own convention; the
		 * encoding is not in the sources read). */
		uint32_t type = f->kind == GEN9_MODEL_FAULT_WRITE_RO ? 1 : 0;

		mreg_set(m, GEN8_RING_FAULT_REG,
			 RING_FAULT_VALID |
				 (type << RING_FAULT_FAULT_TYPE_SHIFT) |
				 (f->ggtt ? RING_FAULT_GTTSEL_MASK : 0) |
				 (gen9_engine_hw_id(e->id)
				  << GEN8_RING_FAULT_ENGINE_ID_SHIFT));
		mreg_set(m, GEN8_FAULT_TLB_DATA0, (uint32_t)(f->addr >> 12));
		mreg_set(m, GEN8_FAULT_TLB_DATA1,
			 ((uint32_t)(f->addr >> 44) & FAULT_VA_HIGH_BITS) |
				 (f->ggtt ? FAULT_GTT_SEL : 0));
	}
	if (eir & ~mreg(m, RING_EMR(e->base)))
		model_irq_engine(m, e, GT_CS_MASTER_ERROR_INTERRUPT);
}

/* ---- the render context's workaround batches ---------------------------
 *
 * A full restore of a render context runs the batches its image names
 * (gpu/hw/gen9_regs.h CTX_INDIRECT_*, CTX_PER_CTX_*) before the ring: the
 * indirect context batch, exactly its size (i915 ends it with MI_NOOP
 * padding, no MI_BATCH_BUFFER_END: gt/intel_lrc.c
 * gen8_init_indirectctx_bb), then the per-context batch to its
 * MI_BATCH_BUFFER_END (i915 <= 4.x: "started immediately after the
 * indirect_ctx batch"). Both as privileged GGTT batches at level 1. A
 * lite restore runs neither (nothing is restored). A restore the image
 * inhibits runs them too: their pointers are in the ring context, which
 * is loaded either way (whether Gen9 skips them then is not in the
 * sources read; running scanned, idempotent register loads once more is
 * harmless). Real Gen9 runs the indirect batch part-way
 * through the restore, at INDIRECT_CTX_OFFSET; the model restores every
 * register first and runs it after, so the batch's loads win over the
 * image's - the effect i915 asks for. A batch the restore resumes
 * (bb_restore) waits behind them; no arbitration inside them. */
static void wa_enter(struct gen9_model_engine *e, uint64_t addr, int which)
{
	e->wa = which;
	e->level = 1;
	e->bb_addr[1] = addr;
	e->bb_ppgtt[1] = false;
	e->stats.wa_batches++;
}

static bool wa_per_ctx(struct gen9_model_engine *e)
{
	if (!(e->ctx.per_ctx & CTX_PER_CTX_VALID))
		return false;
	wa_enter(e, e->ctx.per_ctx & CTX_PER_CTX_ADDR_MASK, WA_PER_CTX);
	return true;
}

void model_wa_start(struct gen9_model_engine *e)
{
	uint32_t len = (e->ctx.ictx & CTX_INDIRECT_SIZE_MASK) * 64;

	e->wa = WA_NONE;
	if (e->id != GEN9_RCS0 ||
	    (!len && !(e->ctx.per_ctx & CTX_PER_CTX_VALID)))
		return;
	e->wa_level = e->level;
	memcpy(e->wa_addr, e->bb_addr, sizeof(e->wa_addr));
	memcpy(e->wa_ppgtt, e->bb_ppgtt, sizeof(e->wa_ppgtt));
	if (len) {
		wa_enter(e, e->ctx.ictx & CTX_INDIRECT_ADDR_MASK, WA_INDIRECT);
		e->wa_end = e->bb_addr[1] + len;
	} else {
		wa_per_ctx(e);
	}
}

/* Before each command while a workaround batch runs: has it ended (the
 * indirect one at its size or by a batch end, the per-context one by
 * its batch end)? Then the next one, or the resumed levels and the ring. */
static void wa_advance(struct gen9_model_engine *e)
{
	if (e->wa == WA_INDIRECT && e->level &&
	    !(e->level == 1 && e->bb_addr[1] >= e->wa_end))
		return;
	if (e->wa == WA_PER_CTX && e->level)
		return;
	if (e->wa == WA_INDIRECT && wa_per_ctx(e))
		return;
	e->wa = WA_NONE;
	e->level = e->wa_level;
	memcpy(e->bb_addr, e->wa_addr, sizeof(e->bb_addr));
	memcpy(e->bb_ppgtt, e->wa_ppgtt, sizeof(e->bb_ppgtt));
}

static bool still_running(const struct gen9_model_engine *e, uint32_t epoch)
{
	return e->active && !e->hung && e->epoch == epoch;
}

/* Returns false when the engine must stop for this poll. */
static bool step(struct gen9_model *m, struct gen9_model_engine *e)
{
	struct cs_cmd c = { .m = m, .e = e };
	uint32_t epoch = e->epoch;
	unsigned int level = e->level;
	enum cs_result res;

	if (cs_fetch(&c, 0, &c.dw0)) {
		model_engine_hang(m, e, I915_ERROR_PAGE_TABLE);
		return false;
	}
	c.len = gen9_cmd_length_engine(c.dw0, e->id);
	/* A length the ring cannot even hold would wait forever. */
	if (!c.len || (!e->level && 4ull * c.len >= model_ring_size(&e->ctx))) {
		e->fault.kind = GEN9_MODEL_FAULT_INSTRUCTION;
		e->fault.header = c.dw0;
		model_engine_hang(m, e, I915_ERROR_INSTRUCTION);
		return false;
	}
	/* A command not yet wholly below the tail waits for the rest. */
	if (!e->level && ring_space(e) < 4 * c.len)
		return false;
	mreg_set(m, RING_ACTHD(e->base), (uint32_t)model_cs_addr(e));
	e->stats.cmds++;
	res = cs_execute(&c);
	/* A register write by the command may have reset or switched the
	 * engine: its old position means nothing any more. */
	if (e->epoch != epoch)
		return false;
	switch (res) {
	case CS_NEXT:
		advance(m, e, c.len);
		return true;
	case CS_ARB:
		advance(m, e, c.len);
		return !model_arbitrate(m, e);
	case CS_JUMPED:
		/* Back from a batch to the ring: between batch buffers,
		 * an arbitration point as well. */
		if (level && !e->level && !e->wa)
			return !model_arbitrate(m, e);
		return true;
	case CS_STALL:
		return false;
	case CS_FAULT:
	default:
		if (!e->hung) {
			e->fault.header = c.dw0;
			model_engine_hang(m, e,
					  e->fault.kind ==
							  GEN9_MODEL_FAULT_INSTRUCTION
						  ? I915_ERROR_INSTRUCTION
						  : I915_ERROR_PAGE_TABLE);
		}
		return false;
	}
}

void model_engine_run(struct gen9_model *m, struct gen9_model_engine *e)
{
	uint32_t n, epoch;

	if (!e->present || !e->active || e->hung ||
	    (mreg(m, RING_MI_MODE(e->base)) & STOP_RING) ||
	    (m->cfg.stall_engines & BIT(e->id)))
		return;
	epoch = e->epoch;
	e->blt_budget = m->cfg.blt_bytes_per_poll;
	for (n = 0; n < m->cfg.cmd_budget; n++) {
		if (e->wa)
			wa_advance(e);
		if (!e->level && (e->ctx.ring_head == e->ctx.ring_tail ||
				  !(e->ctx.ring_ctl & RING_VALID))) {
			/* Nothing (more) to do: the element completes and the
			 * next one, if any, starts within the same budget. */
			model_ctx_complete(m, e);
			if (!e->active || e->hung)
				return;
			epoch = e->epoch;
			continue;
		}
		if (!step(m, e) || !still_running(e, epoch))
			return;
	}
	e->stats.budget_exhausted++;
}

void model_engine_reset(struct gen9_model *m, struct gen9_model_engine *e)
{
	uint32_t fault = mreg(m, GEN8_RING_FAULT_REG);

	e->active = false;
	e->has_pending = false;
	e->hung = false;
	e->waiting = false;
	e->cur = 0;
	e->level = 0;
	e->wa = WA_NONE;
	e->elsp_n = 0;
	memset(e->port, 0, sizeof(e->port));
	memset(&e->ctx, 0, sizeof(e->ctx));
	memset(&e->fault, 0, sizeof(e->fault));
	memset(&e->blt_resume, 0, sizeof(e->blt_resume));
	e->ctx_ts = 0;
	e->ctx_ts_live = false;
	e->epoch++;
	e->stats.resets++;
	/* The engine's registers return to their defaults; a driver
	 * re-enables execlists and the status page afterwards. */
	mreg_zero(m, e->base, GEN9_RING_REG_SPAN);
	mreg_set(m, RING_IMR(e->base), ~0u);
	mreg_set(m, RING_HWSTAM(e->base), ~0u);
	model_csb_reset(m, e);
	if ((fault & RING_FAULT_VALID) &&
	    ((fault >> GEN8_RING_FAULT_ENGINE_ID_SHIFT) & 7) ==
		    gen9_engine_hw_id(e->id))
		mreg_set(m, GEN8_RING_FAULT_REG, 0);
}
