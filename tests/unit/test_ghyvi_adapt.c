/* gHyvi ADAPTIVE (gpu/ghyvi/ghyvi_adapt.c): the per-table transitions and
 * their cost rule. Isolated stores never relax a table; a burst on a table
 * nothing is known about relaxes at break-even; a table (or a vGPU) whose
 * windows were long relaxes at the first trap; a table written in every
 * window stays relaxed, a quiet one is protected again; on random short
 * bursts the policy costs no more than strict. The verifier is on in
 * every test (a shadow entry differing from the guest's fails the
 * submission) and isolation is checked after it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "gpu/ghyvi/ghyvi_priv.h"
#include "tests/harness/ppgtt_env.h"

#define VA 0x100000000ull
#define NPT 8 /* page tables: 8 x 2 MiB of VA */

struct fix {
	struct ppgtt_env *e;
	uint64_t data, pt[NPT];
	uint32_t seq; /* each store a value its entry did not hold */
};

static void submit(struct fix *f)
{
	uint64_t root;

	assert_int_equal(vgpu_mm_prepare(f->e->v, ppgtt_env_mm(f->e), &root), 0);
	assert_int_equal(vgpu_ghyvi_verify(f->e->v), 0);
}

static uint64_t gtable(struct ppgtt_env *e, uint64_t va)
{
	uint64_t t = e->g.pml4_gpa, ent;

	for (int l = 4; l > 1; l--) {
		fake_hv_guest_read(&e->mw.hv, 1, t + 8 * ((va >> (12 + 9 * (l - 1))) & 511), &ent, 8);
		t = ent & GEN8_PTE_ADDR_MASK;
	}
	return t;
}

/* NPT page tables, 2 pages mapped in each, ADAPTIVE with default costs. */
static void setup_adaptive(struct fix *f, struct ppgtt_env *e)
{
	struct vgpu_ghyvi_params p = { 0 };

	f->e = e;
	f->seq = 0;
	f->data = gi_alloc_pages(&e->g, 16);
	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	for (int i = 0; i < NPT; i++) {
		gi_ppgtt_map(&e->g, VA + (uint64_t)i * (2ull << 20), f->data, 2);
		f->pt[i] = gtable(e, VA + (uint64_t)i * (2ull << 20));
	}
	submit(f);
	p.policy = VGPU_PPGTT_ADAPTIVE;
	p.verify = true;
	assert_int_equal(vgpu_ghyvi_set(e->v, &p), 0);
}

/* k stores to table t, entries from `first` on, pointing at data pages;
 * every store changes its entry (a relaxed table's diff counts it). */
static void burst(struct fix *f, int t, int first, int k)
{
	for (int i = 0; i < k; i++) {
		uint64_t val = (f->data + 4096ull * ((f->seq + f->seq / 16) % 16)) | 3;

		f->seq++;

		fake_hv_guest_store(&f->e->mw.hv, 1, f->pt[t] + 8ull * ((first + i) % 512),
				    &val, 8);
	}
}

static bool relaxed(struct fix *f, int t)
{
	return !fake_hv_is_wp(&f->e->mw.hv, 1, f->pt[t]);
}

static const struct vgpu_ghyvi_costs *costs(struct fix *f)
{
	return &ghyvi_of(f->e->v)->p.cost;
}

/* The rule's break-even trap count with nothing learnt. */
static uint32_t break_even(struct fix *f)
{
	const struct vgpu_ghyvi_costs *c = costs(f);
	uint64_t cost = 2ull * c->ept + c->snapshot + c->diff;
	uint64_t save = c->trap - c->entry;

	return (uint32_t)((cost + save - 1) / save);
}

static void test_default_is_adaptive(void **state)
{
	(void)state;
	assert_int_equal(VGPU_PPGTT_DEFAULT_POLICY, VGPU_PPGTT_ADAPTIVE);
}

/* One store per window, on any table: never worth a relax. */
static void test_isolated_stays_strict(void **state)
{
	struct fix f;
	uint64_t traps;

	setup_adaptive(&f, *state);
	traps = f.e->v->stats.pte_traps;
	for (int w = 0; w < 200; w++) {
		burst(&f, w % NPT, w, 1);
		submit(&f);
	}
	assert_int_equal(f.e->v->stats.pte_traps - traps, 200);
	assert_int_equal(f.e->v->stats.pte_relaxed, 0);
	assert_int_equal(f.e->v->stats.wp_changes, 0);
	assert_int_equal(f.e->v->stats.recon_pages, 0);
}

/* A long burst on a table nothing is known about: it traps until the
 * traps have cost a relaxed window, then relaxes and absorbs the rest. */
static void test_unknown_burst_breaks_even(void **state)
{
	struct fix f;
	uint64_t traps;
	uint32_t j;

	setup_adaptive(&f, *state);
	j = break_even(&f);
	assert_true(j > 1);
	traps = f.e->v->stats.pte_traps;
	burst(&f, 0, 0, (int)j - 1);
	assert_false(relaxed(&f, 0));
	burst(&f, 0, 100, 1);
	assert_true(relaxed(&f, 0));
	burst(&f, 0, 200, 50);
	assert_int_equal(f.e->v->stats.pte_traps - traps, j);
	submit(&f); /* 50 entries re-translated, verified */
	assert_true(f.e->v->stats.recon_entries >= 50);
}

/* A table whose windows held long bursts relaxes at the first trap of
 * the next one, after it went quiet and back to strict. */
