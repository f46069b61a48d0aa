/* Gen9 privilege in the model: what a non-privileged (PPGTT) batch cannot
 * do, whatever its bits say - GGTT selectors ignored, registers outside
 * the whitelist dropped, privileged commands no-ops, no way back to a
 * privileged batch - while the ring and GGTT batches keep their rights.
 * Plus the exact request shapes stock i915 6.1 starts every request with
 * (gt/gen8_engine_cs.c gen8_emit_flush_rcs / gen8_emit_flush_xcs). */
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

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define BB_VA 0x60000ull
#define GPR0(base) GEN8_RING_CS_GPR(base, 0)
/* i915: LRC_PPHWSP_SCRATCH 0x34 dwords into the per-process HWSP */
#define I915_PPHWSP_SCRATCH_ADDR (0x34 * 4)

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

static void run(void)
{
	h_ctx_commit(&H, &C);
	h_elsp(&H, C.engine, h_desc(&C), 0);
	h_run(&H, 2);
	assert_false(eng(C.engine)->hung);
	assert_false(eng(C.engine)->active);
}

static uint32_t *ppgtt_page(uint64_t gva)
{
	return h_ptr(&H, h_ppgtt_alloc(&H, PML4, gva, 1));
}

/* Ring: start the PPGTT batch at BB_VA (non-privileged). */
static void ring_calls_ppgtt_batch(void)
{
	uint32_t cmd[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
			   (uint32_t)BB_VA, 0, MI_NOOP };

	h_emitn(&H, &C, cmd, ARRAY_SIZE(cmd));
}

/* A GGTT page and a PPGTT page at the same numeric address: where a
 * write lands says which address space the command really used. */
struct alias {
	uint32_t gaddr;
	uint32_t *g, *p;
};

static void alias(struct alias *a)
{
	a->gaddr = h_ggtt_alloc(&H, 1);
	a->g = h_gptr(&H, a->gaddr);
	a->p = ppgtt_page(a->gaddr);
}

static void test_nonpriv_ggtt_selectors_ignored(void **state)
{
	struct alias a;
	uint32_t *bb;

	(void)state;
	start(GEN9_RCS0);
	alias(&a);
	bb = ppgtt_page(BB_VA);
	{
		/* GPR0 is context state (the context's load would replace an
		 * MMIO write): set it from the privileged ring. */
		uint32_t lri[] = { MI_LOAD_REGISTER_IMM(1), GPR0(RENDER_RING_BASE),
				   0x5157, MI_NOOP };

		h_emitn(&H, &C, lri, ARRAY_SIZE(lri));
	}
	a.g[4] = 0x6666; /* what LRM would load through the GGTT */
	a.p[4] = 0x7777; /* and through the PPGTT */
	/* SDI, SRM and PIPE_CONTROL, each with its GGTT bit set. */
	{
		uint32_t cmds[] = {
			MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, a.gaddr, 0, 0x11,
			MI_STORE_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT,
			GPR0(RENDER_RING_BASE), a.gaddr + 4, 0,
			GFX_OP_PIPE_CONTROL(6),
			PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_GLOBAL_GTT_IVB,
			a.gaddr + 8, 0, 0x33, 0x44,
			MI_LOAD_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT,
			GPR0(RENDER_RING_BASE) + 8, a.gaddr + 16, 0,
			MI_BATCH_BUFFER_END,
		};

		memcpy(bb, cmds, sizeof(cmds));
	}
	ring_calls_ppgtt_batch();
	run();
	assert_int_equal(a.g[0], 0);
	assert_int_equal(a.g[1], 0);
	assert_int_equal(a.g[2], 0);
	assert_int_equal(a.p[0], 0x11);
	assert_int_equal(a.p[1], 0x5157);
	assert_int_equal(a.p[2], 0x33);
	assert_int_equal(a.p[3], 0x44);
	assert_int_equal(h_rd(&H, GPR0(RENDER_RING_BASE) + 8), 0x7777);
	assert_int_equal(eng(GEN9_RCS0)->stats.ggtt_ignored, 4);
}

