/* Shadow PPGTTs at scale (gpu/vgpu/ppgtt/vgpu_ppgtt.c, docs/shadow-ppgtt.md):
 * contexts far beyond what fits in the shadow page-table budget, driven
 * the way i915 does (one PPGTT per context announced through PVINFO
 * g2v_notify, objects bound by CPU stores to its tables, requests in
 * i915 6.1's ring shapes through ELSP) over the real mediator and the
 * software Gen9 model, with the shadow verifier on at every submission.
 *
 * Checked: 4,096 contexts created, used round-robin across engines and
 * destroyed with no failure and no fault, the shadow memory within its
 * budget at every step and back to its start value at the end; each
 * request's store lands where its own PPGTT says (a stale or borrowed
 * shadow would put it elsewhere); an evicted root rebuilt at its next use
 * translates exactly as when first built; with every shadow held by
 * queued work the next submission waits, nothing fails, and it runs after
 * that work completes; a context whose tables alone exceed the budget
 * fails only its own request, as after a hang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/ghyvi/ghyvi.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_shapes.h"
#include "tests/harness/i915_world.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define VM 1
#define NCTX 4096u
/* One 2 MiB region per PPGTT holds the batches and the data page. */
#define BATCH_VA 0x100000000ull
#define DATA_VA (BATCH_VA + 0x100000ull)
#define BB_STRIDE 32u /* one 5-dword batch per context */
#define NBATCH_PAGES (NCTX * BB_STRIDE / 4096u)
#define NDATA 64u /* context k's DATA_VA is data page k % NDATA */
#define EXTRA_VA 0x200000000ull /* extra 2 MiB regions (bigger PPGTTs) */

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };
static const int engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VECS0 };
#define NR_ENG 4u

struct env {
	struct model_world mw;
	struct vgpu *v;
	struct guest_i915 g;
	int ctx[GEN9_NUM_ENGINES][2]; /* two per engine, for ELSP pairs */
	uint32_t seqno[GEN9_NUM_ENGINES];
	uint32_t tl_gm;
	uint64_t tl_gpa, batch_gpa, data_gpa[NDATA];
	uint64_t pml4[NCTX];
	uint32_t start_pages; /* shadow memory before any context */
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	static const struct gvt_params p = { .ext = { &ghyvi_ext_ops } };
	struct mw_config c = { .pool_mib = 96, .ram_mib = 100, .params = &p };
	struct guest_i915 *g = &e->g;
	struct vgpu_ghyvi_params gp;
	uint32_t k, i;

	assert_non_null(e);
	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &small, VM, 96 * MiB, &e->v), 0);
	assert_int_equal(gi_probe(g, &e->mw.hv, e->v, VM, e->mw.gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = &e->mw;
	/* Every submission compares the whole shadow tree with the guest's
	 * tables (a mismatch refuses the workload, which the checks see). */
	vgpu_ghyvi_get(e->v, &gp);
	gp.verify = true;
	assert_int_equal(vgpu_ghyvi_set(e->v, &gp), 0);
	for (k = 0; k < NR_ENG; k++) {
		assert_int_equal(gi_engine_init(g, engines[k]), 0);
		for (i = 0; i < 2; i++) {
			e->ctx[engines[k]][i] = gi_ctx_create(g, engines[k]);
			assert_true(e->ctx[engines[k]][i] >= 0);
		}
	}
	e->tl_gpa = gi_alloc_pages(g, 1);
	e->tl_gm = gi_gm_alloc(g, 4096, false);
	gi_ggtt_bind(g, e->tl_gm, e->tl_gpa, 1);
	e->batch_gpa = gi_alloc_pages(g, NBATCH_PAGES);
	assert_true(e->batch_gpa != 0);
	for (k = 0; k < NDATA; k++)
		e->data_gpa[k] = gi_alloc_pages(g, 1);
	/* Context k's batch stores k at its DATA_VA. */
	for (k = 0; k < NCTX; k++) {
		uint32_t bb[] = { MI_STORE_DWORD_IMM_GEN4, (uint32_t)DATA_VA,
				  (uint32_t)(DATA_VA >> 32), k, MI_BATCH_BUFFER_END };

		fake_hv_guest_write(&e->mw.hv, VM, e->batch_gpa + BB_STRIDE * k,
				    bb, sizeof(bb));
	}
	e->start_pages = e->v->pt_pages;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	mw_stop(&e->mw);
	assert_int_equal(e->mw.hv.pages_in_use, 0);
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, VM), 0);
	mw_fini(&e->mw);
	free(e);
	return 0;
}

