/* gScale in the mediator (gscale_settings.on), end to end over the Gen9
 * model, driven by synthetic guests through their real trap paths (config
 * space, BAR0 GGTT writes, fence registers) and a hypervisor that records
 * the EPT (tests/world/model_world.c as tools/eval/gscale builds it):
 *  - 64 GVTg_V5_8 vGPUs (gVirt fits 2) on a 4 GiB GGTT / 256 MiB aperture,
 *    each seeing its own pages through the GGTT when resident and through
 *    its ladder-mapped aperture always;
 *  - on-demand copying with ownership and slot sharing, in counts;
 *  - two vGPUs overlapping in one slot: each sees only its own data through
 *    the GPU's GGTT and through the aperture, whoever owns the GPU;
 *  - the fence memory space pool; bad input from a guest. */
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
#include "gpu/model/gen9_model.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tests/world/evguest.h"

#define MiB (1ull << 20)
#define NV 64

struct world {
	struct model_world mw;
	int n;
	struct vgpu *v[NV + 1];
	struct evguest g[NV + 1];
};

static struct world *W;

/* gScale on with settings set (NULL: its defaults). */
static void world_init_set(int n, const struct gvt_params *p0,
			   const struct gscale_settings *set)
{
	struct gvt_params p = *p0;
	struct world *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	W = w;
	w->n = n;
	p.ext[0] = &dymgpu_ext_ops; /* as the hypervisor */
	p.ext[1] = &gscale_ext_ops;
	p.ext_params[1] = set ? set : &gscale_on;
	/* VM i: vGPU v[i], guest g[i]. */
	assert_int_equal(evg_world(&w->mw, (struct mw_config){ .params = &p },
				   n, &w->v[1], &w->g[1]), n);
}

static void world_init(int n, const struct gvt_params *p0)
{
	world_init_set(n, p0, NULL);
}

static int teardown(void **state)
{
	(void)state;
	if (!W)
		return 0;
	mw_stop(&W->mw);
	assert_int_equal(W->mw.hv.pages_in_use, 0);
	mw_fini(&W->mw);
	free(W);
	W = NULL;
	return 0;
}

/* What the scheduler's switch_to does for the GPU's state. */
static uint64_t switch_to(int i)
{
	struct vgpu *next = W->v[i];
	uint64_t before = next->stats.gm_entries_copied;

	gvt_mmio_switch(W->mw.gvt, W->mw.gvt->owner, next);
	gvt_gscale_switch(W->mw.gvt, next, NULL);
	W->mw.gvt->owner = next;
	return next->stats.gm_entries_copied - before;
}

static uint64_t hpa_of(int i, uint64_t gpa)
{
	return fake_hv_gpa_to_hpa(&W->mw.hv, (uint32_t)i, gpa);
}

static uint64_t phys_entry(uint64_t gm)
{
	return gen8_pte_addr(gpu_hw_ggtt_read(&W->mw.hw, (uint32_t)(gm >> 12)));
}

/* Every physical GGTT entry of the guest part and every ladder mapping of
 * every VM names that VM's memory (or the pool / nothing). */
static void check_isolation(void)
{
	assert_int_equal(W->mw.hv.foreign_maps, 0);
	for (int i = 1; i <= W->n; i++)
		for (uint64_t off = 0; off < 256 * MiB; off += 4096) {
			uint64_t h = evg_ap_hpa(&W->g[i], off);
			int o = fake_hv_hpa_owner(&W->mw.hv, h); /* -1: none */

			assert_true(o < 0 || o == i);
		}
}

