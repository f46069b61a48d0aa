/* gHyvi: hybrid strict / relaxed PPGTT shadowing (gpu/ghyvi/ghyvi_relax.c).
 * Every policy, the adaptive switch both ways, the verifier (on in every
 * test: a mismatch would fail vgpu_mm_prepare), and bad guest input while
 * relaxed: garbage entries, pages freed and reused, pages that stop being
 * page tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/ghyvi/ghyvi_priv.h"
#include "tests/harness/ppgtt_env.h"

#define MiB (1ull << 20)
#define VA 0x100000000ull

static void set_policy(struct ppgtt_env *e, enum vgpu_ppgtt_policy pol,
		       uint32_t relax_traps, uint32_t cool_rounds)
{
	struct vgpu_ghyvi_params p = { 0 };

	p.policy = pol;
	p.relax_traps = relax_traps;
	p.cool_rounds = cool_rounds;
	p.verify = true;
	assert_int_equal(vgpu_ghyvi_set(e->v, &p), 0);
}

/* A submission: reconstruct + verify (verify on: a mismatch fails here). */
static void submit(struct ppgtt_env *e)
{
	uint64_t root;

	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	assert_int_equal(vgpu_ghyvi_verify(e->v), 0);
}

/* The shadow as the GPU walks it, without preparing first; 0 = fault. */
static uint64_t hw_walk(struct ppgtt_env *e, uint64_t va)
{
	struct shadow_mm *m = &MM(e->v, ppgtt_env_mm(e));

	return mw_ppgtt_walk(&e->mw, SPT(e->v, m->root).shadow_hpa, va);
}

static uint64_t walk(struct ppgtt_env *e, uint64_t va)
{
	submit(e);
	return hw_walk(e, va);
}

/* Guest table page at level lvl (4 = PML4 .. 1 = PT) on the way to va. */
static uint64_t gtable(struct ppgtt_env *e, uint64_t va, int lvl)
{
	uint64_t t = e->g.pml4_gpa, ent;
	int l;

	for (l = 4; l > lvl; l--) {
		fake_hv_guest_read(&e->mw.hv, 1, t + 8 * ((va >> (12 + 9 * (l - 1))) & 511), &ent, 8);
		t = ent & GEN8_PTE_ADDR_MASK;
	}
	return t;
}

static void store(struct ppgtt_env *e, uint64_t gpa, uint64_t val)
{
	fake_hv_guest_store(&e->mw.hv, 1, gpa, &val, 8);
}

static uint64_t hpa_of(struct ppgtt_env *e, uint64_t gpa)
{
	return fake_hv_gpa_to_hpa(&e->mw.hv, 1, gpa);
}

static int32_t spt_of(struct ppgtt_env *e, uint64_t gpa, int lvl)
{
	return spt_lookup(e->v, gpa >> 12, lvl);
}

static void check_isolated(struct ppgtt_env *e, uint64_t table, int lvl)
{
	uint64_t *t = fake_hv_hpa_ptr(&e->mw.hv, table, 4096);
	int i;

	for (i = 0; i < 512; i++) {
		if (!(t[i] & 1))
			continue;
		if (lvl == 1)
			assert_int_equal(fake_hv_hpa_owner(&e->mw.hv, t[i] & GEN8_PTE_ADDR_MASK), 1);
		else
			check_isolated(e, t[i] & GEN8_PTE_ADDR_MASK, lvl - 1);
	}
}

/* A PPGTT with 4 pages mapped at VA, shadowed and submitted once. */
static uint64_t base_ppgtt(struct ppgtt_env *e)
{
	uint64_t data = gi_alloc_pages(&e->g, 8);

	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	gi_ppgtt_map(&e->g, VA, data, 4);
	submit(e);
	return data;
}

