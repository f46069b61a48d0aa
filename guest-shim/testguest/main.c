/* The test guest: a 64-bit kernel that checks, from inside a VM, what the
 * hypervisor promises (docs/hypercalls.md), then exits by hypercall.
 *
 * hv.cfg's cmdline selects the mode:
 *   mode=checks   every check below (the default)
 *   mode=fault    read a guest-physical address beyond RAM: the hypervisor
 *                 must stop this VM (and only it)
 *   mode=ticker   print a line every 100 ms for 1.5 s of guest time, then
 *                 exit: the "other VM goes on" half of the fault test
 *   mode=bench    time 10,000 round trips of each exit type (with the
 *                 word "gpu", then the vGPU paths: gpu_test.c)
 *   mode=idle     sleep in HLT on a 10 Hz timer, print a line every 10 s of
 *                 guest time, never exit (a VM to look at from the shell);
 *                 with the word "echo", each line typed on its UART (the
 *                 shell's `console`) is printed back as "echo: LINE"
 *   mode=gpu      the i915-like GPU test on the vGPU at 00:02.0 (gpu_test.c;
 *                 with the word "fence" also a fenced aperture range);
 *                 with the word "loop", then a blit every 100 ms forever;
 *                 with "vmrpc", the GPU-memory channel (vmrpc_test.c);
 *                 with "move", blit while the hypervisor re-places its
 *                 high GM, following each move (move_test.c); with
 *                 "hang", a batch that hangs the engine, then recovery;
 *                 with "watch", 0.6 s of timed rounds (hang_test.c)
 *   mode=gpu-attack  the same setup, then attacks the mediator must refuse
 *   mode=hostile  CPU-side attacks and their victims (hostile.c, issue 19)
 *   mode=smp smp=N  start the VM's N vCPUs with INIT-SIPI-SIPI and check
 *                 each (smp_test.c; hv.cfg vcpus=N)
 *   mode=gpu-hostile every attack class of issue 13 (gpu_hostile.c)
 *   mode=reset    check that RAM came up clean, mark it, then reset the
 *                 VM through port 0xCF9: the hypervisor restarts it (fresh
 *                 RAM: the mark is gone), and stops it after a reset loop
 * Each check prints "CHECK <name>: PASS|FAIL (...)" on the UART and reports
 * through the TEST_REPORT hypercall. */
#include "guest-shim/testguest/gpu_test.h"
#include "guest-shim/testguest/tg.h"
#include "mini/string.h"

#define MSR_X2APIC_TPR		0x808
#define MSR_X2APIC_SVR		0x80f
#define MSR_X2APIC_LVT_TIMER	0x832
#define MSR_X2APIC_INIT_COUNT	0x838
#define MSR_X2APIC_DIV_CONF	0x83e
#define LVT_PERIODIC		(1u << 17)
#define TIMER_HZ		50
#define ISOLATION_GPA		0x400000ull
#define UNCLAIMED_PORT		0x2f0
#define VEC_UD			6
#define VEC_GP			13

extern char __image_end[];
static const struct raw64_boot_info *boot;
static uint64_t tsc_hz;
static volatile uint64_t *const testdev =
	(volatile uint64_t *)(uintptr_t)G9HV_TESTDEV_GPA;

static bool has_word(const char *cmdline, const char *word);

/* The decimal number after `word` (e.g. "smp=") in the cmdline, or 0. */
static unsigned word_number(const char *cmdline, const char *word)
{
	size_t n = strlen(word);
	unsigned v = 0;

	for (const char *p = cmdline; *p; p++) {
		if ((p != cmdline && p[-1] != ' ') || strncmp(p, word, n))
			continue;
		for (p += n; *p >= '0' && *p <= '9' && v < 1000; p++)
			v = v * 10 + (unsigned)(*p - '0');
		return v;
	}
	return 0;
}

static bool has_word(const char *cmdline, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = cmdline; *p; p++)
		if ((p == cmdline || p[-1] == ' ') && !strncmp(p, word, n) &&
		    (p[n] == 0 || p[n] == ' '))
			return true;
	return false;
}