/* i915's gen8_ppgtt_create + binds: a PPGTT announced, then the batches
 * and the context's data page bound by stores to its tables; extra
 * regions make it bigger (one more page table each). */
static void ppgtt_new(struct env *e, uint32_t k, uint32_t extra)
{
	struct guest_i915 *g = &e->g;
	uint32_t r;

	assert_int_equal(gi_ppgtt_create(g), 0);
	e->pml4[k] = g->pml4_gpa;
	gi_ppgtt_map(g, BATCH_VA, e->batch_gpa, NBATCH_PAGES);
	gi_ppgtt_map(g, DATA_VA, e->data_gpa[k % NDATA], 1);
	for (r = 0; r < extra; r++)
		gi_ppgtt_map(g, EXTRA_VA + r * 0x200000ull, e->data_gpa[0], 1);
}

static void ppgtt_destroy(struct env *e, uint32_t k)
{
	e->g.pml4_gpa = e->pml4[k];
	gi_ppgtt_destroy(&e->g);
}

/* Context slot i of engine eng runs on PPGTT k from now on (i915 gives
 * each context its own; the harness has a few contexts, so it points
 * one at the PPGTT of the request). */
static void ctx_use(struct env *e, int eng, int i, uint32_t k)
{
	uint64_t st = e->g.ctx[e->ctx[eng][i]].lrca_gpa + LRC_STATE_OFFSET;

	gi_write32(&e->g, st + CTX_PDP0_UDW * 4, (uint32_t)(e->pml4[k] >> 32));
	gi_write32(&e->g, st + CTX_PDP0_LDW * 4, (uint32_t)e->pml4[k]);
}

/* eb_submit's request on context slot i of eng for PPGTT k: invalidate,
 * init breadcrumb, batch k, fini breadcrumb (not yet submitted). */
static void emit_request(struct env *e, int eng, int i, uint32_t k)
{
	struct i915_cs cs;

	ctx_use(e, eng, i, k);
	e->seqno[eng]++;
	i915_cs_reset(&cs);
	iw_emit_request_at(&cs, eng, e->tl_gm + iw_slot(eng), e->seqno[eng],
			   BATCH_VA + BB_STRIDE * k);
	gi_ring_emit(&e->g, e->ctx[eng][i], cs.dw, cs.n);
}

static uint32_t data_of(struct env *e, uint32_t k)
{
	return gi_read32(&e->g, e->data_gpa[k % NDATA]);
}

static void no_failure(struct env *e)
{
	const struct vgpu_stats *s = &e->v->stats;

	assert_false(vgpu_failed(e->v));
	assert_int_equal(s->workloads_rejected, 0);
	assert_int_equal(s->workloads_failed, 0);
	assert_int_equal(s->faults, 0);
	assert_int_equal(s->user_faults, 0);
	assert_int_equal(s->verify_mismatch, 0);
	assert_int_equal(s->ppgtt_errors, 0);
	assert_true(e->v->pt_pages <= e->v->pt_budget);
	assert_true(e->v->pt_peak <= e->v->pt_budget);
}

/* One request of PPGTT k on eng, run to completion; its store landed in
 * k's data page. */
static void run_one(struct env *e, int eng, uint32_t k)
{
	uint32_t done = e->g.eng[eng].completes;

	gi_write32(&e->g, e->data_gpa[k % NDATA], 0xdeadbeefu);
	emit_request(e, eng, 0, k);
	gi_submit(&e->g, e->ctx[eng][0], -1);
	assert_int_equal(gi_wait_idle(&e->g, eng, 50), 0);
	assert_true(e->g.eng[eng].completes > done);
	assert_int_equal(data_of(e, k), k);
	assert_int_equal(gi_read32(&e->g, e->tl_gpa + (uint32_t)eng * 64),
			 e->seqno[eng]);
}

/* The storm: 4,096 contexts, used round-robin over four engines (twice:
 * the second round finds every shadow evicted), destroyed. At the default
 * budget about 580 of these PPGTTs fit. */