static void test_default_is_strict(void **state)
{
	struct ppgtt_env *e = *state;
	struct vgpu_ghyvi_params p;
	uint64_t data, pt, traps;

	vgpu_ghyvi_get(e->v, &p);
	assert_int_equal(p.policy, VGPU_PPGTT_STRICT);
	assert_int_equal(p.static_pages, 200);
	assert_int_equal(p.relax_traps, 1);
	assert_false(p.no_backoff);
	data = base_ppgtt(e);
	pt = gtable(e, VA, 1);
	traps = e->v->stats.pte_traps;
	store(e, pt + 8 * 5, (data + 5 * 4096) | 3);
	store(e, pt + 8 * 6, (data + 6 * 4096) | 3);
	store(e, pt + 8 * 7, (data + 7 * 4096) | 3);
	assert_int_equal(e->v->stats.pte_traps, traps + 3);
	assert_int_equal(vgpu_ghyvi_relaxed(e->v), 0);
	/* Strict: the shadow is right even before the submission. */
	assert_true(hw_walk(e, VA + 6 * 4096) == hpa_of(e, data + 6 * 4096));
	assert_int_equal(e->v->stats.recon_runs, 0);
}

static void test_segmented(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data, pt, traps;
	int i;

	set_policy(e, VGPU_PPGTT_DYNAMIC_SEGMENTED, 1, 0);
	data = base_ppgtt(e); /* relaxed pages from the build: reconstructed */
	assert_int_equal(vgpu_ghyvi_relaxed(e->v), 0); /* list reset */
	pt = gtable(e, VA, 1);
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pt));
	traps = e->v->stats.pte_traps;
	for (i = 4; i < 8; i++)
		store(e, pt + 8 * i, (data + i * 4096ull) | 3);
	/* The first store trapped and relaxed the page; the rest did not. */
	assert_int_equal(e->v->stats.pte_traps, traps + 1);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_int_equal(vgpu_ghyvi_relaxed(e->v), 1);
	/* The GPU does not see relaxed stores before the submission... */
	assert_true(hw_walk(e, VA + 7 * 4096) == 0);
	/* ...and sees them all after it; 3 entries re-translated. */
	assert_true(walk(e, VA + 7 * 4096) == hpa_of(e, data + 7 * 4096));
	assert_true(walk(e, VA + 5 * 4096 + 8) == hpa_of(e, data + 5 * 4096) + 8);
	assert_int_equal(e->v->stats.recon_entries >= 3, 1);
	/* Segmented: protected again, list empty. */
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_int_equal(vgpu_ghyvi_relaxed(e->v), 0);
	assert_int_equal(e->v->stats.verify_mismatch, 0);
}

static void test_dynamic_and_cooling(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data, pt, entries;
	int i;

	set_policy(e, VGPU_PPGTT_DYNAMIC, 1, 3);
	data = base_ppgtt(e);
	pt = gtable(e, VA, 1);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt)); /* stays relaxed */
	for (i = 4; i < 8; i++)
		store(e, pt + 8 * i, (data + i * 4096ull) | 3);
	entries = e->v->stats.recon_entries;
	assert_true(walk(e, VA + 4 * 4096) == hpa_of(e, data + 4 * 4096));
	assert_int_equal(e->v->stats.recon_entries, entries + 4);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	/* Quiet submissions: after 3 in a row the page is strict again. */
	submit(e);
	submit(e);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	submit(e);
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_true(e->v->stats.pte_strict_again >= 1);
	/* And relaxes again when written. */
	store(e, pt + 8 * 4, 0);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_true(walk(e, VA + 4 * 4096) == 0);
}

static void test_dynamic_never_cools(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t pt;
	int i;

	set_policy(e, VGPU_PPGTT_DYNAMIC, 1, GHYVI_NEVER);
	base_ppgtt(e);
	pt = gtable(e, VA, 1);
	for (i = 0; i < 20; i++)
		submit(e);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_true(vgpu_ghyvi_relaxed(e->v) >= 4);
	assert_int_equal(e->v->stats.pte_strict_again, 0);
}

