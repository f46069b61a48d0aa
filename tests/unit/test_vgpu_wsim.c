/* IGT gem_wsim's batch (igt-gpu-tools 1.27.1 create_bb, transcribed in
 * tests/harness/gem_wsim.c) through the i915-like guest, the real
 * mediator and the software Gen9 model, as the user request i915 builds
 * for its execbuf. The batch reads CTX_TIMESTAMP into CS_GPR(0) with LRR,
 * then loops: CTX_TIMESTAMP -> CS_GPR(1), MI_MATH R1 = ~(R1 - R0), SRM of
 * R1 to batch + 4000, and a conditional end comparing that with
 * ~duration. It must be accepted, loop, end on its own once the context's
 * clock has advanced by the duration (in ticks of the frequency the guest
 * i915 reports), leave there what Gen9 would store, and complete. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/harness/gem_wsim.h"
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_world.h"

#define BATCH_VA 0x7e0000000000ull
#define VM 1
#define STEP_US 10 /* model time per service round */

static const int engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VECS0 };
#define NR_ENG (sizeof(engines) / sizeof(engines[0]))

struct env {
	struct model_world mw; /* first: iw_state_new */
	struct iw_guest q;
	uint32_t batch[WSIM_BATCH_DW];
};

static int setup(void **state)
{
	struct env *e = iw_state_new(sizeof(*e), 64, 16);

	iw_guest_up(&e->mw, &e->q, VM);
	e->q.batch_gpa = iw_map(&e->q, BATCH_VA, 4);
	*state = e;
	return 0;
}

static bool done(struct env *e, int eng)
{
	return iw_seqno_now(&e->q, eng) == e->q.seqno[eng];
}

/* I915_PARAM_CS_TIMESTAMP_FREQUENCY as the guest's i915 computes it on a
 * Skylake (gt/intel_gt_clock_utils.c read_clock_frequency, Gen9 not LP,
 * CTC_MODE source bit 0 clear): 24 MHz >> (3 - CTC_MODE bits 2:1). */
static uint64_t guest_cs_ts_hz(struct env *e)
{
	uint32_t ctc = (uint32_t)gi_mmio_read(&e->q.g, CTC_MODE, 4);

	assert_int_equal(ctc & 1, 0);
	return 24000000ull >> (3 - ((ctc >> 1) & 3));
}

/* gem_wsim's step: the batch at BATCH_VA + off for engine eng, the CPU's
 * duration written, then i915's request around it
 * (tests/harness/i915_world.h). */
static struct wsim_layout submit_wsim(struct env *e, int eng, uint64_t off,
				      uint32_t ticks, bool preempt)
{
	struct wsim_layout l;

	l = wsim_emit(e->batch, BATCH_VA + off,
		      gen9_engine_mmio_base((enum gen9_engine_id)eng), preempt);
	wsim_set_duration(e->batch, &l, ticks);
	fake_hv_guest_write(&e->mw.hv, VM, e->q.batch_gpa + off, e->batch,
			    sizeof(e->batch));
	iw_submit(&e->q, eng, BATCH_VA + off);
	return l;
}

/* One round: STEP_US of model time, then the guest services the GPU. */
static void tick(struct env *e)
{
	gen9_model_udelay(&e->mw.m, STEP_US);
	gi_service(&e->q.g);
}

/* Rounds until eng's request completes (at most max); -1 if it did not. */
static int run_until_done(struct env *e, int eng, int max)
{
	int n;

	for (n = 0; n < max; n++) {
		if (done(e, eng))
			return n;
		tick(e);
	}
	return done(e, eng) ? n : -1;
}

static uint32_t guest_ctx_timestamp(struct env *e, int eng)
{
	return gi_read32(&e->q.g, e->q.g.ctx[e->q.ctx[eng]].lrca_gpa +
					LRC_STATE_OFFSET + 4 * CTX_TIMESTAMP);
}

/* What the SRM left at batch + 4000: ~delta; delta in ticks. */
static uint32_t stored_delta(struct env *e, uint64_t off)
{
	return ~gi_read32(&e->q.g, e->q.batch_gpa + off + WSIM_DELTA_OFF);
}

/* The guest reports the rate the model's clocks run at, and the ring's
 * RING_TIMESTAMP runs at it. */
static void test_guest_sees_the_model_clock_rate(void **state)
{
	struct env *e = *state;
	uint64_t t0, t1;

	assert_int_equal(guest_cs_ts_hz(e), 12000000);
	t0 = gi_mmio_read(&e->q.g, RING_TIMESTAMP(0x2000), 4);
	gen9_model_udelay(&e->mw.m, 1000);
	t1 = gi_mmio_read(&e->q.g, RING_TIMESTAMP(0x2000), 4);
	assert_int_equal(t1 - t0, 12000); /* 1 ms at 12 MHz */
}

/* A 200 us step on the render engine: accepted, loops, ends on its own
 * once its context's clock has advanced by the duration, not before;
 * batch + 4000 holds ~delta as Gen9 stores it; the request completes. */
