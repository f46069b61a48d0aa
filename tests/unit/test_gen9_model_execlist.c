/* The Gen9 model's execlists: CSB event order (gen9-facts §4.5 table), the
 * HWSP mirror, context save/restore, pending pairs, lite restore. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/harness/model_harness.h"

static struct harness H;
static uint64_t PML4;
static uint32_t *SEM; /* PPGTT 0x80000, shared by all contexts below */

static int setup(void **state)
{
	(void)state;
	if (h_init(&H, NULL))
		return -1;
	PML4 = h_ppgtt_create(&H);
	SEM = h_ptr(&H, h_ppgtt_alloc(&H, PML4, 0x80000, 1));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

struct csb {
	uint32_t status, id;
};

static struct csb csb_mmio(enum gen9_engine_id id, unsigned int i)
{
	uint32_t base = gen9_engine_mmio_base(id);
	struct csb e = { h_rd(&H, RING_CONTEXT_STATUS_BUF_LO(base, i)),
			 h_rd(&H, RING_CONTEXT_STATUS_BUF_HI(base, i)) };

	return e;
}

/* Entry i must be the same in MMIO and in the HWSP. */
static void assert_csb(enum gen9_engine_id id, unsigned int i,
		       uint32_t status, uint32_t ctx_id)
{
	struct csb e = csb_mmio(id, i);
	uint32_t *hwsp = h_hwsp(&H, id);

	assert_int_equal(e.status, status);
	assert_int_equal(e.id, ctx_id);
	assert_int_equal(hwsp[I915_HWS_CSB_BUF0_INDEX + 2 * i], status);
	assert_int_equal(hwsp[I915_HWS_CSB_BUF0_INDEX + 2 * i + 1], ctx_id);
}

static uint32_t csb_wp(enum gen9_engine_id id)
{
	uint32_t mmio = h_rd(&H, RING_CONTEXT_STATUS_PTR(gen9_engine_mmio_base(id))) &
			GEN8_CSB_PTR_MASK;

	assert_int_equal(h_hwsp(&H, id)[I915_HWS_CSB_WRITE_INDEX], mmio);
	return mmio;
}

/* A context that stores val at dst (GGTT) after waiting for *SEM >= gate. */
static void ctx_store(struct h_ctx *c, enum gen9_engine_id id, uint32_t ctx_id,
		      uint32_t dst, uint32_t val, uint32_t gate)
{
	h_ctx_create(&H, c, id, PML4, ctx_id);
	if (gate) {
		h_emit(&H, c, MI_SEMAPHORE_WAIT | MI_SEMAPHORE_POLL | (1u << 12));
		h_emit(&H, c, gate);
		h_emit(&H, c, 0x80000);
		h_emit(&H, c, 0);
	}
	h_emit(&H, c, MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT);
	h_emit(&H, c, dst);
	h_emit(&H, c, 0);
	h_emit(&H, c, val);
	h_ctx_commit(&H, c);
}

static void test_single_context_events(void **state)
{
	struct h_ctx a;
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t sw = GT_CONTEXT_SWITCH_INTERRUPT << GEN8_BCS_IRQ_SHIFT;

	(void)state;
	h_wr(&H, GEN8_GT_IMR(0), ~sw);
	h_engine_start(&H, GEN9_BCS0);
	ctx_store(&a, GEN9_BCS0, 0x41, dst, 1, 0);
	/* Reset value: none written yet (the HWSP is the driver's until the
	 * first entry). */
	assert_int_equal(h_rd(&H, RING_CONTEXT_STATUS_PTR(BLT_RING_BASE)) & 7, 7);
	h_elsp(&H, GEN9_BCS0, h_desc(&a), 0);
	assert_csb(GEN9_BCS0, 0, GEN8_CTX_STATUS_IDLE_ACTIVE, 0);
	assert_int_equal(csb_wp(GEN9_BCS0), 0);
	assert_true(h_rd(&H, GEN8_GT_IIR(0)) & sw);
	h_wr(&H, GEN8_GT_IIR(0), sw);
	h_run(&H, 1);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 1);
	assert_csb(GEN9_BCS0, 1,
		   GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE, 0x41);
	assert_int_equal(csb_wp(GEN9_BCS0), 1);
	assert_true(h_rd(&H, GEN8_GT_IIR(0)) & sw);
}

