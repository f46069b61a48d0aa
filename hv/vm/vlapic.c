/* Virtual x2APIC: registers, timer and priority logic; see vlapic.h. */
#include "hv/vm/vlapic.h"
#include "mini/string.h"

#define APIC_VERSION_VALUE	0x00050014u	/* version 0x14, 6 LVTs */
#define SVR_DEFAULT		0xffu

static uint64_t min_period_tsc;

void vlapic_set_min_period(uint64_t tsc_ticks)
{
	min_period_tsc = tsc_ticks;
}

static void bit_set(uint64_t *map, int v) { map[v >> 6] |= 1ull << (v & 63); }
static void bit_clear(uint64_t *map, int v) { map[v >> 6] &= ~(1ull << (v & 63)); }

static int highest(const uint64_t *map)
{
	if (!(map[0] | map[1] | map[2] | map[3]))
		return -1;	/* most exits: nothing requested */
	for (int w = 3; w >= 0; w--)
		if (map[w])
			return w * 64 + 63 - __builtin_clzll(map[w]);
	return -1;
}

void vlapic_reset(struct vlapic *l)
{
	uint32_t *vapic = l->vapic;
	void *access = l->apic_access;
	bool mapped = l->access_mapped;
	uint64_t syncs = l->vapic_syncs;
	uint32_t id = l->id;
	bool vid = l->vid;
	uint32_t eoi_gen = l->eoi_gen;
	uint64_t eoi_exit[4];

	memcpy(eoi_exit, l->eoi_exit, sizeof(eoi_exit));

	memset(l, 0, sizeof(*l));
	l->id = id;
	/* x2APIC logical ID (SDM 10.12.10.2): cluster id>>4, bit id&15. */
	l->ldr = (id >> 4) << 16 | 1u << (id & 15);
	l->vapic = vapic;
	l->apic_access = access;
	l->access_mapped = mapped;
	l->vapic_syncs = syncs;
	/* What the VMCS holds: the next entry rewrites it from the model. */
	l->vid = vid;
	l->eoi_gen = eoi_gen;
	memcpy(l->eoi_exit, eoi_exit, sizeof(eoi_exit));
	l->vapic_dirty = VAPIC_DIRTY_ALL;
	if (vapic)
		memset(vapic, 0, 4096);	/* TPR 0 */
	l->svr = SVR_DEFAULT;
	l->apic_base = id ? APIC_BASE_RESET & ~APIC_BASE_BSP : APIC_BASE_RESET;
	l->xapic_dfr = 0xffffffffu;	/* flat model */
	l->lvt_timer = l->lvt_lint0 = l->lvt_lint1 = l->lvt_error =
		l->lvt_thermal = l->lvt_pmc = l->lvt_cmci = LVT_MASKED;
}

bool vlapic_is_msr(uint32_t msr)
{
	return msr >= X2APIC_MSR_BASE && msr <= X2APIC_MSR_LAST;
}

/* DIV_CONF bits 0, 1 and 3 (SDM Figure 11-10): 2^(n+1), with 0b111 = 1. */
static unsigned divisor(uint32_t div_conf)
{
	unsigned n = (div_conf & 3) | ((div_conf >> 1) & 4);

	return n == 7 ? 1 : 2u << n;
}

#define VAPIC_TPR	(0x080 / 4)	/* the TPR's dword in the page */

uint32_t vlapic_tpr(const struct vlapic *l)
{
	return l->vapic ? l->vapic[VAPIC_TPR] & 0xff : l->tpr;
}

void vlapic_set_tpr(struct vlapic *l, uint32_t tpr)
{
	l->tpr = tpr & 0xff;
	if (l->vapic)
		l->vapic[VAPIC_TPR] = l->tpr;
	l->vapic_dirty |= VAPIC_DIRTY_IRQ;	/* PPR follows */
}

static uint32_t isr_class(const struct vlapic *l)
{
	int isrv = highest(l->isr);

	return isrv < 0 ? 0 : (uint32_t)isrv & 0xf0;
}

static uint32_t ppr(const struct vlapic *l)
{
	uint32_t tpr = vlapic_tpr(l);

	return (tpr & 0xf0) >= isr_class(l) ? tpr : isr_class(l);
}

