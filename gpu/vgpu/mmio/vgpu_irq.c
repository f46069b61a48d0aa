/* Virtual interrupt registers (gen9-facts §7, i915-guest §7 step 9).
 *
 * Semantics follow GVT's model: an event sets its IIR bit unless IMR masks
 * it; IIR is write-1-to-clear; (IIR & IER) != 0 sets the bank's bit in the
 * master register; the master's bit 31 gates delivery. Delivery is one
 * MSI per new event, or when the guest re-enables the master with events
 * still pending (i915's handler disables the master, acks, re-enables). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"


struct irq_bank {
	uint32_t base; /* ISR; IMR +4, IIR +8, IER +0xc */
	uint32_t master_lo, master_hi; /* master bits for IIR 15:0 / 31:16 */
};

static const struct irq_bank irq_banks[] = {
	{ 0x44300, GEN8_GT_RCS_IRQ, GEN8_GT_BCS_IRQ },
	{ 0x44310, GEN8_GT_VCS0_IRQ, GEN8_GT_VCS1_IRQ },
	{ 0x44320, GEN8_GT_PM_IRQ, GEN8_GT_GUC_IRQ },
	{ 0x44330, GEN8_GT_VECS_IRQ, GEN8_GT_VECS_IRQ },
	{ 0x44400, GEN8_DE_PIPE_A_IRQ, GEN8_DE_PIPE_A_IRQ },
	{ 0x44410, GEN8_DE_PIPE_B_IRQ, GEN8_DE_PIPE_B_IRQ },
	{ 0x44420, GEN8_DE_PIPE_C_IRQ, GEN8_DE_PIPE_C_IRQ },
	{ 0x44440, GEN8_DE_PORT_IRQ, GEN8_DE_PORT_IRQ },
	{ 0x44460, GEN8_DE_MISC_IRQ, GEN8_DE_MISC_IRQ },
	{ 0x444e0, GEN8_PCU_IRQ, GEN8_PCU_IRQ },
	{ SDEISR, GEN8_DE_PCH_IRQ, GEN8_DE_PCH_IRQ },
};

#define NR_BANKS (sizeof(irq_banks) / sizeof(irq_banks[0]))

/* The master bits of bank b: its IIR & IER. */
static uint32_t bank_pending(struct vgpu *v, const struct irq_bank *b)
{
	uint32_t p = vreg(v, b->base + 8); /* IIR */
	uint32_t bits = 0;

	if (!p)
		return 0; /* most banks: no IER read */
	p &= vreg(v, b->base + 0xc);
	if (p & 0xffffu)
		bits |= b->master_lo;
	if (p >> 16)
		bits |= b->master_hi;
	return bits;
}

static uint32_t pending_master_bits(struct vgpu *v)
{
	uint32_t bits = 0;
	size_t i;

	for (i = 0; i < NR_BANKS; i++)
		bits |= bank_pending(v, &irq_banks[i]);
	return bits;
}

/* Whether any bank has an enabled event: the line's evaluation stops at
 * the first (an engine's event, raised just before, is in the first
 * banks; issue 31: ~5 evaluations a request). */
static bool pending_any(struct vgpu *v)
{
	size_t i;

	for (i = 0; i < NR_BANKS; i++)
		if (bank_pending(v, &irq_banks[i]))
			return true;
	return false;
}

static void inject(struct vgpu *v)
{
	const struct hv_if *hv = &v->gvt->hv;
	uint32_t addr, data;

	if (!vgpu_msi_enabled(v))
		return; /* GVT injects MSI only; INTx is not emulated */
	vgpu_msi_msg(v, &addr, &data);
	if (hv->ops->inject_msi(hv->ctx, v->vm, addr, data) == 0)
		v->stats.irqs_injected++;
}

