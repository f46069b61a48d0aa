/* gpu=model-mmio on the host. Part 1: single instructions, as the #PF hook
 * (hv/gpu/gpu_trapdev.c) hands them to trapdev_access. Part 2: the real
 * MMIO backend (gpu/hw/mmio_backend.c) and pGPU driver over PROT_NONE
 * "BARs" (tests/harness/trapped_mmio.c): every load and store the compiler
 * emitted for them faults, a SIGSEGV handler emulates it through
 * trapdev_access exactly as the hypervisor's #PF hook does, and the model
 * sees the driver's accesses. Part 3: the PCI function's config space and
 * its MSI, programmed by the hypervisor's pgpu_msi code. */
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
#include "tests/harness/trapped_mmio.h"
#include "gpu/hw/pgpu_msi.h"

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

/* pgpu_init, forcewake, a GGTT entry, the aperture, a fence, an engine
 * bring-up and one MI_STORE_DATA_IMM breadcrumb on the blitter, its CSB
 * read over MMIO: all through faulting loads and stores. */
static void test_real_backend_drives_the_model(void **state)
{
	struct trapped t;
	struct gpu_hw *hw = &t.hw;
	struct pgpu p;
	struct h_ctx c;
	struct pgpu_csb_event ev[6];
	uint32_t hwsp, seqno, g = h_ggtt_alloc(&H, 1);
	uint8_t buf[4] = { 1, 2, 3, 4 }, back[4];
	uint64_t pte;

	(void)state;
	trapped_init(&t, &H);
	assert_int_equal(pgpu_init(&p, hw), 0);
	assert_true(t.faults > 0);
	assert_int_equal(pgpu_forcewake_get(&p, gen9_engine_fw_domains(GEN9_BCS0)), 0);
	pte = H.ggtt[g >> 12];
	assert_int_equal(pgpu_ggtt_read(&p, g >> 12), pte);
	assert_int_equal(pgpu_ggtt_write(&p, (g >> 12) + 1, pte), 0);
	assert_int_equal(H.ggtt[(g >> 12) + 1], pte);
	assert_int_equal(gpu_hw_aperture_rw(hw, g + 100, buf, 4, true), 0);
	assert_memory_equal((uint8_t *)h_gptr(&H, g) + 100, buf, 4);
	assert_int_equal(gpu_hw_aperture_rw(hw, g + 4096 + 100, back, 4, false), 0);
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
	gpu_hw_udelay(hw, 10);
	assert_int_equal(*(uint32_t *)h_gptr(&H, seqno), 0xfeedf00d);
	assert_int_equal(pgpu_csb_process(&p, GEN9_BCS0, ev, 6), 2);
	assert_int_equal(ev[1].ctx_id, 0x77);
	assert_true(pgpu_engine_idle(&p, GEN9_BCS0));
	assert_int_equal(t.td.odd, 0);
	assert_true(t.td.reg_reads > 10 && t.td.reg_writes > 10);
	assert_int_equal(t.td.pte_writes, 1);
	trapped_fini(&t);
}

/* ---- part 3: config space and the MSI ------------------------------- */

static uint32_t io_rd(void *ctx, uint16_t off)
{
	return trapdev_cfg_read(ctx, off);
}

static void io_wr(void *ctx, uint16_t off, uint32_t v)
{
	trapdev_cfg_write(ctx, off, v);
}

/* pgpu_msi_program finds the capability at 0xAC (gen9-facts §1.2) through
 * the list, writes address and data, turns INTx off and MSI on; the
 * device then sends exactly that vector to that APIC id, and nothing
 * while MSI is off. */
