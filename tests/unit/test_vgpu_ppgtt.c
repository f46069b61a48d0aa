/* Strict PPGTT shadowing: build from the guest's tables, write-protect,
 * update on trapped stores of every width, untrack pages that stop being
 * page tables, and never map anything outside the VM. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "tests/harness/ppgtt_env.h"

#define MiB (1ull << 20)

/* Walk the shadow as the GPU would; 0 = fault. */
static uint64_t shadow_walk(struct ppgtt_env *e, uint64_t va)
{
	uint64_t root;

	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	return mw_ppgtt_walk(&e->mw, root, va);
}

/* Every present shadow leaf must be a page of VM 1 (recursive check). */
static void check_isolated(struct ppgtt_env *e, uint64_t table, int lvl)
{
	uint64_t *t = fake_hv_hpa_ptr(&e->mw.hv, table, 4096);
	int i;

	assert_non_null(t);
	for (i = 0; i < 512; i++) {
		if (!(t[i] & 1))
			continue;
		if (lvl == 1)
			assert_int_equal(fake_hv_hpa_owner(&e->mw.hv, t[i] & GEN8_PTE_ADDR_MASK), 1);
		else
			check_isolated(e, t[i] & GEN8_PTE_ADDR_MASK, lvl - 1);
	}
}

static void test_build_and_map(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data = gi_alloc_pages(&e->g, 4), va = 0x100000000ull, root;

	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	assert_int_equal(e->v->stats.mm_created, 1);
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, e->g.pml4_gpa));
	gi_ppgtt_map(&e->g, va, data, 4);
	/* PML4, PDP, PD, PT are tracked; data pages are not. */
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, 1), 4);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, data));
	assert_true(shadow_walk(e, va + 0x10) == fake_hv_gpa_to_hpa(&e->mw.hv, 1, data) + 0x10);
	assert_true(shadow_walk(e, va + 3 * 4096) ==
		    fake_hv_gpa_to_hpa(&e->mw.hv, 1, data + 3 * 4096));
	assert_true(shadow_walk(e, va + 4 * 4096) == 0);
	assert_true(e->v->stats.pte_traps >= 7);
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	check_isolated(e, root, 4);
	/* Destroy: everything untracked, shadow pages freed. */
	gi_ppgtt_destroy(&e->g);
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, 1), 0);
	assert_int_equal(e->v->spt_count, 0);
}

static void test_existing_tables_and_sharing(void **state)
{
	struct ppgtt_env *e = *state;
	struct guest_i915 *g = &e->g;
	uint64_t pml4 = gi_alloc_pages(g, 1), scratch_pdp = gi_alloc_pages(g, 1);
	uint64_t scratch_pd = gi_alloc_pages(g, 1), scratch_pt = gi_alloc_pages(g, 1);
	uint64_t scratch = gi_alloc_pages(g, 1), e8;
	int i;

	/* i915's layout before anything is bound: every entry of every
	 * level points at the next level's scratch table (present). */
	for (i = 0; i < 512; i++) {
		e8 = scratch_pdp | 3;
		fake_hv_guest_write(&e->mw.hv, 1, pml4 + 8 * i, &e8, 8);
		e8 = scratch_pd | 3;
		fake_hv_guest_write(&e->mw.hv, 1, scratch_pdp + 8 * i, &e8, 8);
		e8 = scratch_pt | 3;
		fake_hv_guest_write(&e->mw.hv, 1, scratch_pd + 8 * i, &e8, 8);
		e8 = scratch | 3;
		fake_hv_guest_write(&e->mw.hv, 1, scratch_pt + 8 * i, &e8, 8);
	}
	g->pml4_gpa = pml4;
	assert_true(ppgtt_env_mm(e) >= 0);
	/* One shadow per guest table, however many entries share it. */
	assert_int_equal(e->v->spt_count, 4);
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, 1), 4);
	assert_true(shadow_walk(e, 0x123456789000ull) == fake_hv_gpa_to_hpa(&e->mw.hv, 1, scratch));
	/* Bind one real PT under entry 0 of the scratch PD? No: i915
	 * allocates a new PD/PT chain; model it for va 0. */
	uint64_t pdp = gi_alloc_pages(g, 1), pd = gi_alloc_pages(g, 1);
	uint64_t pt = gi_alloc_pages(g, 1), page = gi_alloc_pages(g, 1);
	for (i = 0; i < 512; i++) {
		e8 = scratch_pd | 3;
		fake_hv_guest_write(&e->mw.hv, 1, pdp + 8 * i, &e8, 8);
		e8 = scratch_pt | 3;
		fake_hv_guest_write(&e->mw.hv, 1, pd + 8 * i, &e8, 8);
		e8 = scratch | 3;
		fake_hv_guest_write(&e->mw.hv, 1, pt + 8 * i, &e8, 8);
	}
	e8 = page | 3;
	fake_hv_guest_write(&e->mw.hv, 1, pt, &e8, 8);
	e8 = pt | 3;
	fake_hv_guest_write(&e->mw.hv, 1, pd, &e8, 8);
	e8 = pd | 3;
	fake_hv_guest_write(&e->mw.hv, 1, pdp, &e8, 8);
	e8 = pdp | 3;
	fake_hv_guest_store(&e->mw.hv, 1, pml4, &e8, 8); /* the trapped one */
	assert_int_equal(e->v->spt_count, 7);
	assert_true(shadow_walk(e, 0x42) == fake_hv_gpa_to_hpa(&e->mw.hv, 1, page) + 0x42);
	assert_true(shadow_walk(e, 0x1000) == fake_hv_gpa_to_hpa(&e->mw.hv, 1, scratch));
	/* Unbind: back to the scratch PDP; the chain is no longer a table. */
	e8 = scratch_pdp | 3;
	fake_hv_guest_store(&e->mw.hv, 1, pml4, &e8, 8);
	assert_int_equal(e->v->spt_count, 4);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pdp));
	assert_true(shadow_walk(e, 0x42) == fake_hv_gpa_to_hpa(&e->mw.hv, 1, scratch) + 0x42);
}

