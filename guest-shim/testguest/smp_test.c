/* mode=smp smp=N (docs/smp.md, "Several vCPUs"): the VM has N vCPUs
 * (hv.cfg vcpus=N); vCPU 0 starts the others with INIT-SIPI-SIPI and runs
 * checks on each: it came up at the trampoline with its own APIC ID, an
 * IPI round trip to it and back (timed with the TSC: in Bochs, executed
 * instructions), an NMI IPI to the last, a counter all of them increment
 * with LOCK, a CPU-bound job timed alone and then on every vCPU at once
 * (the scaling), a second INIT-SIPI restarting vCPU 1, and IPIs the hypervisor must not deliver (a
 * SIPI to a running vCPU, an APIC ID the VM does not have). Only vCPU 0
 * prints and reports. */
#include "guest-shim/testguest/tg.h"

#define MSR_X2APIC_ID		0x802u
#define MSR_X2APIC_EOI		0x80bu
#define MSR_X2APIC_SVR		0x80fu
#define MSR_X2APIC_ICR		0x830u
#define ICR_INIT		(5u << 8 | 1u << 14)
#define ICR_INIT_DEASSERT	(5u << 8 | 1u << 15)
#define ICR_SIPI		(6u << 8 | 1u << 14)
#define ICR_FIXED		(1u << 14)
#define ICR_NMI			(4u << 8 | 1u << 14)
#define SMP_MAX			8
#define TRAMPOLINE_GPA		0xa000ull	/* SIPI vector 0x0a */
#define ROUNDS			16
#define INCS			20000
#define JOB_ROUNDS		200000	/* the CPU-bound job's loop */

extern char tg_ap_entry[];
volatile uint64_t tg_ap_boots[SMP_MAX];	/* per APIC ID, by the AP */
volatile uint32_t tg_ap_seen_id[SMP_MAX];
volatile uint64_t tg_ap_pings, tg_pongs, tg_smp_nmis;
bool tg_smp_active;
static volatile uint64_t shared_count, incs_done;
static volatile uint32_t go_count, go_job;
static volatile uint64_t jobs_done, job_result[SMP_MAX];

/* The CPU-bound job: registers only (an LCG), no shared memory, so
 * vCPUs on separate CPUs would not slow each other; the result proves
 * it ran to the end. */