static void test_wsim_step_ends_after_its_duration(void **state)
{
	struct env *e = *state;
	uint32_t ticks = (uint32_t)wsim_ns_to_ticks(200000, guest_cs_ts_hz(e));
	uint64_t b0 = e->mw.m.engine[GEN9_RCS0].stats.batches;
	uint64_t ends = e->mw.m.engine[GEN9_RCS0].stats.cond_ends;
	struct wsim_layout l;
	int rounds;

	assert_int_equal(ticks, 2400);
	l = submit_wsim(e, GEN9_RCS0, 0, ticks, false);
	assert_int_equal(e->batch[l.math_dw], 0x0d000003); /* MI_MATH(4) */
	assert_int_equal(e->batch[l.duration_dw], ~2400u);
	rounds = run_until_done(e, GEN9_RCS0, 200);
	assert_false(vgpu_failed(e->q.v));
	/* 200 us of context time cannot pass in fewer rounds of 10 us */
	assert_true(rounds >= 200 / STEP_US);
	assert_true(rounds <= 200 / STEP_US + 5);
	assert_int_equal(e->q.v->stats.workloads_rejected, 0);
	assert_int_equal(e->q.v->stats.user_faults, 0);
	assert_int_equal(e->q.v->stats.scan_loops, 1);
	assert_int_equal(e->mw.m.engine[GEN9_RCS0].stats.math_undefined, 0);
	assert_int_equal(e->mw.m.engine[GEN9_RCS0].stats.cond_ends, ends + 1);
	assert_true(e->mw.m.engine[GEN9_RCS0].stats.batches - b0 >= 20);
	/* The last delta is the first at or past the duration; time moves
	 * in steps of STEP_US (120 ticks). */
	assert_true(stored_delta(e, 0) >= ticks);
	assert_true(stored_delta(e, 0) < ticks + 12 * STEP_US);
	assert_int_equal(gi_wait_idle(&e->q.g, GEN9_RCS0, 50), 0);
	/* the context's clock, saved in its image, counted the run */
	assert_true(guest_ctx_timestamp(e, GEN9_RCS0) >= ticks);
}

/* The context's clock stops while the context is off the engine: a long
 * idle gap between two steps does not show in the next image, and the
 * second step still runs for its whole duration. */
static void test_ctx_clock_stops_while_switched_out(void **state)
{
	struct env *e = *state;
	uint32_t ticks = 1200, t1, t2;
	int k;

	submit_wsim(e, GEN9_RCS0, 0, ticks, true);
	assert_true(run_until_done(e, GEN9_RCS0, 200) >= 100 / STEP_US);
	assert_int_equal(gi_wait_idle(&e->q.g, GEN9_RCS0, 50), 0);
	t1 = guest_ctx_timestamp(e, GEN9_RCS0);
	for (k = 0; k < 100; k++) /* 1 ms idle: 12000 ticks */
		tick(e);
	submit_wsim(e, GEN9_RCS0, 0, ticks, true);
	assert_true(run_until_done(e, GEN9_RCS0, 200) >= 100 / STEP_US);
	assert_int_equal(gi_wait_idle(&e->q.g, GEN9_RCS0, 50), 0);
	t2 = guest_ctx_timestamp(e, GEN9_RCS0);
	assert_true(t2 - t1 >= ticks);
	assert_true(t2 - t1 < ticks + 12 * 60); /* not the 12000 idle ticks */
	assert_true(stored_delta(e, 0) >= ticks);
	assert_int_equal(e->q.v->stats.faults, 0);
}

/* Every engine at once (gem_engine_mmio_base: RCS 0x2000, BCS 0x22000,
 * VCS 0x12000, VECS 0x1a000), preemptible or not, durations 100..400 us:
 * each reads its own engine's registers and ends alone, in order. */
static void test_wsim_every_engine(void **state)
{
	struct env *e = *state;
	int finished[NR_ENG] = { -1, -1, -1, -1 }, n;
	size_t k;

	for (k = 0; k < NR_ENG; k++)
		submit_wsim(e, engines[k], 4096ull * k,
			    (uint32_t)(1200 * (k + 1)), k & 1);
	for (n = 0; n < 400; n++) {
		for (k = 0; k < NR_ENG; k++)
			if (finished[k] < 0 && done(e, engines[k]))
				finished[k] = n;
		tick(e);
	}
	assert_false(vgpu_failed(e->q.v));
	for (k = 0; k < NR_ENG; k++) {
		uint32_t want = (uint32_t)(1200 * (k + 1));

		assert_true(finished[k] >= (int)(100 * (k + 1) / STEP_US));
		assert_true(stored_delta(e, 4096ull * k) >= want);
		assert_true(stored_delta(e, 4096ull * k) < want + 12 * STEP_US);
		assert_int_equal(e->mw.m.engine[engines[k]].stats.math_undefined, 0);
		if (k)
			assert_true(finished[k] > finished[k - 1]);
	}
	assert_int_equal(e->q.v->stats.workloads_rejected, 0);
	assert_int_equal(e->q.v->stats.faults, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_guest_sees_the_model_clock_rate, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_wsim_step_ends_after_its_duration, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_ctx_clock_stops_while_switched_out, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_wsim_every_engine, setup, iw_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
