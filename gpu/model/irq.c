/* GT interrupts: per-bank IIR/IMR/IER and the master control
 * (gen9-facts §7, semantics as GVT models them):
 *  - an event sets its IIR bit when the bank's IMR bit is clear (and the
 *    engine's RING_IMR, at the same shifted position, is clear);
 *  - IIR is write-1-to-clear; an event arriving while its bit is still set
 *    is queued once and reappears after the clear;
 *  - (IIR & IER) of a bank half sets its bit in GEN8_MASTER_IRQ;
 *  - the output is asserted when bit 31 is set and any source bit is. */
#include "gpu/model/model_internal.h"

/* Master bit per bank half: [bank][0 = bits 15:0, 1 = bits 31:16]. */
static const uint32_t master_bits[GEN8_GT_BANKS][2] = {
	{ GEN8_GT_RCS_IRQ, GEN8_GT_BCS_IRQ },
	{ GEN8_GT_VCS0_IRQ, GEN8_GT_VCS1_IRQ },
	{ GEN8_GT_PM_IRQ, GEN8_GT_GUC_IRQ },
	{ GEN8_GT_VECS_IRQ, 0 },
};

static uint32_t master_sources(const struct gen9_model *m)
{
	uint32_t src = 0;
	int n;

	for (n = 0; n < GEN8_GT_BANKS; n++) {
		uint32_t live = mreg(m, GEN8_GT_IIR(n)) & mreg(m, GEN8_GT_IER(n));

		if (live & 0xffffu)
			src |= master_bits[n][0];
		if (live & 0xffff0000u)
			src |= master_bits[n][1];
	}
	return src;
}

uint32_t model_irq_master_read(struct gen9_model *m)
{
	return (mreg(m, GEN8_MASTER_IRQ) & GEN8_MASTER_IRQ_CONTROL) |
	       master_sources(m);
}

void model_irq_update(struct gen9_model *m)
{
	bool out = (mreg(m, GEN8_MASTER_IRQ) & GEN8_MASTER_IRQ_CONTROL) &&
		   master_sources(m);

	if (out == m->irq_out)
		return;
	m->irq_out = out;
	if (out)
		m->stats.irq_asserts++;
	if (m->cfg.irq_notify)
		m->cfg.irq_notify(m->cfg.irq_ctx, out);
}

bool gen9_model_irq_asserted(const struct gen9_model *m)
{
	return m->irq_out;
}

void model_irq_engine(struct gen9_model *m, struct gen9_model_engine *e,
		      uint16_t bits)
{
	unsigned int bank = gen9_engine_irq_bank(e->id);
	uint32_t ev = (uint32_t)bits << gen9_engine_irq_shift(e->id);
	uint32_t iir = mreg(m, GEN8_GT_IIR(bank));

	ev &= ~mreg(m, RING_IMR(e->base));
	ev &= ~mreg(m, GEN8_GT_IMR(bank));
	if (!ev)
		return;
	m->stats.irq_events++;
	m->iir_queued[bank] |= iir & ev;
	mreg_set(m, GEN8_GT_IIR(bank), iir | ev);
	model_irq_update(m);
}

bool model_irq_is_reg(uint32_t off)
{
	return off == GEN8_MASTER_IRQ ||
	       (off >= GEN8_GT_ISR(0) && off <= GEN8_GT_IER(GEN8_GT_BANKS - 1));
}

void model_irq_write(struct gen9_model *m, uint32_t off, uint32_t val)
{
	unsigned int bank;

	if (off == GEN8_MASTER_IRQ) {
		/* Only the enable bit is writable; sources are computed. */
		mreg_set(m, off, val & GEN8_MASTER_IRQ_CONTROL);
		model_irq_update(m);
		return;
	}
	bank = (off - GEN8_GT_ISR(0)) / 0x10;
	switch ((off - GEN8_GT_ISR(0)) & 0xf) {
	case 0x0: /* ISR: live status, read-only */
		return;
	case 0x8: { /* IIR: write 1 to clear, then the queued copy shows */
		uint32_t iir = mreg(m, off) & ~val;
		uint32_t again = m->iir_queued[bank] & val;

		m->iir_queued[bank] &= ~again;
		mreg_set(m, off, iir | again);
		break;
	}
	default: /* IMR, IER */
		mreg_set(m, off, val);
		break;
	}
	model_irq_update(m);
}

void model_irq_reset(struct gen9_model *m)
{
	int n;

	for (n = 0; n < GEN8_GT_BANKS; n++) {
		mreg_set(m, GEN8_GT_IMR(n), ~0u);
		mreg_set(m, GEN8_GT_IER(n), 0);
		mreg_set(m, GEN8_GT_IIR(n), 0);
		m->iir_queued[n] = 0;
	}
	mreg_set(m, GEN8_MASTER_IRQ, 0);
	model_irq_update(m);
}