static void test_context_storm(void **state)
{
	struct env *e = *state;
	struct vgpu_ppgtt_usage u;
	uint32_t k, round;

	vgpu_ppgtt_usage(e->v, &u);
	assert_int_equal(u.budget_kib, VGPU_SHADOW_PT_KIB_DEFAULT);
	for (k = 0; k < NCTX; k++)
		ppgtt_new(e, k, 0);
	no_failure(e);
	vgpu_ppgtt_usage(e->v, &u);
	assert_int_equal(u.roots, NCTX);
	assert_true(u.shadowed < NCTX / 2); /* the rest wait for their use */
	for (round = 0; round < 2; round++) {
		for (k = 0; k < NCTX; k++)
			run_one(e, engines[k % NR_ENG], k);
		no_failure(e);
	}
	assert_true(e->v->stats.mm_evicted >= NCTX);
	assert_true(e->v->stats.mm_rebuilt_evicted >= NCTX);
	assert_int_equal(e->v->stats.mm_waits, 0);
	assert_true(e->v->stats.verify_runs >= 2 * NCTX);
	print_message("storm: budget %u KiB, peak %u KiB, %llu evictions, "
		      "%llu rebuilds, %llu entries read for %llu tables\n",
		      e->v->pt_budget * 4, e->v->pt_peak * 4,
		      (unsigned long long)e->v->stats.mm_evicted,
		      (unsigned long long)e->v->stats.mm_rebuilt_evicted,
		      (unsigned long long)e->v->stats.spt_entries_filled,
		      (unsigned long long)e->v->stats.spt_created);
	for (k = 0; k < NCTX; k++)
		ppgtt_destroy(e, k);
	no_failure(e);
	vgpu_ppgtt_usage(e->v, &u);
	assert_int_equal(u.roots, 0);
	assert_int_equal(u.tables, 0);
	assert_int_equal(e->v->pt_pages, e->start_pages);
	print_message("storm: at rest %u KiB (%u KiB before the contexts)\n",
		      u.used_kib, e->start_pages * 4);
}

/* Every VA the test maps, through the shadow of PPGTT k. */
static void walk(struct env *e, uint32_t k, uint64_t *out)
{
	int32_t mm = vgpu_mm_get(e->v, e->pml4[k], false);
	uint64_t root;
	uint32_t p;

	assert_true(mm >= 0);
	assert_int_equal(vgpu_mm_prepare(e->v, mm, &root), 0);
	for (p = 0; p < NBATCH_PAGES; p++)
		out[p] = mw_ppgtt_walk(&e->mw, root, BATCH_VA + p * 4096ull);
	out[p++] = mw_ppgtt_walk(&e->mw, root, DATA_VA);
	out[p++] = mw_ppgtt_walk(&e->mw, root, EXTRA_VA);
	out[p] = mw_ppgtt_walk(&e->mw, root, EXTRA_VA + 0x200000ull);
	vgpu_mm_put(e->v, mm);
}

/* The shadow root of PPGTT k, SPT_NONE when not shadowed now. */
static int32_t root_of(struct env *e, uint32_t k)
{
	int32_t i;

	for (i = 0; i < vslab_end(&e->v->mms); i++) {
		const struct shadow_mm *m = vslab_get(&e->v->mms, i);

		if (m && m->used && m->root_gpa == e->pml4[k])
			return m->root;
	}
	return SPT_NONE;
}

/* An idle shadow evicted by other contexts' use, then used again:
 * rebuilt from the guest's tables, it translates every address as when it
 * was first built, the protection of its tables comes back, and requests
 * on it run (also after a store to its tables once rebuilt). */
static void test_evict_rebuild_same(void **state)
{
	struct env *e = *state;
	uint64_t before[NBATCH_PAGES + 3], after[NBATCH_PAGES + 3];
	uint64_t created, filled;
	uint32_t k;

	assert_int_equal(vgpu_ppgtt_set_budget(e->v, VGPU_SHADOW_PT_KIB_MIN), 0);
	ppgtt_new(e, 7, 2);
	walk(e, 7, before);
	assert_true(before[NBATCH_PAGES] != 0);
	assert_true(before[NBATCH_PAGES + 1] != 0);
	assert_true(fake_hv_is_wp(&e->mw.hv, VM, e->pml4[7]));
	/* Other contexts run until PPGTT 7, idle, is evicted. */
	for (k = 20; k < 60 && root_of(e, 7) != SPT_NONE; k++) {
		ppgtt_new(e, k, 0);
		run_one(e, GEN9_BCS0, k);
	}
	assert_true(k < 60);
	assert_true(e->v->stats.mm_evicted >= 1);
	assert_false(fake_hv_is_wp(&e->mw.hv, VM, e->pml4[7]));
	/* Room without evicting, so the counters below are the rebuild's. */
	while (k-- > 20)
		ppgtt_destroy(e, k);
	created = e->v->stats.spt_created;
	filled = e->v->stats.spt_entries_filled;
	walk(e, 7, after);
	assert_memory_equal(before, after, sizeof(before));
	assert_int_equal(e->v->stats.mm_rebuilt_evicted, 1);
	/* PML4, PDP, two PDs, three page tables */
	assert_int_equal(e->v->stats.spt_created - created, 7);
	assert_int_equal(e->v->stats.spt_entries_filled - filled, 7 * 512);
	print_message("rebuild of an evicted PPGTT: %llu tables, %llu entries\n",
		      (unsigned long long)(e->v->stats.spt_created - created),
		      (unsigned long long)(e->v->stats.spt_entries_filled - filled));
	assert_true(fake_hv_is_wp(&e->mw.hv, VM, e->pml4[7]));
	run_one(e, GEN9_RCS0, 7);
	/* Remapping DATA_VA after the rebuild reaches the shadow (trap). */
	e->g.pml4_gpa = e->pml4[7];
	gi_ppgtt_map(&e->g, DATA_VA, e->data_gpa[9], 1);
	gi_write32(&e->g, e->data_gpa[9], 0);
	emit_request(e, GEN9_RCS0, 0, 7);
	gi_submit(&e->g, e->ctx[GEN9_RCS0][0], -1);
	assert_int_equal(gi_wait_idle(&e->g, GEN9_RCS0, 50), 0);
	assert_int_equal(gi_read32(&e->g, e->data_gpa[9]), 7);
	no_failure(e);
	ppgtt_destroy(e, 7);
	assert_int_equal(e->v->pt_pages, e->start_pages);
}