static void test_full(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data, pt, traps;
	int i;

	set_policy(e, VGPU_PPGTT_FULL, 0, 0);
	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	data = gi_alloc_pages(&e->g, 8);
	traps = e->v->stats.pte_traps;
	gi_ppgtt_map(&e->g, VA, data, 8);
	/* Every table is born relaxed: building the tree took no trap. */
	assert_int_equal(e->v->stats.pte_traps, traps);
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, 1), 0);
	for (i = 0; i < 8; i++)
		assert_true(walk(e, VA + i * 4096ull) == hpa_of(e, data + i * 4096ull));
	pt = gtable(e, VA, 1);
	assert_non_null(SPT(e->v, spt_of(e, pt, 1)).snap);
	/* Every relaxed page is diffed at every submission. */
	traps = e->v->stats.recon_pages;
	submit(e);
	assert_int_equal(e->v->stats.recon_pages, traps + vgpu_ghyvi_relaxed(e->v));
	assert_int_equal(vgpu_ghyvi_relaxed(e->v), e->v->spt_count);
	/* Run-time switch back to strict: all protected, still consistent. */
	set_policy(e, VGPU_PPGTT_STRICT, 0, 0);
	assert_int_equal(vgpu_ghyvi_relaxed(e->v), 0);
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, 1), e->v->spt_count);
	store(e, pt + 8, 0);
	assert_true(hw_walk(e, VA + 4096) == 0);
	assert_true(walk(e, VA + 2 * 4096) == hpa_of(e, data + 2 * 4096));
}

static void test_static(void **state)
{
	struct ppgtt_env *e = *state;
	struct vgpu_ghyvi_params p = { 0 };
	uint64_t data, pt, pd, traps;

	data = base_ppgtt(e);
	pt = gtable(e, VA, 1);
	pd = gtable(e, VA, 2);
	p.policy = VGPU_PPGTT_STATIC;
	p.static_pages = 1;
	p.verify = true;
	assert_int_equal(vgpu_ghyvi_set(e->v, &p), 0);
	/* Named from a profile: relaxed at once and for good. */
	assert_int_equal(vgpu_ghyvi_pin(e->v, pt), 0);
	assert_int_equal(vgpu_ghyvi_pin(e->v, pd), -GPU_ENOSPC);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pd));
	traps = e->v->stats.pte_traps;
	store(e, pt + 8 * 5, (data + 5 * 4096) | 3);
	assert_int_equal(e->v->stats.pte_traps, traps);
	/* The set is full: a write to another table stays strict. */
	store(e, pd + 8 * 100, 0);
	assert_int_equal(e->v->stats.pte_traps, traps + 1);
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pd));
	assert_true(walk(e, VA + 5 * 4096) == hpa_of(e, data + 5 * 4096));
	submit(e);
	submit(e);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_int_equal(e->v->stats.pte_strict_again, 0);
}

static void test_static_first_touch(void **state)
{
	struct ppgtt_env *e = *state;
	struct vgpu_ghyvi_params p = { 0 };
	uint64_t pt, pd;

	base_ppgtt(e);
	pt = gtable(e, VA, 1);
	pd = gtable(e, VA, 2);
	p.policy = VGPU_PPGTT_STATIC;
	p.static_pages = 1;
	p.verify = true;
	assert_int_equal(vgpu_ghyvi_set(e->v, &p), 0);
	store(e, pt + 8 * 9, 0); /* first trapped page joins the set */
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	store(e, pd + 8 * 9, 0);
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pd));
	submit(e);
}