static uint64_t cpu_job(void)
{
	uint64_t x = 1;

	for (unsigned i = 0; i < JOB_ROUNDS; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static void icr(uint32_t dest, uint32_t lo)
{
	wrmsr(MSR_X2APIC_ICR, (uint64_t)dest << 32 | lo);
}

/* On an AP, from entry.asm with its stack: check in, then take pings. */
void tg_ap_main(uint32_t id)
{
	tg_idt_load();
	wrmsr(MSR_X2APIC_SVR, 0x1ff);
	if (id < SMP_MAX) {
		tg_ap_seen_id[id] = (uint32_t)rdmsr(MSR_X2APIC_ID);
		__atomic_add_fetch(&tg_ap_boots[id], 1, __ATOMIC_SEQ_CST);
	}
	while (!__atomic_load_n(&go_count, __ATOMIC_ACQUIRE))
		__asm__ volatile("pause");
	for (unsigned i = 0; i < INCS; i++)
		__atomic_add_fetch(&shared_count, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&incs_done, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&go_job, __ATOMIC_ACQUIRE))
		__asm__ volatile("pause");
	if (id < SMP_MAX)
		job_result[id] = cpu_job();
	__atomic_add_fetch(&jobs_done, 1, __ATOMIC_SEQ_CST);
	for (;;)
		__asm__ volatile("sti; hlt; cli");
}

/* Ping on an AP: answer vCPU 0. Pong on vCPU 0: count it. */
void tg_smp_irq(uint64_t vector)
{
	if (vector == TG_PING_VECTOR) {
		tg_ap_pings++;
		icr(0, ICR_FIXED | TG_PONG_VECTOR);
	} else {
		tg_pongs++;
	}
	wrmsr(MSR_X2APIC_EOI, 0);
}

/* Waits (halted, the timer waking it) until *v >= want or `ticks` pass. */
static bool wait_for(volatile uint64_t *v, uint64_t want, uint64_t ticks)
{
	uint64_t t0 = rdtsc();

	__asm__ volatile("cli");
	while (*v < want && rdtsc() - t0 < ticks)
		__asm__ volatile("sti; hlt; cli");
	__asm__ volatile("sti");
	return *v >= want;
}

static void start_ap(uint32_t id)
{
	icr(id, ICR_INIT);
	icr(id, ICR_INIT_DEASSERT);
	icr(id, ICR_SIPI | (uint32_t)(TRAMPOLINE_GPA >> 12));
	icr(id, ICR_SIPI | (uint32_t)(TRAMPOLINE_GPA >> 12));
}

/* movabs rax, tg_ap_entry; jmp rax: where a SIPI with vector 0x0a lands. */
static void put_trampoline(void)
{
	volatile uint8_t *t = (volatile uint8_t *)(uintptr_t)TRAMPOLINE_GPA;
	uint64_t a = (uint64_t)(uintptr_t)tg_ap_entry;

	t[0] = 0x48;
	t[1] = 0xb8;
	for (unsigned i = 0; i < 8; i++)
		t[2 + i] = (uint8_t)(a >> (8 * i));
	t[10] = 0xff;
	t[11] = 0xe0;
}

static void check_round_trips(unsigned n, uint64_t tsc_hz)
{
	for (uint32_t id = 1; id < n; id++) {
		uint64_t best = ~0ull, sum = 0;
		unsigned ok = 0;

		for (unsigned r = 0; r < ROUNDS; r++) {
			uint64_t want = tg_pongs + 1, t0 = rdtsc(), d;

			icr(id, ICR_FIXED | TG_PING_VECTOR);
			if (!wait_for(&tg_pongs, want, tsc_hz / 10))
				break;
			d = rdtsc() - t0;
			sum += d;
			best = d < best ? d : best;
			ok++;
		}
		tg_check("smp-ipi-round-trip", ok == ROUNDS,
			 "vCPU %u: %u of %u pings answered, TSC ticks per "
			 "round trip: min %llu, mean %llu", id, ok, ROUNDS,
			 (unsigned long long)best,
			 (unsigned long long)(ok ? sum / ok : 0));
	}
}

/* The job once on vCPU 0 alone (before any AP runs), then on all n at
 * once: scaling = n x alone / together (n where each vCPU had a CPU of
 * its own, 1.0 where they take turns on one). vCPU 0 waits with PAUSE,
 * which yields its turn to a sibling (PAUSE-loop exiting). */
static uint64_t job_alone;

static void check_scaling(unsigned n, uint64_t tsc_hz)
{
	uint64_t t0 = rdtsc(), t, want = job_result[0];
	bool same = true;

	__atomic_store_n(&go_job, 1, __ATOMIC_RELEASE);
	job_result[0] = cpu_job();
	while (__atomic_load_n(&jobs_done, __ATOMIC_ACQUIRE) < n - 1 &&
	       rdtsc() - t0 < tsc_hz)
		__asm__ volatile("pause");
	t = rdtsc() - t0;
	for (unsigned i = 0; i < n; i++)
		same &= job_result[i] == want;
	tg_check("smp-scaling", jobs_done == n - 1 && same,
		 "job alone %llu ticks, on %u vCPUs at once %llu ticks: "
		 "scaling x%llu.%02llu", (unsigned long long)job_alone, n,
		 (unsigned long long)t,
		 (unsigned long long)(n * job_alone / t),
		 (unsigned long long)(n * job_alone * 100 / t % 100));
}

void smp_test_run(unsigned n, uint64_t tsc_hz)
{
	bool up = true, ids = true, again;
	uint64_t t0;

	if (n < 2 || n > SMP_MAX) {
		tg_printf("smp: smp=%u: want 2-%u vCPUs\n", n, SMP_MAX);
		tg_exit(2);
	}
	t0 = rdtsc();
	job_result[0] = cpu_job();
	job_alone = rdtsc() - t0;
	tg_smp_active = true;
	tg_timer_start(100);	/* wakes the waits below */
	put_trampoline();
	for (uint32_t id = 1; id < n; id++)
		start_ap(id);
	for (uint32_t id = 1; id < n; id++) {
		up &= wait_for(&tg_ap_boots[id], 1, tsc_hz);
		ids &= tg_ap_seen_id[id] == id;
	}
	tg_check("smp-aps-up", up, "%u APs started by INIT-SIPI-SIPI", n - 1);
	tg_check("smp-apic-ids", ids, "each AP reads its own x2APIC ID");

	__atomic_store_n(&go_count, 1, __ATOMIC_RELEASE);
	for (unsigned i = 0; i < INCS; i++)
		__atomic_add_fetch(&shared_count, 1, __ATOMIC_SEQ_CST);
	wait_for(&incs_done, n - 1, tsc_hz);
	tg_check("smp-shared-counter", shared_count == (uint64_t)n * INCS,
		 "%llu increments by %u vCPUs, want %llu",
		 (unsigned long long)shared_count, n,
		 (unsigned long long)n * INCS);
	check_scaling(n, tsc_hz);

	check_round_trips(n, tsc_hz);
	icr(n - 1, ICR_NMI);
	tg_check("smp-nmi", wait_for(&tg_smp_nmis, 1, tsc_hz / 10),
		 "NMI IPI to vCPU %u taken", n - 1);

	/* Not delivered: a SIPI to a running vCPU, an ID nobody has. */
	icr(1, ICR_SIPI | (uint32_t)(TRAMPOLINE_GPA >> 12));
	icr(SMP_MAX + 7, ICR_FIXED | TG_PING_VECTOR);
	/* INIT then SIPI again: vCPU 1 starts over at the trampoline. */
	start_ap(1);
	/* Waited for before the count is printed: the arguments' order of
	 * evaluation is the compiler's, and with vCPU 1 on another CPU
	 * (smp-span-bochs) it boots while vCPU 0 runs. */
	again = wait_for(&tg_ap_boots[1], 2, tsc_hz) && tg_ap_boots[1] == 2;
	tg_check("smp-init-restarts", again, "vCPU 1 booted %llu times",
		 (unsigned long long)tg_ap_boots[1]);
	tg_exit(tg_failed ? 1 : 0);
}