static void test_ring_and_ggtt_batch_keep_ggtt(void **state)
{
	struct alias a;
	uint32_t cmd[] = { MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, 0, 0, 0x77 };

	(void)state;
	start(GEN9_RCS0);
	alias(&a);
	cmd[1] = a.gaddr;
	h_emitn(&H, &C, cmd, ARRAY_SIZE(cmd));
	run();
	assert_int_equal(a.g[0], 0x77);
	assert_int_equal(a.p[0], 0);
	assert_int_equal(eng(GEN9_RCS0)->stats.ggtt_ignored, 0);
}

/* LRI / LRM / LRR / PIPE_CONTROL register write from a PPGTT batch: the
 * general-purpose registers and FORCE_TO_NONPRIV-listed registers only. */
static void test_nonpriv_register_whitelist(void **state)
{
	const uint32_t base = RENDER_RING_BASE;
	uint32_t *bb, *data;
	uint32_t hws = 0;

	(void)state;
	start(GEN9_RCS0);
	hws = h_rd(&H, RING_HWS_PGA(base));
	data = ppgtt_page(0x70000);
	data[0] = 0xdead0000;
	bb = ppgtt_page(BB_VA);
	{
		uint32_t cmds[] = {
			MI_LOAD_REGISTER_IMM(3), GPR0(base), 0x1234,
			0x2580, 0xffff0001, /* CS_CHICKEN1: not listed yet */
			RING_HWS_PGA(base), 0x1000,
			MI_LOAD_REGISTER_MEM_GEN8, RING_START(base), 0x70000, 0,
			MI_LOAD_REGISTER_REG, GPR0(base), RING_TAIL(base),
			GFX_OP_PIPE_CONTROL(6),
			PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_MMIO_WRITE,
			0x7300, 0, 0x5a5a, 0,
			MI_BATCH_BUFFER_END,
		};

		memcpy(bb, cmds, sizeof(cmds));
	}
	ring_calls_ppgtt_batch();
	run();
	assert_int_equal(h_rd(&H, GPR0(base)), 0x1234);
	assert_int_equal(h_rd(&H, 0x2580), 0);
	assert_int_equal(h_rd(&H, RING_HWS_PGA(base)), hws);
	assert_int_not_equal(h_rd(&H, RING_START(base)), 0xdead0000);
	assert_int_equal(h_rd(&H, 0x7300), 0);
	assert_int_equal(eng(GEN9_RCS0)->stats.priv_dropped, 5);

	/* i915 lists CS_CHICKEN1 in a FORCE_TO_NONPRIV slot: now it loads. */
	h_wr(&H, RING_FORCE_TO_NONPRIV(base, 0), 0x2580);
	h_emitn(&H, &C, (uint32_t[]){ MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
				      (uint32_t)BB_VA, 0, MI_NOOP }, 4);
	run();
	assert_int_not_equal(h_rd(&H, 0x2580), 0);
	assert_int_equal(h_rd(&H, RING_HWS_PGA(base)), hws);
}

/* What Mesa loads from its own (non-privileged) batches on RCS:
 * predicate sources, 3DPRIM_* for indirect draws, L3 control. */
static void test_nonpriv_mesa_registers(void **state)
{
	uint32_t *bb;

	(void)state;
	start(GEN9_RCS0);
	bb = ppgtt_page(BB_VA);
	{
		uint32_t cmds[] = {
			MI_LOAD_REGISTER_IMM(4), 0x2400, 7, 0x2434, 3,
			0x2508, 1, 0x7034, 0x60000121,
			MI_BATCH_BUFFER_END,
		};

		memcpy(bb, cmds, sizeof(cmds));
	}
	ring_calls_ppgtt_batch();
	run();
	assert_int_equal(h_rd(&H, 0x2400), 7);
	assert_int_equal(h_rd(&H, 0x2434), 3);
	assert_int_equal(h_rd(&H, 0x2508), 1);
	assert_int_equal(h_rd(&H, 0x7034), 0x60000121);
	assert_int_equal(eng(GEN9_RCS0)->stats.priv_dropped, 0);
}