static void test_adaptive_threshold(void **state)
{
	struct ppgtt_env *e = *state;
	struct vgpu_ghyvi_params p = { 0 };
	uint64_t data, pt;

	data = base_ppgtt(e);
	pt = gtable(e, VA, 1);
	p.policy = VGPU_PPGTT_DYNAMIC_SEGMENTED;
	p.relax_traps = 3;
	p.relax_window_ns = 1000000;
	p.verify = true;
	assert_int_equal(vgpu_ghyvi_set(e->v, &p), 0);
	/* Two writes, then a pause longer than the window: still strict. */
	store(e, pt + 8 * 4, (data + 4 * 4096) | 3);
	store(e, pt + 8 * 5, (data + 5 * 4096) | 3);
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pt));
	e->mw.hv.now += 5000000;
	store(e, pt + 8 * 6, (data + 6 * 4096) | 3);
	store(e, pt + 8 * 7, (data + 7 * 4096) | 3);
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pt));
	/* The third within the window: relaxed. */
	store(e, pt + 8 * 4, (data + 7 * 4096) | 3);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_true(walk(e, VA + 4 * 4096) == hpa_of(e, data + 7 * 4096));
	assert_true(walk(e, VA + 6 * 4096) == hpa_of(e, data + 6 * 4096));
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pt)); /* segmented: back */
}

/* Back-off: a page whose relaxed period absorbs almost nothing doubles its
 * own threshold; a burst brings it back to relaxing on the first trap. */
static void test_backoff(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data, pt;
	int i;

	data = base_ppgtt(e);
	pt = gtable(e, VA, 1);
	set_policy(e, VGPU_PPGTT_DYNAMIC_SEGMENTED, 1, 0);
	store(e, pt + 8 * 10, 0); /* trap: relaxed, then nothing absorbed */
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	submit(e);
	assert_int_equal(GS(e->v, spt_of(e, pt, 1))->relax_at, 2);
	store(e, pt + 8 * 11, 0); /* one trap: no longer enough */
	assert_true(fake_hv_is_wp(&e->mw.hv, 1, pt));
	store(e, pt + 8 * 12, 0); /* the second relaxes */
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	for (i = 0; i < 16; i++) /* a burst, absorbed */
		store(e, pt + 8 * (100 + i), (data + 4096ull * (i % 8)) | 3);
	submit(e);
	assert_int_equal(GS(e->v, spt_of(e, pt, 1))->relax_at, 0);
	store(e, pt + 8 * 13, 0);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	submit(e);
	/* The paper's fixed threshold: no back-off. */
	{
		struct vgpu_ghyvi_params p = { 0 };

		p.policy = VGPU_PPGTT_DYNAMIC_SEGMENTED;
		p.no_backoff = true;
		p.verify = true;
		assert_int_equal(vgpu_ghyvi_set(e->v, &p), 0);
		for (i = 0; i < 3; i++) {
			store(e, pt + 8 * (20 + i), 0);
			assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
			submit(e);
		}
		assert_int_equal(GS(e->v, spt_of(e, pt, 1))->relax_at, 0);
	}
}

static void test_verifier_catches(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data, pt, root, bad = (8 * MiB - 4096) | 3;

	set_policy(e, VGPU_PPGTT_STRICT, 0, 0);
	data = base_ppgtt(e);
	pt = gtable(e, VA, 1);
	/* A store the mediator never heard of (a broken trap path). */
	fake_hv_guest_write(&e->mw.hv, 1, pt + 8, &bad, 8);
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), -GPU_EIO);
	assert_true(e->v->stats.verify_mismatch >= 1);
	assert_true(vgpu_ghyvi_verify(e->v) >= 1);
	/* A corrupted shadow is caught too. */
	fake_hv_guest_write(&e->mw.hv, 1, pt + 8, &(uint64_t){ (data + 4096) | 3 }, 8);
	assert_int_equal(vgpu_ghyvi_verify(e->v), 0);
	SPT(e->v, spt_of(e, pt, 1)).shadow[2] ^= 0x1000;
	assert_int_equal(vgpu_ghyvi_verify(e->v), 1);
	SPT(e->v, spt_of(e, pt, 1)).shadow[2] ^= 0x1000;
	assert_int_equal(vgpu_ghyvi_verify(e->v), 0);
}

/* Entries outside the VM written while relaxed: dropped at the
 * reconstruction exactly as the same stores trapped would be. */