static void test_msi_programmed_and_sent(void **state)
{
	struct pgpu_cfg_io io = { &TD, io_rd, io_wr };
	struct pgpu_msi m, back;
	uint32_t dest = 0;
	uint8_t vec = 0;

	(void)state;
	trapdev_cfg_init(&TD);
	assert_int_equal(pgpu_msi_find(&io), 0xac);
	assert_false(pgpu_msi_read(&io, &back));
	assert_false(trapdev_msi(&TD, &dest, &vec)); /* MSI still off */
	assert_int_equal(TD.msi_disabled, 1);
	assert_int_equal(pgpu_msi_program(&io, 3, 0x50, &m), 0);
	assert_int_equal(m.cap, 0xac);
	assert_false(m.is64);
	assert_int_equal(m.addr, 0xfee03000u);
	assert_int_equal(m.data, 0x4050);
	assert_true(pgpu_msi_read(&io, &back));
	assert_int_equal(back.addr, 0xfee03000u);
	assert_int_equal(back.data, 0x4050);
	assert_true(trapdev_cfg_read(&TD, GEN9_PCI_COMMAND) &
		    PCI_COMMAND_INTX_DISABLE);
	assert_true(trapdev_msi(&TD, &dest, &vec));
	assert_int_equal(dest, 3);
	assert_int_equal(vec, 0x50);
	assert_int_equal(TD.msi_sent, 1);
	/* What an MSI cannot say without interrupt remapping, refused. */
	assert_int_equal(pgpu_msi_program(&io, 256, 0x50, NULL), -2);
	assert_int_equal(pgpu_msi_program(&io, 0, 20, NULL), -2);
	/* A logical-destination address is not delivered, but counted. */
	trapdev_cfg_write(&TD, GEN9_PCI_MSI_ADDR, 0xfee00004u);
	assert_false(trapdev_msi(&TD, &dest, &vec));
	assert_int_equal(TD.msi_bad, 1);
	/* Bus mastering off: the device sends nothing. */
	trapdev_cfg_write(&TD, GEN9_PCI_COMMAND, GEN9_PCI_CMD_MEM);
	assert_false(trapdev_msi(&TD, &dest, &vec));
	assert_int_equal(TD.msi_disabled, 2);
}

/* A config space without a capability list, or with a loop in it. */
static uint32_t raw_rd(void *ctx, uint16_t off)
{
	const uint8_t *c = ctx;

	return c[off] | c[off + 1] << 8 | c[off + 2] << 16 |
	       (uint32_t)c[off + 3] << 24;
}

static void raw_wr(void *ctx, uint16_t off, uint32_t v)
{
	uint8_t *c = ctx;

	for (int b = 0; b < 4; b++)
		c[off + b] = (uint8_t)(v >> (8 * b));
}

static void test_msi_capability_walk(void **state)
{
	uint8_t cfg[256] = { 0 };
	struct pgpu_cfg_io io = { cfg, raw_rd, raw_wr };
	struct pgpu_msi m;

	(void)state;
	assert_int_equal(pgpu_msi_find(&io), 0); /* no list */
	cfg[0x06] = 0x10;
	cfg[0x34] = 0x40;
	cfg[0x40] = 0x09; cfg[0x41] = 0x50;
	cfg[0x50] = 0x10; cfg[0x51] = 0x40; /* loops back to 0x40 */
	assert_int_equal(pgpu_msi_find(&io), 0);
	assert_int_equal(pgpu_msi_program(&io, 0, 0x50, NULL), -1);
	/* A 64-bit capable MSI: data moves to cap + 12, upper address 0. */
	cfg[0x51] = 0x60;
	cfg[0x60] = 0x05; cfg[0x62] = 0x80;
	cfg[0x68] = 0xff;
	assert_int_equal(pgpu_msi_program(&io, 1, 0x60, &m), 0);
	assert_true(m.is64);
	assert_int_equal(raw_rd(cfg, 0x64), 0xfee01000u);
	assert_int_equal(raw_rd(cfg, 0x68), 0);
	assert_int_equal(raw_rd(cfg, 0x6c) & 0xffff, 0x4060);
	assert_int_equal(cfg[0x62] & 1, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_register_load_and_store, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pte_qword_and_halves, setup, teardown),
		cmocka_unit_test_setup_teardown(test_aperture_bytes_follow_the_ggtt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_undefined_accesses_are_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_real_backend_drives_the_model, setup, teardown),
		cmocka_unit_test_setup_teardown(test_msi_programmed_and_sent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_msi_capability_walk, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