#define CPUID_1_EDX_ACPI_TM	((1u << 22) | (1u << 29))
#define CPUID_6_EAX_ARAT	(1u << 2)

static void check_cpuid(void)
{
	struct cpuid_regs r = cpuid(G9HV_CPUID_LEAF, 0);
	char sig[13];

	memcpy(sig, &r.ebx, 4);
	memcpy(sig + 4, &r.ecx, 4);
	memcpy(sig + 8, &r.edx, 4);
	sig[12] = 0;
	tg_check("cpuid-hv-leaf", !strcmp(sig, "g9hvg9hvg9hv") &&
		 r.eax >= G9HV_CPUID_LEAF + 1, "signature '%s', max leaf %x",
		 sig, r.eax);
	r = cpuid(1, 0);
	tg_check("cpuid-no-vmx", !(r.ecx & CPUID_1_ECX_VMX) &&
		 (r.ecx & CPUID_1_ECX_HYPERVISOR), "leaf 1 ecx %08x", r.ecx);
	/* Thermal and power management are not virtualised: CPUID must not
	 * send a guest to their MSRs (leaf 1 ACPI/TM, leaf 6 beyond ARAT). */
	tg_check("cpuid-no-power-msrs", !(r.edx & CPUID_1_EDX_ACPI_TM) &&
		 cpuid(6, 0).eax == CPUID_6_EAX_ARAT && cpuid(6, 0).ecx == 0,
		 "leaf 1 edx %08x, leaf 6 eax %08x ecx %08x", r.edx,
		 cpuid(6, 0).eax, cpuid(6, 0).ecx);
}

static void check_serial(void)
{
	outb(0x3f8 + 7, 0x5a);	/* scratch register */
	tg_check("serial", (inb(0x3f8 + 5) & 0x60) == 0x60 &&
		 inb(0x3f8 + 7) == 0x5a, "LSR %02x, scratch readback",
		 inb(0x3f8 + 5));
}

static void check_hypercalls(void)
{
	int64_t v = hypercall(G9HV_HC_VERSION, 0, 0, 0);
	int64_t bad = hypercall(0xdeadbeef, 1, 2, 3);
	int64_t fault = hypercall(G9HV_HC_PUTS, 0x0000700000000000ull, 8, 0);
	int64_t big = hypercall(G9HV_HC_PUTS, (uint64_t)(uintptr_t)"x",
				100000, 0);
	int64_t inval = hypercall(G9HV_HC_TEST_REPORT,
				  (uint64_t)(uintptr_t)"x", 1, 7);
	int64_t id = hypercall(G9HV_HC_VM_ID, 0, 0, 0);

	tg_check("hypercall-version", v == G9HV_ABI_VERSION, "%llx",
		 (unsigned long long)v);
	tg_check("hypercall-bad-input", bad == -G9HV_ENOSYS &&
		 fault == -G9HV_EFAULT && big == -G9HV_E2BIG &&
		 inval == -G9HV_EINVAL, "%lld %lld %lld %lld", (long long)bad,
		 (long long)fault, (long long)big, (long long)inval);
	tg_check("hypercall-vm-id", id == boot->vm_id, "%lld",
		 (long long)id);
}

static void check_msrs(void)
{
	uint64_t val = 0;
	int64_t r = tg_try_rdmsr(0x12345678, &val);
	int64_t w = tg_try_wrmsr(0xc0de0000, 1);
	int64_t tpr_w = tg_try_wrmsr(MSR_X2APIC_TPR, 0x20);
	int64_t tpr_r = tg_try_rdmsr(MSR_X2APIC_TPR, &val);

	tg_check("msr-unknown-gp", r == VEC_GP && w == VEC_GP,
		 "rdmsr -> vector %lld, wrmsr -> vector %lld", (long long)r,
		 (long long)w);
	tg_check("msr-x2apic-tpr", tpr_w == -1 && tpr_r == -1 && val == 0x20,
		 "tpr %llx", (unsigned long long)val);
	wrmsr(MSR_X2APIC_TPR, 0);
}

