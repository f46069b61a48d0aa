/* mode=hostile: the test guest as a hostile neighbour and as its victim
 * (issue 19). The words after mode=hostile choose what it does:
 *   storm       program the x2APIC timer with a period of one tick, enable
 *               interrupts and spin for STORM_SECONDS; check that the rate
 *               the hypervisor delivers is bounded by its minimum period
 *   victim      spin for VICTIM_SECONDS measuring the share of the CPU this
 *               VM actually got (TSC gaps longer than GAP_US are time
 *               another VM ran); check it is at least minshare=N per mille
 *               (with "timer": a 1 kHz periodic timer runs meanwhile)
 *   leak        write markers into CR2, DR0-DR3, DR6, DR7, DEBUGCTL, the
 *               SYSCALL/SYSENTER MSRs, PAT, KERNEL_GS_BASE, TSC_AUX and XMM5,
 *               yield to the other VMs many times and check every value is still
 *               ours (and that what we found at start was reset state)
 *   gp          illegal MSR/CR values: each must raise #GP, like hardware,
 *               and the VM must go on (no failed VM entry)
 *   mmio-cross  an 8-byte load running off the end of the test device's
 *               page into the unclaimed page after it: emulated in two
 *               parts, the second reading all ones
 *   mmio-walk   a page-table walk through the test device's page: the
 *               hypervisor must stop this VM (no instruction made it)
 *   mmio-split  an 8-byte load starting in RAM and ending in the device
 *               page (through 4-KiB mappings of our own): emulated in two
 *               parts, RAM and the device's scratch register
 *   mmio-emul   REP MOVS/STOS and SSE moves on the test device's memory
 *               window (mmio_emul_test.c)
 *   stopsync    1 kHz timer, HLT until a 4-second TSC boundary shared with
 *               the other stopsync VMs, then exit: many VMs stop at once
 *   exithog     exits whose work the guest's count chooses (exithog.c)
 *   exitvictim  their victim: CPU share and timer rate per attack; with
 *               minshare=N
 * Words combine (leak gp); the VM exits with its checks' verdict. */
#include "guest-shim/testguest/tg.h"
#include "mini/string.h"

#define VEC_GP			13
#define STORM_SECONDS		3
#define VICTIM_SECONDS		2
#define GAP_US			50
#define LEAK_ROUNDS		20
#define MSR_EFER		0xc0000080u
#define MSR_STAR		0xc0000081u
#define MSR_LSTAR		0xc0000082u
#define MSR_CSTAR		0xc0000083u
#define MSR_FMASK		0xc0000084u
#define MSR_KGS_BASE		0xc0000102u
#define MSR_TSC_AUX		0xc0000103u
#define MSR_SYSENTER_CS		0x174u
#define MSR_SYSENTER_ESP	0x175u
#define MSR_SYSENTER_EIP	0x176u
#define MSR_DEBUGCTL		0x1d9u
#define MSR_PAT			0x277u
#define MSR_X2APIC_SVR		0x80fu
#define MSR_X2APIC_LVT_TIMER	0x832u
#define MSR_X2APIC_INIT_COUNT	0x838u
#define MSR_X2APIC_DIV_CONF	0x83eu
#define LVT_PERIODIC		(1u << 17)
#define EFER_LME		(1ull << 8)
#define CR0_PG			(1ull << 31)
#define CR0_NW			(1ull << 29)
#define CR4_PAE			(1ull << 5)
#define CR4_VMXE		(1ull << 13)
#define CR4_OSXSAVE		(1ull << 18)
#define DR6_RESET		0xffff0ff0ull
#define DR7_RESET		0x400ull
#define PAT_RESET		0x0007040600070406ull

static const struct raw64_boot_info *boot;
static uint64_t tsc_hz;

static bool word(const char *w)
{
	size_t n = strlen(w);

	for (const char *p = boot->cmdline; *p; p++)
		if ((p == boot->cmdline || p[-1] == ' ') &&
		    !strncmp(p, w, n) && (p[n] == 0 || p[n] == ' '))
			return true;
	return false;
}

