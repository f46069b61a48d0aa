/* IGT's spinner (issue 28): the batch igt-gpu-tools 1.27 builds on Gen9
 * (tests/harness/igt_spinner.c) goes through the i915-like guest, the
 * real mediator and the software Gen9 model as a user request i915 would
 * submit. It must be accepted, loop on the GPU for as long as the CPU
 * lets it, and end once the guest's CPU writes what igt_spin_end writes;
 * rewriting the batch's commands while it spins changes nothing (the GPU
 * loops over the scanned copy), and the hostile shapes are contained:
 * a loop with no way out and a jump into the middle of a command. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_world.h"
#include "tests/harness/igt_spinner.h"

#define POLL_VA 0x7f0000000000ull
#define BATCH_VA 0x7e0000000000ull
#define VM 1

static const int engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VECS0 };
#define NR_ENG (sizeof(engines) / sizeof(engines[0]))

struct env {
	struct model_world mw; /* first: iw_state_new */
	struct iw_guest q;
	uint64_t poll_gpa;
	uint32_t batch[IGT_SPIN_BATCH_DW];
};

static int setup(void **state)
{
	struct env *e = iw_state_new(sizeof(*e), 64, 16);

	iw_guest_up(&e->mw, &e->q, VM);
	e->poll_gpa = iw_map(&e->q, POLL_VA, 1);
	e->q.batch_gpa = iw_map(&e->q, BATCH_VA, 4);
	*state = e;
	return 0;
}

static uint64_t gpu_batches(struct env *e, int eng)
{
	return e->mw.m.engine[eng].stats.batches;
}

/* The request i915 builds for IGT's execbuf of the batch at BATCH_VA +
 * off (tests/harness/i915_world.h). */
static void submit_spin(struct env *e, int eng, uint64_t off)
{
	fake_hv_guest_write(&e->mw.hv, VM, e->q.batch_gpa + off, e->batch,
			    sizeof(e->batch));
	iw_submit(&e->q, eng, BATCH_VA + off);
}

/* Let the GPU run `polls` rounds; the spinner must still be spinning:
 * its request started and not done, its batch starting itself again. */
static void spins(struct env *e, int eng, int polls)
{
	uint64_t b0 = gpu_batches(e, eng);
	uint32_t done = e->q.g.eng[eng].completes;

	for (int k = 0; k < polls; k++)
		gi_service(&e->q.g);
	assert_false(vgpu_failed(e->q.v));
	assert_int_equal(iw_seqno_now(&e->q, eng), e->q.seqno[eng] - 1);
	assert_int_equal(e->q.g.eng[eng].completes, done);
	assert_true(gpu_batches(e, eng) - b0 >= (uint64_t)polls / 2);
}

/* igt_spin_end: the CPU writes MI_BATCH_BUFFER_END over spin->condition;
 * the request then completes. */
static void spin_end(struct env *e, int eng, uint64_t off)
{
	uint64_t ends = e->mw.m.engine[eng].stats.cond_ends;

	gi_write32(&e->q.g, e->q.batch_gpa + off + 4 * IGT_SPIN_CONDITION_DW,
		   igt_spin_end_value());
	assert_int_equal(gi_wait_idle(&e->q.g, eng, 50), 0);
	assert_false(vgpu_failed(e->q.v));
	assert_int_equal(iw_seqno_now(&e->q, eng), e->q.seqno[eng]);
	assert_int_equal(e->mw.m.engine[eng].stats.cond_ends, ends + 1);
}

/* The default spinner with IGT's "running" poll on the render engine:
 * accepted (it was "MI command not allowed (header 0x1b200002)"), runs
 * its loop hundreds of times, ends when the CPU says so. The body is
 * copied twice (from the batch start and from the loop start), never
 * unrolled. */
