/* End to end on the software Gen9 model (gpu/model/): 1, 3 and 8 vGPUs,
 * each driven by the i915-like guest (guest_i915.c) through PVINFO,
 * ballooning, GGTT writes, a 4-level PPGTT built with trapped CPU stores,
 * and execlist submissions on RCS, BCS, VCS and VECS. Every batch stores
 * values through the PPGTT and every request a seqno through the GGTT;
 * the model really executes them through the mediator's shadow context,
 * shadow ring and shadow page tables. Afterwards every value must be in
 * the right guest page and nowhere else in any VM's memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/hw/gen9_cmds.h"
#include "gpu/hw/pgpu.h"
#include "gpu/model/gen9_model.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define MAX_V 16
#define ROUNDS 3
#define VM_RAM (8 * MiB)
#define DATA_VA 0x7f0000000000ull
#define BATCH_VA 0x7e0000000000ull

static const struct vgpu_type e2e_type = { "e2e", 16 * MiB, 64 * MiB, 2, 1 };
/* Mode of the next scenario: gVirt partitioning with e2e_type, or gScale
 * sharing (the GVT type, which gVirt fits only twice). */
static bool gscale_mode;
static const struct vgpu_type *vtype = &e2e_type;
static const int engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VECS0 };
#define NENG 4

struct world {
	struct model_world mw;
	struct pgpu pgpu;
	int n;
	struct vgpu *v[MAX_V];
	struct guest_i915 g[MAX_V];
	int ctx[MAX_V][NENG];
	uint32_t seq_gm[MAX_V];
	uint64_t seq_gpa[MAX_V], data_gpa[MAX_V], batch_gpa[MAX_V];
};

static uint32_t magic(int vg, int eng, int round, int which)
{
	return 0xc0000000u | (uint32_t)vg << 16 | (uint32_t)eng << 12 |
	       (uint32_t)round << 4 | (uint32_t)which;
}

static void world_init_p(struct world *w, int n, bool use_pgpu)
{
	struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { NULL, gscale_mode ? &gscale_on : NULL } };
	struct mw_config c = { .pool_mib = 40 + 8 * n, .ram_mib = 8 * n,
			       .pgpu = use_pgpu ? &w->pgpu : NULL,
			       .params = &p };
	int i;

	memset(w, 0, sizeof(*w));
	w->n = n;
	assert_int_equal(mw_init(&w->mw, &c), 0);
	for (i = 0; i < n; i++)
		assert_int_equal(mw_add_vgpu(&w->mw, vtype, i + 1, VM_RAM,
					     &w->v[i]), 0);
}

static void world_init(struct world *w, int n)
{
	world_init_p(w, n, false);
}

static void world_fini(struct world *w)
{
	mw_stop(&w->mw);
	assert_int_equal(w->mw.hv.pages_in_use, 0);
	mw_fini(&w->mw);
}