/* The number after "key=" in the command line, or dflt. */
static uint64_t number(const char *key, uint64_t dflt)
{
	size_t n = strlen(key);

	for (const char *p = boot->cmdline; *p; p++) {
		uint64_t v = 0;

		if ((p != boot->cmdline && p[-1] != ' ') || strncmp(p, key, n))
			continue;
		for (p += n; *p >= '0' && *p <= '9'; p++)
			v = v * 10 + (uint64_t)(*p - '0');
		return v;
	}
	return dflt;
}

/* --- control and debug registers, with #GP turned into a vector -------- */

#define TRY_MOV_TO(reg)							\
	static int64_t try_mov_##reg(uint64_t v)			\
	{								\
		int64_t r;						\
		__asm__ volatile("lea 1f(%%rip), %%rax\n\t"		\
				 "mov %%rax, tg_fixup_rip(%%rip)\n\t"	\
				 "mov %1, %%" #reg "\n\t"		\
				 "mov $-1, %%rax\n\t"			\
				 "jmp 2f\n"				\
				 "1: mov tg_fault_vector(%%rip), %%rax\n" \
				 "2: movq $0, tg_fixup_rip(%%rip)"	\
				 : "=&a"(r) : "r"(v) : "memory");	\
		return r;						\
	}
TRY_MOV_TO(cr0)
TRY_MOV_TO(cr3)
TRY_MOV_TO(cr4)
TRY_MOV_TO(cr8)

#define READ_REG(reg)							\
	static uint64_t get_##reg(void)					\
	{								\
		uint64_t v;						\
		__asm__ volatile("mov %%" #reg ", %0" : "=r"(v));	\
		return v;						\
	}
#define WRITE_REG(reg)							\
	static void set_##reg(uint64_t v)				\
	{								\
		__asm__ volatile("mov %0, %%" #reg : : "r"(v) : "memory"); \
	}
READ_REG(cr0) READ_REG(cr3) READ_REG(cr4) READ_REG(cr2)
WRITE_REG(cr2)
READ_REG(db0) READ_REG(db1) READ_REG(db2) READ_REG(db3)
READ_REG(db6) READ_REG(db7)
WRITE_REG(db0) WRITE_REG(db1) WRITE_REG(db2) WRITE_REG(db3)
WRITE_REG(db6) WRITE_REG(db7)

static uint64_t get_xmm5(void)
{
	uint64_t v;

	__asm__ volatile("movq %%xmm5, %0" : "=r"(v));
	return v;
}

static void set_xmm5(uint64_t v)
{
	__asm__ volatile("movq %0, %%xmm5" : : "r"(v));
}

/* --- leak probes ------------------------------------------------------- */

struct probe {
	const char *name;
	uint64_t (*get)(void);
	void (*set)(uint64_t);
	uint32_t msr;		/* when get/set are NULL */
	uint64_t reset;		/* the value a fresh VM must find */
	uint64_t mine;		/* filled in: this VM's marker */
};

static struct probe probes[] = {
	{ "CR2", get_cr2, set_cr2, 0, 0, 0 },
	{ "DR0", get_db0, set_db0, 0, 0, 0 },
	{ "DR1", get_db1, set_db1, 0, 0, 0 },
	{ "DR2", get_db2, set_db2, 0, 0, 0 },
	{ "DR3", get_db3, set_db3, 0, 0, 0 },
	{ "DR6", get_db6, set_db6, 0, DR6_RESET, 0 },
	{ "DR7", get_db7, set_db7, 0, DR7_RESET, 0 },
	{ "XMM5", get_xmm5, set_xmm5, 0, 0, 0 },
	{ "DEBUGCTL", NULL, NULL, MSR_DEBUGCTL, 0, 0 },
	{ "PAT", NULL, NULL, MSR_PAT, PAT_RESET, 0 },
	{ "SYSENTER_CS", NULL, NULL, MSR_SYSENTER_CS, 0, 0 },
	{ "SYSENTER_ESP", NULL, NULL, MSR_SYSENTER_ESP, 0, 0 },
	{ "SYSENTER_EIP", NULL, NULL, MSR_SYSENTER_EIP, 0, 0 },
	{ "STAR", NULL, NULL, MSR_STAR, 0, 0 },
	{ "LSTAR", NULL, NULL, MSR_LSTAR, 0, 0 },
	{ "CSTAR", NULL, NULL, MSR_CSTAR, 0, 0 },
	{ "FMASK", NULL, NULL, MSR_FMASK, 0, 0 },
	{ "KERNEL_GS_BASE", NULL, NULL, MSR_KGS_BASE, 0, 0 },
	{ "TSC_AUX", NULL, NULL, MSR_TSC_AUX, 0, 0 },
};
#define NR_PROBES (sizeof(probes) / sizeof(probes[0]))

static uint64_t probe_get(const struct probe *p)
{
	return p->get ? p->get() : rdmsr(p->msr);
}

static void probe_set(const struct probe *p, uint64_t v)
{
	if (p->set)
		p->set(v);
	else
		wrmsr(p->msr, v);
}

/* A value only this VM writes, legal for the register it goes to. */
static uint64_t marker(const struct probe *p, unsigned id)
{
	uint64_t k = id + 1;

	if (!strcmp(p->name, "DR6"))
		return DR6_RESET | (k & 0xf);	/* B0-B3 are writable */
	if (!strcmp(p->name, "DR7"))
		return DR7_RESET | ((k & 3) << 18); /* LEN0, no enable bit */
	if (!strcmp(p->name, "DEBUGCTL"))
		return (k & 1) << 1;		/* BTF: the one bit allowed */
	if (!strcmp(p->name, "PAT"))
		return PAT_RESET ^ ((k & 1) << 1);	/* WB <-> WP in PA0 */
	if (!strcmp(p->name, "SYSENTER_CS"))
		return 0x10 * k;
	if (!strcmp(p->name, "FMASK"))
		return 0x100 * k;
	if (!strcmp(p->name, "TSC_AUX"))
		return 0x10101 * k;		/* bits 63:32 are reserved */
	/* Canonical addresses: 0x00007e5a_kk00_0000 + position. */
	return 0x00007e5a00000000ull | (k << 24) |
	       (uint64_t)(p - probes) << 12;
}

static unsigned check_all(const char *when, unsigned *bad_mask)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < NR_PROBES; i++) {
		uint64_t v = probe_get(&probes[i]);

		if (v == probes[i].mine)
			continue;
		if (!(*bad_mask & (1u << i)))
			tg_printf("%s: %s is %llx, we wrote %llx\n", when,
				  probes[i].name, (unsigned long long)v,
				  (unsigned long long)probes[i].mine);
		*bad_mask |= 1u << i;
		bad++;
	}
	return bad;
}