static uint32_t cur_count(const struct vlapic *l, uint64_t now)
{
	uint64_t div = divisor(l->div_conf);

	if (!l->deadline || now >= l->deadline)
		return 0;
	/* The period may be stretched to the minimum: never count above
	 * what the guest programmed. */
	return (l->deadline - now) / div > l->init_count
		? l->init_count : (uint32_t)((l->deadline - now) / div);
}

static void timer_arm(struct vlapic *l, uint64_t now)
{
	l->timer_start = now;
	l->period_tsc = (uint64_t)l->init_count * divisor(l->div_conf);
	if (l->period_tsc < min_period_tsc)
		l->period_tsc = min_period_tsc;
	l->deadline = l->init_count ? now + l->period_tsc : 0;
}

int vlapic_rdmsr(struct vlapic *l, uint32_t msr, uint64_t now, uint64_t *val)
{
	if (msr >= X2APIC_ISR0 && msr < X2APIC_ISR0 + 8) {
		unsigned i = msr - X2APIC_ISR0;
		*val = (uint32_t)(l->isr[i / 2] >> (32 * (i & 1)));
		return 0;
	}
	if (msr >= X2APIC_IRR0 && msr < X2APIC_IRR0 + 8) {
		unsigned i = msr - X2APIC_IRR0;
		*val = (uint32_t)(l->irr[i / 2] >> (32 * (i & 1)));
		return 0;
	}
	if (msr >= X2APIC_TMR0 && msr < X2APIC_TMR0 + 8) {
		*val = 0;	/* every interrupt here is edge-triggered */
		return 0;
	}
	switch (msr) {
	case X2APIC_ID: *val = l->id; break;
	case X2APIC_VERSION: *val = APIC_VERSION_VALUE; break;
	case X2APIC_TPR: *val = vlapic_tpr(l); break;
	case X2APIC_PPR: *val = ppr(l); break;
	case X2APIC_LDR: *val = l->ldr; break;
	case X2APIC_SVR: *val = l->svr; break;
	case X2APIC_ESR: *val = l->esr; break;
	case X2APIC_LVT_CMCI: *val = l->lvt_cmci; break;
	case X2APIC_LVT_TIMER: *val = l->lvt_timer; break;
	case X2APIC_LVT_THERMAL: *val = l->lvt_thermal; break;
	case X2APIC_LVT_PMC: *val = l->lvt_pmc; break;
	case X2APIC_LVT_LINT0: *val = l->lvt_lint0; break;
	case X2APIC_LVT_LINT1: *val = l->lvt_lint1; break;
	case X2APIC_LVT_ERROR: *val = l->lvt_error; break;
	case X2APIC_INIT_COUNT: *val = l->init_count; break;
	case X2APIC_CUR_COUNT: *val = cur_count(l, now); break;
	case X2APIC_DIV_CONF: *val = l->div_conf; break;
	case X2APIC_ICR: *val = l->icr; break;
	default: return -1;	/* EOI, SELF_IPI are write-only; holes */
	}
	return 0;
}

int vlapic_wrmsr(struct vlapic *l, uint32_t msr, uint64_t val, uint64_t now)
{
	uint32_t v = (uint32_t)val;

	l->vapic_dirty |= VAPIC_DIRTY_ALL;
	switch (msr) {
	case X2APIC_TPR: vlapic_set_tpr(l, v); break;
	case X2APIC_EOI: vlapic_eoi(l); break;
	case X2APIC_SVR: l->svr = v & 0x11ff; break;
	case X2APIC_ESR: l->esr = 0; break;
	case X2APIC_LVT_CMCI: l->lvt_cmci = v & 0x107ff; break;
	case X2APIC_LVT_TIMER: l->lvt_timer = v & 0x700ff; break;
	case X2APIC_LVT_THERMAL: l->lvt_thermal = v & 0x107ff; break;
	case X2APIC_LVT_PMC: l->lvt_pmc = v & 0x107ff; break;
	case X2APIC_LVT_LINT0: l->lvt_lint0 = v & 0x1a7ff; break;
	case X2APIC_LVT_LINT1: l->lvt_lint1 = v & 0x1a7ff; break;
	case X2APIC_LVT_ERROR: l->lvt_error = v & 0x100ff; break;
	case X2APIC_INIT_COUNT: l->init_count = v; timer_arm(l, now); break;
	case X2APIC_DIV_CONF: l->div_conf = v & 0xb; break;
	case X2APIC_SELF_IPI:
		if ((v & 0xff) >= 16)
			bit_set(l->irr, v & 0xff);
		break;
	case X2APIC_ICR:
		/* A fixed self-IPI (shorthand "self") is taken here; any
		 * other is left for the VM to deliver among its vCPUs
		 * (icr_sent, hv/vm/vipi.c). */
		l->icr = val & ~(uint64_t)ICR_DELIVERY_STATUS;
		if (((v >> 18) & 3) == 1 && ((v >> 8) & 7) == 0) {
			if ((v & 0xff) >= 16)
				bit_set(l->irr, v & 0xff);
		} else {
			l->icr_sent = true;
		}
		break;
	default: return -1;
	}
	return 0;
}