static void test_partial_and_wide_stores(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data = gi_alloc_pages(&e->g, 4), va = 0x200000000ull;
	uint64_t pt, ent, two[2];
	uint32_t half;

	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	gi_ppgtt_map(&e->g, va, data, 1);
	assert_int_equal(vgpu_ppgtt_gva_to_gpa(e->v, e->g.pml4_gpa, va, &pt), 0);
	/* Find the PT page: walk the guest's tables by hand. */
	uint64_t t = e->g.pml4_gpa;
	for (int l = 4; l > 1; l--) {
		fake_hv_guest_read(&e->mw.hv, 1, t + 8 * ((va >> (12 + 9 * (l - 1))) & 511), &ent, 8);
		t = ent & GEN8_PTE_ADDR_MASK;
	}
	pt = t;
	/* Low half of entry 1: not usable until the next submission. */
	half = (uint32_t)(data + 4096) | 3;
	fake_hv_guest_store(&e->mw.hv, 1, pt + 8, &half, 4);
	assert_int_equal(e->v->stats.pte_trap_partial, 1);
	half = 0;
	fake_hv_guest_store(&e->mw.hv, 1, pt + 12, &half, 4);
	/* The post-shadow pass (run by prepare in shadow_walk) finishes it. */
	assert_true(shadow_walk(e, va + 4096) == fake_hv_gpa_to_hpa(&e->mw.hv, 1, data + 4096));
	/* One 16-byte SSE store covering entries 2 and 3. */
	two[0] = (data + 2 * 4096) | 3;
	two[1] = (data + 3 * 4096) | 3;
	fake_hv_guest_store(&e->mw.hv, 1, pt + 16, two, 16);
	assert_int_equal(e->v->stats.pte_trap_wide, 1);
	assert_true(shadow_walk(e, va + 2 * 4096) == fake_hv_gpa_to_hpa(&e->mw.hv, 1, data + 2 * 4096));
	assert_true(shadow_walk(e, va + 3 * 4096) == fake_hv_gpa_to_hpa(&e->mw.hv, 1, data + 3 * 4096));
	/* A leaf outside the VM's RAM: not present in the shadow. */
	ent = (64 * MiB) | 3;
	fake_hv_guest_store(&e->mw.hv, 1, pt + 8 * 4, &ent, 8);
	assert_true(shadow_walk(e, va + 4 * 4096) == 0);
	assert_true(e->v->stats.pte_invalid >= 1);
	/* A 2-byte store: partial too. */
	uint16_t tiny = 0;
	fake_hv_guest_store(&e->mw.hv, 1, pt + 8 * 3 + 6, &tiny, 2);
	assert_true(shadow_walk(e, va + 3 * 4096) != 0);
}

static void test_untrack_on_garbage(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data = gi_alloc_pages(&e->g, 2), va = 0x300000000ull;
	uint64_t ones[2] = { ~0ull, ~0ull }, pd, ent, root;
	uint32_t before;

	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	gi_ppgtt_map(&e->g, va, data, 2);
	fake_hv_guest_read(&e->mw.hv, 1, e->g.pml4_gpa + 8 * ((va >> 39) & 511), &ent, 8);
	fake_hv_guest_read(&e->mw.hv, 1, (ent & GEN8_PTE_ADDR_MASK) + 8 * ((va >> 30) & 511), &ent, 8);
	pd = ent & GEN8_PTE_ADDR_MASK;
	before = e->v->spt_count;
	/* The guest reuses the PD page as data (16-byte stores of ones)
	 * before telling us (gvt-linux#153): untrack, do not fail. */
	fake_hv_guest_store(&e->mw.hv, 1, pd + 64, ones, 16);
	assert_int_equal(e->v->stats.spt_untracked, 1);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pd));
	assert_false(vgpu_failed(e->v));
	/* More garbage on the now untracked page costs nothing. */
	fake_hv_guest_write(&e->mw.hv, 1, pd, ones, 16);
	/* Next submission rebuilds from the guest's tables: the garbage
	 * entries are not present, the intact one still maps. */
	assert_true(shadow_walk(e, va) == fake_hv_gpa_to_hpa(&e->mw.hv, 1, data) ||
		    shadow_walk(e, va) == 0);
	assert_int_equal(e->v->stats.mm_rebuilt, 1);
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	check_isolated(e, root, 4);
	assert_true(e->v->spt_count <= before);
}

