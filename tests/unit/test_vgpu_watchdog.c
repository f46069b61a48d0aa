/* Hang detection by the pGPU watchdog under the real mediator (gScale
 * mode, the model): the GPU is presented as the MMIO backend
 * (info.is_model false, as on the iGPU and under gpu=model-mmio), so the
 * mediator asks pgpu_engine_hung at every completion poll. An engine that
 * stops making progress (the model's stall knob: a hardware hang, since
 * the scanner lets no guest build one) is reset after
 * PGPU_HANG_NO_PROGRESS_US, well before the 2 s hang timeout; the guest's
 * workload fails, and the engine runs the next one. A workload that
 * progresses slowly is not touched. On the plain model the watchdog is
 * off: the same stall waits for the hang timeout.
 *
 * An engine that also refuses its reset (the model's reset_never_ready)
 * takes the whole GPU with it (vgpu_pexec_full.c): every engine comes up
 * again, the guilty guest is told and runs again, another guest's work
 * runs; a full reset that fails too (reset_never_done) wedges the GPU in
 * a defined way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/hw/gen9_cmds.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/exec/exec.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define MS 1000000ull
#define BATCH_VA 0x7e0000000000ull
#define SLOW_VA 0x7d0000000000ull
#define SLOW_PAGES 8
#define LONG_BUDGET 8 /* the slow batch then outlasts the watchdog */
#define CMD_BUDGET 32 /* commands per engine per poll: ~1.3 s for 8 Ki */

static struct model_world W;
static struct vgpu *V;
static struct guest_i915 G;
static int CTX;
static uint32_t SEQ_GM, SEQ;
static uint64_t SEQ_GPA, BATCH_GPA;

static void world_up(bool mmio_backend)
{
	static struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { NULL, &gscale_on } };
	struct mw_config c = { .pool_mib = 64, .ram_mib = 16, .params = &p };

	memset(&W, 0, sizeof(W));
	assert_int_equal(mw_init(&W, &c), 0);
	assert_int_equal(mw_add_vgpu(&W, &vgpu_type_v5_8, 1, 8 * MiB, &V), 0);
	W.hw.info.is_model = !mmio_backend;
	assert_int_equal(gi_probe(&G, &W.hv, V, 1, W.gvt), 0);
	G.poll = mw_poll;
	G.poll_arg = &W;
	assert_int_equal(gi_ppgtt_create(&G), 0);
	assert_int_equal(gi_engine_init(&G, GEN9_RCS0), 0);
	CTX = gi_ctx_create(&G, GEN9_RCS0);
	assert_true(CTX >= 0);
	SEQ_GPA = gi_alloc_pages(&G, 1);
	SEQ_GM = gi_gm_alloc(&G, 4096, true);
	gi_ggtt_bind(&G, SEQ_GM, SEQ_GPA, 1);
	BATCH_GPA = gi_alloc_pages(&G, 1);
	gi_ppgtt_map(&G, BATCH_VA, BATCH_GPA, 1);
	SEQ = 0;
}

static void world_down(void)
{
	mw_stop(&W);
	mw_fini(&W);
}

static void submit_at(uint64_t va)
{
	SEQ++;
	gi_emit_bb_start(&G, CTX, va, true);
	gi_emit_breadcrumb(&G, CTX, SEQ_GM, SEQ);
	gi_submit(&G, CTX, -1);
}

static void short_submit(void)
{
	uint32_t bb[2] = { MI_BATCH_BUFFER_END, MI_NOOP };

	fake_hv_guest_write(&W.hv, 1, BATCH_GPA, bb, sizeof(bb));
	submit_at(BATCH_VA);
}

static bool landed(void)
{
	return gi_read32(&G, SEQ_GPA) == SEQ;
}

/* Main-loop rounds, 10 ms of hypervisor time each, until the seqno
 * lands, the workload fails, or limit_ms passes. The time it took. */