void vlapic_advance(struct vlapic *l, uint64_t now)
{
	if (!l->deadline || now < l->deadline)
		return;
	l->timer_fires++;
	l->vapic_dirty |= VAPIC_DIRTY_IRQ;
	if (!(l->lvt_timer & LVT_MASKED) && (l->lvt_timer & 0xff) >= 16)
		bit_set(l->irr, (int)(l->lvt_timer & LVT_VECTOR_MASK));
	if ((l->lvt_timer & LVT_TIMER_MODE_MASK) != LVT_TIMER_PERIODIC ||
	    !l->period_tsc) {
		l->deadline = 0;
		return;
	}
	/* The next period starts at the expiry, not now: the rate stays
	 * exact however late we look. Expiries nobody saw merge into the one
	 * IRR bit, like a real APIC's. */
	l->deadline += l->period_tsc;
	if (l->deadline <= now) {
		uint64_t missed = (now - l->deadline) / l->period_tsc + 1;

		l->timer_coalesced += missed;
		l->deadline += missed * l->period_tsc;
	}
}

int vlapic_pending(const struct vlapic *l)
{
	int vec = highest(l->irr);

	if (vec < 0 || !(l->svr & 0x100))
		return -1;	/* APIC software-disabled: nothing delivered */
	if (((uint32_t)vec & 0xf0) <= (ppr(l) & 0xf0))
		return -1;
	return vec;
}

int vlapic_eoi(struct vlapic *l)
{
	int vec = highest(l->isr);

	if (vec >= 0)
		bit_clear(l->isr, vec);
	l->vapic_dirty |= VAPIC_DIRTY_IRQ;
	return vec;
}

uint32_t vlapic_tpr_threshold(const struct vlapic *l)
{
	int vec = highest(l->irr);
	uint32_t cls = vec < 0 ? 0 : (uint32_t)vec & 0xf0;

	/* Held back by the TPR alone: above the in-service class, at or
	 * below the TPR's. */
	if (vec < 0 || !(l->svr & 0x100) || cls <= isr_class(l) ||
	    cls > (vlapic_tpr(l) & 0xf0))
		return 0;
	return cls >> 4;
}

void vlapic_accept(struct vlapic *l, int vec)
{
	l->vapic_dirty |= VAPIC_DIRTY_IRQ;
	bit_clear(l->irr, vec);
	bit_set(l->isr, vec);
}

uint64_t vlapic_next_event(const struct vlapic *l)
{
	return l->deadline ? l->deadline : UINT64_MAX;
}

int vlapic_set_apic_base(struct vlapic *l, uint64_t val)
{
	uint64_t mode = val & (APIC_BASE_EN | APIC_BASE_EXTD);
	uint64_t cur = l->apic_base & (APIC_BASE_EN | APIC_BASE_EXTD);

	/* The BSP flag is read-only: an AP writes its base without it. */
	if ((val & ~(APIC_BASE_EN | APIC_BASE_EXTD)) !=
	    (APIC_BASE_ADDR | (l->apic_base & APIC_BASE_BSP)))
		return -1;	/* relocation, BSP flag, reserved bits */
	if (mode == APIC_BASE_EXTD)
		return -1;	/* x2APIC without enable: invalid */
	if (cur == (APIC_BASE_EN | APIC_BASE_EXTD) && mode == APIC_BASE_EN)
		return -1;	/* x2APIC -> xAPIC must pass through off */
	if (cur == 0 && mode == (APIC_BASE_EN | APIC_BASE_EXTD))
		return -1;	/* off -> x2APIC must pass through xAPIC */
	l->apic_base = val;
	l->vapic_dirty |= VAPIC_DIRTY_ALL;
	return 0;
}

