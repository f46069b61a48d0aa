/* gHyvi end to end on the software Gen9 model: the guest remaps a PPGTT
 * page between submissions with stores that (mostly) do not trap because
 * the page table is relaxed; the model must run each batch through the
 * reconstructed shadow, so every store lands in the page the guest mapped
 * at submission time and nowhere else. Every policy, verifier on;
 * ADAPTIVE also with unit costs under which every relax pays. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/model/gen9_model.h"
#include "gpu/ghyvi/ghyvi.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define VM_RAM (8 * MiB)
#define DATA_VA 0x7f0000000000ull
#define BATCH_VA 0x7e0000000000ull
#define NPAGES 8
#define ROUNDS 12

static const struct vgpu_type e2e_type = { "e2e", 16 * MiB, 64 * MiB, 2, 1 };

struct world {
	struct model_world mw;
	struct vgpu *v;
	struct guest_i915 g;
	int ctx;
	uint64_t data[NPAGES], batch;
};

static void world_init(struct world *w, enum vgpu_ppgtt_policy pol)
{
	/* As the hypervisor does: gHyvi attached, the VM's policy set on the
	 * new vGPU before it runs (hv/gpu/gpu_host.c set_ppgtt). */
	struct gvt_params p = { .ext = { &ghyvi_ext_ops } };
	struct mw_config c = { .pool_mib = 48, .ram_mib = 8, .params = &p };
	struct vgpu_ghyvi_params gp = { 0 };
	int i;

	memset(w, 0, sizeof(*w));
	assert_int_equal(mw_init(&w->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&w->mw, &e2e_type, 1, VM_RAM, &w->v), 0);
	vgpu_ghyvi_get(w->v, &gp);
	assert_int_equal(gp.policy, VGPU_PPGTT_STRICT);
	gp.policy = pol;
	gp.relax_traps = 1;
	gp.cool_rounds = 2;
	gp.static_pages = 4;
	gp.verify = true;
	assert_int_equal(vgpu_ghyvi_set(w->v, &gp), 0);
	assert_int_equal(gi_probe(&w->g, &w->mw.hv, w->v, 1, w->mw.gvt), 0);
	w->g.poll = mw_poll;
	w->g.poll_arg = &w->mw;
	assert_int_equal(gi_ppgtt_create(&w->g), 0);
	assert_int_equal(gi_engine_init(&w->g, GEN9_RCS0), 0);
	w->ctx = gi_ctx_create(&w->g, GEN9_RCS0);
	assert_true(w->ctx >= 0);
	for (i = 0; i < NPAGES; i++)
		w->data[i] = gi_alloc_pages(&w->g, 1);
	w->batch = gi_alloc_pages(&w->g, ROUNDS);
	gi_ppgtt_map(&w->g, DATA_VA, w->data[0], 1);
	gi_ppgtt_map(&w->g, BATCH_VA, w->batch, ROUNDS);
}

static void world_fini(struct world *w)
{
	mw_stop(&w->mw);
	assert_int_equal(w->mw.hv.pages_in_use, 0);
	assert_int_equal(fake_hv_nr_wp(&w->mw.hv, 1), 0);
	mw_fini(&w->mw);
}

static void run(struct world *w)
{
	int it;

	for (it = 0; it < 20000; it++) {
		gi_service(&w->g);
		w->mw.hv.now += 100000;
		if (!w->g.eng[GEN9_RCS0].active && gvt_idle(w->mw.gvt))
			return;
	}
	fail_msg("GPU work did not finish");
}

/* Guest PTE of DATA_VA. */
static uint64_t data_pte_gpa(struct world *w)
{
	uint64_t t = w->g.pml4_gpa, ent;
	int l;

	for (l = 4; l > 1; l--) {
		fake_hv_guest_read(&w->mw.hv, 1, t + 8 * ((DATA_VA >> (12 + 9 * (l - 1))) & 511), &ent, 8);
		t = ent & GEN8_PTE_ADDR_MASK;
	}
	return t + 8 * ((DATA_VA >> 12) & 511);
}

/* cheap: ADAPTIVE with unit costs under which relaxing always pays (its
 * relaxed path on the model); else the default costs. */