static uint64_t run_until_done(uint64_t limit_ms)
{
	uint64_t t0 = W.hv.now;
	uint64_t failed0 = vgpu_get_stats(V)->workloads_failed;

	while (W.hv.now - t0 < limit_ms * MS) {
		W.hv.now += 10 * MS;
		mw_poll(&W);
		gvt_poll(W.gvt);
		gi_service(&G);
		if (landed() ||
		    vgpu_get_stats(V)->workloads_failed != failed0)
			break;
	}
	return (W.hv.now - t0) / MS;
}

static void test_stuck_engine_reset_by_the_watchdog(void **state)
{
	uint32_t base = gen9_engine_mmio_base(GEN9_RCS0);
	uint64_t ms, resets0;

	(void)state;
	world_up(true);
	short_submit();
	run_until_done(100);
	assert_true(landed()); /* the engine works */
	resets0 = W.gvt->pe[GEN9_RCS0].resets;
	W.m.cfg.stall_engines = BIT(GEN9_RCS0);
	short_submit();
	ms = run_until_done(5000);
	assert_false(landed());
	assert_int_equal(vgpu_get_stats(V)->workloads_failed, 1);
	/* Found by the watchdog: after its limit, before the hang timeout. */
	assert_true(ms >= PGPU_HANG_NO_PROGRESS_US / 1000);
	assert_true(ms < W.gvt->p.hang_timeout_ns / MS);
	assert_int_equal(W.gvt->pgpu->stats.hangs, 1);
	assert_int_equal(W.gvt->pe[GEN9_RCS0].resets, resets0 + 1);
	assert_true(W.hv.logs[0] >= 1); /* "...: workload hung (no progress)" */
	/* The hang cleared, the guest goes on: its next workload runs. */
	W.m.cfg.stall_engines = 0;
	gvt_recover(W.gvt, 3, 10000 * MS);
	/* i915 blames the request of the context the engine reports running
	 * (RING_EXECLIST_STATUS_HI): the hung one's ID, until its own reset. */
	assert_int_equal(gi_mmio_read(&G, RING_EXECLIST_STATUS_HI(base), 4),
			 G.ctx[CTX].hw_id);
	gi_mmio_write(&G, GEN6_GDRST, gen9_engine_reset_domain(GEN9_RCS0), 4);
	assert_int_equal(gi_mmio_read(&G, RING_EXECLIST_STATUS_HI(base), 4), 0);
	assert_int_equal(gi_engine_init(&G, GEN9_RCS0), 0);
	gi_service(&G);
	short_submit();
	run_until_done(100);
	assert_true(landed());
	world_down();
}

/* A long batch that keeps executing (one command per poll): ACTHD moves,
 * the watchdog stays quiet however long it takes. */
static void test_slow_progress_is_not_a_hang(void **state)
{
	static uint32_t bb[SLOW_PAGES * 1024];
	uint64_t gpa, ms;


	(void)state;
	world_up(true);
	gpa = gi_alloc_pages(&G, SLOW_PAGES);
	memset(bb, 0, sizeof(bb)); /* MI_NOOP */
	bb[SLOW_PAGES * 1024 - 2] = MI_BATCH_BUFFER_END;
	fake_hv_guest_write(&W.hv, 1, gpa, bb, sizeof(bb));
	gi_ppgtt_map(&G, SLOW_VA, gpa, SLOW_PAGES);
	W.m.cfg.cmd_budget = CMD_BUDGET;
	submit_at(SLOW_VA);
	/* Longer than the watchdog's limit, shorter than the hang timeout. */
	ms = run_until_done(1900);
	printf("slow batch: done after %llu ms of hypervisor time\n",
	       (unsigned long long)ms);
	assert_true(ms > PGPU_HANG_NO_PROGRESS_US / 1000);
	assert_true(landed());
	assert_int_equal(W.gvt->pgpu->stats.hangs, 0);
	assert_int_equal(vgpu_get_stats(V)->workloads_failed, 0);
	world_down();
}

