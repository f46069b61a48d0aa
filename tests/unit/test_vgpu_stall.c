/* Bounded GPU time per vGPU (issue 13 item 4), measured on the software
 * Gen9 model under the real mediator in gScale mode: vGPU 1 (the hog)
 * runs a long batch the scanner approves (8 pages of MI_NOOP, no
 * arbitration point, so preemption cannot take the engine from it; the
 * model is slowed to one command per engine per poll, so it runs for
 * hundreds of ms of hypervisor time, as a long draw would on real
 * hardware); vGPUs 2 and 3 (the victims) keep submitting seqno batches.
 * Each victim's wait, from its ELSP write to its seqno landing in its
 * memory, is measured in
 * hypervisor time (hv_ops now_ns, the scheduler's clock), in gvt_poll
 * calls and in vGPU switches (scheduler rounds). The hog is reset at
 * every overrun, its guest resets the engine and resubmits the batch.
 * As a privileged batch of the guest kernel the third overrun fails it
 * for good; as a user (PPGTT) batch it is the request's fault (issue 26):
 * never banned, but held off the GPU as long as each hang took, so its
 * engine resets are rate-bound. The victims never fail either way.
 *
 * The same scenario with the bound turned off (overrun_ns of 100 s)
 * shows what it replaces: the victims wait for the 2 s hang timeout.
 * (An endless loop the scanner cannot see - a batch rewritten after the
 * scan - is bounded by the same code; it is not used here because the
 * batch shadow copies of issue 13 item 1 make it impossible.) */
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
#define NV 3
#define VM_RAM (8 * MiB)
#define BATCH_VA 0x7e0000000000ull
#define HOG_PAGES 8 /* 32 KiB: well inside the shadow batch budget */
#define HOG_VA 0x7d0000000000ull
#define MS 1000000ull

struct victim_stat {
	uint64_t t_submit, polls_submit, switches_submit;
	uint64_t worst_ns, worst_polls, worst_switches;
	uint32_t seq, done;
};

struct world {
	struct model_world mw;
	struct vgpu *v[NV];
	struct guest_i915 g[NV];
	int ctx[NV];
	uint32_t seq_gm[NV];
	uint64_t seq_gpa[NV], batch_gpa[NV];
	struct victim_stat vs[NV];
	uint32_t hog_resubmits;
	uint64_t pass_ns; /* hypervisor time per pass */
	bool hog_priv; /* the hog's batch privileged (GGTT), not a user one */
	uint32_t hog_gm;
};

static uint64_t switches(struct world *w)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < NV; i++)
		n += vgpu_get_stats(w->v[i])->vgpu_switches;
	return n;
}

