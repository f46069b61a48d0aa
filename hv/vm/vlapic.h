/* A virtual local APIC in x2APIC mode (registers as MSRs 0x800-0x8FF,
 * SDM Vol. 3A 11.12): the timer, the interrupt request/in-service
 * bitmaps, TPR, EOI, self-IPI, and the ICR whose IPIs to the VM's other
 * vCPUs hv/vm/vipi.c delivers.
 *
 * The timer counts at the TSC frequency divided by DIV_CONF (the guest
 * learns the TSC frequency from the TSC_HZ hypercall; Linux would from
 * CPUID 0x15/0x16). Its deadlines are absolute TSC values, so it keeps
 * running while the VM is descheduled, and the scheduler uses them to
 * wake a halted VM or to cut another VM's slice short. */
#ifndef HV_VM_VLAPIC_H
#define HV_VM_VLAPIC_H

#include <stdbool.h>
#include <stdint.h>

#define X2APIC_MSR_BASE		0x800u
#define X2APIC_MSR_LAST		0x8ffu
#define X2APIC_ID		0x802u
#define X2APIC_VERSION		0x803u
#define X2APIC_TPR		0x808u
#define X2APIC_PPR		0x80au
#define X2APIC_EOI		0x80bu
#define X2APIC_LDR		0x80du
#define X2APIC_SVR		0x80fu
#define X2APIC_ISR0		0x810u
#define X2APIC_TMR0		0x818u
#define X2APIC_IRR0		0x820u
#define X2APIC_ESR		0x828u
#define X2APIC_LVT_CMCI		0x82fu
#define X2APIC_ICR		0x830u
#define X2APIC_LVT_TIMER	0x832u
#define X2APIC_LVT_THERMAL	0x833u
#define X2APIC_LVT_PMC		0x834u
#define X2APIC_LVT_LINT0	0x835u
#define X2APIC_LVT_LINT1	0x836u
#define X2APIC_LVT_ERROR	0x837u
#define X2APIC_INIT_COUNT	0x838u
#define X2APIC_CUR_COUNT	0x839u
#define X2APIC_DIV_CONF		0x83eu
#define X2APIC_SELF_IPI		0x83fu

#define LVT_MASKED		(1u << 16)
#define LVT_TIMER_MODE_MASK	(3u << 17)
#define LVT_TIMER_ONESHOT	(0u << 17)
#define LVT_TIMER_PERIODIC	(1u << 17)
#define LVT_VECTOR_MASK		0xffu

#define ICR_DELIVERY_STATUS	(1u << 12)

