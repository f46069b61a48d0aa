/* gpu=model-mmio on the host. Part 1: single instructions, as the #PF hook
 * (hv/gpu/gpu_trapdev.c) hands them to trapdev_access. Part 2: the real
 * MMIO backend (gpu/hw/mmio_backend.c) and pGPU driver over PROT_NONE
 * "BARs": every load and store the compiler emitted for them faults, a
 * SIGSEGV handler emulates it through trapdev_access exactly as the
 * hypervisor's #PF hook does, and the model sees the driver's accesses. */
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

#include "gpu/hw/pgpu.h"
#include "hv/gpu/trapdev_access.h"
#include "hv/hv_errno.h"
#include "tests/harness/model_harness.h"

#define BAR0 0xffc0000000ull
#define BAR2 0xffe0000000ull

static struct harness H;
static struct trapdev TD;

static int setup(void **state)
{
	(void)state;
	if (h_init(&H, NULL))
		return -1;
	memset(&TD, 0, sizeof(TD));
	TD.model = &H.m;
	TD.bar0 = BAR0;
	TD.bar2 = BAR2;
	TD.bar2_size = H.m.cfg.aperture_size;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

static int run(uint64_t addr, const uint8_t *code, size_t n,
	       struct guest_regs *r, uint8_t *len)
{
	return trapdev_access(&TD, addr, code, n, r, len);
}

/* ---- part 1: one instruction at a time ------------------------------ */

static void test_register_load_and_store(void **state)
{
	static const uint8_t load[] = { 0x8b, 0x07 };		/* mov eax,[rdi] */
	static const uint8_t store[] = { 0x89, 0x37 };		/* mov [rdi],esi */
	struct guest_regs r = { .rax = ~0ull, .rsi = 0x12345678 };
	uint8_t len = 0;

	(void)state;
	assert_int_equal(run(BAR0 + FENCE_REG_GEN6_LO(2), store, 2, &r, &len), 0);
	assert_int_equal(len, 2);
	assert_int_equal(h_rd(&H, FENCE_REG_GEN6_LO(2)), 0x12345678);
	assert_int_equal(run(BAR0 + FENCE_REG_GEN6_LO(2), load, 2, &r, &len), 0);
	assert_int_equal(r.rax, 0x12345678); /* 32-bit load zero-extends */
	assert_int_equal(TD.reg_reads, 1);
	assert_int_equal(TD.reg_writes, 1);
	assert_int_equal(TD.odd, 0);
}

static void test_pte_qword_and_halves(void **state)
{
	static const uint8_t st64[] = { 0x48, 0x89, 0x37 };	/* mov [rdi],rsi */
	static const uint8_t ld64[] = { 0x48, 0x8b, 0x07 };	/* mov rax,[rdi] */
	static const uint8_t ld32[] = { 0x8b, 0x07 };
	struct guest_regs r = { .rsi = 0x0000000123456003ull };
	uint64_t pte5 = BAR0 + GEN9_GGTT_OFFSET + 5 * 8;
	uint8_t len;

	(void)state;
	assert_int_equal(run(pte5, st64, 3, &r, &len), 0);
	assert_int_equal(len, 3);
	assert_int_equal(H.ggtt[5], 0x0000000123456003ull);
	assert_int_equal(run(pte5, ld64, 3, &r, &len), 0);
	assert_int_equal(r.rax, 0x0000000123456003ull);
	assert_int_equal(run(pte5 + 4, ld32, 2, &r, &len), 0);
	assert_int_equal(r.rax, 0x1);
	assert_int_equal(TD.pte_writes, 1);
	assert_int_equal(TD.pte_reads, 2);
}

static void test_aperture_bytes_follow_the_ggtt(void **state)
{
	static const uint8_t stb[] = { 0x88, 0x17 };		/* mov [rdi],dl */
	static const uint8_t ldzx[] = { 0x0f, 0xb6, 0x07 };	/* movzx eax,byte [rdi] */
	uint32_t g = h_ggtt_alloc(&H, 1);
	struct guest_regs r = { .rdx = 0xa5, .rax = ~0ull };
	uint8_t len;

	(void)state;
	assert_int_equal(run(BAR2 + g + 7, stb, 2, &r, &len), 0);
	assert_int_equal(((uint8_t *)h_gptr(&H, g))[7], 0xa5);
	assert_int_equal(run(BAR2 + g + 7, ldzx, 3, &r, &len), 0);
	assert_int_equal(r.rax, 0xa5);
	assert_int_equal(TD.ap_bytes, 2);
	/* An aperture page no GGTT entry maps reads all ones. */
	assert_int_equal(run(BAR2 + 0x0ff00000, ldzx, 3, &r, &len), 0);
	assert_int_equal(r.rax, 0xff);
	assert_int_equal(TD.odd, 1);
}

static void test_undefined_accesses_are_counted(void **state)
{
	static const uint8_t stb[] = { 0x88, 0x17 };		/* mov [rdi],dl */
	static const uint8_t ld[] = { 0x8b, 0x07 };
	static const uint8_t stos[] = { 0xf3, 0xab };		/* rep stosd */
	static const uint8_t add[] = { 0x03, 0x07 };		/* add eax,[rdi] */
	struct guest_regs r = { .rdx = 0x77 };
	uint8_t len;

	(void)state;
	h_wr(&H, FENCE_REG_GEN6_LO(3), 0x11223344);
	/* A byte store to a register: dropped, counted. */
	assert_int_equal(run(BAR0 + FENCE_REG_GEN6_LO(3), stb, 2, &r, &len), 0);
	assert_int_equal(h_rd(&H, FENCE_REG_GEN6_LO(3)), 0x11223344);
	assert_int_equal(TD.odd, 1);
	/* The hole between the registers and the GGTT reads ones. */
	assert_int_equal(run(BAR0 + 0x400000, ld, 2, &r, &len), 0);
	assert_int_equal(r.rax, 0xffffffffull);
	assert_int_equal(TD.odd, 2);
	/* Not an access we emulate: refused, registers untouched. */
	r.rax = 5;
	assert_int_equal(run(BAR0, stos, 2, &r, &len), -HV_ENOTSUP);
	assert_int_equal(run(BAR0, add, 2, &r, &len), -HV_ENOTSUP);
	assert_int_equal(r.rax, 5);
	assert_true(trapdev_claims(&TD, BAR0 + GEN9_BAR0_SIZE - 1));
	assert_false(trapdev_claims(&TD, BAR0 + GEN9_BAR0_SIZE));
	assert_true(trapdev_claims(&TD, BAR2));
	assert_false(trapdev_claims(&TD, BAR2 - 1));
}

/* ---- part 2: the real backend over trapping pages --------------------- */

static const int gregs_of[GPR_COUNT] = {
	REG_RAX, REG_RCX, REG_RDX, REG_RBX, REG_RSP, REG_RBP, REG_RSI, REG_RDI,
	REG_R8, REG_R9, REG_R10, REG_R11, REG_R12, REG_R13, REG_R14, REG_R15,
};
static uint64_t faults;

static void on_segv(int sig, siginfo_t *si, void *uc_)
{
	ucontext_t *uc = uc_;
	greg_t *g = uc->uc_mcontext.gregs;
	struct guest_regs r;
	uint8_t len;

	(void)sig;
	for (int i = 0; i < GPR_COUNT; i++)
		r.gpr[i] = (uint64_t)g[gregs_of[i]];
	if (!trapdev_claims(&TD, (uint64_t)(uintptr_t)si->si_addr) ||
	    trapdev_access(&TD, (uint64_t)(uintptr_t)si->si_addr,
			   (const uint8_t *)g[REG_RIP], 15, &r, &len))
		abort();
	for (int i = 0; i < GPR_COUNT; i++)
		g[gregs_of[i]] = (greg_t)r.gpr[i];
	g[REG_RIP] += len;
	faults++;
}

static struct harness *delay_h;

static void model_delay(uint32_t us)
{
	gen9_model_udelay(&delay_h->m, us);
}

/* gpu_hw on the MMIO backend whose BARs are PROT_NONE mappings. */
static void trapped_hw(struct gpu_hw *hw, struct gpu_mmio_backend *be)
{
	void *b0 = mmap(NULL, GEN9_BAR0_SIZE, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	void *b2 = mmap(NULL, TD.bar2_size, PROT_NONE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	struct sigaction sa = { 0 };
	struct gpu_hw_info info;

	assert_true(b0 != MAP_FAILED && b2 != MAP_FAILED);
	TD.bar0 = (uint64_t)(uintptr_t)b0;
	TD.bar2 = (uint64_t)(uintptr_t)b2;
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	assert_int_equal(sigaction(SIGSEGV, &sa, NULL), 0);
	gen9_model_info(&H.m, &info);
	be->bar0 = b0;
	be->aperture = b2;
	delay_h = &H;
	be->udelay = model_delay;
	assert_int_equal(gpu_hw_mmio_init(hw, be, &info, &H.dma), 0);
}

static void untrap(void)
{
	signal(SIGSEGV, SIG_DFL);
	munmap((void *)(uintptr_t)TD.bar0, GEN9_BAR0_SIZE);
	munmap((void *)(uintptr_t)TD.bar2, TD.bar2_size);
}

/* pgpu_init, forcewake, a GGTT entry, the aperture, a fence, an engine
 * bring-up and one MI_STORE_DATA_IMM breadcrumb on the blitter, its CSB
 * read over MMIO: all through faulting loads and stores. */
static void test_real_backend_drives_the_model(void **state)
{
	struct gpu_mmio_backend be;
	struct gpu_hw hw;
	struct pgpu p;
	struct h_ctx c;
	struct pgpu_csb_event ev[6];
	uint32_t hwsp, seqno, g = h_ggtt_alloc(&H, 1);
	uint8_t buf[4] = { 1, 2, 3, 4 }, back[4];
	uint64_t pte;

	(void)state;
	trapped_hw(&hw, &be);
	assert_int_equal(pgpu_init(&p, &hw), 0);
	assert_true(faults > 0);
	assert_int_equal(pgpu_forcewake_get(&p, gen9_engine_fw_domains(GEN9_BCS0)), 0);
	pte = H.ggtt[g >> 12];
	assert_int_equal(pgpu_ggtt_read(&p, g >> 12), pte);
	assert_int_equal(pgpu_ggtt_write(&p, (g >> 12) + 1, pte), 0);
	assert_int_equal(H.ggtt[(g >> 12) + 1], pte);
	assert_int_equal(gpu_hw_aperture_rw(&hw, g + 100, buf, 4, true), 0);
	assert_memory_equal((uint8_t *)h_gptr(&H, g) + 100, buf, 4);
	assert_int_equal(gpu_hw_aperture_rw(&hw, g + 4096 + 100, back, 4, false), 0);
	assert_memory_equal(back, buf, 4); /* same page through entry +1 */
	assert_int_equal(pgpu_fence_write(&p, 3, pgpu_fence_encode(0x100000, 0x10000, 512, false)), 0);
	assert_int_equal(h_rd(&H, FENCE_REG_GEN6_HI(3)) != 0, 1);

	hwsp = h_ggtt_alloc(&H, 1);
	assert_int_equal(pgpu_engine_init(&p, GEN9_BCS0, hwsp, NULL), 0);
	seqno = h_ggtt_alloc(&H, 1);
	h_ctx_create(&H, &c, GEN9_BCS0, h_ppgtt_create(&H), 0x77);
	h_emit(&H, &c, MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT);
	h_emit(&H, &c, seqno);
	h_emit(&H, &c, 0);
	h_emit(&H, &c, 0xfeedf00d);
	h_emit(&H, &c, MI_NOOP);
	h_emit(&H, &c, MI_NOOP);
	h_ctx_commit(&H, &c);
	assert_int_equal(pgpu_execlist_submit(&p, GEN9_BCS0, h_desc(&c), 0), 0);
	gpu_hw_udelay(&hw, 10);
	assert_int_equal(*(uint32_t *)h_gptr(&H, seqno), 0xfeedf00d);
	assert_int_equal(pgpu_csb_process(&p, GEN9_BCS0, ev, 6), 2);
	assert_int_equal(ev[1].ctx_id, 0x77);
	assert_true(pgpu_engine_idle(&p, GEN9_BCS0));
	assert_int_equal(TD.odd, 0);
	assert_true(TD.reg_reads > 10 && TD.reg_writes > 10);
	assert_int_equal(TD.pte_writes, 1);
	untrap();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_register_load_and_store, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pte_qword_and_halves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_aperture_bytes_follow_the_ggtt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undefined_accesses_are_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_backend_drives_the_model, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
