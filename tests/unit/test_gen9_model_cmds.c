/* The Gen9 model's command streamer, one behaviour per test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/harness/model_harness.h"

static struct harness H;
static struct h_ctx C;
static uint64_t PML4;

#define GPR0(base) GEN8_RING_CS_GPR(base, 0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static int setup(void **state)
{
	(void)state;
	return h_init(&H, NULL);
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

static struct gen9_model_engine *eng(enum gen9_engine_id id)
{
	return &H.m.engine[id];
}

static void start(enum gen9_engine_id id)
{
	h_engine_start(&H, id);
	PML4 = h_ppgtt_create(&H);
	h_ctx_create(&H, &C, id, PML4, 7);
}

static void submit_run(int polls)
{
	h_ctx_commit(&H, &C);
	h_elsp(&H, C.engine, h_desc(&C), 0);
	h_run(&H, polls);
}

static void emit(const uint32_t *dw, unsigned int n)
{
	h_emitn(&H, &C, dw, n);
}

/* A batch in the GGTT (privileged) or at gva in the PPGTT. */
static uint32_t *ggtt_batch(uint32_t *gaddr)
{
	*gaddr = h_ggtt_alloc(&H, 1);
	return h_gptr(&H, *gaddr);
}

static uint32_t *ppgtt_batch(uint64_t gva)
{
	return h_ptr(&H, h_ppgtt_alloc(&H, PML4, gva, 1));
}

static uint32_t *ppgtt_page(uint64_t gva)
{
	return h_ptr(&H, h_ppgtt_alloc(&H, PML4, gva, 1));
}

static void assert_idle_ok(enum gen9_engine_id id)
{
	assert_false(eng(id)->hung);
	assert_false(eng(id)->active);
}

/* ---- MI commands -------------------------------------------------------- */

static void test_sdi_ggtt_dword(void **state)
{
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t cmd[] = { MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, dst + 8, 0,
			   0xcafe0001 };

	(void)state;
	start(GEN9_RCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(((uint32_t *)h_gptr(&H, dst))[2], 0xcafe0001);
	assert_idle_ok(GEN9_RCS0);
}

static void test_sdi_ppgtt_qword_high_address(void **state)
{
	uint64_t gva = 0x0000123456789000ull; /* uses all 4 levels */
	uint32_t *page;
	uint32_t cmd[] = { MI_STORE_QWORD_IMM_GEN8, (uint32_t)gva + 16,
			   (uint32_t)(gva >> 32), 0x11111111, 0x22222222 };

	(void)state;
	start(GEN9_BCS0);
	page = ppgtt_page(gva);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(page[4], 0x11111111);
	assert_int_equal(page[5], 0x22222222);
	assert_idle_ok(GEN9_BCS0);
}

static void test_sdi_many_dwords(void **state)
{
	uint32_t *page;
	uint32_t cmd[] = { MI_STORE_DATA_IMM | 4, 0x10000, 0, 1, 2, 3 };

	(void)state;
	start(GEN9_VCS0);
	page = ppgtt_page(0x10000);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(page[0], 1);
	assert_int_equal(page[1], 2);
	assert_int_equal(page[2], 3);
}

static void test_lri_then_srm(void **state)
{
	uint32_t *page;
	uint32_t cmd[] = {
		MI_LOAD_REGISTER_IMM(2), GPR0(RENDER_RING_BASE), 0xabcd,
		GEN8_RING_CS_GPR_UDW(RENDER_RING_BASE, 0), 0x1234,
		MI_STORE_REGISTER_MEM_GEN8, GPR0(RENDER_RING_BASE), 0x20000, 0,
		MI_STORE_REGISTER_MEM_GEN8,
		GEN8_RING_CS_GPR_UDW(RENDER_RING_BASE, 0), 0x20004, 0,
	};

	(void)state;
	start(GEN9_RCS0);
	page = ppgtt_page(0x20000);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(h_rd(&H, GPR0(RENDER_RING_BASE)), 0xabcd);
	assert_int_equal(page[0], 0xabcd);
	assert_int_equal(page[1], 0x1234);
}

static void test_lri_masked_register(void **state)
{
	uint32_t cmd[] = { MI_LOAD_REGISTER_IMM(1), BCS_SWCTRL,
			   _MASKED_BIT_ENABLE(BCS_DST_Y) };

	(void)state;
	start(GEN9_BCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(h_rd(&H, BCS_SWCTRL), BCS_DST_Y);
}

static void test_lrm_and_lrr(void **state)
{
	uint32_t *page;
	uint32_t base = RENDER_RING_BASE;
	uint32_t cmd[] = {
		MI_LOAD_REGISTER_MEM_GEN8, GEN8_RING_CS_GPR(base, 1), 0x30000, 0,
		MI_LOAD_REGISTER_REG, GEN8_RING_CS_GPR(base, 1),
		GEN8_RING_CS_GPR(base, 2),
	};

	(void)state;
	start(GEN9_RCS0);
	page = ppgtt_page(0x30000);
	page[0] = 0x5150;
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(h_rd(&H, GEN8_RING_CS_GPR(base, 1)), 0x5150);
	assert_int_equal(h_rd(&H, GEN8_RING_CS_GPR(base, 2)), 0x5150);
}

static void test_flush_dw_post_sync_and_notify(void **state)
{
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t notify = GT_FLUSH_DW_NOTIFY_INTERRUPT << GEN8_BCS_IRQ_SHIFT;
	uint32_t cmd[] = { (MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW |
				   MI_FLUSH_DW_NOTIFY,
			   dst | MI_FLUSH_DW_USE_GTT, 0, 0x77 };

	(void)state;
	h_wr(&H, GEN8_GT_IMR(0), ~notify);
	start(GEN9_BCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 0x77);
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(0)) & notify, notify);
}

static void test_flush_dw_qword_ppgtt(void **state)
{
	uint32_t *page;
	uint32_t cmd[] = { (MI_FLUSH_DW + 2) | MI_FLUSH_DW_OP_STOREDW, 0x40008, 0,
			   0xaaaa, 0xbbbb, MI_NOOP };

	(void)state;
	start(GEN9_VECS0);
	page = ppgtt_page(0x40000);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(page[2], 0xaaaa);
	assert_int_equal(page[3], 0xbbbb);
}

static void test_pipe_control_qw_write_ggtt_and_notify(void **state)
{
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t notify = GT_RENDER_PIPECTL_NOTIFY_INTERRUPT;
	uint32_t cmd[] = { GFX_OP_PIPE_CONTROL(6),
			   PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_GLOBAL_GTT_IVB |
				   PIPE_CONTROL_CS_STALL | PIPE_CONTROL_NOTIFY,
			   dst + 0x40, 0, 42, 0 };

	(void)state;
	h_wr(&H, GEN8_GT_IMR(0), ~notify);
	start(GEN9_RCS0);
	((uint32_t *)h_gptr(&H, dst))[0x11] = 0xffffffff;
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(((uint32_t *)h_gptr(&H, dst))[0x10], 42);
	assert_int_equal(((uint32_t *)h_gptr(&H, dst))[0x11], 0); /* qword */
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(0)) & notify, notify);
}