static void guest_setup(struct world *w, int i)
{
	struct guest_i915 *g = &w->g[i];
	int k;

	assert_int_equal(gi_probe(g, &w->mw.hv, w->v[i], i + 1, w->mw.gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = &w->mw;
	g->half_ggtt_writes = i & 1; /* odd guests write PTE halves */
	assert_int_equal(gi_ppgtt_create(g), 0);
	for (k = 0; k < NENG; k++) {
		assert_int_equal(gi_engine_init(g, engines[k]), 0);
		w->ctx[i][k] = gi_ctx_create(g, engines[k]);
		assert_true(w->ctx[i][k] >= 0);
	}
	w->seq_gpa[i] = gi_alloc_pages(g, 1);
	w->seq_gm[i] = gi_gm_alloc(g, 4096, true);
	gi_ggtt_bind(g, w->seq_gm[i], w->seq_gpa[i], 1);
	w->data_gpa[i] = gi_alloc_pages(g, 1);
	gi_ppgtt_map(g, DATA_VA, w->data_gpa[i], 1);
	w->batch_gpa[i] = gi_alloc_pages(g, NENG * ROUNDS);
	gi_ppgtt_map(g, BATCH_VA, w->batch_gpa[i], NENG * ROUNDS);
}

/* Batch: store one dword through the PPGTT, end. */
static void write_batch(struct world *w, int i, int k, int r)
{
	uint64_t page = w->batch_gpa[i] + 4096ull * (k * ROUNDS + r);
	uint64_t dst = DATA_VA + 4ull * (k * ROUNDS + r);
	uint32_t bb[6] = {
		MI_STORE_DWORD_IMM_GEN4, (uint32_t)dst, (uint32_t)(dst >> 32),
		magic(i, k, r, 1), MI_BATCH_BUFFER_END, MI_NOOP,
	};

	fake_hv_guest_write(&w->mw.hv, i + 1, page, bb, sizeof(bb));
}

static void submit_round(struct world *w, int i, int r)
{
	struct guest_i915 *g = &w->g[i];
	int k;

	for (k = 0; k < NENG; k++) {
		int c = w->ctx[i][k];

		write_batch(w, i, k, r);
		gi_emit_bb_start(g, c, BATCH_VA + 4096ull * (k * ROUNDS + r), true);
		gi_emit_breadcrumb(g, c, w->seq_gm[i] + 8 * (k * ROUNDS + r),
				   magic(i, k, r, 2));
		gi_submit(g, c, -1);
	}
}

static bool all_done(struct world *w)
{
	int i, k;

	for (i = 0; i < w->n; i++)
		for (k = 0; k < NENG; k++)
			if (!vgpu_failed(w->v[i]) && w->g[i].eng[engines[k]].active)
				return false;
	return gvt_idle(w->mw.gvt);
}

static void run(struct world *w)
{
	int it, i;

	for (it = 0; it < 20000; it++) {
		for (i = 0; i < w->n; i++)
			gi_service(&w->g[i]);
		w->mw.hv.now += 100000; /* 0.1 ms per pass: slices do expire */
		if (all_done(w))
			return;
	}
	fail_msg("GPU work did not finish");
}

static bool in_a_ring(struct guest_i915 *g, uint64_t a)
{
	int c;

	for (c = 0; c < GI_MAX_CTX; c++)
		if (g->ctx[c].used && a >= g->ctx[c].ring_gpa &&
		    a < g->ctx[c].ring_gpa + GI_RING_SIZE)
			return true;
	return false;
}

/* Where magic(i,k,r,which) must be, and only there. */
static void check_memory(struct world *w)
{
	int vm, i, k, r;
	uint64_t a;

	for (i = 0; i < w->n; i++)
		for (k = 0; k < NENG; k++)
			for (r = 0; r < ROUNDS; r++) {
				int slot = k * ROUNDS + r;

				assert_int_equal(gi_read32(&w->g[i], w->data_gpa[i] + 4 * slot),
						 magic(i, k, r, 1));
				assert_int_equal(gi_read32(&w->g[i], w->seq_gpa[i] + 8 * slot),
						 magic(i, k, r, 2));
			}
	/* Nowhere else: scan all RAM of all VMs. */
	for (vm = 1; vm <= w->n; vm++)
		for (a = 0; a < VM_RAM; a += 4) {
			uint32_t x = gi_read32(&w->g[vm - 1], a);
			int who, kind;

			if ((x & 0xf0000000u) != 0xc0000000u)
				continue;
			who = (int)(x >> 16 & 0xfff);
			kind = (int)(x & 0xf);
			if (who >= w->n || (kind != 1 && kind != 2))
				continue;
			/* Batches hold the value as an immediate: allowed there. */
			if (a >= w->batch_gpa[vm - 1] &&
			    a < w->batch_gpa[vm - 1] + 4096ull * NENG * ROUNDS)
				continue;
			/* Rings carry the breadcrumb immediates. */
			if (in_a_ring(&w->g[vm - 1], a))
				continue;
			assert_int_equal(who, vm - 1);
			if (kind == 1)
				assert_true(a >= w->data_gpa[vm - 1] &&
					    a < w->data_gpa[vm - 1] + 4096);
			else
				assert_true(a >= w->seq_gpa[vm - 1] &&
					    a < w->seq_gpa[vm - 1] + 4096);
		}
}

static void check_clean(struct world *w)
{
	int i;

	for (i = 0; i < w->n; i++) {
		const struct vgpu_stats *s = vgpu_get_stats(w->v[i]);

		assert_false(vgpu_failed(w->v[i]));
		assert_int_equal(s->workloads_rejected, 0);
		assert_int_equal(s->workloads_failed, 0);
		assert_int_equal(s->workloads_done, NENG * ROUNDS);
		assert_int_equal(s->ggtt_invalid, 0);
		assert_true(w->g[i].irqs_handled > 0);
		assert_true(w->g[i].iir_seen[0] & GT_RENDER_USER_INTERRUPT);
	}
}

static uint64_t hw_fence(struct world *w, uint32_t p)
{
	return (uint64_t)gpu_hw_read32(&w->mw.hw, FENCE_REG_GEN6_HI(p)) << 32 |
	       gpu_hw_read32(&w->mw.hw, FENCE_REG_GEN6_LO(p));
}

static void guest_fence(struct world *w, int i, uint64_t f)
{
	gi_mmio_write(&w->g[i], FENCE_REG_GEN6_LO(0), 0, 4);
	gi_mmio_write(&w->g[i], FENCE_REG_GEN6_HI(0), f >> 32, 4);
	gi_mmio_write(&w->g[i], FENCE_REG_GEN6_LO(0), (uint32_t)f, 4);
}

static uint64_t fence_over(uint64_t gm, uint64_t pages)
{
	return (gm & GEN6_FENCE_START_MASK) |
	       ((gm + (pages - 1) * 4096) << 32 & GEN6_FENCE_END_MASK) |
	       0x3f0ull /* pitch, tiling: format bits the pool must keep */ |
	       3ull << GEN6_FENCE_PITCH_SHIFT /* 512: whole X tiles */ |
	       I965_FENCE_REG_VALID;
}

/* gScale shares the physical fences: a vGPU's fence reaches the hardware
 * only while it owns the GPU, and its switch brings its set back. A fence
 * over CPU-visible GM moves into the fence memory pool (the ladder mapping
 * bypasses the GGTT, so only the pool can be detiled): the hardware fence
 * names the pool with the guest's format bits, the pool's GGTT entries are
 * the vGPU's, and clearing the fence frees the pool again. */
static void check_gscale_fences(struct world *w)
{
	struct vgpu *a = w->v[0], *b = w->v[1];
	const uint64_t mask = GEN6_FENCE_START_MASK | GEN6_FENCE_END_MASK;
	uint64_t fa = fence_over(a->low_base, 16), hw, pool;

	assert_int_equal(a->fence_base, b->fence_base);
	gvt_gscale_switch(w->mw.gvt, b, NULL);
	w->mw.gvt->owner = b;
	guest_fence(w, 0, fa);
	assert_true(hw_fence(w, a->fence_base) != fa); /* b's fence is live */
	gvt_gscale_switch(w->mw.gvt, a, NULL);
	w->mw.gvt->owner = a;
	hw = hw_fence(w, a->fence_base);
	assert_int_equal(hw & ~mask, fa & ~mask);
	pool = hw & GEN6_FENCE_START_MASK;
	assert_true(pool >= gscale_gvt_of(w->mw.gvt)->fence_pool.base &&
		    pool + 16 * 4096 <= gscale_gvt_of(w->mw.gvt)->fence_pool.base +
					gscale_gvt_of(w->mw.gvt)->fence_pool.size);
	assert_int_equal((hw & GEN6_FENCE_END_MASK) >> 32, pool + 15 * 4096);
	for (uint32_t x = 0; x < 16; x++)
		assert_int_equal(gpu_hw_ggtt_read(&w->mw.hw, (uint32_t)(pool >> 12) + x),
				 gscale_shadow_read(gvt_gscale(w->mw.gvt), a->gs_id,
						    (uint32_t)(a->low_base >> 12) + x));
	assert_int_equal(vgpu_get_stats(a)->fence_pool_maps, 1);
	assert_int_equal(gscale_gvt_of(w->mw.gvt)->fence_pool.n, 1);

	/* Larger than the pool (32 MiB): refused, counted, nothing else moves. */
	guest_fence(w, 0, fence_over(a->low_base, (48u << 20) / 4096));
	assert_int_equal(vgpu_get_stats(a)->fence_pool_full, 1);
	assert_false(hw_fence(w, a->fence_base) & I965_FENCE_REG_VALID);
	assert_int_equal(gscale_gvt_of(w->mw.gvt)->fence_pool.n, 0);

	guest_fence(w, 0, 0);
	assert_int_equal(gscale_gvt_of(w->mw.gvt)->fence_pool.n, 0);
}

/* gScale: the vGPUs overlap in low GM, so every switch between two of them
 * copied entries in; their aperture pages were ladder-mapped to their own
 * RAM (foreign_maps stays 0, checked by the caller). */
static void check_gscale(struct world *w)
{
	uint64_t copied = 0, ladder = 0;

	for (int i = 0; i < w->n; i++) {
		const struct vgpu_stats *s = vgpu_get_stats(w->v[i]);

		copied += s->gm_entries_copied;
		ladder += s->ladder_updates;
		assert_int_equal(w->v[i]->low_base, w->v[0]->low_base);
	}
	if (getenv("VGPU_E2E_STATS"))
		printf("gscale: %llu entries copied at switches, %llu ladder "
		       "updates\n", (unsigned long long)copied,
		       (unsigned long long)ladder);
	assert_true(copied >= (uint64_t)w->n * (vtype->low_gm_size >> 12));
	assert_true(ladder > 0);
	check_gscale_fences(w);
}

static void scenario_p(int n, bool use_pgpu)
{
	struct world *w = calloc(1, sizeof(*w));
	int i, r;

	world_init_p(w, n, use_pgpu);
	for (i = 0; i < n; i++)
		guest_setup(w, i);
	for (r = 0; r < ROUNDS; r++) {
		for (i = 0; i < n; i++)
			submit_round(w, i, r);
		run(w);
	}
	check_memory(w);
	check_clean(w);
	assert_int_equal(w->mw.hv.foreign_maps, 0);
	if (gscale_mode)
		check_gscale(w);
	if (use_pgpu)
		assert_int_equal(w->pgpu.engine[GEN9_RCS0].submits, n * ROUNDS);
	if (getenv("VGPU_E2E_STATS"))
		for (i = 0; i < n; i++) {
			const struct vgpu_stats *s = vgpu_get_stats(w->v[i]);

			printf("vgpu%d: workloads %llu cmds %llu traps %llu ggtt %llu switches %llu csb %llu\n",
			       i + 1, (unsigned long long)s->workloads_done,
			       (unsigned long long)s->cmds_scanned,
			       (unsigned long long)s->pte_traps,
			       (unsigned long long)s->ggtt_writes,
			       (unsigned long long)s->vgpu_switches,
			       (unsigned long long)s->csb_events);
		}
	world_fini(w);
	free(w);
}

/* vGPU 2 of 3 misbehaves in every way a guest can through its own
 * interfaces; vGPUs 1 and 3 finish their work with every value where it
 * belongs, and vGPU 2 only fails itself. */
static void test_attacker_isolated(void **state)
{
	struct world *w = calloc(1, sizeof(*w));
	struct guest_i915 *a;
	uint64_t victim_seq_pte, hole = VM_RAM + 0x10000;
	uint32_t evil[4];
	int i, r, c;

	(void)state;
	world_init(w, 3);
	for (i = 0; i < 3; i++)
		guest_setup(w, i);
	a = &w->g[1];
	for (i = 0; i < 3; i++)
		if (i != 1)
			submit_round(w, i, 0);
	/* GGTT: a page outside its RAM, then the victim's seqno slot. */
	victim_seq_pte = w->mw.ggtt[w->seq_gm[0] >> 12];
	gi_mmio_write(a, 0x800000 + (w->seq_gm[1] >> 12) * 8, hole | 1, 8);
	gi_mmio_write(a, 0x800000 + (w->seq_gm[0] >> 12) * 8,
		      w->seq_gpa[1] | 1, 8);
	assert_true(w->mw.ggtt[w->seq_gm[0] >> 12] == victim_seq_pte);
	assert_true(vgpu_get_stats(w->v[1])->ggtt_invalid >= 1);
	assert_true(vgpu_get_stats(w->v[1])->ggtt_out_of_range >= 1);
	/* PPGTT: its data page remapped past its RAM, then a batch
	 * writing there runs into a not-present shadow entry. */
	gi_ppgtt_map(a, DATA_VA, hole, 1);
	submit_round(w, 1, 0);
	run(w);
	assert_true(vgpu_failed(w->v[1]));
	assert_true(w->mw.gvt->pe[GEN9_RCS0].resets + w->mw.gvt->pe[GEN9_BCS0].resets +
		    w->mw.gvt->pe[GEN9_VCS0].resets + w->mw.gvt->pe[GEN9_VECS0].resets >= 1);
	/* Recover (GDRST) and try a GGTT store into the victim's page. */
	gi_mmio_write(a, GEN6_GDRST, GEN6_GRDOM_FULL, 4);
	assert_false(vgpu_failed(w->v[1]));
	c = w->ctx[1][0];
	evil[0] = MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT;
	evil[1] = w->seq_gm[0];
	evil[2] = 0;
	evil[3] = 0xbadbad;
	a->ctx[c].tail = gi_read32(a, a->ctx[c].lrca_gpa + 4096 + CTX_RING_TAIL * 4);
	gi_ring_emit(a, c, evil, 4);
	gi_submit(a, c, -1);
	assert_true(vgpu_failed(w->v[1]));
	for (r = 1; r < ROUNDS; r++) {
		submit_round(w, 0, r);
		submit_round(w, 2, r);
		run(w);
	}
	for (i = 0; i < 3; i += 2) {
		int k;

		assert_false(vgpu_failed(w->v[i]));
		assert_int_equal(vgpu_get_stats(w->v[i])->workloads_done, NENG * ROUNDS);
		for (k = 0; k < NENG; k++)
			for (r = 0; r < ROUNDS; r++) {
				assert_int_equal(gi_read32(&w->g[i], w->seq_gpa[i] + 8 * (k * ROUNDS + r)),
						 magic(i, k, r, 2));
				assert_int_equal(gi_read32(&w->g[i], w->data_gpa[i] + 4 * (k * ROUNDS + r)),
						 magic(i, k, r, 1));
			}
	}
	world_fini(w);
	free(w);
}

static void scenario(int n)
{
	scenario_p(n, false);
}

/* The same with the engines driven through the pGPU driver. */
static void test_three_vgpus_pgpu(void **state)
{
	(void)state;
	scenario_p(3, true);
}

static void test_one_vgpu(void **state)
{
	(void)state;
	scenario(1);
}

static void test_three_vgpus(void **state)
{
	(void)state;
	scenario(3);
}

static void test_eight_vgpus(void **state)
{
	(void)state;
	scenario(8);
}

/* Sixteen vGPUs of GVT's 64 MiB / 384 MiB type: gVirt's partition fits two
 * (aperture) and its fences seven; with gScale's shared GM and switched
 * fences all sixteen run side by side and every seqno still lands in its
 * own guest's page only. */
static void test_gscale_sixteen_gvt_vgpus(void **state)
{
	(void)state;
	gscale_mode = true;
	vtype = &vgpu_type_v5_8;
	scenario(16);
	gscale_mode = false;
	vtype = &e2e_type;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_vgpu),
		cmocka_unit_test(test_three_vgpus),
		cmocka_unit_test(test_eight_vgpus),
		cmocka_unit_test(test_attacker_isolated),
		cmocka_unit_test(test_three_vgpus_pgpu),
		cmocka_unit_test(test_gscale_sixteen_gvt_vgpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
