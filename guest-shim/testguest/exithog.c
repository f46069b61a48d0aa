/* mode=hostile exithog / exitvictim (issue 26 §3): single exits that would
 * do work proportional to a count the guest chooses, and their victim.
 *
 * Both VMs start their phases at the same TSC boundary (the next whole
 * second but one: the VMs boot within a few milliseconds of each other)
 * and run PHASES phases of PHASE_MS each, so the victim's window k
 * measures the hog's attack k:
 *   0 uart  REP OUTSB of 4096 bytes to the UART's THR, again and again
 *   1 bar   REP OUTSD of 256 dwords to PCI config data, moving the vGPU's
 *           aperture BAR (dword 0x18) between two places each time
 *   2 rpc   guest-channel flood: 128 EXPAND records per kick, kick after
 *           kick (needs the vGPU too)
 * The victim spins with a 100 Hz timer, and per window prints and checks
 * the share of the CPU it got (TSC gaps longer than GAP_US are another
 * VM's time) against minshare=N per mille, and its timer rate: at least
 * half of the ticks due. */
#include "guest-shim/include/g9hv/vmrpc_guest.h"
#include "guest-shim/testguest/tg.h"

#define PHASES		3
#define PHASE_MS	1000u
#define GAP_US		50
#define FLOOD_BYTES	4096
#define BAR_MOVES	256
#define RPC_RECORDS	VMRPC_SLOTS
#define PCI_ADDR	0xcf8
#define PCI_DATA	0xcfc
#define GPU_DEV		2u
#define CFG_BAR0	0x10
#define CFG_BAR2	0x18
#define CFG_CMD		0x04
#define BAR0_GPA	0xc0000000u
#define BAR2_A		0xd0000000u
#define BAR2_B		0xe0000000u
#define BAR_MEM64	0x4u
#define BAR_PREFETCH	0x8u
#define CMD_MEM_MASTER	0x0006u
#define MSR_X2APIC_INIT_COUNT	0x838u
#define VICTIM_HZ	100	/* its timer: often enough to see starvation */

static const char *const phase_name[PHASES] = { "uart", "bar", "rpc" };
static uint8_t flood[FLOOD_BYTES];
static uint32_t bar_values[BAR_MOVES];
static uint8_t rpc_area[VMRPC_PAGES * 4096] __attribute__((aligned(4096)));
static struct vmrpc_guest ch;

static uint32_t cfg_addr(unsigned off)
{
	return 0x80000000u | GPU_DEV << 11 | (off & 0xfc);
}

static void cfg_write(unsigned off, uint32_t val)
{
	outl(PCI_ADDR, cfg_addr(off));
	outl(PCI_DATA, val);
}

/* The TSC at which phase 0 starts: the same in both VMs. */
static uint64_t phase_base(uint64_t hz)
{
	return (rdtsc() / hz + 2) * hz;
}

static void wait_until(uint64_t tsc)
{
	while (rdtsc() < tsc)
		;
}

static void attack_uart(void)
{
	const uint8_t *p = flood;
	uint64_t n = FLOOD_BYTES;

	__asm__ volatile("cld; rep outsb" : "+S"(p), "+c"(n)
			 : "d"((uint16_t)0x3f8) : "memory");
}

static void attack_bar(void)
{
	const uint32_t *p = bar_values;
	uint64_t n = BAR_MOVES;

	outl(PCI_ADDR, cfg_addr(CFG_BAR2));
	__asm__ volatile("cld; rep outsl" : "+S"(p), "+c"(n)
			 : "d"((uint16_t)PCI_DATA) : "memory");
}

static void attack_rpc(void)
{
	for (uint32_t i = 0; i < RPC_RECORDS; i++) {
		struct vmrpc_msg m = { VMRPC_EXPAND, i + 1, 1, 0, 0 };

		vmrpc_put_raw(&ch, &m);
	}
	vmrpc_kick(&ch);
}

static void (*const attack[PHASES])(void) = {
	attack_uart, attack_bar, attack_rpc,
};

static void hog_setup(void)
{
	for (unsigned i = 0; i < FLOOD_BYTES; i++)
		flood[i] = (uint8_t)('a' + i % 26);
	flood[FLOOD_BYTES - 1] = '\n';
	for (unsigned i = 0; i < BAR_MOVES; i++)
		bar_values[i] = (i & 1 ? BAR2_B : BAR2_A) | BAR_MEM64 |
				BAR_PREFETCH;
	/* Decoded BARs and memory enabled, as firmware leaves them: each
	 * BAR2 write below moves a mapped aperture. */
	cfg_write(CFG_BAR0, BAR0_GPA | BAR_MEM64);
	cfg_write(CFG_BAR0 + 4, 0);
	cfg_write(CFG_BAR2, BAR2_A | BAR_MEM64 | BAR_PREFETCH);
	cfg_write(CFG_BAR2 + 4, 0);
	cfg_write(CFG_CMD, CMD_MEM_MASTER);
	tg_check("exithog-channel", !vmrpc_open(&ch, rpc_area, hypercall),
		 "guest channel could not be opened");
}

void exithog_run(uint64_t hz)
{
	uint64_t base, end;

	hog_setup();
	base = phase_base(hz);
	wait_until(base);
	for (unsigned k = 0; k < PHASES; k++) {
		unsigned rounds = 0;

		end = base + (k + 1) * (hz / 1000 * PHASE_MS);
		while (rdtsc() < end) {
			attack[k]();
			rounds++;
		}
		/* The UART flood outruns the VM's 4 KiB output buffer, whose
		 * overflow is dropped, its newlines too: start a fresh line. */
		tg_printf("%sHOG %s: %u rounds\n", k == 0 ? "\n" : "",
			  phase_name[k], rounds);
	}
}

/* One window of the victim: the share of the CPU and the timer ticks. */
static void victim_window(unsigned k, uint64_t start, uint64_t end,
			  uint64_t hz, uint64_t min)
{
	uint64_t gap = hz / 1000000 * GAP_US, last = start, now, ran = 0;
	uint64_t n0, n, want = PHASE_MS * VICTIM_HZ / 1000, permille;

	wait_until(start);
	n0 = tg_ticks;
	last = rdtsc();
	while ((now = rdtsc()) < end) {
		if (now - last < gap)
			ran += now - last;
		last = now;
	}
	n = tg_ticks - n0;
	permille = ran * 1000 / (end - start);
	tg_printf("SHARE %s %llu per mille, timer %llu of %llu ticks\n",
		  phase_name[k], (unsigned long long)permille,
		  (unsigned long long)n, (unsigned long long)want);
	tg_check(k == 0 ? "victim-share-uart" : k == 1 ? "victim-share-bar"
							: "victim-share-rpc",
		 permille >= min, "%llu per mille, at least %llu wanted",
		 (unsigned long long)permille, (unsigned long long)min);
	tg_check(k == 0 ? "victim-timer-uart" : k == 1 ? "victim-timer-bar"
							: "victim-timer-rpc",
		 n * 2 >= want, "%llu of %llu ticks", (unsigned long long)n,
		 (unsigned long long)want);
}

void exitvictim_run(uint64_t hz, uint64_t minshare)
{
	uint64_t base = phase_base(hz), len = hz / 1000 * PHASE_MS;

	tg_timer_start(VICTIM_HZ);
	__asm__ volatile("sti");
	for (unsigned k = 0; k < PHASES; k++)
		victim_window(k, base + k * len, base + (k + 1) * len, hz,
			      minshare);
	__asm__ volatile("cli");
	wrmsr(MSR_X2APIC_INIT_COUNT, 0);
}