static void test_pipe_control_ppgtt_and_timestamp(void **state)
{
	uint32_t *page;
	uint32_t cmd[] = { GFX_OP_PIPE_CONTROL(6), PIPE_CONTROL_WRITE_TIMESTAMP,
			   0x50000, 0, 0, 0,
			   GFX_OP_PIPE_CONTROL(6), PIPE_CONTROL_QW_WRITE, 0x50010,
			   0, 5, 6 };

	(void)state;
	start(GEN9_RCS0);
	page = ppgtt_page(0x50000);
	gen9_model_udelay(&H.m, 100); /* clock at 100 us -> 1200 ticks */
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(page[0], 1200);
	assert_int_equal(page[4], 5);
	assert_int_equal(page[5], 6);
}

/* Index-mode post-sync writes land in the running context's per-process
 * status page (LRCA page 0), not the engine's global status page. */
static void test_pipe_control_store_index_to_hwsp(void **state)
{
	uint32_t cmd[] = { GFX_OP_PIPE_CONTROL(6),
			   PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_STORE_DATA_INDEX,
			   0x30 * 4, 0, 0x99, 0 };

	(void)state;
	start(GEN9_RCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(((uint32_t *)h_gptr(&H, C.lrca))[0x30], 0x99);
	assert_int_equal(h_hwsp(&H, GEN9_RCS0)[0x30], 0);
}

static void test_store_data_index(void **state)
{
	uint32_t cmd[] = { MI_STORE_DATA_INDEX, 0x34 * 4, 0x1234 };

	(void)state;
	start(GEN9_VCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(h_hwsp(&H, GEN9_VCS0)[0x34], 0x1234);
}

static void test_user_interrupt_bank1(void **state)
{
	(void)state;
	h_wr(&H, GEN8_GT_IMR(1), 0);
	start(GEN9_VCS0);
	h_emit(&H, &C, MI_USER_INTERRUPT);
	submit_run(1);
	assert_true(h_rd(&H, GEN8_GT_IIR(1)) & GT_RENDER_USER_INTERRUPT);
	assert_int_equal(h_rd(&H, GEN8_GT_IIR(0)), 0);
}

/* ---- batch buffers ------------------------------------------------------ */

static void test_batch_ggtt_and_ppgtt_return_to_ring(void **state)
{
	uint32_t gb, dst = h_ggtt_alloc(&H, 1);
	uint32_t *b1, *b2, *d = h_gptr(&H, dst);
	uint32_t cmd[] = {
		MI_BATCH_BUFFER_START_GEN8, 0, 0, /* GGTT batch, set below */
		MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT, 0x60000, 0,
		MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, dst + 8, 0, 3,
	};

	(void)state;
	start(GEN9_RCS0);
	b1 = ggtt_batch(&gb);
	b2 = ppgtt_batch(0x60000);
	cmd[1] = gb;
	b1[0] = MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT;
	b1[1] = dst;
	b1[2] = 0;
	b1[3] = 1;
	b1[4] = MI_BATCH_BUFFER_END;
	/* A non-privileged batch writes through the PPGTT. */
	b2[0] = MI_STORE_DWORD_IMM_GEN4;
	b2[1] = 0x60000 + 0x800;
	b2[2] = 0;
	b2[3] = 2;
	b2[4] = MI_BATCH_BUFFER_END;
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(d[0], 1);
	assert_int_equal(b2[0x200], 2);
	assert_int_equal(d[2], 3);
	assert_int_equal(eng(GEN9_RCS0)->stats.batches, 2);
	assert_idle_ok(GEN9_RCS0);
}

static void test_chained_and_second_level_batches(void **state)
{
	uint32_t *a, *b, *s, *d;
	uint32_t cmd[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT, 0x70000,
			   0, MI_STORE_DATA_IMM | 2, 0x7300c, 0, 4 };

	(void)state;
	start(GEN9_BCS0);
	a = ppgtt_batch(0x70000);
	b = ppgtt_batch(0x71000);
	s = ppgtt_batch(0x72000);
	d = ppgtt_page(0x73000);
	/* a: calls s as a second-level batch, then chains to b */
	a[0] = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT |
	       MI_BATCH_SECOND_LEVEL;
	a[1] = 0x72000;
	a[2] = 0;
	a[3] = MI_STORE_DATA_IMM | 2;
	a[4] = 0x73004;
	a[5] = 0;
	a[6] = 2; /* runs after s returns */
	a[7] = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT;
	a[8] = 0x71000;
	a[9] = 0;
	a[10] = MI_STORE_DATA_IMM | 2; /* never reached: chained away */
	a[11] = 0x73010;
	a[12] = 0;
	a[13] = 0xbad;
	s[0] = MI_STORE_DATA_IMM | 2;
	s[1] = 0x73000;
	s[2] = 0;
	s[3] = 1;
	s[4] = MI_BATCH_BUFFER_END;
	b[0] = MI_STORE_DATA_IMM | 2;
	b[1] = 0x73008;
	b[2] = 0;
	b[3] = 3;
	b[4] = MI_BATCH_BUFFER_END; /* back to the ring */
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(d[0], 1);
	assert_int_equal(d[1], 2);
	assert_int_equal(d[2], 3);
	assert_int_equal(d[3], 4);
	assert_int_equal(d[4], 0);
	assert_idle_ok(GEN9_BCS0);
}

static void test_third_level_batch_is_an_error(void **state)
{
	uint32_t *a, *s;
	uint32_t cmd[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT, 0x70000, 0 };

	(void)state;
	start(GEN9_RCS0);
	a = ppgtt_batch(0x70000);
	s = ppgtt_batch(0x71000);
	a[0] = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT |
	       MI_BATCH_SECOND_LEVEL;
	a[1] = 0x71000;
	s[0] = a[0];
	s[1] = 0x71000;
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_true(eng(GEN9_RCS0)->hung);
	assert_int_equal(eng(GEN9_RCS0)->fault.kind, GEN9_MODEL_FAULT_INSTRUCTION);
	assert_true(h_rd(&H, RING_EIR(RENDER_RING_BASE)) & I915_ERROR_INSTRUCTION);
}

static void test_looping_batch_is_bounded(void **state)
{
	uint32_t *a;
	struct gen9_model_config cfg = { .cmd_budget = 64 };
	uint32_t cmd[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT, 0x70000, 0 };

	(void)state;
	h_fini(&H);
	assert_int_equal(h_init(&H, &cfg), 0);
	start(GEN9_RCS0);
	a = ppgtt_batch(0x70000);
	a[0] = MI_NOOP;
	a[1] = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT; /* jump to itself */
	a[2] = 0x70000;
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(10);
	/* 10 polls x 64 commands, still running, host not stuck. */
	assert_int_equal(eng(GEN9_RCS0)->stats.cmds, 640);
	assert_int_equal(eng(GEN9_RCS0)->stats.budget_exhausted, 10);
	assert_true(eng(GEN9_RCS0)->active);
	/* Only a reset ends it. */
	h_wr(&H, GEN6_GDRST, GEN6_GRDOM_RENDER);
	assert_false(eng(GEN9_RCS0)->active);
	assert_int_equal(h_rd(&H, GEN6_GDRST), 0);
}

static void test_semaphore_wait_blocks_until_memory(void **state)
{
	uint32_t *sem, dst = h_ggtt_alloc(&H, 1);
	uint32_t cmd[] = {
		MI_SEMAPHORE_WAIT | MI_SEMAPHORE_POLL | (1u << 12) /* >= */,
		5, 0x80000, 0,
		MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, dst, 0, 1,
	};

	(void)state;
	start(GEN9_RCS0);
	sem = ppgtt_page(0x80000);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(3);
	assert_true(eng(GEN9_RCS0)->waiting);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 0);
	*sem = 5;
	h_run(&H, 1);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 1);
	assert_idle_ok(GEN9_RCS0);
}