/* The guest's leaf table (PT) that maps va. */
static uint64_t guest_pt(struct ppgtt_env *e, uint64_t va)
{
	uint64_t t = e->g.pml4_gpa, ent;

	for (int l = 4; l > 1; l--) {
		fake_hv_guest_read(&e->mw.hv, 1, t + 8 * ((va >> (12 + 9 * (l - 1))) & 511), &ent, 8);
		t = ent & GEN8_PTE_ADDR_MASK;
	}
	return t;
}

static uint64_t post_visits(struct ppgtt_env *e)
{
	return e->v->stats.post_tables_visited;
}

/* The pass that finishes half-written entries before a submission costs
 * what was half written, not what is shadowed: with 74 tables, marks in
 * three of them make three table visits, none make none (issue 31). */
static void test_post_shadow_visits_marked_tables_only(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data = gi_alloc_pages(&e->g, 64), va = 0x400000000ull, root;
	uint64_t v0 = 0, pt[3];
	uint32_t half;
	int k;

	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	/* One page per 128 MiB: 64 PTs under 8 PDs. */
	for (k = 0; k < 64; k++)
		gi_ppgtt_map(&e->g, va + ((uint64_t)k << 30) / 8, data + 4096ull * k, 1);
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	assert_true(e->v->spt_count >= 64);
	v0 = post_visits(e);
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	assert_int_equal(post_visits(e), v0);
	/* Low halves of entry 1 in three PTs, the first twice. */
	for (k = 0; k < 3; k++) {
		pt[k] = guest_pt(e, va + ((uint64_t)(20 * k) << 30) / 8);
		half = (uint32_t)(data + 4096ull * (64 - 1 - k)) | 3;
		fake_hv_guest_store(&e->mw.hv, 1, pt[k] + 8, &half, 4);
	}
	fake_hv_guest_store(&e->mw.hv, 1, pt[0] + 16, &half, 4);
	assert_int_equal(e->v->stats.pte_trap_partial, 4);
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	assert_int_equal(post_visits(e), v0 + 3);
	/* Nothing half-written since: no table visited. */
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	assert_int_equal(post_visits(e), v0 + 3);
	/* The high halves complete the entries; the pass finished them. */
	half = 0;
	for (k = 0; k < 3; k++) {
		fake_hv_guest_store(&e->mw.hv, 1, pt[k] + 12, &half, 4);
		assert_true(shadow_walk(e, va + ((uint64_t)(20 * k) << 30) / 8 + 4096) ==
			    fake_hv_gpa_to_hpa(&e->mw.hv, 1, data + 4096ull * (64 - 1 - k)));
	}
	assert_int_equal(post_visits(e), v0 + 6);
	check_isolated(e, root, 4);
}

/* A table freed or untracked with marks pending leaves nothing for the
 * pass to visit, and a new table in its slot starts unmarked. */
static void test_post_shadow_forgets_gone_tables(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data = gi_alloc_pages(&e->g, 2), va = 0x500000000ull, root;
	uint64_t pd, ent, v0, zero = 0;
	uint32_t half = 3;

	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	gi_ppgtt_map(&e->g, va, data, 1);
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	v0 = post_visits(e);
	fake_hv_guest_store(&e->mw.hv, 1, guest_pt(e, va) + 8, &half, 4);
	/* The PD drops its PT: the shadow PT with the mark is freed. */
	fake_hv_guest_read(&e->mw.hv, 1, e->g.pml4_gpa + 8 * ((va >> 39) & 511), &ent, 8);
	fake_hv_guest_read(&e->mw.hv, 1, (ent & GEN8_PTE_ADDR_MASK) + 8 * ((va >> 30) & 511), &ent, 8);
	pd = ent & GEN8_PTE_ADDR_MASK;
	fake_hv_guest_store(&e->mw.hv, 1, pd + 8 * ((va >> 21) & 511), &zero, 8);
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	assert_int_equal(post_visits(e), v0);
	assert_true(shadow_walk(e, va) == 0);
}

static void test_root_not_ram(void **state)
{
	struct ppgtt_env *e = *state;

	/* g2v with a PML4 outside the VM: refused, nothing tracked. */
	e->g.pml4_gpa = 64 * MiB;
	vgpu_mmio_write(e->v, 0x78838, (uint32_t)e->g.pml4_gpa, 4);
	vgpu_mmio_write(e->v, 0x7883c, 0, 4);
	vgpu_mmio_write(e->v, 0x78818, 4, 4);
	assert_int_equal(e->v->stats.mm_created, 0);
	assert_int_equal(e->v->stats.ppgtt_errors, 1);
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_build_and_map, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_existing_tables_and_sharing, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_partial_and_wide_stores, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_untrack_on_garbage, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_post_shadow_visits_marked_tables_only, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_post_shadow_forgets_gone_tables, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_root_not_ram, ppgtt_env_setup, ppgtt_env_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