struct vlapic {
	uint32_t id;		/* = the vCPU's index; kept by vlapic_reset */
	uint32_t tpr, svr, esr, ldr;
	uint32_t lvt_timer, lvt_lint0, lvt_lint1, lvt_error, lvt_thermal;
	uint32_t lvt_pmc, lvt_cmci;
	uint32_t init_count, div_conf;
	uint64_t timer_start;	/* TSC when INIT_COUNT was written */
	uint64_t deadline;	/* TSC of the next expiry; 0 = not armed */
	uint64_t period_tsc;	/* TSC ticks per timer period */
	uint64_t irr[4], isr[4];	/* 256-bit bitmaps */
	/* The last ICR write (x2APIC layout: destination in 63:32); a
	 * write other than a fixed self-IPI sets icr_sent for the VM to
	 * deliver (hv/vm/vipi.c), which clears it. */
	uint64_t icr;
	bool icr_sent;
	uint64_t timer_fires, timer_coalesced;
	/* The xAPIC view (hv/vm/vlapic_xapic.c): IA32_APIC_BASE, and the
	 * registers x2APIC mode does not have or formats differently. */
	uint64_t apic_base;
	uint32_t icr_hi, xapic_ldr, xapic_dfr;
	/* APIC virtualization (hv/vm/vlapic_apicv.c; NULL/false without).
	 * The model stays the source of truth: `vapic` (the virtual-APIC
	 * page the CPU reads the guest's xAPIC registers from) is rewritten
	 * from it before an entry whenever `vapic_dirty` says the model
	 * changed; the one register the guest changes there without an exit
	 * is the TPR, which therefore lives in the page (vlapic_tpr). */
	uint32_t *vapic;
	void *apic_access;	/* the VM's APIC-access page (never data) */
	uint8_t vapic_dirty;	/* VAPIC_DIRTY_* */
	bool access_mapped;	/* APIC-access page in the EPT at 0xFEE00000 */
	uint32_t tpr_threshold;	/* as last written to the VMCS */
	uint64_t vapic_syncs;	/* page rewrites, for the report */
	/* Virtual-interrupt delivery (vmx_cpu.vid_on, xAPIC mode): the CPU
	 * moves IRR to ISR in the page when it delivers and clears ISR on
	 * an EOI without an exit, so while `vid` (set at the last entry)
	 * the page is the truth for IRR/ISR until the exit pulls it back
	 * (vlapic_vapic_pull); the model is the truth in between. `vid`
	 * and `eoi_exit` say what the VMCS holds (RVI/SVI possibly not 0,
	 * the EOI-exit bitmap), kept across vlapic_reset like the pages. */
	bool vid;
	uint64_t eoi_exit[4];
	uint32_t eoi_gen;	/* vioapic gen + 1 it was computed at; 0: never */
	uint64_t vid_eoi_exits;	/* EOI-induced exits (level vectors) */
};

/* The shortest timer period (or one-shot delay) a guest can program, as
 * a real APIC's timer has a smallest useful period: a count that would
 * expire sooner expires after this many TSC ticks. It bounds the exits a
 * guest can cause itself; the scheduler (sched_slice.h) bounds what that
 * costs the other VMs. Set once from the TSC frequency. */
#define VLAPIC_MIN_PERIOD_US	50u
void vlapic_set_min_period(uint64_t tsc_ticks);

#define APIC_BASE_ADDR		0xfee00000ull
#define APIC_BASE_BSP		(1ull << 8)
#define APIC_BASE_EXTD		(1ull << 10)	/* x2APIC mode */
#define APIC_BASE_EN		(1ull << 11)
/* At reset the vLAPIC is in x2APIC mode, as firmware that enabled it
 * leaves it (what our test guest expects); a guest may drop to xAPIC. */
#define APIC_BASE_RESET		(APIC_BASE_ADDR | APIC_BASE_BSP | \
				 APIC_BASE_EXTD | APIC_BASE_EN)

static inline bool vlapic_x2apic_mode(const struct vlapic *l)
{
	return (l->apic_base & (APIC_BASE_EN | APIC_BASE_EXTD)) ==
	       (APIC_BASE_EN | APIC_BASE_EXTD);
}

static inline bool vlapic_xapic_mode(const struct vlapic *l)
{
	return (l->apic_base & (APIC_BASE_EN | APIC_BASE_EXTD)) == APIC_BASE_EN;
}

/* A guest write of IA32_APIC_BASE: the mode transitions of SDM 11.12.5
 * (x2APIC -> disabled -> xAPIC, xAPIC <-> x2APIC); the base address stays
 * at 0xFEE00000. 0, or -1 for a transition the SDM forbids (-> #GP). */
int vlapic_set_apic_base(struct vlapic *l, uint64_t val);

/* The xAPIC page in the VM's device registry (hv/vm/vlapic_xapic.c). */
struct mmio_region;
extern const struct mmio_region vlapic_xapic_mmio;

/* What of the virtual-APIC page is stale: the interrupt state (IRR,
 * ISR, PPR: every interrupt raised, delivered or retired) or any
 * register (a write through the model). */
#define VAPIC_DIRTY_IRQ		1u
#define VAPIC_DIRTY_ALL		2u

/* Power-on state; keeps the APIC-virtualization pages (and marks the
 * virtual-APIC page for rewriting). */
