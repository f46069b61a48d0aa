/* Hang detection and engine reset on the MMIO backend: the pGPU driver
 * over the real mmio_backend.c whose BARs trap into the model
 * (tests/harness/trapped_mmio.c), as under gpu=model-mmio. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/hw/pgpu.h"
#include "tests/harness/trapped_mmio.h"

#define LIMIT_US 1000

static struct harness H;
static struct trapped T;
static struct pgpu P;

static int setup_cfg(const struct gen9_model_config *c)
{
	return h_init(&H, c) ? -1 : 0;
}

static int setup(void **state)
{
	(void)state;
	return setup_cfg(NULL);
}

static int setup_never_ready(void **state)
{
	struct gen9_model_config c = { .reset_never_ready = true };

	(void)state;
	return setup_cfg(&c);
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

/* Driver up on the trapped backend, the blitter in execlist mode. */
static void bcs_up(void)
{
	trapped_init(&T, &H);
	assert_int_equal(pgpu_init(&P, &T.hw), 0);
	assert_int_equal(pgpu_forcewake_get(&P, GEN9_FW_GT_BIT), 0);
	assert_int_equal(pgpu_engine_init(&P, GEN9_BCS0, h_ggtt_alloc(&H, 1),
					  NULL), 0);
}

/* A context on the blitter whose ring waits on a semaphore that never
 * comes (a dword that stays 0, waited for to become >= 1). */
static void submit_stuck(struct h_ctx *c, uint32_t ctx_id)
{
	uint32_t sema = h_ggtt_alloc(&H, 1);

	h_ctx_create(&H, c, GEN9_BCS0, h_ppgtt_create(&H), ctx_id);
	h_emit(&H, c, MI_SEMAPHORE_WAIT | MI_SEMAPHORE_GLOBAL_GTT |
			      MI_SEMAPHORE_POLL | (1u << 12) /* SAD >= */);
	h_emit(&H, c, 1);
	h_emit(&H, c, sema);
	h_emit(&H, c, 0);
	h_ctx_commit(&H, c);
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_BCS0, h_desc(c), 0), 0);
}

static void submit_store(struct h_ctx *c, uint32_t ctx_id, uint32_t dst,
			 uint32_t v)
{
	h_ctx_create(&H, c, GEN9_BCS0, h_ppgtt_create(&H), ctx_id);
	h_emit(&H, c, MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT);
	h_emit(&H, c, dst);
	h_emit(&H, c, 0);
	h_emit(&H, c, v);
	h_ctx_commit(&H, c);
	assert_int_equal(pgpu_execlist_submit(&P, GEN9_BCS0, h_desc(c), 0), 0);
}

/* Let the device run us microseconds, consuming the CSB as a driver does. */
static void run(uint32_t us)
{
	struct pgpu_csb_event ev[GEN8_CSB_ENTRIES];

	gpu_hw_udelay(&T.hw, us);
	(void)pgpu_csb_process(&P, GEN9_BCS0, ev, GEN8_CSB_ENTRIES);
}

/* No progress on a busy engine for the limit: hung, once per limit. An
 * idle engine never is; work that completes never is. */
static void test_watchdog_finds_a_stuck_engine(void **state)
{
	struct h_ctx c;
	uint64_t now = 5000;

	(void)state;
	bcs_up();
	assert_false(pgpu_engine_hung(&P, GEN9_BCS0, now, LIMIT_US)); /* idle */
	submit_stuck(&c, 0x31);
	run(10);
	assert_false(pgpu_engine_idle(&P, GEN9_BCS0));
	assert_false(pgpu_engine_hung(&P, GEN9_BCS0, now, LIMIT_US)); /* arms */
	for (int i = 1; i < 10; i++) {
		run(10);
		assert_false(pgpu_engine_hung(&P, GEN9_BCS0, now + i * 100,
					      LIMIT_US));
	}
	run(10);
	assert_true(pgpu_engine_hung(&P, GEN9_BCS0, now + LIMIT_US, LIMIT_US));
	assert_int_equal(P.stats.hangs, 1);
	/* The verdict restarts the clock: the next comes a limit later. */
	assert_false(pgpu_engine_hung(&P, GEN9_BCS0, now + LIMIT_US + 10,
				      LIMIT_US));
	assert_true(pgpu_engine_hung(&P, GEN9_BCS0, now + 2 * LIMIT_US,
				     LIMIT_US));
	trapped_fini(&T);
}

static void test_completing_work_is_not_hung(void **state)
{
	struct h_ctx c;
	uint32_t dst = h_ggtt_alloc(&H, 1);

	(void)state;
	bcs_up();
	submit_store(&c, 0x41, dst, 0x600d);
	assert_false(pgpu_engine_hung(&P, GEN9_BCS0, 0, LIMIT_US));
	run(10);
	assert_true(pgpu_engine_idle(&P, GEN9_BCS0));
	/* Idle now: however long nothing moves, no verdict. */
	assert_false(pgpu_engine_hung(&P, GEN9_BCS0, 10 * LIMIT_US, LIMIT_US));
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 0x600d);
	assert_int_equal(P.stats.hangs, 0);
	trapped_fini(&T);
}

