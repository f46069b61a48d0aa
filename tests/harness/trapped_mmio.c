/* The real MMIO backend over trapping pages (trapped_mmio.h). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <cmocka.h>

#include "tests/harness/trapped_mmio.h"

static const int gregs_of[GPR_COUNT] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};
static struct trapped *cur;
static struct harness *delay_h;

static void on_segv(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	greg_t *g = uc->uc_mcontext.gregs;
	struct guest_regs r;
	uint8_t len;

	(void)sig;
	for (int i = 0; i < GPR_COUNT; i++)
		r.gpr[i] = (uint64_t)g[gregs_of[i]];
	if (!cur || !trapdev_claims(&cur->td, (uint64_t)(uintptr_t)si->si_addr) ||
	    trapdev_access(&cur->td, (uint64_t)(uintptr_t)si->si_addr,
			   (const uint8_t *)g[REG_RIP], 15, &r, &len))
		abort();
	for (int i = 0; i < GPR_COUNT; i++)
		g[gregs_of[i]] = (greg_t)r.gpr[i];
	g[REG_RIP] += len;
	cur->faults++;
}

static void model_delay(uint32_t us)
{
	gen9_model_udelay(&delay_h->m, us);
}

void trapped_init(struct trapped *t, struct harness *h)
{
	uint64_t ap = h->m.cfg.aperture_size;
	void *b0 = mmap(NULL, GEN9_BAR0_SIZE, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	void *b2 = mmap(NULL, ap, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	struct sigaction sa = { 0 };
	struct gpu_hw_info info;

	assert_true(b0 != MAP_FAILED && b2 != MAP_FAILED);
	memset(t, 0, sizeof(*t));
	t->td.model = &h->m;
	t->td.bar0 = (uint64_t)(uintptr_t)b0;
	t->td.bar2 = (uint64_t)(uintptr_t)b2;
	t->td.bar2_size = ap;
	cur = t;
	delay_h = h;
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	assert_int_equal(sigaction(SIGSEGV, &sa, NULL), 0);
	gen9_model_info(&h->m, &info);
	t->be.bar0 = b0;
	t->be.aperture = b2;
	t->be.udelay = model_delay;
	assert_int_equal(gpu_hw_mmio_init(&t->hw, &t->be, &info, &h->dma), 0);
}

void trapped_fini(struct trapped *t)
{
	signal(SIGSEGV, SIG_DFL);
	munmap((void *)(uintptr_t)t->td.bar0, GEN9_BAR0_SIZE);
	munmap((void *)(uintptr_t)t->td.bar2, t->td.bar2_size);
	cur = NULL;
}