static void test_sixty_four_vgpus(void **state)
{
	struct gvt_params p = { 0 };
	const char *limit = NULL;
	struct vgpu *extra;

	(void)state;
	world_init(NV, &p);
	assert_int_equal(gvt_room_for(W->mw.gvt, &vgpu_type_v5_8, &limit), 0);
	assert_int_equal(vgpu_create(W->mw.gvt, &vgpu_type_v5_8, NV + 1, &extra),
			 -GPU_ENOSPC);
	for (int i = 1; i <= NV; i++) {
		struct evguest *g = &W->g[i];

		assert_int_equal(g->low_base, W->g[1].low_base); /* shared */
		evg_ram_write32(g, 0x1000, 0x1000u + (uint32_t)i);
		evg_ram_write32(g, 0x2000, 0x2000u + (uint32_t)i);
		assert_int_equal(evg_bind(g, g->low_base, 0x1000), 0);
		assert_int_equal(evg_bind(g, g->high_base, 0x2000), 0);
	}
	for (int i = 1; i <= NV; i++) {
		struct evguest *g = &W->g[i];
		uint32_t word;

		switch_to(i);
		/* The GPU's view: the resident vGPU's pages. */
		assert_int_equal(phys_entry(g->low_base), hpa_of(i, 0x1000));
		assert_int_equal(phys_entry(g->high_base), hpa_of(i, 0x2000));
		assert_int_equal(gpu_hw_aperture_rw(&W->mw.hw, g->low_base, &word,
						    4, false), 0);
		assert_int_equal(word, 0x1000u + (uint32_t)i);
	}
	/* The CPU's view through the ladder: always its own, whoever runs. */
	for (int i = 1; i <= NV; i++) {
		uint32_t word = 0;

		assert_int_equal(evg_ap_read(&W->g[i], W->g[i].low_base, &word), 0);
		assert_int_equal(word, 0x1000u + (uint32_t)i);
		assert_true(vgpu_get_stats(W->v[i])->ladder_updates >= 1);
	}
	if (getenv("GSCALE_VGPU_STATS"))
		printf("64 vGPUs: %llu hv pages peak\n",
		       (unsigned long long)W->mw.hv.pages_peak);
	check_isolation();
}

/* Ownership: a vGPU whose chunks are still its own copies nothing; low GM
 * (shared by all) is copied only where someone else's entries differ from
 * its own (here one 2 MiB chunk: both guests bound nothing else); with
 * slot sharing two vGPUs in different slots keep their high GM resident. */
static void test_on_demand_copy_counts(void **state)
{
	struct gvt_params p = { 0 };
	uint64_t low = vgpu_type_v5_8.low_gm_size >> 12;
	uint64_t high = vgpu_type_v5_8.high_gm_size >> 12;
	uint64_t chunk = GSCALE_CHUNK_ENTRIES;

	(void)state;
	world_init(2, &p);
	assert_int_equal(evg_bind(&W->g[1], W->g[1].low_base, 0x1000), 0);
	assert_true(W->g[1].high_base != W->g[2].high_base);
	assert_int_equal(switch_to(1), low + high); /* first time: all */
	assert_int_equal(switch_to(2), chunk + high);
	assert_int_equal(switch_to(1), chunk);      /* high still resident */
	assert_int_equal(switch_to(2), chunk);
	assert_int_equal(switch_to(2), 0);          /* already the owner */
}

static void test_basic_copies_everything(void **state)
{
	struct gvt_params p = { 0 };
	const struct gscale_settings basic = { .on = true, .basic = true };
	uint64_t all = (vgpu_type_v5_8.low_gm_size +
			vgpu_type_v5_8.high_gm_size) >> 12;

	(void)state;
	world_init_set(2, &p, &basic);
	assert_int_equal(W->g[1].high_base, W->g[2].high_base);
	/* Different entries everywhere, so nothing is the same content. */
	for (uint64_t gm = 0; gm < vgpu_type_v5_8.low_gm_size; gm += 4096 * 512)
		for (int i = 1; i <= 2; i++)
			assert_int_equal(evg_bind(&W->g[i], W->g[i].low_base + gm,
						  0x1000 * (uint64_t)i), 0);
	for (uint64_t gm = 0; gm < vgpu_type_v5_8.high_gm_size; gm += 4096 * 512)
		for (int i = 1; i <= 2; i++)
			assert_int_equal(evg_bind(&W->g[i], W->g[i].high_base + gm,
						  0x1000 * (uint64_t)i), 0);
	switch_to(1);
	switch_to(2);
	assert_int_equal(switch_to(1), all);
	assert_int_equal(switch_to(2), all);
}