static void check_io_pci(void)
{
	uint8_t v = inb(UNCLAIMED_PORT);
	uint32_t hb, none;

	outb(UNCLAIMED_PORT, 1);
	tg_check("io-unclaimed", v == 0xff, "in %x -> %02x", UNCLAIMED_PORT, v);
	outl(0xcf8, 0x80000000u);
	hb = inl(0xcfc);
	outl(0xcf8, 0x80000800u);	/* 00:01.0 */
	none = inl(0xcfc);
	tg_check("pci-host-bridge", hb == 0x191f8086u && none == 0xffffffffu,
		 "00:00.0 %08x, 00:01.0 %08x", hb, none);
}

static void check_vmx_ud(void)
{
	int64_t a = tg_try_vmxon(), b = tg_try_vmread();

	tg_check("vmx-insn-ud", a == VEC_UD && b == VEC_UD,
		 "vmxon -> %lld, vmread -> %lld", (long long)a, (long long)b);
}

static void check_mmio(void)
{
	uint64_t id = testdev[G9HV_TESTDEV_ID / 8], c0, c1, s;

	c0 = testdev[G9HV_TESTDEV_COUNT / 8];
	testdev[G9HV_TESTDEV_SCRATCH / 8] = 0x1122334455667788ull;
	s = testdev[G9HV_TESTDEV_SCRATCH / 8];
	*(volatile uint8_t *)(uintptr_t)G9HV_TESTDEV_GPA = 0x99;
	c1 = testdev[G9HV_TESTDEV_COUNT / 8];
	tg_check("mmio-testdev", id == G9HV_TESTDEV_MAGIC &&
		 s == 0x1122334455667788ull && c1 == c0 + 4,
		 "id %llx scratch %llx count %llu->%llu",
		 (unsigned long long)id, (unsigned long long)s,
		 (unsigned long long)c0, (unsigned long long)c1);
}

void tg_timer_start(uint32_t hz)
{
	wrmsr(MSR_X2APIC_SVR, 0x1ff);		/* APIC software-enabled */
	wrmsr(MSR_X2APIC_DIV_CONF, 0xb);	/* divide by 1 */
	wrmsr(MSR_X2APIC_LVT_TIMER, LVT_PERIODIC | TG_TIMER_VECTOR);
	wrmsr(MSR_X2APIC_INIT_COUNT, tsc_hz / hz);
}

static void timer_stop(void)
{
	wrmsr(MSR_X2APIC_INIT_COUNT, 0);
}

/* Periodic x2APIC timer at TIMER_HZ over one second of guest time (TSC). */
static void check_timer(void)
{
	uint64_t start, t0, n;

	tg_timer_start(TIMER_HZ);
	__asm__ volatile("sti");
	t0 = tg_ticks;
	start = rdtsc();
	while (rdtsc() - start < tsc_hz)
		__asm__ volatile("hlt");
	n = tg_ticks - t0;
	__asm__ volatile("cli");
	timer_stop();
	tg_check("timer-rate", n >= TIMER_HZ * 8 / 10 && n <= TIMER_HZ * 12 / 10,
		 "%llu interrupts in 1 s at %u Hz", (unsigned long long)n,
		 TIMER_HZ);
}

/* Our marker at a fixed guest-physical address; the other VMs put theirs
 * at the same address of their own space. None of theirs may be visible
 * anywhere in our RAM. The marker's high half comes from a volatile so the
 * 64-bit pattern never appears in our own image. */