static void test_two_elements_events_and_order(void **state)
{
	struct h_ctx a, b;
	uint32_t dst = h_ggtt_alloc(&H, 1);

	(void)state;
	h_engine_start(&H, GEN9_RCS0);
	ctx_store(&a, GEN9_RCS0, 0x10, dst, 1, 0);
	ctx_store(&b, GEN9_RCS0, 0x20, dst + 4, 2, 0);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), h_desc(&b));
	h_run(&H, 1);
	assert_int_equal(((uint32_t *)h_gptr(&H, dst))[0], 1);
	assert_int_equal(((uint32_t *)h_gptr(&H, dst))[1], 2);
	assert_csb(GEN9_RCS0, 0, GEN8_CTX_STATUS_IDLE_ACTIVE, 0);
	assert_csb(GEN9_RCS0, 1,
		   GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ELEMENT_SWITCH, 0x10);
	assert_csb(GEN9_RCS0, 2,
		   GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE, 0x20);
	assert_int_equal(csb_wp(GEN9_RCS0), 2);
	assert_int_equal(H.m.engine[GEN9_RCS0].stats.ctx_switches, 2);
}

static void test_pending_pair_runs_after_current(void **state)
{
	struct h_ctx a, b;
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t base = GEN6_BSD_RING_BASE;

	(void)state;
	h_engine_start(&H, GEN9_VCS0);
	ctx_store(&a, GEN9_VCS0, 0xa, dst, 1, 1); /* waits for SEM >= 1 */
	ctx_store(&b, GEN9_VCS0, 0xb, dst + 4, 2, 0);
	h_elsp(&H, GEN9_VCS0, h_desc(&a), 0);
	h_run(&H, 2);
	h_elsp(&H, GEN9_VCS0, h_desc(&b), 0);
	h_run(&H, 2);
	/* Queued: no entry yet, status shows it. */
	assert_int_equal(csb_wp(GEN9_VCS0), 0);
	assert_true(h_rd(&H, RING_EXECLIST_STATUS_LO(base)) & RING_EXECLIST1_VALID);
	assert_int_equal(h_rd(&H, RING_EXECLIST_STATUS_HI(base)), 0xa);
	*SEM = 1;
	h_run(&H, 1);
	assert_csb(GEN9_VCS0, 1,
		   GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE, 0xa);
	assert_csb(GEN9_VCS0, 2, GEN8_CTX_STATUS_IDLE_ACTIVE, 0);
	assert_csb(GEN9_VCS0, 3,
		   GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE, 0xb);
	assert_int_equal(((uint32_t *)h_gptr(&H, dst))[1], 2);
	assert_int_equal(h_rd(&H, RING_EXECLIST_STATUS_LO(base)), 0);
}

static void test_lite_restore_updates_tail(void **state)
{
	struct h_ctx a;
	uint32_t dst = h_ggtt_alloc(&H, 1);

	(void)state;
	h_engine_start(&H, GEN9_RCS0);
	ctx_store(&a, GEN9_RCS0, 0x77, dst, 1, 1);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	h_run(&H, 2);
	/* More work appended to the same context while it runs. */
	h_emit(&H, &a, MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT);
	h_emit(&H, &a, dst + 4);
	h_emit(&H, &a, 0);
	h_emit(&H, &a, 2);
	h_ctx_commit(&H, &a);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	assert_csb(GEN9_RCS0, 1,
		   GEN8_CTX_STATUS_PREEMPTED | GEN8_CTX_STATUS_LITE_RESTORE, 0x77);
	*SEM = 1;
	h_run(&H, 1);
	assert_int_equal(((uint32_t *)h_gptr(&H, dst))[0], 1);
	assert_int_equal(((uint32_t *)h_gptr(&H, dst))[1], 2);
	assert_csb(GEN9_RCS0, 2,
		   GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE, 0x77);
	assert_int_equal(H.m.engine[GEN9_RCS0].stats.lite_restores, 1);
}