/* The plain model: no watchdog; a stall lasts until the hang timeout. */
static void test_plain_model_waits_for_the_hang_timeout(void **state)
{
	uint64_t ms;

	(void)state;
	world_up(false);
	W.m.cfg.stall_engines = BIT(GEN9_RCS0);
	short_submit();
	ms = run_until_done(5000);
	assert_int_equal(vgpu_get_stats(V)->workloads_failed, 1);
	assert_true(ms >= W.gvt->p.hang_timeout_ns / MS);
	assert_int_equal(W.gvt->pgpu->stats.hangs, 0);
	world_down();
}

/* ---- escalation to the full GPU reset ------------------------------ */

/* A second guest, vm 2, with a blitter context and its own breadcrumb. */
static struct vgpu *V2;
static struct guest_i915 G2;
static int CTX2;
static uint32_t SEQ2_GM, SEQ2;
static uint64_t SEQ2_GPA;

static void second_guest_up(void)
{
	assert_int_equal(mw_add_vgpu(&W, &vgpu_type_v5_8, 2, 8 * MiB, &V2), 0);
	assert_int_equal(gi_probe(&G2, &W.hv, V2, 2, W.gvt), 0);
	G2.poll = mw_poll;
	G2.poll_arg = &W;
	assert_int_equal(gi_ppgtt_create(&G2), 0);
	assert_int_equal(gi_engine_init(&G2, GEN9_BCS0), 0);
	CTX2 = gi_ctx_create(&G2, GEN9_BCS0);
	assert_true(CTX2 >= 0);
	SEQ2_GPA = gi_alloc_pages(&G2, 1);
	SEQ2_GM = gi_gm_alloc(&G2, 4096, true);
	gi_ggtt_bind(&G2, SEQ2_GM, SEQ2_GPA, 1);
	SEQ2 = 0;
}

static void second_submit(void)
{
	SEQ2++;
	gi_emit_breadcrumb(&G2, CTX2, SEQ2_GM, SEQ2);
	gi_submit(&G2, CTX2, -1);
}

static bool second_landed(void)
{
	return gi_read32(&G2, SEQ2_GPA) == SEQ2;
}

/* Main-loop rounds with both guests until both are settled (landed or
 * failed) or limit_ms passes. */
static void run_both(uint64_t limit_ms)
{
	uint64_t t0 = W.hv.now;
	uint64_t f1 = vgpu_get_stats(V)->workloads_failed;
	uint64_t f2 = vgpu_get_stats(V2)->workloads_failed;

	while (W.hv.now - t0 < limit_ms * MS) {
		W.hv.now += 10 * MS;
		mw_poll(&W);
		gvt_poll(W.gvt);
		gi_service(&G);
		gi_service(&G2);
		if ((landed() || vgpu_get_stats(V)->workloads_failed != f1) &&
		    (second_landed() ||
		     vgpu_get_stats(V2)->workloads_failed != f2))
			break;
	}
}

/* The render engine hangs and refuses its reset (READY_TO_RESET never
 * comes): the whole GPU is reset (the second attempt goes ahead without
 * READY, i915's reset_non_ready), every engine brought up again. The
 * guilty guest is told (a full vGPU reset, EIR on its engines) and runs
 * again; the other guest's blitter work, queued behind the owner's,
 * completes. */