static void check_isolation(void)
{
	static volatile uint32_t marker_hi = 0x150a7e00u;
	uint64_t mine = ((uint64_t)marker_hi << 32) | (boot->vm_id + 1);
	volatile uint64_t *slot = (volatile uint64_t *)(uintptr_t)ISOLATION_GPA;
	uint64_t found = 0, img0 = RAW64_LOAD_GPA;
	uint64_t img1 = (uint64_t)(uintptr_t)__image_end;

	*slot = mine;
	for (int i = 0; i < 3; i++)
		hypercall(G9HV_HC_YIELD, 0, 0, 0);
	for (uint64_t a = 0x1000; a < boot->mem_bytes; a += 8) {
		uint64_t v;

		if (a >= img0 && a < img1)
			continue;
		v = *(volatile uint64_t *)(uintptr_t)a;
		if ((v >> 32) == marker_hi && v != mine)
			found++;
	}
	tg_check("isolation", *slot == mine && !found,
		 "own marker %s, %llu foreign markers in %llu MiB",
		 *slot == mine ? "intact" : "CHANGED",
		 (unsigned long long)found,
		 (unsigned long long)(boot->mem_bytes >> 20));
}

static void run_checks(void)
{
	check_cpuid();
	check_serial();
	check_hypercalls();
	check_msrs();
	check_io_pci();
	check_vmx_ud();
	check_mmio();
	check_timer();
	check_isolation();
	tg_printf("checks done: %u failed\n", tg_failed);
	tg_exit(tg_failed ? 1 : 0);
}

static void run_fault(void)
{
	uint64_t gpa = 0x80000000ull;	/* mapped by our page tables, not EPT */

	tg_printf("reading unmapped guest-physical %llx\n",
		  (unsigned long long)gpa);
	(void)*(volatile uint64_t *)(uintptr_t)gpa;
	tg_check("fault-stops-vm", false, "the read returned");
	tg_exit(1);
}

static void run_ticker(void)
{
	for (int i = 1; i <= 15; i++) {
		uint64_t t = rdtsc();

		while (rdtsc() - t < tsc_hz / 10)
			;
		tg_printf("tick %d\n", i);
	}
	tg_exit(0);
}

/* The UART's received bytes, polled on each tick (no receive interrupt
 * to set up): a line is answered "echo: LINE" at CR or LF; a line longer
 * than the buffer is answered in pieces. */
static void echo_poll(void)
{
	static char line[64];
	static unsigned len;

	for (unsigned i = 0; i < 16 && (inb(0x3f8 + 5) & 0x01); i++) {
		char c = (char)inb(0x3f8);
		bool end = c == '\r' || c == '\n';

		if (!end)
			line[len++] = c;
		if ((end && len) || len == sizeof(line) - 1) {
			line[len] = 0;
			tg_printf("echo: %s\n", line);
			len = 0;
		}
	}
}

static void run_idle(bool echo)
{
	uint64_t seconds = 0, next;

	tg_timer_start(10);
	__asm__ volatile("sti");
	next = tg_ticks + 100;
	for (;;) {
		__asm__ volatile("hlt");
		if (echo)
			echo_poll();
		if (tg_ticks >= next) {
			seconds += 10;
			next += 100;
			tg_printf("idle for %llu s\n", (unsigned long long)seconds);
		}
	}
}

#define BENCH_N 10000

static void bench_report(const char *what, uint64_t t0, uint64_t t1)
{
	tg_printf("BENCH %s %u %llu %llu\n", what, BENCH_N,
		  (unsigned long long)(t1 - t0),
		  (unsigned long long)((t1 - t0) / BENCH_N));
}