/* A read-only slot (access 29:28 = 1) does not allow writes. */
static void test_nonpriv_slot_read_only(void **state)
{
	uint32_t *bb;

	(void)state;
	start(GEN9_RCS0);
	h_wr(&H, RING_FORCE_TO_NONPRIV(RENDER_RING_BASE, 3), (1u << 28) | 0x2348);
	bb = ppgtt_page(BB_VA);
	bb[0] = MI_LOAD_REGISTER_IMM(1);
	bb[1] = 0x2348;
	bb[2] = 9;
	bb[3] = MI_BATCH_BUFFER_END;
	ring_calls_ppgtt_batch();
	run();
	assert_int_equal(h_rd(&H, 0x2348), 0);
	assert_int_equal(eng(GEN9_RCS0)->stats.priv_dropped, 1);
}

/* Privileged commands are no-ops in a PPGTT batch; the same command in
 * the ring works. */
static void test_nonpriv_privileged_command_noop(void **state)
{
	uint32_t *bb, *pphwsp;
	uint32_t sdi[] = { MI_STORE_DATA_INDEX, 0x40 * 4, 0x1234 };

	(void)state;
	start(GEN9_VCS0);
	pphwsp = h_hwsp(&H, GEN9_VCS0);
	bb = ppgtt_page(BB_VA);
	memcpy(bb, sdi, sizeof(sdi));
	bb[3] = MI_BATCH_BUFFER_END;
	ring_calls_ppgtt_batch();
	run();
	assert_int_equal(pphwsp[0x40], 0);
	assert_int_equal(eng(GEN9_VCS0)->stats.priv_dropped, 1);
	h_emitn(&H, &C, sdi, 3);
	h_emit(&H, &C, MI_NOOP);
	run();
	assert_int_equal(pphwsp[0x40], 0x1234);
}

/* A PPGTT batch that chains (or calls) with the GGTT bit clear still
 * runs its target without privilege, from the PPGTT. */
static void test_chained_batch_cannot_raise_privilege(void **state)
{
	struct alias tgt, dst;
	uint32_t *bb;
	int second;

	(void)state;
	for (second = 0; second < 2; second++) {
		start(GEN9_RCS0);
		alias(&tgt);
		alias(&dst);
		/* GGTT copy of the target: would write dst through the GGTT. */
		tgt.g[0] = MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT;
		tgt.g[1] = dst.gaddr;
		tgt.g[2] = 0;
		tgt.g[3] = 0xbad;
		tgt.g[4] = MI_BATCH_BUFFER_END;
		/* PPGTT page at the same address: what must run. */
		tgt.p[0] = MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT;
		tgt.p[1] = dst.gaddr;
		tgt.p[2] = 0;
		tgt.p[3] = 0x600d;
		tgt.p[4] = MI_BATCH_BUFFER_END;
		bb = ppgtt_page(BB_VA);
		bb[0] = MI_BATCH_BUFFER_START_GEN8 |
			(second ? MI_BATCH_SECOND_LEVEL : 0);
		bb[1] = tgt.gaddr;
		bb[2] = 0;
		bb[3] = MI_BATCH_BUFFER_END;
		ring_calls_ppgtt_batch();
		run();
		assert_int_equal(dst.g[0], 0);
		assert_int_equal(dst.p[0], 0x600d);
		h_fini(&H);
		h_init(&H, NULL);
	}
}

/* The blitter: the model applies the PRM's rule (no GGTT access from a
 * non-privileged batch), not the weaker real Gen9 BCS (CVE-2019-0155). */