static void guest_setup(struct world *w, int i)
{
	struct guest_i915 *g = &w->g[i];

	assert_int_equal(gi_probe(g, &w->mw.hv, w->v[i], i + 1, w->mw.gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = &w->mw;
	assert_int_equal(gi_ppgtt_create(g), 0);
	assert_int_equal(gi_engine_init(g, GEN9_RCS0), 0);
	w->ctx[i] = gi_ctx_create(g, GEN9_RCS0);
	assert_true(w->ctx[i] >= 0);
	w->seq_gpa[i] = gi_alloc_pages(g, 1);
	w->seq_gm[i] = gi_gm_alloc(g, 4096, true);
	gi_ggtt_bind(g, w->seq_gm[i], w->seq_gpa[i], 1);
	w->batch_gpa[i] = gi_alloc_pages(g, 1);
	gi_ppgtt_map(g, BATCH_VA, w->batch_gpa[i], 1);
}

/* The hog's batch: HOG_PAGES pages of MI_NOOP, then the end. */
static void hog_setup(struct world *w)
{
	static uint32_t bb[HOG_PAGES * 1024];
	struct guest_i915 *g = &w->g[0];
	uint64_t gpa = gi_alloc_pages(g, HOG_PAGES);

	memset(bb, 0, sizeof(bb)); /* MI_NOOP */
	bb[HOG_PAGES * 1024 - 2] = MI_BATCH_BUFFER_END;
	fake_hv_guest_write(&w->mw.hv, 1, gpa, bb, sizeof(bb));
	gi_ppgtt_map(g, HOG_VA, gpa, HOG_PAGES);
	w->hog_gm = gi_gm_alloc(g, HOG_PAGES * 4096, false);
	gi_ggtt_bind(g, w->hog_gm, gpa, HOG_PAGES);
}

static void world_init(struct world *w, uint64_t overrun_ns,
		       uint64_t pass_ns, bool hog_priv)
{
	struct gvt_params p = { .overrun_ns = overrun_ns,
				.ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { NULL, &gscale_on } };
	struct mw_config c = { .pool_mib = 64, .ram_mib = 8 * NV,
			       .params = &p };
	int i;

	memset(w, 0, sizeof(*w));
	assert_int_equal(mw_init(&w->mw, &c), 0);
	for (i = 0; i < NV; i++) {
		assert_int_equal(mw_add_vgpu(&w->mw, &vgpu_type_v5_8, i + 1,
					     VM_RAM, &w->v[i]), 0);
		guest_setup(w, i);
	}
	hog_setup(w);
	w->mw.m.cfg.cmd_budget = 1; /* one command per engine per poll */
	w->pass_ns = pass_ns;
	w->hog_priv = hog_priv;
}

static void world_fini(struct world *w)
{
	mw_stop(&w->mw);
	assert_int_equal(w->mw.hv.pages_in_use, 0);
	mw_fini(&w->mw);
}

static void hog_submit(struct world *w)
{
	struct guest_i915 *g = &w->g[0];

	gi_emit_bb_start(g, w->ctx[0], w->hog_priv ? w->hog_gm : HOG_VA,
			 !w->hog_priv);
	gi_emit_breadcrumb(g, w->ctx[0], w->seq_gm[0], 0xdead);
	gi_submit(g, w->ctx[0], -1);
}

/* A victim: a PPGTT batch storing nothing, then the seqno breadcrumb. */
static void victim_submit(struct world *w, int i)
{
	uint32_t bb[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	struct victim_stat *s = &w->vs[i];
	struct guest_i915 *g = &w->g[i];

	fake_hv_guest_write(&w->mw.hv, i + 1, w->batch_gpa[i], bb, sizeof(bb));
	s->seq++;
	gi_emit_bb_start(g, w->ctx[i], BATCH_VA, true);
	gi_emit_breadcrumb(g, w->ctx[i], w->seq_gm[i], s->seq);
	gi_submit(g, w->ctx[i], -1);
	s->t_submit = w->mw.hv.now;
	s->polls_submit = w->mw.gvt->poll_calls;
	s->switches_submit = switches(w);
}

static void victim_check(struct world *w, int i)
{
	struct victim_stat *s = &w->vs[i];
	uint64_t ns, polls, sw;

	if (gi_read32(&w->g[i], w->seq_gpa[i]) != s->seq)
		return;
	ns = w->mw.hv.now - s->t_submit;
	polls = w->mw.gvt->poll_calls - s->polls_submit;
	sw = switches(w) - s->switches_submit;
	if (ns > s->worst_ns)
		s->worst_ns = ns;
	if (polls > s->worst_polls)
		s->worst_polls = polls;
	if (sw > s->worst_switches)
		s->worst_switches = sw;
	s->done++;
	victim_submit(w, i);
}

/* A failed (not banned) hog does what i915 does after a hang: reset the
 * engine, set it up again, and (being hostile) resubmit the loop. */
static void hog_recover(struct world *w)
{
	struct guest_i915 *g = &w->g[0];

	if (!w->v[0]->failed || w->v[0]->banned)
		return;
	gi_mmio_write(g, GEN6_GDRST, gen9_engine_reset_domain(GEN9_RCS0), 4);
	assert_int_equal(gi_engine_init(g, GEN9_RCS0), 0);
	gi_submit(g, w->ctx[0], -1);
	w->hog_resubmits++;
}

static void run(struct world *w, uint64_t until_ns)
{
	uint64_t end = w->mw.hv.now + until_ns;
	int i;

	hog_submit(w);
	for (i = 1; i < NV; i++)
		victim_submit(w, i);
	while (w->mw.hv.now < end) {
		for (i = 0; i < NV; i++)
			gi_service(&w->g[i]);
		for (i = 1; i < NV; i++)
			victim_check(w, i);
		hog_recover(w);
		w->mw.hv.now += w->pass_ns;
	}
}

static void report(struct world *w, const char *what)
{
	int i;

	for (i = 1; i < NV; i++)
		print_message("%s: victim vGPU %d: %u seqnos, worst wait %.1f ms, "
			      "%llu gvt_poll calls, %llu vGPU switches\n",
			      what, i + 1, w->vs[i].done,
			      (double)w->vs[i].worst_ns / MS,
			      (unsigned long long)w->vs[i].worst_polls,
			      (unsigned long long)w->vs[i].worst_switches);
}

/* With the default bound (16 ms slice + 16 ms overrun): each victim
 * waits at most one hog slice plus its overrun plus the other victim's
 * turn; the hog, a privileged batch, is banned at its third overrun. */
static void test_hog_is_bounded_and_banned(void **state)
{
	static struct world w;
	const struct vgpu_stats *hs;
	int i;

	(void)state;
	world_init(&w, 0, MS / 10, true);
	run(&w, 400 * MS);
	report(&w, "bounded");
	hs = vgpu_get_stats(w.v[0]);
	assert_int_equal(hs->overruns, GVT_MAX_OVERRUNS);
	assert_int_equal(w.v[0]->overruns, GVT_MAX_OVERRUNS);
	assert_true(w.v[0]->banned);
	assert_true(vgpu_failed(w.v[0]));
	assert_int_equal(w.hog_resubmits, GVT_MAX_OVERRUNS - 1);
	assert_non_null(strstr(w.mw.hv.last_log, "vgpu1: vm 1: failed for good"));
	/* The hog's batch never got to its breadcrumb. */
	assert_int_not_equal(gi_read32(&w.g[0], w.seq_gpa[0]), 0xdead);
	for (i = 1; i < NV; i++) {
		const struct vgpu_stats *s = vgpu_get_stats(w.v[i]);

		assert_false(vgpu_failed(w.v[i]));
		assert_int_equal(s->workloads_failed, 0);
		assert_int_equal(s->overruns, 0);
		assert_true(w.vs[i].done > 50);
		/* Bound: the hog's slice + overrun, then the other
		 * victim's short turn and the switches: 32 ms + ~1 ms
		 * measured, against 2 s before. */
		assert_true(w.vs[i].worst_ns <
			    GVT_TIMESLICE_NS + GVT_OVERRUN_NS + 2 * MS);
	}
	/* A guest reset does not revive a banned vGPU. */
	gi_mmio_write(&w.g[0], GEN6_GDRST, GEN6_GRDOM_FULL, 4);
	gvt_poll(w.mw.gvt);
	assert_true(vgpu_failed(w.v[0]));
	world_fini(&w);
}

/* The same hog as a user (PPGTT) batch: the victims keep the same bound,
 * the hog is reset at each overrun but never banned, its VM not stopped;
 * each reset holds it off the GPU as long as it held the engine, so over
 * 400 ms its engine is reset at most once per two such spells. */
static void test_user_hog_is_bounded_not_banned(void **state)
{
	static struct world w;
	const struct vgpu_stats *hs;
	uint64_t spell = GVT_TIMESLICE_NS + GVT_OVERRUN_NS;
	uint32_t resets;
	int i;

	(void)state;
	world_init(&w, 0, MS / 10, false);
	run(&w, 400 * MS);
	report(&w, "user hog");
	hs = vgpu_get_stats(w.v[0]);
	resets = w.mw.gvt->pe[GEN9_RCS0].resets;
	print_message("user hog: %llu user hangs, %u engine resets, %llu "
		      "overruns, held off the GPU %.1f ms in 400 ms\n",
		      (unsigned long long)hs->user_hangs, resets,
		      (unsigned long long)hs->overruns,
		      (double)hs->ns_held / MS);
	assert_int_equal(hs->overruns, 0);
	assert_int_equal(w.v[0]->overruns, 0);
	assert_true(hs->user_hangs >= GVT_MAX_OVERRUNS + 1);
	assert_int_equal(resets, hs->user_hangs);
	assert_true(resets <= 400 * MS / (2 * spell) + 1);
	assert_false(w.v[0]->banned);
	assert_false(vgpu_dead(w.v[0]));
	assert_true(w.hog_resubmits >= GVT_MAX_OVERRUNS);
	assert_int_not_equal(gi_read32(&w.g[0], w.seq_gpa[0]), 0xdead);
	for (i = 1; i < NV; i++) {
		const struct vgpu_stats *s = vgpu_get_stats(w.v[i]);

		assert_false(vgpu_failed(w.v[i]));
		assert_int_equal(s->workloads_failed, 0);
		assert_int_equal(s->user_hangs, 0);
		assert_true(w.vs[i].done > 50);
		assert_true(w.vs[i].worst_ns <
			    GVT_TIMESLICE_NS + GVT_OVERRUN_NS + 2 * MS);
	}
	world_fini(&w);
}

/* The bound off: a victim waits for the 2 s hang timeout, and the hog is
 * never banned (the behaviour the issue reported). */
static void test_unbounded_baseline(void **state)
{
	static struct world w;
	int i;

	(void)state;
	world_init(&w, 100000 * MS, MS, false);
	run(&w, 2500 * MS);
	report(&w, "unbounded");
	assert_int_equal(vgpu_get_stats(w.v[0])->overruns, 0);
	for (i = 1; i < NV; i++)
		assert_true(w.vs[i].worst_ns > 1900 * MS);
	world_fini(&w);
}

/* Alone on the GPU a long batch is not cut at the slice: it delays
 * nobody, so only the hang timeout applies. */
static void test_alone_not_charged(void **state)
{
	static struct world w;
	int k;

	(void)state;
	world_init(&w, 0, MS / 10, false);
	hog_submit(&w);
	for (k = 0; k < 2000; k++) { /* 200 ms */
		gi_service(&w.g[0]);
		w.mw.hv.now += w.pass_ns;
	}
	assert_int_equal(vgpu_get_stats(w.v[0])->overruns, 0);
	assert_false(vgpu_failed(w.v[0]));
	assert_true(pexec_busy(w.mw.gvt));
	world_fini(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hog_is_bounded_and_banned),
		cmocka_unit_test(test_user_hog_is_bounded_not_banned),
		cmocka_unit_test(test_alone_not_charged),
		cmocka_unit_test(test_unbounded_baseline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
