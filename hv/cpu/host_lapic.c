/* The hypervisor's local APIC (host_lapic.h). xAPIC registers are the
 * 4 KiB MMIO page at IA32_APIC_BASE (identity-mapped like all low MMIO);
 * in x2APIC mode the same registers are MSRs 0x800 + offset / 16. */
#include "hv/cpu/host_lapic.h"
#include "hv/cpu/percpu.h"
#include "hv/mm/mem.h"
#include "hv/cpu/x86.h"
#include "mini/x86.h"

#define MSR_APIC_BASE		0x1bu
#define APIC_BASE_X2APIC	(1ull << 10)
#define APIC_BASE_ADDR_MASK	0x000ffffffffff000ull
#define REG_ID			0x020
#define REG_TPR			0x080
#define REG_EOI			0x0b0
#define REG_SVR			0x0f0
#define REG_ICR_LO		0x300
#define REG_ICR_HI		0x310
#define REG_LVT_TIMER		0x320
#define REG_LVT_LINT0		0x350
#define LVT_MASKED		(1u << 16)
#define LVT_TSC_DEADLINE	(2u << 17)	/* timer mode bits 18:17 */
#define MSR_TSC_DEADLINE	0x6e0u
#define CPUID1_ECX_TSC_DEADLINE	(1u << 24)
#define SVR_ENABLE		(1u << 8)
#define ICR_BUSY		(1u << 12)	/* xAPIC delivery status */
#define ICR_LEVEL_ASSERT	(1u << 14)	/* fixed + edge + physical */
#define ICR_DM_INIT		(5u << 8)	/* delivery mode INIT */
#define ICR_DM_STARTUP		(6u << 8)	/* delivery mode start-up (SIPI) */
#define ICR_WAIT_LOOPS		100000

/* This CPU's IA32_APIC_BASE, read once (percpu.apic_base): every LAPIC
 * access needs its mode and address, and an idle CPU's sleep (arm the
 * deadline, EOI, disarm) takes several. Callers run after the CPU's
 * tables are loaded (cpu_init, smp_ap_entry), so this_cpu() is valid. */
static uint64_t apic_base(void)
{
	struct percpu *p = this_cpu();

	if (!p->apic_base)
		p->apic_base = rdmsr(MSR_APIC_BASE);
	return p->apic_base;
}

bool lapic_is_x2apic(void)
{
	return apic_base() & APIC_BASE_X2APIC;
}

static volatile uint32_t *xreg(uint32_t off)
{
	return (volatile uint32_t *)hv_va((apic_base() &
					   APIC_BASE_ADDR_MASK) + off);
}

static uint32_t reg_read(uint32_t off)
{
	return lapic_is_x2apic() ? (uint32_t)rdmsr(0x800 + off / 16)
				 : *xreg(off);
}

static void reg_write(uint32_t off, uint32_t v)
{
	if (lapic_is_x2apic())
		wrmsr(0x800 + off / 16, v);
	else
		*xreg(off) = v;
}

void lapic_init(void)
{
	/* The firmware's timer and its LINT0 (the 8259's ExtINT path) must
	 * not fire into our windows. */
	reg_write(REG_LVT_TIMER, reg_read(REG_LVT_TIMER) | LVT_MASKED);
	reg_write(REG_LVT_LINT0, reg_read(REG_LVT_LINT0) | LVT_MASKED);
	reg_write(REG_TPR, 0);
	reg_write(REG_SVR, (reg_read(REG_SVR) & ~0xffu) | SVR_ENABLE |
				   LAPIC_SPURIOUS_VECTOR);
}

uint32_t lapic_id(void)
{
	return lapic_is_x2apic() ? (uint32_t)rdmsr(0x802) : *xreg(REG_ID) >> 24;
}

void lapic_eoi(void)
{
	reg_write(REG_EOI, 0);
}

/* One IPI through the ICR (SDM Vol. 3A 10.6.1), physical destination. In
 * x2APIC mode a single 64-bit write with no delivery status to wait for;
 * in xAPIC mode the destination goes in ICR_HI first, the write to ICR_LO
 * sends, and a previous IPI still pending makes us wait (bounded). */
static int icr_send(uint32_t dest, uint32_t low)
{
	if (lapic_is_x2apic()) {
		wrmsr(0x830, (uint64_t)dest << 32 | low);
		return 0;
	}
	for (unsigned i = 0; *xreg(REG_ICR_LO) & ICR_BUSY; i++) {
		if (i == ICR_WAIT_LOOPS)
			return -1;
		cpu_relax();
	}
	*xreg(REG_ICR_HI) = dest << 24;
	*xreg(REG_ICR_LO) = low; /* sends */
	return 0;
}

int lapic_send_fixed(uint32_t dest, uint8_t vector)
{
	return icr_send(dest, ICR_LEVEL_ASSERT | vector);
}

int lapic_send_init(uint32_t dest)
{
	return icr_send(dest, ICR_DM_INIT | ICR_LEVEL_ASSERT);
}

int lapic_send_sipi(uint32_t dest, uint8_t vector)
{
	return icr_send(dest, ICR_DM_STARTUP | ICR_LEVEL_ASSERT | vector);
}

bool lapic_deadline_ok(void)
{
	return cpuid(1, 0).ecx & CPUID1_ECX_TSC_DEADLINE;
}

void lapic_deadline_arm(uint8_t vector, uint64_t tsc)
{
	reg_write(REG_LVT_TIMER, LVT_TSC_DEADLINE | vector);
	/* The mode switch must be seen before the deadline is written
	 * (SDM 3A 10.5.4.1): an MFENCE between the two. */
	__asm__ volatile("mfence" ::: "memory");
	wrmsr(MSR_TSC_DEADLINE, tsc);
}