/* A shadow is in use by work in flight: the budget cannot take it, only
 * idle ones. With every other shadow held by queued requests, the pair
 * that needs one more waits (no failure, nothing run), and runs once the
 * held ones complete. */
static void test_all_held_waits(void **state)
{
	struct env *e = *state;
	uint32_t pages1, r, meta, budget, k, slot;
	uint32_t deferred = (uint32_t)e->v->stats.elsp_deferred;

	/* The shadow cost of one of these PPGTTs and of the slabs' chunks. */
	ppgtt_new(e, 0, 2);
	pages1 = e->v->pt_pages;
	ppgtt_new(e, 1, 2);
	r = e->v->pt_pages - pages1;
	meta = pages1 - r;
	for (k = 2; k < 8; k++)
		ppgtt_new(e, k, 2);
	assert_int_equal(e->v->pt_pages, meta + 8 * r);
	/* Room for seven, not eight. */
	budget = meta + 8 * r - 1;
	assert_true(budget * 4 >= VGPU_SHADOW_PT_KIB_MIN);
	assert_int_equal(vgpu_ppgtt_set_budget(e->v, budget * 4), 0);
	assert_int_equal(e->v->mm_shadowed, 7);
	/* Pairs on RCS, BCS, VCS: six requests queued, none run yet. */
	for (k = 0, slot = 0; slot < 3; slot++)
		for (r = 0; r < 2; r++, k++) {
			gi_write32(&e->g, e->data_gpa[k], 0);
			emit_request(e, engines[slot], (int)r, k);
		}
	for (slot = 0; slot < 3; slot++)
		gi_submit(&e->g, e->ctx[engines[slot]][0], e->ctx[engines[slot]][1]);
	gi_write32(&e->g, e->data_gpa[6], 0);
	gi_write32(&e->g, e->data_gpa[7], 0);
	emit_request(e, GEN9_VECS0, 0, 6);
	emit_request(e, GEN9_VECS0, 1, 7);
	/* Six held, the seventh fits by evicting the idle one, the eighth
	 * cannot: the VECS pair waits whole. */
	gi_submit(&e->g, e->ctx[GEN9_VECS0][0], e->ctx[GEN9_VECS0][1]);
	assert_false(vgpu_failed(e->v));
	assert_int_equal(e->v->stats.elsp_deferred, deferred + 1);
	assert_true(e->v->stats.mm_waits >= 1);
	assert_int_equal(e->v->eng[GEN9_VECS0].wl_count, 0);
	assert_true(e->v->pt_pages <= e->v->pt_budget);
	/* The GPU runs the held work; the waiting pair follows. */
	for (k = 0; k < 3; k++)
		assert_int_equal(gi_wait_idle(&e->g, engines[k], 50), 0);
	assert_int_equal(gi_wait_idle(&e->g, GEN9_VECS0, 50), 0);
	for (k = 0; k < 8; k++)
		assert_int_equal(data_of(e, k), k);
	no_failure(e);
	for (k = 0; k < 8; k++)
		ppgtt_destroy(e, k);
	assert_int_equal(e->v->pt_pages, e->start_pages);
}