static void test_context_head_saved_and_resumed(void **state)
{
	struct h_ctx a;
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t *d = h_gptr(&H, dst);

	(void)state;
	h_engine_start(&H, GEN9_VECS0);
	ctx_store(&a, GEN9_VECS0, 5, dst, 1, 0);
	h_elsp(&H, GEN9_VECS0, h_desc(&a), 0);
	h_run(&H, 1);
	assert_int_equal(h_ctx_reg(&H, &a, CTX_RING_HEAD), a.tail);
	assert_int_equal(h_ctx_reg(&H, &a, CTX_RING_TAIL), a.tail);
	/* Resubmit with more work: the old command must not run again. */
	d[0] = 0;
	h_emit(&H, &a, MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT);
	h_emit(&H, &a, dst + 4);
	h_emit(&H, &a, 0);
	h_emit(&H, &a, 2);
	h_ctx_commit(&H, &a);
	h_elsp(&H, GEN9_VECS0, h_desc(&a), 0);
	h_run(&H, 1);
	assert_int_equal(d[0], 0);
	assert_int_equal(d[1], 2);
}

static void test_ring_wraps(void **state)
{
	struct h_ctx a;
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t *st;

	(void)state;
	h_engine_start(&H, GEN9_RCS0);
	h_ctx_create(&H, &a, GEN9_RCS0, PML4, 3);
	a.tail = H_RING_SIZE - 8;
	st = h_gptr(&H, a.lrca + LRC_STATE_OFFSET);
	st[CTX_RING_HEAD] = a.tail;
	h_emit(&H, &a, MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT);
	h_emit(&H, &a, dst);
	h_emit(&H, &a, 0); /* wraps here */
	h_emit(&H, &a, 0x1a1a);
	h_ctx_commit(&H, &a);
	assert_int_equal(a.tail, 8);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	h_run(&H, 1);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 0x1a1a);
	assert_false(H.m.engine[GEN9_RCS0].active);
}

static void test_csb_pointer_wraps_after_six(void **state)
{
	struct h_ctx a;
	uint32_t dst = h_ggtt_alloc(&H, 1);
	int i;

	(void)state;
	h_engine_start(&H, GEN9_RCS0);
	ctx_store(&a, GEN9_RCS0, 9, dst, 1, 0);
	for (i = 0; i < 4; i++) { /* 8 entries */
		h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
		h_run(&H, 1);
	}
	assert_int_equal(csb_wp(GEN9_RCS0), 1);
	assert_csb(GEN9_RCS0, 0, GEN8_CTX_STATUS_IDLE_ACTIVE, 0);
	assert_csb(GEN9_RCS0, 1,
		   GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE, 9);
	/* Software moves its read pointer through the masked field. */
	h_wr(&H, RING_CONTEXT_STATUS_PTR(RENDER_RING_BASE),
	     _MASKED_FIELD(GEN8_CSB_READ_PTR_MASK, 1 << 8));
	assert_int_equal(h_rd(&H, RING_CONTEXT_STATUS_PTR(RENDER_RING_BASE)),
			 0x0101);
	/* The i915 reset value makes the next entry slot 0. */
	h_wr(&H, RING_CONTEXT_STATUS_PTR(RENDER_RING_BASE),
	     GEN8_CSB_PTR_RESET_VALUE);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	assert_int_equal(csb_wp(GEN9_RCS0), 0);
}

static void test_elsp_needs_run_list_enable(void **state)
{
	struct h_ctx a;

	(void)state;
	ctx_store(&a, GEN9_BCS0, 1, h_ggtt_alloc(&H, 1), 1, 0);
	h_elsp(&H, GEN9_BCS0, h_desc(&a), 0);
	assert_false(H.m.engine[GEN9_BCS0].active);
	assert_int_equal(H.m.engine[GEN9_BCS0].stats.elsp_ignored, 1);
	/* An invalid element 0 is ignored as well. */
	h_engine_start(&H, GEN9_BCS0);
	h_elsp(&H, GEN9_BCS0, h_desc(&a) & ~(uint64_t)GEN8_CTX_VALID, 0);
	assert_false(H.m.engine[GEN9_BCS0].active);
	/* ELSP reads back nothing. */
	assert_int_equal(h_rd(&H, RING_ELSP(BLT_RING_BASE)), 0);
}