static void test_blitter_nonpriv_flush_dw_ggtt_ignored(void **state)
{
	struct alias a;
	uint32_t *bb;

	(void)state;
	start(GEN9_BCS0);
	alias(&a);
	bb = ppgtt_page(BB_VA);
	bb[0] = (MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW;
	bb[1] = a.gaddr | MI_FLUSH_DW_USE_GTT;
	bb[2] = 0;
	bb[3] = 0x42;
	bb[4] = MI_BATCH_BUFFER_END;
	ring_calls_ppgtt_batch();
	run();
	assert_int_equal(a.g[0], 0);
	assert_int_equal(a.p[0], 0x42);
}

/* The start of every i915 6.1 request on RCS (gen8_emit_flush_rcs with
 * EMIT_INVALIDATE on gen9: a null PIPE_CONTROL for the VF-invalidate
 * workaround, then the invalidating one with a QW write in index mode to
 * LRC_PPHWSP_SCRATCH_ADDR) and on the other engines (gen8_emit_flush_xcs:
 * MI_FLUSH_DW with STORE_INDEX). The writes land in the context's own
 * status page. */
static const uint32_t i915_flush_rcs[] = {
	GFX_OP_PIPE_CONTROL(6), 0, 0, 0, 0, 0,
	GFX_OP_PIPE_CONTROL(6),
	PIPE_CONTROL_CS_STALL | PIPE_CONTROL_TLB_INVALIDATE |
		PIPE_CONTROL_INSTRUCTION_CACHE_INVALIDATE |
		PIPE_CONTROL_TEXTURE_CACHE_INVALIDATE |
		PIPE_CONTROL_VF_CACHE_INVALIDATE |
		PIPE_CONTROL_CONST_CACHE_INVALIDATE |
		PIPE_CONTROL_STATE_CACHE_INVALIDATE | PIPE_CONTROL_QW_WRITE |
		PIPE_CONTROL_STORE_DATA_INDEX,
	I915_PPHWSP_SCRATCH_ADDR, 0, 0, 0,
};

static const uint32_t i915_flush_xcs[] = {
	(MI_FLUSH_DW + 1) | MI_FLUSH_DW_STORE_INDEX | MI_FLUSH_DW_OP_STOREDW |
		MI_INVALIDATE_TLB,
	I915_PPHWSP_SCRATCH_ADDR, 0, 0,
};

static void test_i915_request_start_shapes(void **state)
{
	uint32_t *pphwsp;

	(void)state;
	start(GEN9_RCS0);
	pphwsp = h_gptr(&H, C.lrca);
	pphwsp[0x34] = pphwsp[0x35] = 0xffffffff;
	h_emitn(&H, &C, i915_flush_rcs, ARRAY_SIZE(i915_flush_rcs));
	run();
	assert_int_equal(pphwsp[0x34], 0);
	assert_int_equal(pphwsp[0x35], 0);
	assert_int_equal(h_hwsp(&H, GEN9_RCS0)[0x34], 0);

	start(GEN9_BCS0);
	pphwsp = h_gptr(&H, C.lrca);
	pphwsp[0x34] = 0xffffffff;
	pphwsp[0x35] = 0xffffffff;
	h_emitn(&H, &C, i915_flush_xcs, ARRAY_SIZE(i915_flush_xcs));
	run();
	assert_int_equal(pphwsp[0x34], 0);
	assert_int_equal(pphwsp[0x35], 0xffffffff); /* dword write */
}

/* A qword write 4 bytes before the end of a page is naturally aligned:
 * all 8 bytes stay in the page (the rule the scanner checks, from the
 * same table). */
static void test_pipe_control_qword_at_page_end(void **state)
{
	uint32_t pages = h_ggtt_alloc(&H, 2);
	uint32_t *p0, *p1;
	uint32_t cmd[] = { GFX_OP_PIPE_CONTROL(6),
			   PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_GLOBAL_GTT_IVB,
			   0, 0, 0x11111111, 0x22222222 };

	(void)state;
	start(GEN9_RCS0);
	p0 = h_gptr(&H, pages);
	p1 = h_gptr(&H, pages + 4096);
	cmd[2] = pages + 4096 - 4;
	h_emitn(&H, &C, cmd, ARRAY_SIZE(cmd));
	run();
	assert_int_equal(p0[1022], 0x11111111);
	assert_int_equal(p0[1023], 0x22222222);
	assert_int_equal(p1[0], 0);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_nonpriv_ggtt_selectors_ignored),
		T(test_ring_and_ggtt_batch_keep_ggtt),
		T(test_nonpriv_register_whitelist),
		T(test_nonpriv_slot_read_only),
		T(test_nonpriv_mesa_registers),
		T(test_nonpriv_privileged_command_noop),
		T(test_chained_batch_cannot_raise_privilege),
		T(test_blitter_nonpriv_flush_dw_ggtt_ignored),
		T(test_i915_request_start_shapes),
		T(test_pipe_control_qword_at_page_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