static void test_lri_reset_of_own_engine_stops_it(void **state)
{
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t cmd[] = { MI_LOAD_REGISTER_IMM(1), GEN6_GDRST, GEN6_GRDOM_RENDER,
			   MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, dst, 0, 1 };

	(void)state;
	start(GEN9_RCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(2);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 0);
	assert_false(eng(GEN9_RCS0)->active);
	assert_int_equal(h_rd(&H, RING_HEAD(RENDER_RING_BASE)), 0);
}

static void test_command_longer_than_ring_hangs(void **state)
{
	(void)state;
	start(GEN9_RCS0);
	h_emit(&H, &C, 0x78000000 | 0xff); /* 3D, 257 dwords */
	submit_run(1);
	/* Harmless on a 16 KiB ring; a 0xffff-long media command is not. */
	assert_false(eng(GEN9_RCS0)->hung);
	h_fini(&H);
	assert_int_equal(h_init(&H, NULL), 0);
	start(GEN9_RCS0);
	h_emit(&H, &C, 0x72000000 | 0xfffe); /* media, 65536 dwords */
	submit_run(1);
	assert_true(eng(GEN9_RCS0)->hung);
	assert_int_equal(eng(GEN9_RCS0)->fault.kind, GEN9_MODEL_FAULT_INSTRUCTION);
}