static void test_context_registers_mirrored_to_mmio(void **state)
{
	struct h_ctx a;
	uint32_t base = RENDER_RING_BASE;

	(void)state;
	h_engine_start(&H, GEN9_RCS0);
	ctx_store(&a, GEN9_RCS0, 0x99, h_ggtt_alloc(&H, 1), 1, 1);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	h_run(&H, 1);
	assert_int_equal(h_rd(&H, RING_START(base)), a.ring);
	assert_int_equal(h_rd(&H, RING_TAIL(base)), a.tail);
	assert_int_equal(h_rd(&H, RING_CTL(base)),
			 RING_CTL_SIZE(H_RING_SIZE) | RING_VALID);
	assert_int_equal(h_rd(&H, GEN8_RING_PDP_LDW(base, 0)), (uint32_t)PML4);
	assert_int_equal(h_rd(&H, GEN8_RING_PDP_UDW(base, 0)),
			 (uint32_t)(PML4 >> 32));
	assert_int_equal(h_rd(&H, RING_EXECLIST_STATUS_HI(base)), 0x99);
	assert_true(h_rd(&H, RING_EXECLIST_STATUS_LO(base)) & RING_EXECLIST0_ACTIVE);
	assert_false(h_rd(&H, RING_MI_MODE(base)) & MODE_IDLE);
	*SEM = 1;
	h_run(&H, 1);
	assert_true(h_rd(&H, RING_MI_MODE(base)) & MODE_IDLE);
}

static void test_stop_ring_pauses_engine(void **state)
{
	struct h_ctx a;
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint32_t base = BLT_RING_BASE;

	(void)state;
	h_engine_start(&H, GEN9_BCS0);
	ctx_store(&a, GEN9_BCS0, 1, dst, 0x55, 0);
	h_wr(&H, RING_MI_MODE(base), _MASKED_BIT_ENABLE(STOP_RING));
	h_elsp(&H, GEN9_BCS0, h_desc(&a), 0);
	h_run(&H, 3);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 0);
	assert_true(h_rd(&H, RING_MI_MODE(base)) & MODE_IDLE);
	h_wr(&H, RING_MI_MODE(base), _MASKED_BIT_DISABLE(STOP_RING));
	h_run(&H, 1);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 0x55);
}

static void test_unmapped_context_image_hangs(void **state)
{
	struct h_ctx a;

	(void)state;
	h_engine_start(&H, GEN9_RCS0);
	ctx_store(&a, GEN9_RCS0, 1, h_ggtt_alloc(&H, 1), 1, 0);
	gen9_model_ggtt_write(&H.m, (a.lrca + LRC_STATE_OFFSET) >> 12, 0);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	assert_true(H.m.engine[GEN9_RCS0].hung);
	assert_true(h_rd(&H, GEN8_RING_FAULT_REG) & RING_FAULT_GTTSEL_MASK);
	/* A hung engine takes no new work until reset. */
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	assert_int_equal(H.m.engine[GEN9_RCS0].stats.elsp_ignored, 1);
}

static void test_save_inhibit_leaves_image(void **state)
{
	struct h_ctx a;
	uint32_t *st;

	(void)state;
	h_engine_start(&H, GEN9_RCS0);
	ctx_store(&a, GEN9_RCS0, 1, h_ggtt_alloc(&H, 1), 1, 0);
	st = h_gptr(&H, a.lrca + LRC_STATE_OFFSET);
	st[CTX_CONTEXT_CONTROL] =
		_MASKED_BIT_ENABLE(CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	h_run(&H, 1);
	assert_int_equal(h_ctx_reg(&H, &a, CTX_RING_HEAD), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
		T(test_single_context_events),
		T(test_two_elements_events_and_order),
		T(test_pending_pair_runs_after_current),
		T(test_lite_restore_updates_tail),
		T(test_context_head_saved_and_resumed),
		T(test_ring_wraps),
		T(test_csb_pointer_wraps_after_six),
		T(test_elsp_needs_run_list_enable),
		T(test_context_registers_mirrored_to_mmio),
		T(test_stop_ring_pauses_engine),
		T(test_unmapped_context_image_hangs),
		T(test_save_inhibit_leaves_image),
#undef T
	};

	return cmocka_run_group_tests_name("gen9_model_execlist", tests, NULL,
					   NULL);
}
