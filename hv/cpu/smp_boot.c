/* INIT-SIPI-SIPI and the AP's entry (hv/cpu/smp_boot.h). The sequence and
 * its delays are the SDM's MP initialization protocol (Vol. 3A 8.4.4.1):
 * INIT, 10 ms, SIPI, 200 us, SIPI, 200 us; a CPU already started ignores
 * the second SIPI. */
#include "hv/cpu/smp_boot.h"
#include "hv/cpu/ap_tramp.h"
#include "hv/cpu/cpu.h"
#include "hv/cpu/host_lapic.h"
#include "hv/cpu/x86.h"
#include "hv/platform/tsc.h"

#define INIT_DELAY_US	10000
#define SIPI_DELAY_US	200
/* How long an AP may take from its SIPI to its check-in, and from then to
 * parked (its VMXON): real CPUs need microseconds; the bound only keeps a
 * dead or missing CPU from holding the boot. */
#define CHECKIN_US	100000
#define WORK_US		100000
#define MSR_PAT		0x277u

/* The BSP's PAT, for the AP to take (it holds the write-combining entry
 * device apertures are mapped with, hv/mm/paging_mmio.c). */
static uint64_t bsp_pat;

static uint64_t us_to_tsc(uint64_t us)
{
	return tsc_hz() / 1000000 * us;
}

static void delay_us(uint64_t us)
{
	uint64_t end = rdtsc() + us_to_tsc(us);

	while ((int64_t)(rdtsc() - end) < 0)
		cpu_relax();
}

static uint32_t state_of(const struct percpu *p)
{
	return __atomic_load_n(&p->state, __ATOMIC_ACQUIRE);
}

/* Until p's state reaches `want` or `us` microseconds have passed. */
static int wait_state(const struct percpu *p, uint32_t want, uint64_t us)
{
	uint64_t end = rdtsc() + us_to_tsc(us);

	while (state_of(p) < want) {
		if ((int64_t)(rdtsc() - end) >= 0)
			return state_of(p) >= want ? 0 : -1;
		cpu_relax();
	}
	return 0;
}

static int send_init_sipi_sipi(uint32_t apic_id, uint8_t vector)
{
	if (lapic_send_init(apic_id))
		return -1;
	delay_us(INIT_DELAY_US);
	for (int i = 0; i < 2; i++) {
		if (lapic_send_sipi(apic_id, vector))
			return -1;
		delay_us(SIPI_DELAY_US);
	}
	return 0;
}

enum smp_start smp_start_ap(void *tramp, uint64_t tramp_pa, struct percpu *p)
{
	bsp_pat = rdmsr(MSR_PAT);
	ap_tramp_offer(tramp, (uint64_t)(uintptr_t)p);
	if (send_init_sipi_sipi(p->apic_id, ap_tramp_sipi_vector(tramp_pa))) {
		ap_tramp_withdraw(tramp);
		return SMP_START_ICR_BUSY;
	}
	if (!wait_state(p, PERCPU_UP, CHECKIN_US))
		return SMP_START_UP;
	/* Withdrawn before anyone took it: no AP will ever use p. */
	if (ap_tramp_withdraw(tramp))
		return SMP_START_NO_CHECKIN;
	/* Taken at the last moment, or taken and lost on the way: one more
	 * wait, then INIT puts it back in wait-for-SIPI, off our memory. */
	if (!wait_state(p, PERCPU_UP, CHECKIN_US))
		return SMP_START_UP;
	lapic_send_init(p->apic_id);
	return SMP_START_STUCK;
}

int smp_wait_parked(struct percpu *p)
{
	return wait_state(p, PERCPU_PARKED, WORK_US);
}

const char *smp_start_name(enum smp_start s)
{
	switch (s) {
	case SMP_START_UP:
		return "up";
	case SMP_START_NO_CHECKIN:
		return "no check-in after INIT-SIPI-SIPI";
	case SMP_START_STUCK:
		return "took its area but never checked in (sent INIT)";
	case SMP_START_ICR_BUSY:
		return "the BSP's ICR stayed busy";
	}
	return "?";
}

/* Parked: interrupts off, so only NMI, SMI, INIT or a SIPI wakes it, and
 * it halts again. */
static void __attribute__((noreturn)) park(void)
{
	for (;;) {
		cli();
		hlt();
	}
}

/* An AP with VMs placed on it spins until the BSP has created them and
 * hands it its scheduler loop (docs/smp.md): spinning, not halting, since
 * with interrupts off only an NMI or INIT would wake a halted CPU. Only
 * such APs spin; the others halt as before. */
static void wait_for_run(struct percpu *p)
{
	void (*run)(struct percpu *p);

	while (!(run = __atomic_load_n(&p->run, __ATOMIC_ACQUIRE)))
		cpu_relax();
	run(p);
}

void smp_ap_entry(struct percpu *p)
{
	cpu_tables_load(p);
	wrmsr(MSR_PAT, bsp_pat);
	lapic_init();
	p->seen_apic_id = lapic_id();
	__atomic_store_n(&p->state, PERCPU_UP, __ATOMIC_RELEASE);
	if (p->ap_work)
		p->ap_work(p);
	__atomic_store_n(&p->state, PERCPU_PARKED, __ATOMIC_RELEASE);
	if (p->vm_placed)
		wait_for_run(p);
	park();
}