static void scenario_costs(enum vgpu_ppgtt_policy pol, bool cheap)
{
	struct world *w = calloc(1, sizeof(*w));
	uint64_t pte, relaxed_setup = 0;
	int r, i, k;

	world_init(w, pol);
	if (cheap) {
		struct vgpu_ghyvi_params gp;

		vgpu_ghyvi_get(w->v, &gp);
		gp.cost = (struct vgpu_ghyvi_costs){ 1000, 1, 1, 1, 1 };
		assert_int_equal(vgpu_ghyvi_set(w->v, &gp), 0);
	}
	if (pol == VGPU_PPGTT_STATIC)
		assert_int_equal(vgpu_ghyvi_pin(w->v, data_pte_gpa(w) & ~0xfffull), 0);
	pte = data_pte_gpa(w);
	for (r = 0; r < ROUNDS; r++) {
		if (r == 1)
			relaxed_setup = w->v->stats.pte_relaxed;
		uint64_t page = w->batch + 4096ull * r;
		uint32_t bb[6] = {
			MI_STORE_DWORD_IMM_GEN4, (uint32_t)(DATA_VA + 4 * r),
			(uint32_t)((DATA_VA + 4 * r) >> 32), 0xabc00000u | (uint32_t)r,
			MI_BATCH_BUFFER_END, MI_NOOP,
		};
		uint64_t tgt = w->data[r % NPAGES];

		/* Several stores to the PTE page: a detour, then the target. */
		for (k = 0; k < 3; k++) {
			uint64_t val = (k < 2 ? w->data[(r + 3 + k) % NPAGES] : tgt) | 3;

			fake_hv_guest_store(&w->mw.hv, 1, pte, &val, 8);
		}
		fake_hv_guest_write(&w->mw.hv, 1, page, bb, sizeof(bb));
		gi_emit_bb_start(&w->g, w->ctx, BATCH_VA + 4096ull * r, true);
		gi_submit(&w->g, w->ctx, -1);
		run(w);
		assert_false(vgpu_failed(w->v));
	}
	/* Each value in the page mapped when its batch was submitted. */
	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < NPAGES; i++) {
			uint32_t x = gi_read32(&w->g, w->data[i] + 4 * r);

			if (i == r % NPAGES)
				assert_int_equal(x, 0xabc00000u | (uint32_t)r);
			else
				assert_int_equal(x, 0);
		}
	assert_int_equal(w->v->stats.verify_mismatch, 0);
	assert_true(w->v->stats.verify_runs >= ROUNDS);
	if (pol != VGPU_PPGTT_STRICT &&
	    (pol != VGPU_PPGTT_ADAPTIVE || cheap)) {
		assert_true(w->v->stats.recon_runs >= 1);
		/* Fewer traps than stores: relaxed stores did not trap. */
		assert_true(w->v->stats.pte_relaxed >= 1);
	}
	/* Three stores a window never pay for a relax at the default costs
	 * (building the tables in the first round may). */
	if (pol == VGPU_PPGTT_ADAPTIVE && !cheap)
		assert_int_equal(w->v->stats.pte_relaxed, relaxed_setup);
	world_fini(w);
	free(w);
}

static void scenario(enum vgpu_ppgtt_policy pol)
{
	scenario_costs(pol, false);
}

static void test_strict(void **s) { (void)s; scenario(VGPU_PPGTT_STRICT); }
static void test_full(void **s) { (void)s; scenario(VGPU_PPGTT_FULL); }
static void test_static(void **s) { (void)s; scenario(VGPU_PPGTT_STATIC); }
static void test_dynamic(void **s) { (void)s; scenario(VGPU_PPGTT_DYNAMIC); }
static void test_segmented(void **s) { (void)s; scenario(VGPU_PPGTT_DYNAMIC_SEGMENTED); }
static void test_adaptive(void **s) { (void)s; scenario(VGPU_PPGTT_ADAPTIVE); }
static void test_adaptive_cheap(void **s) { (void)s; scenario_costs(VGPU_PPGTT_ADAPTIVE, true); }

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strict),
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_static),
		cmocka_unit_test(test_dynamic),
		cmocka_unit_test(test_segmented),
		cmocka_unit_test(test_adaptive),
		cmocka_unit_test(test_adaptive_cheap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