static void spin_us(uint64_t us)
{
	uint64_t t = rdtsc();

	while (rdtsc() - t < tsc_hz / 1000000 * us)
		;
}

static void run_leak(void)
{
	unsigned not_reset = 0, bad = 0, bad_mask = 0;

	/* OSFXSR + OSXMMEXCPT, as any OS sets them: XMM5 is a probe. */
	__asm__ volatile("mov %%cr4, %%rax; or $0x600, %%rax; mov %%rax, %%cr4"
			 ::: "rax");
	for (unsigned i = 0; i < NR_PROBES; i++) {
		uint64_t v = probe_get(&probes[i]);

		if (v != probes[i].reset) {
			tg_printf("at start: %s is %llx, reset value %llx\n",
				  probes[i].name, (unsigned long long)v,
				  (unsigned long long)probes[i].reset);
			not_reset++;
		}
	}
	tg_check("leak-start-state", !not_reset,
		 "%u of %u registers not in reset state", not_reset,
		 (unsigned)NR_PROBES);
	for (unsigned i = 0; i < NR_PROBES; i++) {
		probes[i].mine = marker(&probes[i], boot->vm_id);
		probe_set(&probes[i], probes[i].mine);
	}
	for (int r = 0; r < LEAK_ROUNDS; r++) {
		hypercall(G9HV_HC_YIELD, 0, 0, 0);
		spin_us(3000);	/* across a slice end: preempted, not only */
		bad += check_all("after a switch", &bad_mask);
	}
	tg_check("leak-cpu-state", !bad, "%u registers x %u VM switches: %u "
		 "values changed (mask %x)", (unsigned)NR_PROBES, LEAK_ROUNDS,
		 bad, bad_mask);
	/* Leave the CPU as a fresh VM would find it: the debug registers
	 * must not trap anything in our own exit path. */
	set_db7(DR7_RESET);
	wrmsr(MSR_DEBUGCTL, 0);
}

