/* The Gen9 model's preemption at arbitration points: an ELSP pair naming
 * another context while one runs takes the engine at the running one's
 * next MI_ARB_CHECK or batch-to-ring return with arbitration on; the CSB
 * reports it PREEMPTED; resubmitted, it continues exactly where it
 * stopped, inside a second-level batch and without privilege if it had
 * none. With arbitration off, or without an arbitration point, the pair
 * waits for the running context to complete. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/harness/model_harness.h"

#define BB1_VA 0x100000ull /* first-level batch */
#define BB2_VA 0x101000ull /* second-level batch */
#define DATA_VA 0x200000ull
#define ARB_CHECKS 32

static struct harness H;
static uint64_t PML4;
static uint32_t *BB1, *BB2, *DATA;
static uint32_t DST; /* GGTT dwords: [0] A's end, [1] B's store */

static int setup(void **state)
{
	struct gen9_model_config cfg = { .cmd_budget = 4 };

	(void)state;
	if (h_init(&H, &cfg))
		return -1;
	PML4 = h_ppgtt_create(&H);
	BB1 = h_ptr(&H, h_ppgtt_alloc(&H, PML4, BB1_VA, 1));
	BB2 = h_ptr(&H, h_ppgtt_alloc(&H, PML4, BB2_VA, 1));
	DATA = h_ptr(&H, h_ppgtt_alloc(&H, PML4, DATA_VA, 1));
	DST = h_ggtt_alloc(&H, 1);
	h_engine_start(&H, GEN9_RCS0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

static uint32_t *sdi(uint32_t *p, uint32_t flags, uint64_t addr, uint32_t v)
{
	*p++ = MI_STORE_DWORD_IMM_GEN4 | flags;
	*p++ = (uint32_t)addr;
	*p++ = (uint32_t)(addr >> 32);
	*p++ = v;
	return p;
}

static uint32_t *bb_start(uint32_t *p, uint32_t flags, uint64_t addr)
{
	*p++ = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT | flags;
	*p++ = (uint32_t)addr;
	*p++ = (uint32_t)(addr >> 32);
	return p;
}

/* A's batches: the first level marks its start, calls the second level
 * (ARB_CHECKS arbitration points, then a store with the GGTT bit, which
 * without privilege goes through the PPGTT), then stores its end. */
static void batches(void)
{
	uint32_t *p = BB1;
	int i;

	p = sdi(p, 0, DATA_VA, 1); /* start marker */
	p = bb_start(p, MI_BATCH_SECOND_LEVEL, BB2_VA);
	p = sdi(p, 0, DATA_VA + 4, 2);
	*p++ = MI_BATCH_BUFFER_END;
	p = BB2;
	for (i = 0; i < ARB_CHECKS; i++)
		*p++ = MI_ARB_CHECK;
	p = sdi(p, MI_SDI_GGTT, DATA_VA + 8, 3);
	*p++ = MI_BATCH_BUFFER_END;
}

/* Context A: the batch between arbitration on and off (i915's
 * gen8_emit_bb_start), then a GGTT store of its end. */
static void ctx_a(struct h_ctx *a, uint32_t arb)
{
	h_ctx_create(&H, a, GEN9_RCS0, PML4, 0xa);
	h_emit(&H, a, MI_ARB_ON_OFF | arb);
	h_emit(&H, a, MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT);
	h_emit(&H, a, (uint32_t)BB1_VA);
	h_emit(&H, a, 0);
	h_emit(&H, a, MI_ARB_ON_OFF | MI_ARB_DISABLE);
	h_emit(&H, a, MI_NOOP);
	h_emit(&H, a, MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT);
	h_emit(&H, a, DST);
	h_emit(&H, a, 0);
	h_emit(&H, a, 0xaaaa);
	h_ctx_commit(&H, a);
}

static void ctx_b(struct h_ctx *b)
{
	h_ctx_create(&H, b, GEN9_RCS0, PML4, 0xb);
	h_emit(&H, b, MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT);
	h_emit(&H, b, DST + 4);
	h_emit(&H, b, 0);
	h_emit(&H, b, 0xbbbb);
	h_ctx_commit(&H, b);
}

/* The latest CSB entry (HWSP mirror). */
static void last_csb(uint32_t *status, uint32_t *id)
{
	uint32_t *hwsp = h_hwsp(&H, GEN9_RCS0);
	uint32_t wp = hwsp[I915_HWS_CSB_WRITE_INDEX];

	*status = hwsp[I915_HWS_CSB_BUF0_INDEX + 2 * wp];
	*id = hwsp[I915_HWS_CSB_BUF0_INDEX + 2 * wp + 1];
}

/* The CSB entry n before the latest. */
static uint32_t csb_back(unsigned int n, uint32_t *id)
{
	uint32_t *hwsp = h_hwsp(&H, GEN9_RCS0);
	uint32_t i = (hwsp[I915_HWS_CSB_WRITE_INDEX] + GEN8_CSB_ENTRIES - n) %
		     GEN8_CSB_ENTRIES;

	*id = hwsp[I915_HWS_CSB_BUF0_INDEX + 2 * i + 1];
	return hwsp[I915_HWS_CSB_BUF0_INDEX + 2 * i];
}

static void test_preempted_in_second_level_resumes_there(void **state)
{
	struct gen9_model_engine *e = &H.m.engine[GEN9_RCS0];
	uint32_t *dst = h_gptr(&H, DST), status, id;
	struct h_ctx a, b;

	(void)state;
	batches();
	ctx_a(&a, MI_ARB_ENABLE);
	ctx_b(&b);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	h_run(&H, 3); /* 12 commands: deep in the second level */
	assert_int_equal(e->level, 2);
	assert_int_equal(DATA[0], 1);
	h_elsp(&H, GEN9_RCS0, h_desc(&b), 0);
	h_run(&H, 2);
	/* A left at its next MI_ARB_CHECK; B ran and completed. */
	assert_int_equal(e->stats.preemptions, 1);
	assert_int_equal(dst[1], 0xbbbb);
	assert_int_equal(dst[0], 0);
	assert_int_equal(DATA[2], 0);
	assert_int_equal(csb_back(1, &id), GEN8_CTX_STATUS_PREEMPTED);
	assert_int_equal(id, 0xa);
	last_csb(&status, &id);
	assert_int_equal(status,
			 GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE);
	assert_int_equal(id, 0xb);
	assert_false(e->active);
	/* Its image says where: both batch levels, non-privileged. */
	assert_int_equal(h_ctx_reg(&H, &a, CTX_BB_STATE) & RING_BB_PPGTT,
			 RING_BB_PPGTT);
	assert_int_not_equal(h_ctx_reg(&H, &a, CTX_SBB_STATE), 0);
	assert_true(h_ctx_reg(&H, &a, CTX_SBB_ADDR) > BB2_VA);
	/* Resubmitted, A continues there: its start is not run again. */
	DATA[0] = 0;
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	h_run(&H, 20);
	assert_false(e->hung);
	assert_false(e->active);
	assert_int_equal(DATA[0], 0);
	assert_int_equal(DATA[2], 3); /* through the PPGTT: no privilege */
	assert_int_equal(DATA[1], 2);
	assert_int_equal(dst[0], 0xaaaa);
	last_csb(&status, &id);
	assert_int_equal(status,
			 GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE);
	assert_int_equal(id, 0xa);
	/* Completed at its tail: nothing left to resume. */
	assert_int_equal(h_ctx_reg(&H, &a, CTX_BB_STATE), 0);
	assert_int_equal(h_ctx_reg(&H, &a, CTX_SBB_STATE), 0);
	assert_int_equal(e->stats.preemptions, 1);
}

/* Arbitration off around the batch: the pending pair waits for A's end. */
static void test_arbitration_off_is_not_preempted(void **state)
{
	struct gen9_model_engine *e = &H.m.engine[GEN9_RCS0];
	uint32_t *dst = h_gptr(&H, DST), id;
	struct h_ctx a, b;

	(void)state;
	batches();
	ctx_a(&a, MI_ARB_DISABLE);
	ctx_b(&b);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	h_run(&H, 3);
	h_elsp(&H, GEN9_RCS0, h_desc(&b), 0);
	h_run(&H, 20);
	assert_int_equal(e->stats.preemptions, 0);
	assert_int_equal(dst[0], 0xaaaa);
	assert_int_equal(dst[1], 0xbbbb);
	assert_int_equal(csb_back(2, &id),
			 GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE);
	assert_int_equal(id, 0xa);
}

/* The return from a batch to the ring is an arbitration point: a batch
 * with none of its own is preempted there, and A resumes in the ring. */
static void test_batch_end_is_an_arbitration_point(void **state)
{
	struct gen9_model_engine *e = &H.m.engine[GEN9_RCS0];
	uint32_t *dst = h_gptr(&H, DST), *p = BB1, id;
	struct h_ctx a, b;
	int i;

	(void)state;
	for (i = 0; i < 16; i++)
		*p++ = MI_NOOP;
	p = sdi(p, 0, DATA_VA + 4, 2);
	*p++ = MI_BATCH_BUFFER_END;
	ctx_a(&a, MI_ARB_ENABLE);
	ctx_b(&b);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	h_run(&H, 1);
	h_elsp(&H, GEN9_RCS0, h_desc(&b), 0);
	h_run(&H, 1);
	assert_int_equal(e->stats.preemptions, 0); /* no point yet */
	h_run(&H, 5);
	assert_int_equal(e->stats.preemptions, 1);
	assert_int_equal(DATA[1], 2);
	assert_int_equal(dst[1], 0xbbbb);
	assert_int_equal(dst[0], 0);
	assert_int_equal(h_ctx_reg(&H, &a, CTX_BB_STATE), 0); /* in the ring */
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	h_run(&H, 5);
	assert_int_equal(dst[0], 0xaaaa);
	assert_false(e->active);
	assert_int_equal(csb_back(0, &id),
			 GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE);
	assert_int_equal(id, 0xa);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
			test_preempted_in_second_level_resumes_there, setup,
			teardown),
		cmocka_unit_test_setup_teardown(
			test_arbitration_off_is_not_preempted, setup, teardown),
		cmocka_unit_test_setup_teardown(
			test_batch_end_is_an_arbitration_point, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