/* Slot size 2 GiB: one slot, so both vGPUs overlap in low and high GM. */
static void test_two_vgpus_one_slot_each_sees_its_own(void **state)
{
	struct gvt_params p = { 0 };
	const struct gscale_settings one_slot = { .on = true, .slot_mib = 2048 };
	struct evguest *a, *b;
	uint64_t lo, hi;
	uint32_t word;

	(void)state;
	world_init_set(2, &p, &one_slot);
	a = &W->g[1];
	b = &W->g[2];
	assert_int_equal(a->high_base, b->high_base);
	assert_int_equal(a->low_base, b->low_base);
	lo = a->low_base + 5 * 4096;
	hi = a->high_base + 7 * 4096;
	evg_ram_write32(a, 0x3000, 0xaaaa0001);
	evg_ram_write32(b, 0x3000, 0xbbbb0001);
	evg_ram_write32(a, 0x4000, 0xaaaa0002);
	evg_ram_write32(b, 0x4000, 0xbbbb0002);
	/* a binds while b owns the GPU, b while a does. */
	switch_to(2);
	assert_int_equal(evg_bind(a, lo, 0x3000), 0);
	assert_int_equal(evg_bind(a, hi, 0x4000), 0);
	assert_int_equal(phys_entry(hi), 0); /* not a's: shadow only */
	switch_to(1);
	assert_int_equal(evg_bind(b, lo, 0x3000), 0);
	assert_int_equal(evg_bind(b, hi, 0x4000), 0);

	/* GPU: a owns, the GGTT holds a's pages; the GPU's aperture access
	 * through the GGTT reads a's data. */
	assert_int_equal(phys_entry(lo), hpa_of(1, 0x3000));
	assert_int_equal(phys_entry(hi), hpa_of(1, 0x4000));
	assert_int_equal(gpu_hw_aperture_rw(&W->mw.hw, lo, &word, 4, false), 0);
	assert_int_equal(word, 0xaaaa0001);
	/* CPU: b reads and writes its aperture while a owns the GGTT. */
	assert_int_equal(evg_ap_read(b, lo, &word), 0);
	assert_int_equal(word, 0xbbbb0001);
	assert_int_equal(evg_ap_write(b, lo + 8, 0xbbbb00ff), 0);
	assert_int_equal(evg_ram_read32(b, 0x3008), 0xbbbb00ff);
	assert_int_equal(evg_ram_read32(a, 0x3008), 0);

	switch_to(2);
	assert_int_equal(phys_entry(lo), hpa_of(2, 0x3000));
	assert_int_equal(phys_entry(hi), hpa_of(2, 0x4000));
	assert_int_equal(gpu_hw_aperture_rw(&W->mw.hw, lo + 8, &word, 4, false), 0);
	assert_int_equal(word, 0xbbbb00ff);
	assert_int_equal(evg_ap_read(a, lo, &word), 0);
	assert_int_equal(word, 0xaaaa0001);
	/* Rebinding while not resident touches only the shadow and ladder. */
	assert_int_equal(evg_bind(a, lo, 0x5000), 0);
	assert_int_equal(phys_entry(lo), hpa_of(2, 0x3000));
	assert_int_equal(evg_ap_hpa(&W->g[1], lo), hpa_of(1, 0x5000));
	assert_int_equal(gen8_pte_addr(gscale_shadow_read(
				 gvt_gscale(W->mw.gvt), W->v[1]->gs_id, (uint32_t)(lo >> 12))),
			 hpa_of(1, 0x5000));
	switch_to(1);
	assert_int_equal(phys_entry(lo), hpa_of(1, 0x5000));
	check_isolation();
}

/* The fence pool: a fence over a's low GM moves into the pool; a's CPU
 * access to the fenced pages goes to the pool (through the GGTT, where the
 * fence applies) and still reaches a's pages while b owns the GPU. */
static void test_fence_pool(void **state)
{
	struct gvt_params p = { 0 };
	struct evguest *a, *b;
	uint64_t gm, hw_f;
	uint32_t word;

	(void)state;
	world_init(2, &p);
	a = &W->g[1];
	b = &W->g[2];
	gm = a->low_base + 16 * 4096;
	for (uint32_t x = 0; x < 4; x++) {
		evg_ram_write32(a, 0x10000 + x * 4096, 0xa0000000u + x);
		evg_ram_write32(b, 0x10000 + x * 4096, 0xb0000000u + x);
		assert_int_equal(evg_bind(a, gm + x * 4096, 0x10000 + x * 4096), 0);
		assert_int_equal(evg_bind(b, gm + x * 4096, 0x10000 + x * 4096), 0);
	}
	switch_to(2);
	assert_int_equal(evg_fence(a, 0, gm, 4), 0);
	assert_int_equal(vgpu_get_stats(W->v[1])->fence_pool_maps, 1);
	/* a's fenced aperture pages now name the host aperture at the pool. */
	assert_true(evg_ap_hpa(&W->g[1], gm) >= W->mw.hw.info.aperture_base +
							 gscale_gvt_of(W->mw.gvt)->fence_pool.base);
	for (uint32_t x = 0; x < 4; x++) {
		assert_int_equal(evg_ap_read(a, gm + x * 4096, &word), 0);
		assert_int_equal(word, 0xa0000000u + x);
		assert_int_equal(evg_ap_read(b, gm + x * 4096, &word), 0);
		assert_int_equal(word, 0xb0000000u + x);
	}
	/* Switching a in loads the fence naming the pool. */
	switch_to(1);
	hw_f = (uint64_t)gpu_hw_read32(&W->mw.hw, FENCE_REG_GEN6_HI(W->v[1]->fence_base))
		       << 32 |
	       gpu_hw_read32(&W->mw.hw, FENCE_REG_GEN6_LO(W->v[1]->fence_base));
	assert_true(hw_f & I965_FENCE_REG_VALID);
	assert_int_equal(hw_f & GEN6_FENCE_START_MASK,
			 gscale_gvt_of(W->mw.gvt)->fence_pool.base + (evg_ap_hpa(&W->g[1], gm) -
						    W->mw.hw.info.aperture_base -
						    gscale_gvt_of(W->mw.gvt)->fence_pool.base));
	/* Rebinding a fenced page follows into the pool. */
	evg_ram_write32(a, 0x20000, 0xa00000ff);
	assert_int_equal(evg_bind(a, gm, 0x20000), 0);
	switch_to(2);
	assert_int_equal(evg_ap_read(a, gm, &word), 0);
	assert_int_equal(word, 0xa00000ff);
	/* Pool exhaustion: refused for a, counted; b unaffected. */
	assert_int_equal(evg_fence(a, 1, a->low_base, (48u << 20) / 4096), 0);
	assert_int_equal(vgpu_get_stats(W->v[1])->fence_pool_full, 1);
	assert_int_equal(evg_fence(b, 0, gm, 4), 0);
	assert_int_equal(vgpu_get_stats(W->v[2])->fence_pool_maps, 1);
	/* Clearing restores the ladder. */
	assert_int_equal(evg_fence(a, 0, 0, 0), 0);
	assert_int_equal(evg_ap_hpa(&W->g[1], gm), hpa_of(1, 0x20000));
	check_isolation();
}