/* --- illegal values ---------------------------------------------------- */

struct gp_case {
	const char *name;
	int kind;		/* 0 wrmsr, 1 cr0, 2 cr3, 3 cr4, 4 cr8 */
	uint32_t msr;
	uint64_t value;		/* computed at run time for CRs */
};

static int64_t try_case(const struct gp_case *c)
{
	switch (c->kind) {
	case 0: return tg_try_wrmsr(c->msr, c->value);
	case 1: return try_mov_cr0(c->value);
	case 2: return try_mov_cr3(c->value);
	case 3: return try_mov_cr4(c->value);
	default: return try_mov_cr8(c->value);
	}
}

static void run_gp(void)
{
	uint64_t efer = rdmsr(MSR_EFER), cr0 = get_cr0(), cr4 = get_cr4();
	uint64_t cr3 = get_cr3(), pat = rdmsr(MSR_PAT);
	const struct gp_case bad[] = {
		{ "EFER reserved bit 1", 0, MSR_EFER, efer | 2 },
		{ "EFER.LME cleared with paging on", 0, MSR_EFER,
		  efer & ~EFER_LME },
		{ "SYSENTER_EIP non-canonical", 0, MSR_SYSENTER_EIP,
		  0x0000800000000000ull },
		{ "SYSENTER_ESP non-canonical", 0, MSR_SYSENTER_ESP,
		  0xffff000000001000ull },
		{ "PAT type 2", 0, MSR_PAT, (PAT_RESET & ~0xffull) | 2 },
		{ "PAT type 8", 0, MSR_PAT, PAT_RESET | (8ull << 56) },
		{ "DEBUGCTL bit 63", 0, MSR_DEBUGCTL, 1ull << 63 },
		{ "DEBUGCTL.LBR (not virtualized)", 0, MSR_DEBUGCTL, 1 },
		{ "CR0.PG cleared in 64-bit mode", 1, 0, cr0 & ~CR0_PG },
		{ "CR0.NW without CD", 1, 0, cr0 | CR0_NW },
		{ "CR0 bit 32", 1, 0, cr0 | (1ull << 32) },
		{ "CR3 bit 62", 2, 0, cr3 | (1ull << 62) },
		{ "CR4.VMXE (VMX hidden)", 3, 0, cr4 | CR4_VMXE },
		{ "CR4.OSXSAVE (XSAVE hidden)", 3, 0, cr4 | CR4_OSXSAVE },
		{ "CR4 reserved bit 25", 3, 0, cr4 | (1ull << 25) },
		{ "CR4.PAE cleared in 64-bit mode", 3, 0, cr4 & ~CR4_PAE },
		{ "CR8 bit 4", 4, 0, 0x10 },
	};
	const struct gp_case good[] = {
		{ "EFER unchanged", 0, MSR_EFER, efer },
		{ "PAT valid", 0, MSR_PAT, pat },
		{ "DEBUGCTL.BTF", 0, MSR_DEBUGCTL, 2 },
		{ "DEBUGCTL 0", 0, MSR_DEBUGCTL, 0 },
		{ "SYSENTER_EIP canonical", 0, MSR_SYSENTER_EIP,
		  0xffff800000001000ull },
		{ "CR4 unchanged", 3, 0, cr4 },
		{ "CR0 unchanged", 1, 0, cr0 },
	};
	unsigned wrong = 0;

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int64_t v = try_case(&bad[i]);

		if (v != VEC_GP) {
			tg_printf("%s: vector %lld, expected #GP\n",
				  bad[i].name, (long long)v);
			wrong++;
		}
	}
	tg_check("illegal-state-gp", !wrong, "%u of %u illegal values did "
		 "not raise #GP", wrong, (unsigned)(sizeof(bad) / sizeof(bad[0])));
	wrong = 0;
	for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		int64_t v = try_case(&good[i]);

		if (v != -1) {
			tg_printf("%s: vector %lld, expected none\n",
				  good[i].name, (long long)v);
			wrong++;
		}
	}
	tg_check("legal-state-ok", !wrong && rdmsr(MSR_EFER) == efer &&
		 get_cr4() == cr4 && get_cr0() == cr0 && rdmsr(MSR_PAT) == pat,
		 "%u legal writes faulted; efer %llx cr0 %llx cr4 %llx",
		 wrong, (unsigned long long)rdmsr(MSR_EFER),
		 (unsigned long long)get_cr0(), (unsigned long long)get_cr4());
}