static void test_refused_engine_reset_escalates_to_full(void **state)
{
	const struct pgpu_stats *ps;
	uint64_t resets0;

	(void)state;
	world_up(true);
	second_guest_up();
	ps = &W.gvt->pgpu->stats;
	resets0 = W.gvt->pe[GEN9_BCS0].resets;
	W.m.cfg.stall_engines = BIT(GEN9_RCS0);
	W.m.cfg.reset_never_ready = true;
	short_submit();
	W.hv.now += 10 * MS;
	gvt_poll(W.gvt); /* vm 1 owns the GPU, its RCS work in flight */
	assert_ptr_equal(W.gvt->owner, V);
	second_submit();
	run_both(5000);
	assert_false(landed());
	assert_int_equal(vgpu_get_stats(V)->workloads_failed, 1);
	assert_int_equal(W.gvt->full_resets, 1);
	assert_int_equal(W.gvt->full_reset_failures, 0);
	assert_false(W.gvt->wedged);
	assert_int_equal(ps->full_resets, 1);
	assert_true(ps->resets_not_ready >= 1);
	/* Every engine was brought up again, not only the hung one. */
	assert_int_equal(W.gvt->pe[GEN9_BCS0].resets, resets0 + 1);
	assert_true(W.gvt->pgpu->engine[GEN9_BCS0].enabled);
	assert_true(W.gvt->pgpu->engine[GEN9_RCS0].enabled);
	/* vm 2 was not disturbed: its work ran after the reset. */
	assert_true(second_landed());
	assert_int_equal(vgpu_get_stats(V2)->workloads_failed, 0);
	/* The guilty guest: told, reset in full, its next workload runs. */
	W.m.cfg.stall_engines = 0;
	W.m.cfg.reset_never_ready = false;
	assert_true(V->full_reset_due);
	assert_int_equal(gvt_recover(W.gvt, 3, 10000 * MS), 1);
	assert_false(V->full_reset_due);
	assert_int_equal(vreg(V, RING_EIR(BLT_RING_BASE)) &
				 I915_ERROR_INSTRUCTION,
			 I915_ERROR_INSTRUCTION); /* every engine told */
	gi_service(&G);
	short_submit();
	second_submit();
	run_both(100);
	assert_true(landed());
	assert_true(second_landed());
	world_down();
}

/* The guilty vGPU's own work on another engine (gang scheduling: all
 * that is in flight is the owner's) is lost with the full reset: dropped
 * without a second fault (the render hang stays the reason), and the
 * vGPU's reset is a full one, so the guest hears of the blitter too. */
static void test_full_reset_drops_the_guilty_vgpus_other_engine(void **state)
{
	static uint32_t bb[SLOW_PAGES * 1024];
	uint64_t gpa, seqb_gpa;
	uint32_t seqb_gm, budget;
	int ctxb;

	(void)state;
	world_up(true);
	assert_int_equal(gi_engine_init(&G, GEN9_BCS0), 0);
	ctxb = gi_ctx_create(&G, GEN9_BCS0);
	assert_true(ctxb >= 0);
	seqb_gpa = gi_alloc_pages(&G, 1);
	seqb_gm = gi_gm_alloc(&G, 4096, true);
	gi_ggtt_bind(&G, seqb_gm, seqb_gpa, 1);
	gpa = gi_alloc_pages(&G, SLOW_PAGES);
	memset(bb, 0, sizeof(bb)); /* MI_NOOP: ~5 s at LONG_BUDGET */
	bb[SLOW_PAGES * 1024 - 2] = MI_BATCH_BUFFER_END;
	fake_hv_guest_write(&W.hv, 1, gpa, bb, sizeof(bb));
	gi_ppgtt_map(&G, SLOW_VA, gpa, SLOW_PAGES);
	budget = W.m.cfg.cmd_budget;
	W.m.cfg.cmd_budget = LONG_BUDGET;
	W.m.cfg.stall_engines = BIT(GEN9_RCS0);
	W.m.cfg.reset_never_ready = true;
	gi_emit_bb_start(&G, ctxb, SLOW_VA, true);
	gi_emit_breadcrumb(&G, ctxb, seqb_gm, 7);
	gi_submit(&G, ctxb, -1);
	short_submit();
	W.hv.now += 10 * MS;
	gvt_poll(W.gvt);
	assert_non_null(W.gvt->pe[GEN9_BCS0].inflight);
	assert_non_null(W.gvt->pe[GEN9_RCS0].inflight);
	run_until_done(5000);
	assert_int_equal(W.gvt->full_resets, 1);
	assert_null(W.gvt->pe[GEN9_BCS0].inflight);
	assert_int_not_equal(gi_read32(&G, seqb_gpa), 7);
	assert_int_equal(vgpu_get_stats(V)->workloads_failed, 1);
	assert_int_equal(V->fault_engine, GEN9_RCS0);
	assert_true(V->full_reset_due);
	assert_int_equal(gvt_recover(W.gvt, 3, 10000 * MS), 1);
	assert_int_equal(vreg(V, RING_EIR(BLT_RING_BASE)) &
				 I915_ERROR_INSTRUCTION,
			 I915_ERROR_INSTRUCTION);
	/* Both engines run its work again. */
	W.m.cfg.stall_engines = 0;
	W.m.cfg.reset_never_ready = false;
	W.m.cfg.cmd_budget = budget;
	gi_service(&G);
	short_submit();
	run_until_done(100);
	assert_true(landed());
	gi_emit_breadcrumb(&G, ctxb, seqb_gm, 8);
	gi_submit(&G, ctxb, -1);
	for (int i = 0; i < 10 && gi_read32(&G, seqb_gpa) != 8; i++) {
		W.hv.now += 10 * MS;
		mw_poll(&W);
		gvt_poll(W.gvt);
		gi_service(&G);
	}
	assert_int_equal(gi_read32(&G, seqb_gpa), 8);
	world_down();
}