void vlapic_raise(struct vlapic *l, int vec)
{
	if (vec >= 16 && vec < 256) {
		bit_set(l->irr, vec);
		l->vapic_dirty |= VAPIC_DIRTY_IRQ;
	}
}

#define XAPIC_ID	0x020
#define XAPIC_LDR	0x0d0
#define XAPIC_DFR	0x0e0
#define XAPIC_ICR_HI	0x310
#define XAPIC_CUR_COUNT	0x390
#define XAPIC_LAST	0x3f0

uint32_t vlapic_xapic_reg(const struct vlapic *l, uint32_t off, uint64_t now)
{
	uint64_t v = 0;

	switch (off) {
	case XAPIC_ID: return l->id << 24;	/* in bits 24-31 */
	case XAPIC_LDR: return l->xapic_ldr;
	case XAPIC_DFR: return l->xapic_dfr;
	case XAPIC_ICR_HI: return l->icr_hi;
	default:
		if (off > XAPIC_LAST || (off & 0xf) ||
		    vlapic_rdmsr((struct vlapic *)l,
				 X2APIC_MSR_BASE + (off >> 4), now, &v))
			return 0;	/* reserved: reads 0 */
		return (uint32_t)v;
	}
}

#define XAPIC_PPR	0x0a0
#define XAPIC_ISR0	0x100
#define XAPIC_IRR0	0x200

/* IRR, ISR and PPR straight from the bitmaps: what changes with every
 * interrupt, so it is kept cheap. */
static void sync_irq(struct vlapic *l)
{
	for (unsigned i = 0; i < 8; i++) {
		l->vapic[(XAPIC_IRR0 + 0x10 * i) / 4] =
			(uint32_t)(l->irr[i / 2] >> (32 * (i & 1)));
		l->vapic[(XAPIC_ISR0 + 0x10 * i) / 4] =
			(uint32_t)(l->isr[i / 2] >> (32 * (i & 1)));
	}
	l->vapic[XAPIC_PPR / 4] = ppr(l);
}

void vlapic_vapic_sync(struct vlapic *l, uint64_t now)
{
	if (!l->vapic)
		return;
	if (l->vapic_dirty & VAPIC_DIRTY_ALL) {
		for (uint32_t off = XAPIC_ID; off <= XAPIC_LAST; off += 0x10)
			if (off != XAPIC_CUR_COUNT && off != 0x80)
				l->vapic[off / 4] = vlapic_xapic_reg(l, off, now);
		l->vapic_syncs++;
	} else if (l->vapic_dirty & VAPIC_DIRTY_IRQ) {
		sync_irq(l);
	}
	l->vapic_dirty = 0;
}

void vlapic_vapic_sync_reg(struct vlapic *l, uint32_t off, uint64_t now)
{
	if (l->vapic && off >= XAPIC_ID && off <= XAPIC_LAST &&
	    !(off & 0xf) && off != XAPIC_CUR_COUNT && off != 0x80)
		l->vapic[off / 4] = vlapic_xapic_reg(l, off, now);
}

void vlapic_vapic_pull(struct vlapic *l)
{
	for (unsigned i = 0; i < 4; i++) {
		l->irr[i] = l->vapic[(XAPIC_IRR0 + 0x20 * i) / 4] |
			(uint64_t)l->vapic[(XAPIC_IRR0 + 0x20 * i + 0x10) / 4]
				<< 32;
		l->isr[i] = l->vapic[(XAPIC_ISR0 + 0x20 * i) / 4] |
			(uint64_t)l->vapic[(XAPIC_ISR0 + 0x20 * i + 0x10) / 4]
				<< 32;
	}
}

uint16_t vlapic_intr_status(const struct vlapic *l)
{
	int rvi = highest(l->irr), svi = highest(l->isr);

	return (uint16_t)((rvi < 0 ? 0 : rvi) | (svi < 0 ? 0 : svi) << 8);
}

#define REDIR_MASKED	(1ull << 16)
#define REDIR_LEVEL	(1ull << 15)

void vlapic_eoi_exit_map(const uint64_t *redir, unsigned n, uint64_t out[4])
{
	out[0] = out[1] = out[2] = out[3] = 0;
	for (unsigned i = 0; i < n; i++)
		if ((redir[i] & (REDIR_MASKED | REDIR_LEVEL)) == REDIR_LEVEL &&
		    (redir[i] & 0xff) >= 16)
			bit_set(out, (int)(redir[i] & 0xff));
}