static void test_garbage_dropped(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data, pt, root, traps_shadow[4], relaxed_shadow[4];
	uint64_t vals[4];
	int32_t s;
	int pass, i;

	data = base_ppgtt(e);
	pt = gtable(e, VA, 1);
	vals[0] = (64 * MiB) | 3;            /* beyond the VM's 8 MiB */
	vals[1] = 0xfffff000ull | 3;         /* MMIO hole */
	vals[2] = (data + 4096) | 3;         /* fine */
	vals[3] = (16 * MiB + 4096) | 1;     /* beyond */
	for (pass = 0; pass < 2; pass++) {
		set_policy(e, pass ? VGPU_PPGTT_DYNAMIC : VGPU_PPGTT_STRICT, 1,
			   GHYVI_NEVER);
		for (i = 0; i < 4; i++)
			store(e, pt + 8 * (20 + i + 8 * pass), vals[i]);
		if (pass)
			assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
		assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
		s = spt_of(e, pt, 1);
		for (i = 0; i < 4; i++)
			(pass ? relaxed_shadow : traps_shadow)[i] =
				SPT(e->v, s).shadow[20 + i + 8 * pass];
		check_isolated(e, root, 4);
	}
	assert_memory_equal(traps_shadow, relaxed_shadow, sizeof(traps_shadow));
	assert_true(relaxed_shadow[0] == 0 && relaxed_shadow[1] == 0 &&
		    relaxed_shadow[3] == 0);
	assert_true(relaxed_shadow[2] == (hpa_of(e, data + 4096) | 3));
	/* Pass 2: the first store trapped (and relaxed the page); the other
	 * two bad ones were dropped by the reconstruction. */
	assert_true(e->v->stats.recon_dropped >= 2);
	assert_int_equal(e->v->stats.verify_mismatch, 0);
}

/* A relaxed page filled with data (all ones): it stops being a page table
 * at the reconstruction, nothing it held survives. */
static void test_stops_being_table(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t pt, pd, ones[512], root;

	set_policy(e, VGPU_PPGTT_DYNAMIC, 1, GHYVI_NEVER);
	base_ppgtt(e);
	pt = gtable(e, VA, 1);
	pd = gtable(e, VA, 2);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	memset(ones, 0xff, sizeof(ones));
	fake_hv_guest_store(&e->mw.hv, 1, pt, ones, sizeof(ones));
	assert_true(hw_walk(e, VA) != 0); /* not yet submitted */
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	assert_true(e->v->stats.spt_untracked >= 1);
	assert_true(hw_walk(e, VA) == 0);
	assert_true(hw_walk(e, VA + 3 * 4096) == 0);
	check_isolated(e, root, 4);
	assert_int_equal(vgpu_ghyvi_verify(e->v), 0);
	(void)pd;
}

/* A relaxed PT page unlinked by its (relaxed) parent and reused as data,
 * then as a page table again: freed at the reconstruction, shadowed
 * anew from its current contents when linked again. */
/* Segmented: a relaxed page turned into data and unlinked by its strict
 * parent in the same segment; the reconstruction untracks it and must not
 * leave it protected (teardown checks no protection is left). */
static void test_stops_being_table_segmented(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t pt, ones[512], root;

	set_policy(e, VGPU_PPGTT_DYNAMIC_SEGMENTED, 1, 0);
	base_ppgtt(e);
	pt = gtable(e, VA, 1);
	store(e, pt + 8 * 40, 0); /* relaxed */
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	memset(ones, 0xff, sizeof(ones));
	fake_hv_guest_store(&e->mw.hv, 1, pt, ones, sizeof(ones));
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	assert_true(e->v->stats.spt_untracked >= 1);
	assert_true(hw_walk(e, VA) == 0);
	/* Re-shadowed from garbage by the repair: nothing mapped, protected
	 * as a (strict) table again; unlinking it drops it for good. */
	store(e, gtable(e, VA, 2) + 8 * ((VA >> 21) & 511), 0);
	submit(e);
	assert_int_equal(spt_of(e, pt, 1), SPT_NONE);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
}