/* The full reset fails too (GDRST never clears): the GPU is wedged, in a
 * defined way: counted, nothing submitted again, every later workload
 * fails at once (the guest told as for any failed workload), the main
 * loop goes on. */
static void test_failed_full_reset_wedges_the_gpu(void **state)
{
	uint64_t gdrst0, f2;

	(void)state;
	world_up(true);
	second_guest_up();
	W.m.cfg.stall_engines = BIT(GEN9_RCS0);
	W.m.cfg.reset_never_ready = true;
	W.m.cfg.reset_never_done = true;
	short_submit();
	run_until_done(5000);
	assert_false(landed());
	assert_int_equal(vgpu_get_stats(V)->workloads_failed, 1);
	assert_true(W.gvt->wedged);
	assert_int_equal(W.gvt->full_resets, 0);
	assert_int_equal(W.gvt->full_reset_failures, 1);
	assert_int_equal(W.gvt->pgpu->stats.full_reset_failures, 1);
	assert_false(pexec_busy(W.gvt));
	/* Nothing reaches the hardware again: no more GDRST, no submission. */
	gdrst0 = W.m.stats.gdrst_requests;
	gvt_recover(W.gvt, 3, 10000 * MS);
	gi_service(&G);
	short_submit();
	f2 = vgpu_get_stats(V2)->workloads_failed;
	second_submit();
	run_both(200);
	assert_false(landed());
	assert_false(second_landed());
	assert_int_equal(vgpu_get_stats(V)->workloads_failed, 2);
	assert_int_equal(vgpu_get_stats(V2)->workloads_failed, f2 + 1);
	assert_int_equal(W.gvt->wedged_fails, 2);
	assert_int_equal(W.m.stats.gdrst_requests, gdrst0);
	assert_false(pexec_busy(W.gvt));
	world_down();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stuck_engine_reset_by_the_watchdog),
		cmocka_unit_test(test_slow_progress_is_not_a_hang),
		cmocka_unit_test(test_plain_model_waits_for_the_hang_timeout),
		cmocka_unit_test(test_refused_engine_reset_escalates_to_full),
		cmocka_unit_test(test_full_reset_drops_the_guilty_vgpus_other_engine),
		cmocka_unit_test(test_failed_full_reset_wedges_the_gpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