static void test_learns_first_trap(void **state)
{
	struct fix f;
	uint64_t traps;
	int w;

	setup_adaptive(&f, *state);
	for (w = 0; w < 3; w++) {
		burst(&f, 1, 64 * w, 64);
		submit(&f);
	}
	submit(&f);
	submit(&f); /* quiet: protected again */
	assert_false(relaxed(&f, 1));
	assert_true(f.e->v->stats.pte_strict_again >= 1);
	traps = f.e->v->stats.pte_traps;
	burst(&f, 1, 300, 40);
	assert_int_equal(f.e->v->stats.pte_traps - traps, 1);
	assert_true(relaxed(&f, 1));
	submit(&f);
}

/* Other tables' long windows teach a fresh table to relax early. */
static void test_global_prior(void **state)
{
	struct fix f;
	uint64_t traps;

	setup_adaptive(&f, *state);
	for (int w = 0; w < 6; w++) {
		burst(&f, w % 4, 0, 100);
		submit(&f);
	}
	/* Table 6 was never written: the vGPU's windows say "long". */
	traps = f.e->v->stats.pte_traps;
	burst(&f, 6, 0, 100);
	assert_int_equal(f.e->v->stats.pte_traps - traps, 1);
	submit(&f);
}

/* A burst relaxes a table for one window only (protected again at the
 * submission, as segmented does) until the table is hot: written in
 * window after window, it is protected, diffed and unprotected again at
 * each submission, no snapshot and no trap per window; quiet, it stays
 * protected. */
static void test_hot_stays_then_cools(void **state)
{
	struct fix f;
	uint64_t snaps, traps;
	int w;

	setup_adaptive(&f, *state);
	burst(&f, 2, 0, 64);
	submit(&f);
	assert_false(relaxed(&f, 2)); /* one window: not hot yet */
	for (w = 0; w < 8; w++) {
		burst(&f, 2, 100 + 5 * w, 5);
		submit(&f);
	}
	assert_true(relaxed(&f, 2));
	snaps = f.e->v->stats.snapshots;
	traps = f.e->v->stats.pte_traps;
	for (w = 8; w < 28; w++) {
		burst(&f, 2, 100 + 5 * w, 5);
		submit(&f);
		assert_true(relaxed(&f, 2));
	}
	assert_int_equal(f.e->v->stats.snapshots, snaps);
	assert_int_equal(f.e->v->stats.pte_traps, traps);
	submit(&f); /* quiet: protected at once */
	assert_false(relaxed(&f, 2));
	/* Strict again: a store traps and is applied at once. */
	traps = f.e->v->stats.pte_traps;
	burst(&f, 2, 7, 1);
	assert_int_equal(f.e->v->stats.pte_traps, traps + 1);
	submit(&f);
}

/* Cost of a run in the rule's own units. */
static uint64_t cost_of(struct fix *f, const struct vgpu_stats *a,
			const struct vgpu_stats *b)
{
	const struct vgpu_ghyvi_costs *c = costs(f);

	return (b->pte_traps - a->pte_traps) * c->trap +
	       (b->wp_changes - a->wp_changes) * c->ept +
	       (b->snapshots - a->snapshots) * c->snapshot +
	       (b->recon_pages - a->recon_pages) * c->diff +
	       (b->recon_entries - a->recon_entries) * c->entry;
}

/* Random short bursts (1-8 stores, any table, 0-3 per window): the
 * adaptive policy pays no more than strict would in the same units. */
static void test_short_bursts_no_loss(void **state)
{
	struct fix f;
	struct vgpu_stats s0, s1;
	uint64_t x = 0x2545f4914f6cdd1dull, cost, strict = 0;
	const struct vgpu_ghyvi_costs *c;

	setup_adaptive(&f, *state);
	c = costs(&f);
	s0 = f.e->v->stats;
	for (int w = 0; w < 400; w++) {
		x ^= x << 13; x ^= x >> 7; x ^= x << 17;
		for (int b = 0; b < (int)(x % 4); b++) {
			int k = 1 + (int)((x >> (8 + 3 * b)) % 8);

			burst(&f, (int)((x >> (20 + 3 * b)) % NPT),
			      (int)((x >> 32) % 500), k);
			strict += (uint64_t)k * c->trap;
		}
		submit(&f);
	}
	s1 = f.e->v->stats;
	cost = cost_of(&f, &s0, &s1);
	print_message("short bursts: adaptive %llu, strict %llu (%.3fx); "
		      "traps %llu, EPT changes %llu, snapshots %llu, diffs %llu, "
		      "entries %llu\n",
		      (unsigned long long)cost, (unsigned long long)strict,
		      (double)cost / (double)strict,
		      (unsigned long long)(s1.pte_traps - s0.pte_traps),
		      (unsigned long long)(s1.wp_changes - s0.wp_changes),
		      (unsigned long long)(s1.snapshots - s0.snapshots),
		      (unsigned long long)(s1.recon_pages - s0.recon_pages),
		      (unsigned long long)(s1.recon_entries - s0.recon_entries));
	assert_true(cost <= strict + strict / 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_is_adaptive),
		cmocka_unit_test_setup_teardown(test_isolated_stays_strict, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_unknown_burst_breaks_even, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_learns_first_trap, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_global_prior, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_hot_stays_then_cools, ppgtt_env_setup, ppgtt_env_teardown),
		cmocka_unit_test_setup_teardown(test_short_bursts_no_loss, ppgtt_env_setup, ppgtt_env_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