/* The stuck engine is reset the i915 way (handshake, GDRST twice) and
 * runs again after its bring-up. */
static void test_reset_recovers_the_engine(void **state)
{
	struct h_ctx c, d;
	uint32_t dst = h_ggtt_alloc(&H, 1);
	uint64_t gdrst0;

	(void)state;
	bcs_up();
	submit_stuck(&c, 0x51);
	run(100);
	gdrst0 = H.m.stats.gdrst_requests;
	assert_int_equal(pgpu_engine_reset(&P, GEN9_BCS0), 0);
	assert_int_equal(H.m.stats.gdrst_requests - gdrst0, 2);
	assert_int_equal(h_rd(&H, RING_RESET_CTL(BLT_RING_BASE)) &
				 RESET_CTL_REQUEST_RESET, 0);
	assert_int_equal(P.stats.engine_resets, 1);
	assert_int_equal(P.stats.resets_not_ready, 0);
	assert_true(pgpu_engine_idle(&P, GEN9_BCS0));
	assert_false(P.engine[GEN9_BCS0].watch.armed);
	assert_int_equal(pgpu_engine_init(&P, GEN9_BCS0, h_ggtt_alloc(&H, 1),
					  NULL), 0);
	submit_store(&d, 0x52, dst, 0xa11ce);
	run(10);
	assert_int_equal(*(uint32_t *)h_gptr(&H, dst), 0xa11ce);
	trapped_fini(&T);
}

/* READY_TO_RESET never comes: the engine reset is not done (no GDRST,
 * the request withdrawn, -ETIMEDOUT for the caller to escalate); the full
 * reset's first attempt gives up, its second goes ahead anyway (i915's
 * reset_non_ready), counted. */
static void test_reset_without_ready(void **state)
{
	struct h_ctx c;
	uint64_t gdrst0;

	(void)state;
	bcs_up();
	submit_stuck(&c, 0x61);
	run(100);
	gdrst0 = H.m.stats.gdrst_requests;
	assert_int_equal(pgpu_engine_reset(&P, GEN9_BCS0), -GPU_ETIMEDOUT);
	assert_int_equal(H.m.stats.gdrst_requests, gdrst0);
	assert_int_equal(h_rd(&H, RING_RESET_CTL(BLT_RING_BASE)) &
				 RESET_CTL_REQUEST_RESET, 0);
	assert_int_equal(P.stats.engine_resets, 0);
	assert_int_equal(pgpu_full_reset(&P), 0);
	assert_int_equal(H.m.stats.gdrst_requests - gdrst0, 2); /* one GDRST x2 */
	assert_int_equal(h_rd(&H, GEN6_GDRST), 0);
	assert_int_equal(P.stats.resets_not_ready, 4); /* every engine, try 2 */
	assert_int_equal(P.stats.engine_resets, 1);
	assert_int_equal(P.stats.full_resets, 1);
	assert_int_equal(P.stats.full_reset_failures, 0);
	assert_true(pgpu_engine_idle(&P, GEN9_BCS0));
	trapped_fini(&T);
}

/* A reset loses RING_IMR; the engine's bring-up puts back the bits
 * pgpu_irq_setup enabled, so completions keep raising the MSI. */
static void test_bring_up_restores_the_interrupt_mask(void **state)
{
	uint32_t bcs_bits = (uint32_t)GT_CONTEXT_SWITCH_INTERRUPT << 16;

	(void)state;
	bcs_up();
	pgpu_irq_setup(&P, GT_CONTEXT_SWITCH_INTERRUPT);
	assert_int_equal(h_rd(&H, RING_IMR(BLT_RING_BASE)), ~bcs_bits);
	assert_int_equal(pgpu_engine_reset(&P, GEN9_BCS0), 0);
	h_wr(&H, RING_IMR(BLT_RING_BASE), ~0u); /* what a reset leaves */
	assert_int_equal(pgpu_engine_init(&P, GEN9_BCS0, h_ggtt_alloc(&H, 1),
					  NULL), 0);
	assert_int_equal(h_rd(&H, RING_IMR(BLT_RING_BASE)), ~bcs_bits);
	trapped_fini(&T);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_watchdog_finds_a_stuck_engine, setup, teardown),
		cmocka_unit_test_setup_teardown(test_completing_work_is_not_hung, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_recovers_the_engine, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reset_without_ready, setup_never_ready, teardown),
		cmocka_unit_test_setup_teardown(test_bring_up_restores_the_interrupt_mask, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