static void run_bench(void)
{
	uint64_t t0, t1;

	t0 = rdtsc();
	for (int i = 0; i < BENCH_N; i++)
		(void)cpuid(0, 0);
	bench_report("cpuid", t0, rdtsc());
	t0 = rdtsc();
	for (int i = 0; i < BENCH_N; i++)
		(void)inb(0x3f8 + 7);
	bench_report("io", t0, rdtsc());
	t0 = rdtsc();
	for (int i = 0; i < BENCH_N; i++)
		(void)rdmsr(MSR_X2APIC_TPR);
	bench_report("msr", t0, rdtsc());
	t0 = rdtsc();
	for (int i = 0; i < BENCH_N; i++)
		(void)testdev[G9HV_TESTDEV_ID / 8];
	bench_report("mmio", t0, rdtsc());
	t0 = rdtsc();
	for (int i = 0; i < BENCH_N; i++)
		hypercall(G9HV_HC_VERSION, 0, 0, 0);
	t1 = rdtsc();
	bench_report("hypercall", t0, t1);
	t0 = rdtsc();
	for (int i = 0; i < BENCH_N; i++)
		__asm__ volatile("" ::: "memory");
	bench_report("loop-overhead", t0, rdtsc());
	if (has_word(boot->cmdline, "gpu"))
		gpu_bench(boot->vm_id);
	tg_exit(tg_failed ? 1 : 0);
}

#define PORT_RESET_CONTROL	0xcf9
#define CF9_SYS_RST_RESET_CPU	0x06
#define RESET_MARK		0x7265736574ull	/* "reset" */

/* The last 8 bytes of RAM: no image or boot data lives there. */
static void run_reset(const struct raw64_boot_info *bi)
{
	volatile uint64_t *mark = (volatile uint64_t *)(uintptr_t)
				  (bi->mem_bytes - sizeof(uint64_t));

	tg_printf("reset: RAM %s at boot\n",
		  *mark == RESET_MARK ? "still marked (not fresh)" : "clean");
	*mark = RESET_MARK;
	tg_printf("reset: writing cf9\n");
	outb(PORT_RESET_CONTROL, CF9_SYS_RST_RESET_CPU);
	tg_printf("reset: still running after the reset\n");
	tg_exit(3);
}

void tg_main(const struct raw64_boot_info *bi)
{
	boot = bi;
	tg_idt_init();
	tg_printf("hello from test guest '%s' (vm %u, %llu MiB, cmdline '%s')\n",
		  bi->vm_name, bi->vm_id,
		  (unsigned long long)(bi->mem_bytes >> 20), bi->cmdline);
	if (bi->magic != RAW64_BOOT_MAGIC) {
		tg_printf("bad boot info magic\n");
		tg_exit(2);
	}
	tsc_hz = (uint64_t)hypercall(G9HV_HC_TSC_HZ, 0, 0, 0);
	if (has_word(bi->cmdline, "mode=fault"))
		run_fault();
	if (has_word(bi->cmdline, "mode=ticker"))
		run_ticker();
	if (has_word(bi->cmdline, "mode=bench"))
		run_bench();
	if (has_word(bi->cmdline, "mode=idle"))
		run_idle(has_word(bi->cmdline, "echo"));
	if (has_word(bi->cmdline, "mode=reset"))
		run_reset(bi);
	if (has_word(bi->cmdline, "mode=hostile"))
		hostile_main(bi, tsc_hz);
	if (has_word(bi->cmdline, "mode=smp"))
		smp_test_run(word_number(bi->cmdline, "smp="), tsc_hz);
	if (has_word(bi->cmdline, "mode=gpu")) {
		gpu_test(bi->vm_id);
		if (has_word(bi->cmdline, "fence") && !tg_failed)
			gpu_fence_test();
		if (has_word(bi->cmdline, "vmrpc") && !tg_failed)
			vmrpc_test();
		if (has_word(bi->cmdline, "move") && !tg_failed)
			move_test(bi->vm_id);
		if (has_word(bi->cmdline, "hang") && !tg_failed)
			hang_test(bi->vm_id);
		if (has_word(bi->cmdline, "watch") && !tg_failed)
			watch_test(bi->vm_id);
		if (has_word(bi->cmdline, "loop") && !tg_failed)
			gpu_demo(bi->vm_id);
		tg_exit(tg_failed ? 1 : 0);
	}
	if (has_word(bi->cmdline, "mode=gpu-hostile"))
		gpu_hostile(bi->cmdline);
	if (has_word(bi->cmdline, "mode=gpu-attack")) {
		gpu_attack(bi->mem_bytes);
		tg_exit(1);
	}
	run_checks();
}