static void test_igt_spinner_runs_until_ended(void **state)
{
	struct env *e = *state;
	uint64_t copied = e->q.v->stats.bb_bytes_copied;
	uint64_t b0 = gpu_batches(e, GEN9_RCS0);
	struct igt_spin_layout l;

	l = igt_spin_emit(e->batch, BATCH_VA, POLL_VA, IGT_SPIN_POLL_RUN);
	assert_int_equal(e->batch[l.cond_bbe_dw], 0x1b200002);
	submit_spin(e, GEN9_RCS0, 0);
	spins(e, GEN9_RCS0, 400);
	assert_int_equal(gi_read32(&e->q.g, e->poll_gpa), 1); /* igt_spin_has_started */
	assert_true(gpu_batches(e, GEN9_RCS0) - b0 >= 200);
	assert_int_equal(e->q.v->stats.scan_loops, 1);
	assert_int_equal(e->q.v->stats.user_faults, 0);
	assert_int_equal(e->q.v->stats.workloads_rejected, 0);
	assert_true(e->q.v->stats.bb_bytes_copied - copied <= 2 * 4096 + 512);
	spin_end(e, GEN9_RCS0, 0);
	/* igt_spin_reset, then the same spinner submitted again */
	gi_write32(&e->q.g, e->q.batch_gpa + 4 * IGT_SPIN_CONDITION_DW,
		   IGT_SPIN_PRECONDITION);
	submit_spin(e, GEN9_RCS0, 0);
	spins(e, GEN9_RCS0, 20);
	spin_end(e, GEN9_RCS0, 0);
	assert_int_equal(e->q.v->stats.faults, 0);
}

/* Every engine, IGT's other shapes: FAST (no padding) and NO_PREEMPTION
 * (no MI_ARB_CHECK), all at once on one vGPU; each ends alone. */
static void test_igt_spinner_every_engine(void **state)
{
	struct env *e = *state;
	static const unsigned int flags[] = { 0, IGT_SPIN_FAST,
		IGT_SPIN_FAST | IGT_SPIN_NO_PREEMPTION, IGT_SPIN_POLL_RUN };
	size_t k;

	for (k = 0; k < NR_ENG; k++) {
		uint64_t off = 4096ull * k;

		igt_spin_emit(e->batch, BATCH_VA + off, POLL_VA, flags[k]);
		submit_spin(e, engines[k], off);
	}
	for (k = 0; k < NR_ENG; k++)
		spins(e, engines[k], 20);
	for (k = NR_ENG; k-- > 0;) {
		spin_end(e, engines[k], 4096ull * k);
		if (k)
			spins(e, engines[k - 1], 4);
	}
	assert_int_equal(e->q.v->stats.scan_loops, NR_ENG);
	assert_int_equal(e->q.v->stats.user_faults, 0);
}

/* The guest rewrites the spinning batch's commands: the pre-Gen8 IGT
 * end (MI_BATCH_BUFFER_END over the loop start) and a register load
 * the scanner would refuse. The GPU loops over the copy the scanner
 * checked, so neither reaches it: the spinner spins on, and only the
 * condition dword, which the GPU reads through the PPGTT as data, ends
 * it. */
static void test_rewriting_the_batch_changes_nothing(void **state)
{
	struct env *e = *state;
	uint32_t evil[] = { MI_BATCH_BUFFER_END, MI_LOAD_REGISTER_IMM(1),
			    0x2230, 0 };

	igt_spin_emit(e->batch, BATCH_VA, POLL_VA, 0);
	submit_spin(e, GEN9_RCS0, 0);
	spins(e, GEN9_RCS0, 10);
	fake_hv_guest_write(&e->mw.hv, VM, e->q.batch_gpa + IGT_SPIN_LOOP_START,
			    evil, sizeof(evil));
	spins(e, GEN9_RCS0, 50);
	spin_end(e, GEN9_RCS0, 0);
}

/* A loop with no conditional way out (Compare Semaphore clear, so the
 * command never ends the batch): watched, as gem_busy's batch is
 * (test_vgpu_busy_loop.c), since the CPU could end it by rewriting a
 * command. Nobody does: it spins until the hang timeout, which fails
 * only its request (the engine reports the error with the request
 * started) as a user hang; no fault is counted, the watch is dropped. */