/* ---- parsing by length ---------------------------------------------------- */

static void test_unknown_commands_skipped_by_length(void **state)
{
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t cmd[] = {
		0x78000000 | 3, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
		0x72000000 | 0x0100 | 1, 0, 0, /* media: 16-bit length 0x101 */
		MI_INSTR(0x28, 2), 0, 0, 0, /* REPORT_PERF_COUNT: skipped */
		MI_ARB_ON_OFF | MI_ARB_ENABLE, MI_ARB_CHECK,
		MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, dst, 0, 9,
	};
	unsigned int i;

	(void)state;
	start(GEN9_RCS0);
	emit(cmd, 5);
	emit(&cmd[5], 3);
	for (i = 0; i < 0x100; i++) /* rest of the media command */
		h_emit(&H, &C, 0xffffffff);
	emit(&cmd[8], ARRAY_SIZE(cmd) - 8);
	submit_run(1);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 9);
	assert_int_equal(eng(GEN9_RCS0)->stats.skipped, 3);
	assert_idle_ok(GEN9_RCS0);
}

static void test_mfx_commands_use_12bit_length(void **state)
{
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t i;

	(void)state;
	start(GEN9_VCS0);
	h_emit(&H, &C, 0x70000000 | 0x102); /* 0x104 dwords on VCS */
	for (i = 0; i < 0x103; i++)
		h_emit(&H, &C, 0xffffffff);
	h_emit(&H, &C, MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT);
	h_emit(&H, &C, dst);
	h_emit(&H, &C, 0);
	h_emit(&H, &C, 0x12);
	submit_run(1);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 0x12);
}

static void test_invalid_header_hangs_with_error_irq(void **state)
{
	uint32_t err = GT_CS_MASTER_ERROR_INTERRUPT;
	uint32_t base = RENDER_RING_BASE;

	(void)state;
	h_wr(&H, GEN8_GT_IMR(0), ~err);
	start(GEN9_RCS0);
	h_emit(&H, &C, MI_NOOP);
	h_emit(&H, &C, 0x20000000); /* client 1: undecodable */
	submit_run(2);
	assert_true(eng(GEN9_RCS0)->hung);
	assert_true(eng(GEN9_RCS0)->active); /* no completion on a hang */
	assert_int_equal(h_rd(&H, RING_IPEHR(base)), 0x20000000);
	assert_int_equal(h_rd(&H, RING_ACTHD(base)), C.ring + 4);
	assert_true(h_rd(&H, RING_EIR(base)) & I915_ERROR_INSTRUCTION);
	assert_true(h_rd(&H, GEN8_GT_IIR(0)) & err);
	/* EIR is write-1-to-clear. */
	h_wr(&H, RING_EIR(base), I915_ERROR_INSTRUCTION);
	assert_int_equal(h_rd(&H, RING_EIR(base)), 0);
}

