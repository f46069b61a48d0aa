/* pGPU interrupts: GT bank setup and the gen8+ handler protocol
 * (gen9-facts §7). */
#include "gpu/hw/pgpu.h"
#include "mini/string.h"

/* Which GT banks a master sample points at. */
static uint32_t banks_flagged(uint32_t master)
{
	uint32_t banks = 0;

	if (master & (GEN8_GT_RCS_IRQ | GEN8_GT_BCS_IRQ))
		banks |= BIT(0);
	if (master & (GEN8_GT_VCS0_IRQ | GEN8_GT_VCS1_IRQ))
		banks |= BIT(1);
	if (master & (GEN8_GT_PM_IRQ | GEN8_GT_GUC_IRQ))
		banks |= BIT(2);
	if (master & GEN8_GT_VECS_IRQ)
		banks |= BIT(3);
	return banks;
}

/* IER enables and IMR unmasks the same bits; the engine's own RING_IMR
 * takes the bank-shifted positions too, like i915's irq_enable_mask. */
void pgpu_irq_setup(struct pgpu *p, uint16_t engine_bits)
{
	uint32_t mask[GEN8_GT_BANKS] = { 0 };
	int id, n;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct pgpu_engine *e = &p->engine[id];
		uint32_t bits = (uint32_t)engine_bits
				<< gen9_engine_irq_shift((enum gen9_engine_id)id);

		if (!e->present)
			continue;
		mask[gen9_engine_irq_bank((enum gen9_engine_id)id)] |= bits;
		gpu_hw_write32(p->hw, RING_IMR(e->base), ~bits);
	}
	for (n = 0; n < GEN8_GT_BANKS; n++) {
		gpu_hw_write32(p->hw, GEN8_GT_IER(n), mask[n]);
		gpu_hw_write32(p->hw, GEN8_GT_IMR(n), ~mask[n]);
		p->irq_mask[n] = mask[n];
	}
}

void pgpu_irq_master_enable(struct pgpu *p)
{
	gpu_hw_write32(p->hw, GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL);
	gpu_hw_posting_read(p->hw, GEN8_MASTER_IRQ);
}

void pgpu_irq_master_disable(struct pgpu *p)
{
	gpu_hw_write32(p->hw, GEN8_MASTER_IRQ, 0);
}

static void split_engines(struct pgpu_irq_status *st)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		enum gen9_engine_id e = (enum gen9_engine_id)id;

		st->engine_iir[id] = (uint16_t)(st->gt_iir[gen9_engine_irq_bank(e)] >>
						gen9_engine_irq_shift(e));
	}
	/* Bank 3's upper half is not an engine; bank 2 is PM/GuC. */
}

bool pgpu_irq_handle(struct pgpu *p, struct pgpu_irq_status *st)
{
	uint32_t banks;
	bool any = false;
	int n;

	memset(st, 0, sizeof(*st));
	pgpu_irq_master_disable(p);
	st->master = gpu_hw_read32(p->hw, GEN8_MASTER_IRQ);
	banks = banks_flagged(st->master);
	for (n = 0; n < GEN8_GT_BANKS; n++) {
		uint32_t iir;

		if (!(banks & BIT(n)))
			continue;
		iir = gpu_hw_read32(p->hw, GEN8_GT_IIR(n));
		if (!iir)
			continue;
		gpu_hw_write32(p->hw, GEN8_GT_IIR(n), iir); /* ack */
		st->gt_iir[n] = iir;
		any = true;
	}
	split_engines(st);
	pgpu_irq_master_enable(p);
	if (any)
		p->stats.irqs++;
	else
		p->stats.irq_spurious++;
	return any;
}