/* --- timer storm and its victim --------------------------------------- */

static void timer_raw(uint32_t count, uint32_t div_conf)
{
	wrmsr(MSR_X2APIC_SVR, 0x1ff);
	wrmsr(MSR_X2APIC_DIV_CONF, div_conf);
	wrmsr(MSR_X2APIC_LVT_TIMER, LVT_PERIODIC | TG_TIMER_VECTOR);
	wrmsr(MSR_X2APIC_INIT_COUNT, count);
}

static void run_storm(void)
{
	uint64_t t0 = rdtsc(), n0 = tg_ticks, n, limit;

	timer_raw(1, 0xb);	/* divide by 1, one tick */
	__asm__ volatile("sti");
	while (rdtsc() - t0 < STORM_SECONDS * tsc_hz)
		;
	__asm__ volatile("cli");
	wrmsr(MSR_X2APIC_INIT_COUNT, 0);
	n = tg_ticks - n0;
	/* At most one interrupt per minimum period (50 us), some slack. */
	limit = STORM_SECONDS * 1000000ull / 50 * 11 / 10;
	tg_printf("STORM %llu timer interrupts in %u s\n",
		  (unsigned long long)n, STORM_SECONDS);
	tg_check("storm-rate-bounded", n > 0 && n <= limit,
		 "%llu interrupts in %u s (limit %llu)", (unsigned long long)n,
		 STORM_SECONDS, (unsigned long long)limit);
}

static void run_victim(void)
{
	uint64_t gap = tsc_hz / 1000000 * GAP_US, min = number("minshare=", 0);
	uint64_t start, last, now, ran = 0, permille;

	if (word("timer")) {	/* a busy guest with a 1 kHz tick, as Linux */
		tg_timer_start(1000);
		__asm__ volatile("sti");
	}
	spin_us(200000);	/* let the storm begin */
	start = last = rdtsc();
	while ((now = rdtsc()) - start < VICTIM_SECONDS * tsc_hz) {
		if (now - last < gap)
			ran += now - last;
		last = now;
	}
	__asm__ volatile("cli");
	wrmsr(MSR_X2APIC_INIT_COUNT, 0);
	permille = ran * 1000 / (now - start);
	tg_printf("SHARE %llu per mille of the CPU in %u s\n",
		  (unsigned long long)permille, VICTIM_SECONDS);
	tg_check("victim-share", permille >= min, "%llu per mille, at least "
		 "%llu wanted", (unsigned long long)permille,
		 (unsigned long long)min);
}

/* --- MMIO at the edges ---------------------------------------------------- */

/* The window's last 4 bytes (zero), then 4 from the unclaimed page. */
static void run_mmio_cross(void)
{
	volatile uint64_t *p = (volatile uint64_t *)(uintptr_t)
		(G9HV_TESTDEV_GPA + 0xffc);
	uint64_t v;

	tg_printf("8-byte load at %llx, across the end of the device page\n",
		  (unsigned long long)(uintptr_t)p);
	v = *p;
	tg_check("mmio-cross-emulated", v == 0xffffffff00000000ull,
		 "read %llx", (unsigned long long)v);
}

/* PML4 entry 1 (linear 0x8000000000) points at the test device's page as
 * if it were a page-directory-pointer table: the CPU's walk reads MMIO. */