static void test_loop_without_exit_fails_only_its_request(void **state)
{
	struct env *e = *state;
	struct igt_spin_layout l;
	uint32_t base = e->q.v->eng[GEN9_RCS0].base;
	int k;

	l = igt_spin_emit(e->batch, BATCH_VA, POLL_VA, IGT_SPIN_FAST);
	e->batch[l.cond_bbe_dw] &= ~MI_COND_BB_END_COMPARE;
	submit_spin(e, GEN9_RCS0, 0);
	spins(e, GEN9_RCS0, 40);
	assert_int_equal(e->q.v->stats.loops_watched, 1);
	e->mw.hv.now += 3000000000ull; /* past the 2 s hang timeout */
	for (k = 0; k < 200 && !(gi_mmio_read(&e->q.g, RING_EIR(base), 4) &
				  I915_ERROR_INSTRUCTION); k++)
		gi_service(&e->q.g);
	assert_true(gi_mmio_read(&e->q.g, RING_EIR(base), 4) & I915_ERROR_INSTRUCTION);
	assert_int_equal(iw_seqno_now(&e->q, GEN9_RCS0), e->q.seqno[GEN9_RCS0] - 1);
	assert_int_equal(e->q.v->stats.user_hangs, 1);
	assert_int_equal(e->q.v->stats.user_faults, 0);
	assert_int_equal(e->q.v->stats.scan_loops, 1);
	assert_int_equal(e->q.v->stats.faults, 0);
	assert_int_equal(e->q.v->bbw_used, 0);
	assert_false(fake_hv_is_wp(&e->mw.hv, VM, e->q.batch_gpa));
}

/* A chain back into the middle of a command: the loop start is the data
 * dword of a store, which holds a register load of ELSP. The GPU would
 * decode from there, and so does the scanner: the copy from that
 * address is scanned on its own, its register load renamed to RING_NOPID
 * as in any user batch, and the loop runs over that copy. */
static void test_jump_into_a_command_is_scanned_from_there(void **state)
{
	struct env *e = *state;
	uint64_t cond = BATCH_VA + 4 * IGT_SPIN_CONDITION_DW, mid = BATCH_VA + 12;
	uint32_t bb[] = {
		MI_STORE_DWORD_IMM_GEN4, (uint32_t)POLL_VA, (uint32_t)(POLL_VA >> 32),
		MI_LOAD_REGISTER_IMM(1), 0x2230, 0,
		MI_CONDITIONAL_BATCH_BUFFER_END | MI_COND_BB_END_COMPARE,
		MI_BATCH_BUFFER_END, (uint32_t)cond, (uint32_t)(cond >> 32),
		MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT, (uint32_t)mid,
		(uint32_t)(mid >> 32),
	};
	uint64_t neutralized = e->q.v->stats.scan_regs_neutralized;

	memset(e->batch, 0, sizeof(e->batch));
	memcpy(e->batch, bb, sizeof(bb));
	e->batch[IGT_SPIN_CONDITION_DW] = IGT_SPIN_PRECONDITION;
	submit_spin(e, GEN9_RCS0, 0);
	spins(e, GEN9_RCS0, 20);
	assert_int_equal(e->q.v->stats.scan_loops, 1);
	assert_int_equal(e->q.v->stats.scan_regs_neutralized, neutralized + 1);
	/* the first pass stored the LRI header as data */
	assert_int_equal(gi_read32(&e->q.g, e->poll_gpa), MI_LOAD_REGISTER_IMM(1));
	spin_end(e, GEN9_RCS0, 0);
}

/* The condition read goes through the context's PPGTT like any user
 * batch's read: a spinner whose condition asks for the GGTT reads the
 * PPGTT address instead (Gen9 ignores the selector in a user batch; the
 * selector is cleared in both copies of the body). */
static void test_condition_goes_through_the_ppgtt(void **state)
{
	struct env *e = *state;
	struct igt_spin_layout l;
	uint64_t cleared = e->q.v->stats.scan_ggtt_cleared;

	l = igt_spin_emit(e->batch, BATCH_VA, POLL_VA, IGT_SPIN_FAST);
	e->batch[l.cond_bbe_dw] |= MI_COND_BB_END_GGTT;
	submit_spin(e, GEN9_RCS0, 0);
	spins(e, GEN9_RCS0, 10);
	assert_int_equal(e->q.v->stats.scan_ggtt_cleared, cleared + 2);
	spin_end(e, GEN9_RCS0, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_igt_spinner_runs_until_ended, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_igt_spinner_every_engine, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_rewriting_the_batch_changes_nothing, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_loop_without_exit_fails_only_its_request, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_jump_into_a_command_is_scanned_from_there, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_condition_goes_through_the_ppgtt, setup, iw_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