static void test_freed_and_reused(void **state)
{
	struct ppgtt_env *e = *state;
	enum vgpu_ppgtt_policy pols[2] = { VGPU_PPGTT_FULL, VGPU_PPGTT_DYNAMIC };
	int k;

	for (k = 0; k < 2; k++) {
		uint64_t data = gi_alloc_pages(&e->g, 4), va = VA + (uint64_t)k * (1ull << 30);
		uint64_t pt, pd, pde, junk[512], root;
		uint32_t count;
		int i;

		set_policy(e, pols[k], 1, GHYVI_NEVER);
		if (!k)
			assert_int_equal(gi_ppgtt_create(&e->g), 0);
		gi_ppgtt_map(&e->g, va, data, 4);
		submit(e);
		pt = gtable(e, va, 1);
		pd = gtable(e, va, 2);
		store(e, pd + 8 * 300, 0); /* relax the PD (DYNAMIC) */
		store(e, pt + 8 * 300, 0); /* and the PT */
		submit(e);
		assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
		assert_false(fake_hv_is_wp(&e->mw.hv, 1, pd));
		count = e->v->spt_count;
		/* Unlink and reuse as data (pointers to other VMs' memory). */
		fake_hv_guest_read(&e->mw.hv, 1, pd + 8 * ((va >> 21) & 511), &pde, 8);
		store(e, pd + 8 * ((va >> 21) & 511), 0);
		for (i = 0; i < 512; i++)
			junk[i] = (64 * MiB + i * 4096ull) | 3;
		fake_hv_guest_store(&e->mw.hv, 1, pt, junk, sizeof(junk));
		assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
		assert_int_equal(spt_of(e, pt, 1), SPT_NONE);
		assert_int_equal(e->v->spt_count, count - 1);
		assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
		assert_true(hw_walk(e, va) == 0);
		check_isolated(e, root, 4);
		/* Reused as a page table again: shadowed from what it holds. */
		for (i = 0; i < 512; i++)
			junk[i] = i < 2 ? (data + i * 4096ull) | 3 : 0;
		fake_hv_guest_write(&e->mw.hv, 1, pt, junk, sizeof(junk));
		store(e, pd + 8 * ((va >> 21) & 511), pde);
		assert_true(walk(e, va + 4096) == hpa_of(e, data + 4096));
		assert_true(walk(e, va + 2 * 4096) == 0);
		check_isolated(e, root, 4);
	}
}

/* A trap reported for a page already relaxed (a store that raced the
 * unprotect) is applied and counted; the next diff stays consistent. */
static void test_late_trap(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data, pt;

	set_policy(e, VGPU_PPGTT_DYNAMIC, 1, GHYVI_NEVER);
	data = base_ppgtt(e);
	pt = gtable(e, VA, 1);
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	fake_hv_guest_write(&e->mw.hv, 1, pt + 8 * 6, &(uint64_t){ (data + 6 * 4096) | 3 }, 8);
	vgpu_page_write(e->v, pt + 8 * 6, NULL, 8);
	assert_int_equal(e->v->stats.pte_late_traps, 1);
	assert_true(hw_walk(e, VA + 6 * 4096) == hpa_of(e, data + 6 * 4096));
	assert_true(walk(e, VA + 6 * 4096) == hpa_of(e, data + 6 * 4096));
}

/* Half-written entries while relaxed: the diff sees whatever is there at
 * the submission; the half never reaches the GPU unvalidated. */