static void run_mmio_walk(void)
{
	volatile uint64_t *pml4 = (volatile uint64_t *)(uintptr_t)
		(get_cr3() & ~0xfffull);

	pml4[1] = G9HV_TESTDEV_GPA | 3;
	__asm__ volatile("mov %%cr3, %%rax; mov %%rax, %%cr3" ::: "rax",
			 "memory");
	tg_printf("load through a page walk into the device page\n");
	(void)*(volatile uint64_t *)(uintptr_t)0x8000000000ull;
	tg_check("mmio-walk-stops-vm", false, "the load returned");
}

/* Linear page L maps a RAM page, L + 4 KiB the test device's page (4-KiB
 * pages of our own: PML4 entry 2, linear 0x10000000000); an 8-byte load at
 * L + 0xffc starts in RAM and ends in the device. */
static uint64_t split_tables[3][512] __attribute__((aligned(4096)));
static uint64_t split_ram[512] __attribute__((aligned(4096)));

static void run_mmio_split(void)
{
	volatile uint64_t *pml4 = (volatile uint64_t *)(uintptr_t)
		(get_cr3() & ~0xfffull);
	uint64_t lin = 0x10000000000ull, v;

	split_tables[0][0] = (uint64_t)(uintptr_t)split_tables[1] | 3;
	split_tables[1][0] = (uint64_t)(uintptr_t)split_tables[2] | 3;
	split_tables[2][0] = (uint64_t)(uintptr_t)split_ram | 3;
	split_tables[2][1] = G9HV_TESTDEV_GPA | 3;
	pml4[2] = (uint64_t)(uintptr_t)split_tables[0] | 3;
	__asm__ volatile("mov %%cr3, %%rax; mov %%rax, %%cr3" ::: "rax",
			 "memory");
	split_ram[511] = 0x1122334455667788ull;
	*(volatile uint64_t *)(uintptr_t)G9HV_TESTDEV_GPA =
		0xaabbccddeeff0011ull;		/* the scratch register */
	tg_printf("8-byte load at %llx: RAM, then the device page\n",
		  (unsigned long long)(lin + 0xffc));
	v = *(volatile uint64_t *)(uintptr_t)(lin + 0xffc);
	tg_check("mmio-split-emulated", v == 0xeeff001111223344ull,
		 "read %llx", (unsigned long long)v);
}

/* --- many VMs stopping at once ----------------------------------------- */

static void run_stopsync(void)
{
	uint64_t quantum = 4 * tsc_hz, now = rdtsc();
	uint64_t target = (now / quantum + 1) * quantum, n0, n, want;

	if (target - now < tsc_hz)
		target += quantum;
	tg_timer_start(1000);
	__asm__ volatile("sti");
	n0 = tg_ticks;
	now = rdtsc();
	while (rdtsc() < target)
		__asm__ volatile("hlt");
	__asm__ volatile("cli");
	wrmsr(MSR_X2APIC_INIT_COUNT, 0);
	n = tg_ticks - n0;
	want = (target - now) / (tsc_hz / 1000);
	tg_check("stopsync-timer", n * 2 >= want, "%llu of %llu ticks "
		 "while waiting for TSC %llx", (unsigned long long)n,
		 (unsigned long long)want, (unsigned long long)target);
}

void hostile_main(const struct raw64_boot_info *bi, uint64_t hz)
{
	boot = bi;
	tsc_hz = hz;
	if (word("mmio-cross"))
		run_mmio_cross();
	if (word("mmio-walk"))
		run_mmio_walk();
	if (word("mmio-split"))
		run_mmio_split();
	if (word("mmio-emul"))
		mmio_emul_run();
	if (word("storm"))
		run_storm();
	if (word("victim"))
		run_victim();
	if (word("leak"))
		run_leak();
	if (word("gp"))
		run_gp();
	if (word("stopsync"))
		run_stopsync();
	if (word("exithog"))
		exithog_run(tsc_hz);
	if (word("exitvictim"))
		exitvictim_run(tsc_hz, number("minshare=", 0));
	tg_printf("hostile done: %u failed\n", tg_failed);
	tg_exit(tg_failed ? 1 : 0);
}