static void test_blit_command_on_render_is_invalid(void **state)
{
	uint32_t cmd[] = { XY_COLOR_BLT_CMD, 0, 0, 0, 0, 0, 0 };

	(void)state;
	start(GEN9_RCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_true(eng(GEN9_RCS0)->hung);
}

/* ---- translation faults --------------------------------------------------- */

static void test_ppgtt_fault_reported(void **state)
{
	uint64_t gva = 0x00007f0000123000ull;
	uint32_t base = BLT_RING_BASE;
	uint32_t cmd[] = { MI_STORE_DWORD_IMM_GEN4, (uint32_t)gva,
			   (uint32_t)(gva >> 32), 1 };
	uint32_t fault;

	(void)state;
	h_wr(&H, GEN8_GT_IMR(0), ~(GT_CS_MASTER_ERROR_INTERRUPT << 16));
	start(GEN9_BCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_true(eng(GEN9_BCS0)->hung);
	assert_int_equal(eng(GEN9_BCS0)->fault.kind, GEN9_MODEL_FAULT_PPGTT);
	assert_int_equal(eng(GEN9_BCS0)->fault.addr, gva);
	fault = h_rd(&H, GEN8_RING_FAULT_REG);
	assert_true(fault & RING_FAULT_VALID);
	assert_false(fault & RING_FAULT_GTTSEL_MASK);
	assert_int_equal((fault >> GEN8_RING_FAULT_ENGINE_ID_SHIFT) & 7, 2);
	assert_int_equal(h_rd(&H, GEN8_FAULT_TLB_DATA0), (uint32_t)(gva >> 12));
	assert_int_equal(h_rd(&H, GEN8_FAULT_TLB_DATA1), (uint32_t)(gva >> 44));
	assert_true(h_rd(&H, RING_EIR(base)) & I915_ERROR_PAGE_TABLE);
	assert_int_equal(h_rd(&H, RING_IPEHR(base)), cmd[0]);
	assert_true(h_rd(&H, GEN8_GT_IIR(0)) & (GT_CS_MASTER_ERROR_INTERRUPT << 16));
	/* Reset clears the engine and its fault record. */
	h_wr(&H, GEN6_GDRST, GEN6_GRDOM_BLT);
	assert_false(eng(GEN9_BCS0)->hung);
	assert_int_equal(h_rd(&H, GEN8_RING_FAULT_REG), 0);
}

static void test_ggtt_fault_reported(void **state)
{
	uint32_t cmd[] = { MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, 0x0ff00000, 0,
			   1 };

	(void)state;
	start(GEN9_RCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_true(eng(GEN9_RCS0)->hung);
	assert_int_equal(eng(GEN9_RCS0)->fault.kind, GEN9_MODEL_FAULT_GGTT);
	assert_true(h_rd(&H, GEN8_RING_FAULT_REG) & RING_FAULT_GTTSEL_MASK);
	assert_true(h_rd(&H, GEN8_FAULT_TLB_DATA1) & FAULT_GTT_SEL);
}

static void test_masked_error_raises_no_irq(void **state)
{
	uint32_t cmd[] = { MI_STORE_DWORD_IMM_GEN4, 0x1000, 0, 1 };

	(void)state;
	h_wr(&H, GEN8_GT_IMR(0), 0);
	start(GEN9_RCS0);
	h_wr(&H, RING_EMR(RENDER_RING_BASE), I915_ERROR_PAGE_TABLE);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_true(eng(GEN9_RCS0)->hung);
	assert_false(h_rd(&H, GEN8_GT_IIR(0)) & GT_CS_MASTER_ERROR_INTERRUPT);
}

static void test_readonly_page_write_faults(void **state)
{
	uint64_t hpa;
	uint32_t cmd[] = { MI_STORE_DWORD_IMM_GEN4, 0x90000, 0, 1 };
	uint32_t fault;

	(void)state;
	start(GEN9_RCS0);
	hpa = h_alloc_page(&H);
	h_ppgtt_map(&H, PML4, 0x90000, hpa, false);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_true(eng(GEN9_RCS0)->hung);
	assert_int_equal(eng(GEN9_RCS0)->fault.kind, GEN9_MODEL_FAULT_WRITE_RO);
	fault = h_rd(&H, GEN8_RING_FAULT_REG);
	assert_int_equal((fault >> RING_FAULT_FAULT_TYPE_SHIFT) & 3, 1);
	assert_int_equal(*(uint32_t *)h_ptr(&H, hpa), 0);
}

static void test_ring_in_unmapped_ggtt_faults(void **state)
{
	(void)state;
	start(GEN9_RCS0);
	h_emit(&H, &C, MI_NOOP);
	h_ctx_commit(&H, &C);
	/* Unmap the ring page after building it. */
	gen9_model_ggtt_write(&H.m, C.ring >> 12, 0);
	h_elsp(&H, GEN9_RCS0, h_desc(&C), 0);
	h_run(&H, 1);
	assert_true(eng(GEN9_RCS0)->hung);
	assert_int_equal(eng(GEN9_RCS0)->fault.addr, C.ring);
	assert_true(eng(GEN9_RCS0)->fault.ggtt);
}

static void test_pte_outside_ram_is_dma_fault(void **state)
{
	uint32_t cmd[] = { MI_STORE_DWORD_IMM_GEN4, 0xa0000, 0, 1 };

	(void)state;
	start(GEN9_RCS0);
	h_ppgtt_map(&H, PML4, 0xa0000, 0x1000, true); /* not our RAM */
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_true(eng(GEN9_RCS0)->hung);
	assert_int_equal(eng(GEN9_RCS0)->fault.kind, GEN9_MODEL_FAULT_DMA);
	assert_true(H.m.stats.dma_errors > 0);
}

static void test_3level_ppgtt(void **state)
{
	uint64_t pd = h_alloc_page(&H), pt = h_alloc_page(&H);
	uint64_t page = h_alloc_page(&H);
	uint32_t gva = 0x40000000u + 0x00201000u; /* PDP1, PDE 1, PTE 1 */
	uint32_t *st;
	uint32_t cmd[] = { MI_STORE_DWORD_IMM_GEN4, gva + 4, 0, 0x3a3a };

	(void)state;
	start(GEN9_RCS0);
	C.addr_mode = INTEL_LEGACY_32B_CONTEXT;
	((uint64_t *)h_ptr(&H, pd))[1] = pt | GEN8_PAGE_PRESENT | GEN8_PAGE_RW;
	((uint64_t *)h_ptr(&H, pt))[1] = page | GEN8_PAGE_PRESENT | GEN8_PAGE_RW;
	st = h_gptr(&H, C.lrca + LRC_STATE_OFFSET);
	st[CTX_PDP0_LDW] = st[CTX_PDP0_UDW] = 0;
	st[CTX_PDP_LDW(1)] = (uint32_t)pd;
	st[CTX_PDP_UDW(1)] = (uint32_t)(pd >> 32);
	emit(cmd, ARRAY_SIZE(cmd));
	h_ctx_commit(&H, &C);
	h_elsp(&H, GEN9_RCS0, h_desc(&C), 0);
	h_run(&H, 1);
	assert_int_equal(((uint32_t *)h_ptr(&H, page))[1], 0x3a3a);
	assert_idle_ok(GEN9_RCS0);
}

static void test_huge_and_64k_pages(void **state)
{
	uint64_t pdp, pd, pt, hpa;
	uint64_t big = h_alloc_pages(&H, 1024); /* 4 MiB: find a 2M-aligned run */
	uint64_t base2m = (big + (2u << 20) - 1) & ~((2ull << 20) - 1);
	uint64_t *pml4;

	(void)state;
	start(GEN9_RCS0);
	pml4 = h_ptr(&H, PML4);
	pdp = h_alloc_page(&H);
	pd = h_alloc_page(&H);
	pt = h_alloc_page(&H);
	pml4[0] = pdp | GEN8_PAGE_PRESENT | GEN8_PAGE_RW;
	((uint64_t *)h_ptr(&H, pdp))[0] = pd | GEN8_PAGE_PRESENT | GEN8_PAGE_RW;
	/* PDE 0: 2 MiB page; PDE 1: table of 64 KiB pages. */
	((uint64_t *)h_ptr(&H, pd))[0] =
		base2m | GEN8_PAGE_PRESENT | GEN8_PAGE_RW | GEN8_PDE_PS_2M;
	((uint64_t *)h_ptr(&H, pd))[1] =
		pt | GEN8_PAGE_PRESENT | GEN8_PAGE_RW | GEN8_PDE_IPS_64K;
	((uint64_t *)h_ptr(&H, pt))[16] = base2m | GEN8_PAGE_PRESENT | GEN8_PAGE_RW;
	/* Load the context so the engine translates with it. */
	h_ctx_commit(&H, &C);
	h_emit(&H, &C, MI_SEMAPHORE_WAIT | MI_SEMAPHORE_POLL | (4u << 12));
	h_emit(&H, &C, 1);
	h_emit(&H, &C, 0x10);
	h_emit(&H, &C, 0);
	submit_run(1);
	assert_int_equal(gen9_model_translate(&H.m, GEN9_RCS0, 0x123456, false,
					      false, &hpa),
			 0);
	assert_int_equal(hpa, base2m + 0x123456);
	/* 64K slot 16 covers 0x210000..0x21ffff. */
	assert_int_equal(gen9_model_translate(&H.m, GEN9_RCS0, 0x21abcd, false,
					      false, &hpa),
			 0);
	assert_int_equal(hpa, base2m + 0xabcd);
	assert_int_equal(gen9_model_translate(&H.m, GEN9_RCS0, 0x200000, false,
					      false, &hpa),
			 -GPU_EFAULT);
}

/* ---- blitter -------------------------------------------------------------- */

#define SURF 0x100000ull
#define PITCH 256 /* bytes */

static uint32_t *surface(uint64_t gva)
{
	return h_ptr(&H, h_ppgtt_alloc(&H, PML4, gva, 4));
}

static void test_xy_color_blt_32bpp(void **state)
{
	uint32_t *s;
	uint32_t cmd[] = { XY_COLOR_BLT_CMD | BLT_WRITE_RGBA,
			   BR13_32BPP | (ROP_PATCOPY << 16) | PITCH,
			   (2 << 16) | 3, (5 << 16) | 7, (uint32_t)SURF, 0,
			   0xff00ff00 };
	int x, y;

	(void)state;
	start(GEN9_BCS0);
	s = surface(SURF);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	for (y = 0; y < 8; y++)
		for (x = 0; x < 10; x++) {
			bool in = x >= 3 && x < 7 && y >= 2 && y < 5;

			assert_int_equal(s[y * PITCH / 4 + x], in ? 0xff00ff00 : 0);
		}
	assert_int_equal(eng(GEN9_BCS0)->stats.blit_pixels, 12);
}

/* A blit bigger than a poll's byte budget (a 1024x1024 rectangle at
 * pitch 0: 4 MiB moved onto one 4 KiB row) is cut into polls and
 * resumes where it stopped: the host is never held for the whole
 * rectangle, and the result is the same. */
static void test_huge_blit_spans_polls(void **state)
{
	uint32_t *s;
	uint32_t cmd[] = { XY_COLOR_BLT_CMD | BLT_WRITE_RGBA,
			   BR13_32BPP | (ROP_PATCOPY << 16) | 0,
			   0, (1024 << 16) | 1024, (uint32_t)SURF, 0,
			   0x12345678 };
	uint64_t rows_per_poll = GEN9_MODEL_BLT_BYTES_PER_POLL / 4096;

	(void)state;
	start(GEN9_BCS0);
	s = surface(SURF);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(eng(GEN9_BCS0)->stats.blit_yields, 1);
	assert_int_equal(eng(GEN9_BCS0)->stats.blit_pixels, 0);
	assert_int_equal(s[1023], 0x12345678);
	h_run(&H, 1024 / rows_per_poll + 2);
	assert_int_equal(eng(GEN9_BCS0)->stats.blit_yields,
			 1024 / rows_per_poll - 1);
	assert_int_equal(eng(GEN9_BCS0)->stats.blit_pixels, 1024 * 1024);
	assert_false(eng(GEN9_BCS0)->blt_resume.valid);
	assert_idle_ok(GEN9_BCS0);
	assert_int_equal(s[1024], 0); /* the next row was never touched */
}

/* The same blit under a smaller budget (cfg.blt_bytes_per_poll, what the
 * fuzz targets set): 16 rows per poll instead of 256, so it is cut 63
 * times, and still draws exactly the rectangle. */
static void test_blit_budget_is_configurable(void **state)
{
	uint32_t *s;
	uint32_t cmd[] = { XY_COLOR_BLT_CMD | BLT_WRITE_RGBA,
			   BR13_32BPP | (ROP_PATCOPY << 16) | 0,
			   0, (1024 << 16) | 1024, (uint32_t)SURF, 0,
			   0x12345678 };

	(void)state;
	start(GEN9_BCS0);
	H.m.cfg.blt_bytes_per_poll = 16 * 4096;
	s = surface(SURF);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_int_equal(eng(GEN9_BCS0)->stats.blit_yields, 1);
	h_run(&H, 1024 / 16 + 2);
	assert_int_equal(eng(GEN9_BCS0)->stats.blit_yields, 1024 / 16 - 1);
	assert_int_equal(eng(GEN9_BCS0)->stats.blit_pixels, 1024 * 1024);
	assert_false(eng(GEN9_BCS0)->blt_resume.valid);
	assert_idle_ok(GEN9_BCS0);
	assert_int_equal(s[1023], 0x12345678);
	assert_int_equal(s[1024], 0);
}

static void test_xy_color_blt_16bpp_and_write_mask(void **state)
{
	uint16_t *s16;
	uint32_t *s;
	uint32_t cmd16[] = { XY_COLOR_BLT_CMD, BR13_565 | (ROP_PATCOPY << 16) | 64,
			     (0 << 16) | 1, (1 << 16) | 3, (uint32_t)SURF, 0,
			     0xbeef };
	uint32_t cmdrgb[] = { XY_COLOR_BLT_CMD | BLT_WRITE_RGB,
			      BR13_32BPP | (ROP_PATCOPY << 16) | PITCH,
			      (4 << 16) | 0, (5 << 16) | 1, (uint32_t)SURF, 0,
			      0x00123456 };

	(void)state;
	start(GEN9_BCS0);
	s = surface(SURF);
	s16 = (uint16_t *)s;
	s[4 * PITCH / 4] = 0xaa000000; /* alpha must survive */
	emit(cmd16, ARRAY_SIZE(cmd16));
	emit(cmdrgb, ARRAY_SIZE(cmdrgb));
	submit_run(1);
	assert_int_equal(s16[0], 0);
	assert_int_equal(s16[1], 0xbeef);
	assert_int_equal(s16[2], 0xbeef);
	assert_int_equal(s16[3], 0);
	assert_int_equal(s[4 * PITCH / 4], 0xaa123456);
}

static void test_xy_src_copy_blt(void **state)
{
	uint32_t *s;
	uint32_t cmd[] = { XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA,
			   BR13_32BPP | (ROP_SRCCOPY << 16) | PITCH,
			   (10 << 16) | 20, (12 << 16) | 23, (uint32_t)SURF, 0,
			   (1 << 16) | 2, PITCH, (uint32_t)SURF, 0 };
	int x, y;

	(void)state;
	start(GEN9_BCS0);
	s = surface(SURF);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 8; x++)
			s[y * PITCH / 4 + x] = (uint32_t)(y << 8 | x);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	for (y = 0; y < 2; y++)
		for (x = 0; x < 3; x++)
			assert_int_equal(s[(10 + y) * PITCH / 4 + 20 + x],
					 (uint32_t)((1 + y) << 8 | (2 + x)));
	assert_int_equal(s[12 * PITCH / 4 + 20], 0);
	assert_int_equal(s[10 * PITCH / 4 + 23], 0);
}

static void test_xy_src_copy_overlapping_scroll(void **state)
{
	uint32_t *s;
	/* Move rows 0..2 down by one row, in place. */
	uint32_t cmd[] = { XY_SRC_COPY_BLT_CMD | BLT_WRITE_RGBA,
			   BR13_32BPP | (ROP_SRCCOPY << 16) | PITCH, (1 << 16) | 0,
			   (4 << 16) | 4, (uint32_t)SURF, 0, 0, PITCH,
			   (uint32_t)SURF, 0 };
	int x, y;

	(void)state;
	start(GEN9_BCS0);
	s = surface(SURF);
	for (y = 0; y < 4; y++)
		for (x = 0; x < 4; x++)
			s[y * PITCH / 4 + x] = (uint32_t)(y + 1);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	for (y = 1; y < 4; y++)
		assert_int_equal(s[y * PITCH / 4 + 2], (uint32_t)y);
	assert_int_equal(s[0], 1);
}

static void test_blt_rop_xor_and_tiled_skip(void **state)
{
	uint32_t *s;
	uint32_t xor[] = { XY_SRC_COPY_BLT_CMD, BR13_32BPP | (0x66 << 16) | PITCH,
			   0, (1 << 16) | 1, (uint32_t)SURF, 0, (1 << 16) | 0,
			   PITCH, (uint32_t)SURF, 0 };
	uint32_t tiled[] = { XY_COLOR_BLT_CMD | BLT_DST_TILED,
			     BR13_32BPP | (ROP_PATCOPY << 16) | 64, 0,
			     (1 << 16) | 1, (uint32_t)SURF, 0, 0x1 };

	(void)state;
	start(GEN9_BCS0);
	s = surface(SURF);
	s[0] = 0x0f0f0f0f;
	s[PITCH / 4] = 0x00ff00ff;
	emit(xor, ARRAY_SIZE(xor));
	emit(tiled, ARRAY_SIZE(tiled));
	submit_run(1);
	assert_int_equal(s[0], 0x0ff00ff0); /* D = S xor D */
	assert_int_equal(eng(GEN9_BCS0)->stats.unsupported, 1);
	assert_idle_ok(GEN9_BCS0);
}

static void test_blt_unmapped_destination_faults(void **state)
{
	uint32_t cmd[] = { XY_COLOR_BLT_CMD, BR13_32BPP | (ROP_PATCOPY << 16) | PITCH,
			   0, (2 << 16) | 2, 0x7000000, 0, 1 };

	(void)state;
	start(GEN9_BCS0);
	emit(cmd, ARRAY_SIZE(cmd));
	submit_run(1);
	assert_true(eng(GEN9_BCS0)->hung);
	assert_int_equal(eng(GEN9_BCS0)->fault.addr, 0x7000000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_sdi_ggtt_dword),
		T(test_sdi_ppgtt_qword_high_address),
		T(test_sdi_many_dwords),
		T(test_lri_then_srm),
		T(test_lri_masked_register),
		T(test_lrm_and_lrr),
		T(test_flush_dw_post_sync_and_notify),
		T(test_flush_dw_qword_ppgtt),
		T(test_pipe_control_qw_write_ggtt_and_notify),
		T(test_pipe_control_ppgtt_and_timestamp),
		T(test_pipe_control_store_index_to_hwsp),
		T(test_store_data_index),
		T(test_user_interrupt_bank1),
		T(test_batch_ggtt_and_ppgtt_return_to_ring),
		T(test_chained_and_second_level_batches),
		T(test_third_level_batch_is_an_error),
		T(test_looping_batch_is_bounded),
		T(test_semaphore_wait_blocks_until_memory),
		T(test_lri_reset_of_own_engine_stops_it),
		T(test_command_longer_than_ring_hangs),
		T(test_unknown_commands_skipped_by_length),
		T(test_mfx_commands_use_12bit_length),
		T(test_invalid_header_hangs_with_error_irq),
		T(test_blit_command_on_render_is_invalid),
		T(test_ppgtt_fault_reported),
		T(test_ggtt_fault_reported),
		T(test_masked_error_raises_no_irq),
		T(test_readonly_page_write_faults),
		T(test_ring_in_unmapped_ggtt_faults),
		T(test_pte_outside_ram_is_dma_fault),
		T(test_3level_ppgtt),
		T(test_huge_and_64k_pages),
		T(test_xy_color_blt_32bpp),
		T(test_huge_blit_spans_polls),
		T(test_blit_budget_is_configurable),
		T(test_xy_color_blt_16bpp_and_write_mask),
		T(test_xy_src_copy_blt),
		T(test_xy_src_copy_overlapping_scroll),
		T(test_blt_rop_xor_and_tiled_skip),
		T(test_blt_unmapped_destination_faults),
#undef T
	};

	return cmocka_run_group_tests_name("gen9_model_cmds", tests, NULL, NULL);
}