/* State of the virtual interrupt line after the last evaluation. */
static void irq_eval(struct vgpu *v, bool new_event)
{
	uint32_t master = vreg(v, GEN8_MASTER_IRQ);
	bool line = (master & GEN8_MASTER_IRQ_CONTROL) && pending_any(v);
	bool was = master & 1u; /* bit 0 of the vreg copy: our line state */

	if (line && (new_event || !was))
		inject(v);
	vreg_set(v, GEN8_MASTER_IRQ, (master & GEN8_MASTER_IRQ_CONTROL) |
					     (line ? 1u : 0u));
}

void vgpu_irq_update(struct vgpu *v)
{
	irq_eval(v, false);
}

void vgpu_irq_init(struct vgpu *v)
{
	size_t i;

	for (i = 0; i < NR_BANKS; i++) {
		vreg_set(v, irq_banks[i].base, 0);
		vreg_set(v, irq_banks[i].base + 4, ~0u);
		vreg_set(v, irq_banks[i].base + 8, 0);
		vreg_set(v, irq_banks[i].base + 0xc, 0);
	}
	vreg_set(v, GEN8_MASTER_IRQ, 0);
}

void vgpu_raise_engine_irq(struct vgpu *v, int engine, uint32_t bits)
{
	unsigned int bank = gen9_engine_irq_bank((enum gen9_engine_id)engine);
	uint32_t shift = gen9_engine_irq_shift((enum gen9_engine_id)engine);
	uint32_t set = (bits & 0xffffu) << shift;
	uint32_t iir = GEN8_GT_IIR(bank);

	set &= ~vreg(v, GEN8_GT_IMR(bank));
	if (!set)
		return;
	vreg_set(v, iir, vreg(v, iir) | set);
	v->stats.irqs_raised++;
	irq_eval(v, true);
}

void vgpu_raise_display_irq(struct vgpu *v, uint32_t bank, uint32_t bits)
{
	uint32_t set = bits & ~vreg(v, bank + 4); /* IMR */

	if (!set)
		return;
	vreg_set(v, bank + 8, vreg(v, bank + 8) | set); /* IIR */
	v->stats.irqs_raised++;
	irq_eval(v, true);
}

static const struct irq_bank *bank_of(uint32_t off)
{
	size_t i;

	for (i = 0; i < NR_BANKS; i++)
		if (off >= irq_banks[i].base && off < irq_banks[i].base + 0x10)
			return &irq_banks[i];
	return NULL;
}

int vgpu_irq_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	const struct irq_bank *b;

	if (off == GEN8_MASTER_IRQ) {
		uint32_t m = vreg(v, GEN8_MASTER_IRQ) & GEN8_MASTER_IRQ_CONTROL;

		*val = m | pending_master_bits(v);
		return 0;
	}
	b = bank_of(off);
	if (b && off == b->base) {
		/* ISR: no live source here. The one modelled (the monitor's
		 * hotplug line in SDEISR) is the display area's: its part of
		 * the register table reads that bank (display/vgpu_display_regs.c). */
		*val = 0;
		return 0;
	}
	*val = vreg(v, off);
	return 0;
}

int vgpu_irq_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	const struct irq_bank *b;

	if (off == GEN8_MASTER_IRQ) {
		uint32_t line = vreg(v, GEN8_MASTER_IRQ) & 1u;

		vreg_set(v, off, (val & GEN8_MASTER_IRQ_CONTROL) | line);
		if (!(val & GEN8_MASTER_IRQ_CONTROL))
			vreg_set(v, off, 0); /* line drops with the master */
		irq_eval(v, false);
		return 0;
	}
	b = bank_of(off);
	if (!b) {
		vreg_set(v, off, val);
		return 0;
	}
	switch (off - b->base) {
	case 0: /* ISR is read-only */
		v->stats.mmio_ro_dropped++;
		return 0;
	case 8: /* IIR: write 1 to clear */
		vreg_set(v, off, vreg(v, off) & ~val);
		break;
	default:
		vreg_set(v, off, val);
		break;
	}
	irq_eval(v, false);
	return 0;
}