/* One PPGTT bigger than the whole (minimum) budget: its request fails as
 * after a hang (the ring up to its batch ran), nothing else does, and the
 * other contexts go on. */
static void test_single_over_budget(void **state)
{
	struct env *e = *state;
	uint32_t done;

	assert_int_equal(vgpu_ppgtt_set_budget(e->v, VGPU_SHADOW_PT_KIB_MIN), 0);
	ppgtt_new(e, 0, 0);
	ppgtt_new(e, 1, 80); /* 80 page tables and more: over 64 pages */
	run_one(e, GEN9_RCS0, 0);
	gi_write32(&e->g, e->data_gpa[1], 0xdeadbeefu);
	done = e->g.eng[GEN9_RCS0].completes;
	emit_request(e, GEN9_RCS0, 0, 1);
	gi_submit(&e->g, e->ctx[GEN9_RCS0][0], -1);
	gi_service(&e->g);
	gi_service(&e->g);
	assert_false(vgpu_failed(e->v));
	assert_int_equal(e->v->stats.user_faults, 1);
	assert_int_equal(e->v->stats.mm_over_budget, 1);
	assert_int_equal(e->v->stats.faults, 0);
	assert_int_equal(gi_read32(&e->g, e->data_gpa[1]), 0xdeadbeefu);
	assert_true(e->v->pt_peak <= e->v->pt_budget);
	(void)done;
	/* i915 resets the engine (clears the virtual execlist) and goes on:
	 * the next request on another engine runs. */
	run_one(e, GEN9_BCS0, 0);
	assert_false(vgpu_failed(e->v));
	ppgtt_destroy(e, 0);
	ppgtt_destroy(e, 1);
	assert_int_equal(e->v->pt_pages, e->start_pages);
}

/* gem_exec_parallel@engines / gem_ctx_create@basic-files in shape: fresh
 * contexts on every engine at once (a pair per engine, eight requests in
 * flight), each PPGTT destroyed right after its submission - while its
 * request is still queued, which must keep its shadow until it ran - over
 * and over, 4,096 contexts in all. */
static void test_exec_parallel_shape(void **state)
{
	struct env *e = *state;
	uint32_t k = 0, n, i;

	while (k < NCTX) {
		for (n = 0; n < NR_ENG; n++)
			for (i = 0; i < 2; i++) {
				ppgtt_new(e, k + 2 * n + i, 0);
				gi_write32(&e->g, e->data_gpa[(k + 2 * n + i) % NDATA], 0);
				emit_request(e, engines[n], (int)i, k + 2 * n + i);
			}
		for (n = 0; n < NR_ENG; n++)
			gi_submit(&e->g, e->ctx[engines[n]][0], e->ctx[engines[n]][1]);
		for (n = 0; n < 2 * NR_ENG; n++)
			ppgtt_destroy(e, k + n);
		for (n = 0; n < NR_ENG; n++)
			assert_int_equal(gi_wait_idle(&e->g, engines[n], 50), 0);
		for (n = 0; n < 2 * NR_ENG; n++)
			assert_int_equal(data_of(e, k + n), k + n);
		k += 2 * NR_ENG;
	}
	no_failure(e);
	assert_true(e->v->stats.mm_destroy_busy >= NCTX / 2);
	assert_int_equal(e->v->mms.used, 0);
	assert_int_equal(e->v->spt_count, 0);
	assert_int_equal(e->v->pt_pages, e->start_pages);
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, VM), 0);
}

/* Bad and boundary budgets: refused without a change. */
static void test_budget_values(void **state)
{
	struct env *e = *state;
	uint32_t b = e->v->pt_budget;

	assert_int_equal(vgpu_ppgtt_set_budget(e->v, VGPU_SHADOW_PT_KIB_MIN - 4),
			 -GPU_EINVAL);
	assert_int_equal(vgpu_ppgtt_set_budget(e->v, VGPU_SHADOW_PT_KIB_MAX + 4),
			 -GPU_EINVAL);
	assert_int_equal(e->v->pt_budget, b);
	assert_int_equal(vgpu_ppgtt_set_budget(e->v, VGPU_SHADOW_PT_KIB_MAX), 0);
	assert_int_equal(e->v->pt_budget, VGPU_SHADOW_PT_KIB_MAX / 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_evict_rebuild_same, setup, teardown),
		cmocka_unit_test_setup_teardown(test_all_held_waits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_over_budget, setup, teardown),
		cmocka_unit_test_setup_teardown(test_budget_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_context_storm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_exec_parallel_shape, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