void vlapic_reset(struct vlapic *l);

/* The TPR: in the virtual-APIC page when there is one (the guest writes
 * it there through the TPR shadow without an exit), else in the model. */
uint32_t vlapic_tpr(const struct vlapic *l);
void vlapic_set_tpr(struct vlapic *l, uint32_t tpr);

/* A register of the xAPIC page (offset 0x000-0x3F0) as the guest reads
 * it: the x2APIC register at offset/16, or the xAPIC form (ID in bits
 * 31:24, LDR, DFR, ICR high); 0 for reserved and write-only offsets. */
uint32_t vlapic_xapic_reg(const struct vlapic *l, uint32_t off, uint64_t now);

/* Rewrite the virtual-APIC page from the model, as much as vapic_dirty
 * says (every register the CPU may read from it, SDM 29.4.2, or only
 * IRR/ISR/PPR; the TPR is the page's own), and clear vapic_dirty. The
 * timer's current count is not in the list the CPU reads there, so its
 * reads still exit and are computed at that time. */
void vlapic_vapic_sync(struct vlapic *l, uint64_t now);

/* One register of the page rewritten from the model (after the guest
 * wrote it there and the model took the write). */
void vlapic_vapic_sync_reg(struct vlapic *l, uint32_t off, uint64_t now);

/* The TPR threshold for the VMCS (SDM 29.1.2): the priority class of
 * the highest requested vector that only the TPR holds back, so that
 * the guest lowering its TPR below it exits and the interrupt is
 * delivered; 0 when no such vector waits. */
uint32_t vlapic_tpr_threshold(const struct vlapic *l);

/* Virtual-interrupt delivery (vlapic_apicv.c). After an exit: IRR and
 * ISR taken back from the virtual-APIC page, where the CPU delivered
 * and retired interrupts without exits. */
void vlapic_vapic_pull(struct vlapic *l);
/* The guest interrupt status for the VMCS (SDM 24.4.2): RVI, the
 * highest requested vector (0: none), in bits 7:0; SVI, the highest
 * in-service vector (0: none), in bits 15:8. */
uint16_t vlapic_intr_status(const struct vlapic *l);
/* The EOI-exit bitmap (SDM 29.1.3) for `n` IOAPIC redirection entries:
 * the vector of every unmasked level-triggered entry, whose EOI the
 * IOAPIC must see; edge vectors (the timer, IPIs, MSIs, the UART's ISA
 * edge) are retired by the CPU without an exit. */
void vlapic_eoi_exit_map(const uint64_t *redir, unsigned n, uint64_t out[4]);

/* EOI: the highest in-service vector retired; returns it, or -1. */
int vlapic_eoi(struct vlapic *l);
bool vlapic_is_msr(uint32_t msr);
/* 0, or -1 for a register that does not exist or is written read-only
 * (the caller injects #GP, as hardware does). */
int vlapic_rdmsr(struct vlapic *l, uint32_t msr, uint64_t now, uint64_t *val);
int vlapic_wrmsr(struct vlapic *l, uint32_t msr, uint64_t val, uint64_t now);
/* Timer expiry up to `now`: sets the vector's IRR bit (once per expiry;
 * periods that passed unseen are counted as coalesced, as on hardware). */
void vlapic_advance(struct vlapic *l, uint64_t now);
/* Highest vector in IRR that the TPR and the in-service priority allow,
 * or -1. */
int vlapic_pending(const struct vlapic *l);
/* An interrupt from outside (the IOAPIC): sets the vector's IRR bit.
 * Vectors below 16 are illegal and dropped, as a real APIC does. */
void vlapic_raise(struct vlapic *l, int vec);
/* The vector is being delivered: IRR -> ISR. */
void vlapic_accept(struct vlapic *l, int vec);
/* TSC of the next timer expiry, or UINT64_MAX. */
uint64_t vlapic_next_event(const struct vlapic *l);

#endif