/* Bad input: defined outcome, counted, others unaffected. */
static void test_bad_input(void **state)
{
	struct gvt_params p = { 0 };
	struct evguest *a, *b;
	const struct vgpu_stats *sa;
	uint64_t before_phys, foreign;
	uint32_t word;

	(void)state;
	world_init(2, &p);
	a = &W->g[1];
	b = &W->g[2];
	sa = vgpu_get_stats(W->v[1]);
	evg_ram_write32(b, 0x1000, 0xb1);
	assert_int_equal(evg_bind(b, b->low_base, 0x1000), 0);
	switch_to(2);
	before_phys = gpu_hw_ggtt_read(&W->mw.hw, 10);
	/* GGTT entries outside a's ranges: the host's GM, another slot. */
	evg_ggtt_raw(a, 10, 0x1000 | 1);
	evg_ggtt_raw(a, (uint32_t)((b->high_base >> 12) + 0x8000 * 0 +
				   (vgpu_type_v5_8.high_gm_size >> 12)) + 3,
		     0x1000 | 1);
	assert_int_equal(sa->ggtt_out_of_range, 2);
	assert_int_equal(gpu_hw_ggtt_read(&W->mw.hw, 10), before_phys);
	/* An entry naming memory that is not a's (beyond its RAM). */
	evg_ggtt_raw(a, (uint32_t)(a->low_base >> 12), (64ull << 20) | 1);
	assert_int_equal(sa->ggtt_invalid, 1);
	assert_int_equal(evg_ap_hpa(&W->g[1], a->low_base), 0);
	/* Fences over foreign GM (host part) and beyond the GGTT. */
	evg_fence(a, 2, 0, 16);
	foreign = sa->fence_rejected;
	assert_int_equal(foreign, 1);
	evg_fence(a, 3, a->high_base, 0xfffff);
	assert_int_equal(sa->fence_rejected, 2);
	/* Aperture outside its low GM: no EPT mapping (the access traps to
	 * the hypervisor instead of reaching anyone's memory). */
	assert_int_equal(evg_ap_read(a, a->low_base + a->low_size + 4096, &word),
			 -1);
	assert_int_equal(evg_ap_read(a, 0, &word), -1);
	/* b is unaffected. */
	assert_int_equal(phys_entry(b->low_base), hpa_of(2, 0x1000));
	assert_int_equal(evg_ap_read(b, b->low_base, &word), 0);
	assert_int_equal(word, 0xb1);
	check_isolation();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_sixty_four_vgpus, teardown),
		cmocka_unit_test_teardown(test_on_demand_copy_counts, teardown),
		cmocka_unit_test_teardown(test_basic_copies_everything, teardown),
		cmocka_unit_test_teardown(
			test_two_vgpus_one_slot_each_sees_its_own, teardown),
		cmocka_unit_test_teardown(test_fence_pool, teardown),
		cmocka_unit_test_teardown(test_bad_input, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