static void test_half_entries_relaxed(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data, pt, v8;
	uint32_t lo;

	set_policy(e, VGPU_PPGTT_DYNAMIC_SEGMENTED, 1, 0);
	data = base_ppgtt(e);
	pt = gtable(e, VA, 1);
	v8 = (data + 5 * 4096) | 3;
	lo = (uint32_t)v8;
	fake_hv_guest_store(&e->mw.hv, 1, pt + 8 * 5, &lo, 4); /* trap, half */
	assert_false(fake_hv_is_wp(&e->mw.hv, 1, pt));
	assert_true(walk(e, VA + 5 * 4096) == hpa_of(e, data + 5 * 4096));
	lo = 0x00000001; /* high half garbage bit 45+: untracks */
	fake_hv_guest_store(&e->mw.hv, 1, pt + 8 * 5 + 4, &(uint32_t){ 0xffff0000u }, 4);
	assert_true(walk(e, VA + 5 * 4096) == 0);
	(void)lo;
}

/* Random stores (good, outside the VM, garbage, half entries) to PT and PD
 * pages, random submissions and random run-time policy switches; the
 * verifier checks every submission, isolation is checked after each. */
static void test_random_mix(void **state)
{
	struct ppgtt_env *e = *state;
	uint64_t data, tables[8], x = 0x9e3779b97f4a7c15ull, root;
	int i, ntab = 0;

	data = gi_alloc_pages(&e->g, 16);
	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	for (i = 0; i < 4; i++) {
		uint64_t va = VA + (uint64_t)i * (2ull << 20);

		gi_ppgtt_map(&e->g, va, data + 4096ull * i, 4);
		tables[ntab++] = gtable(e, va, 1);
	}
	tables[ntab++] = gtable(e, VA, 2);
	for (i = 0; i < 3000; i++) {
		uint64_t r, val;
		int t, ent;

		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		r = x;
		t = (int)(r % (uint64_t)ntab);
		ent = (int)((r >> 8) % 8);
		switch ((r >> 20) % 16) {
		case 0: /* outside the VM */
			val = (64 * MiB + 4096 * (r >> 40 & 7)) | 3;
			break;
		case 1: /* garbage: high bits */
			val = ~0ull;
			break;
		case 2: /* not present */
			val = 0;
			break;
		default: /* a data page, or for the PD one of the PT pages */
			val = (t == ntab - 1 ? tables[(r >> 32) % (uint64_t)(ntab - 1)]
					     : data + 4096 * ((r >> 32) % 16)) | 3;
		}
		if (t == ntab - 1)
			ent = (int)(((VA >> 21) & 511) + (uint64_t)ent % 4);
		if ((r >> 50) % 8 == 0)
			fake_hv_guest_store(&e->mw.hv, 1, tables[t] + 8 * ent, &val, 4);
		else
			store(e, tables[t] + 8 * ent, val);
		if ((r >> 56) % 6 == 0) {
			assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
			check_isolated(e, root, 4);
		}
		if ((r >> 44) % 97 == 0)
			set_policy(e, (enum vgpu_ppgtt_policy)((r >> 36) % 5),
				   1 + (uint32_t)((r >> 30) % 3), 1 + (uint32_t)((r >> 28) % 3));
	}
	assert_int_equal(vgpu_mm_prepare(e->v, ppgtt_env_mm(e), &root), 0);
	assert_int_equal(e->v->stats.verify_mismatch, 0);
	assert_true(e->v->stats.verify_runs > 100);
	assert_true(e->v->stats.pte_relaxed > 10);
	assert_true(e->v->stats.recon_entries > 100);
	assert_true(e->v->stats.spt_untracked > 0);
}

static void test_bad_policy(void **state)
{
	struct ppgtt_env *e = *state;
	struct vgpu_ghyvi_params p = { 0 };

	p.policy = (enum vgpu_ppgtt_policy)42;
	assert_int_equal(vgpu_ghyvi_set(e->v, &p), -GPU_EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_default_is_strict, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_segmented, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_dynamic_and_cooling, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_dynamic_never_cools, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_full, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_static, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_static_first_touch, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_adaptive_threshold, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_backoff, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_verifier_catches, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_garbage_dropped, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_stops_being_table, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_stops_being_table_segmented, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_freed_and_reused, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_late_trap, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_half_entries_relaxed, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_random_mix, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_bad_policy, ppgtt_env_setup, ppgtt_env_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
