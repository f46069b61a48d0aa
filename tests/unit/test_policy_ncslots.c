/* Non-contiguous slots (gpu/policy/ncslots.c): the closed-form minimum of
 * shared slots and ncs_place against exhaustive search, expansion and
 * reduction against every choice, runs, and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/hw/gpu_hw.h"
#include "gpu/policy/ncslots.h"
#include "gpu/dymgpu/dymgpu_place.h"
#include "gpu/policy/slots.h"

static uint32_t rnd(uint32_t *st, uint32_t n)
{
	*st = *st * 1103515245u + 12345u;
	return (*st >> 8) % n;
}

static uint32_t popc(uint32_t x)
{
	return (uint32_t)__builtin_popcount(x);
}

/* Exhaustive: every vGPU takes every subset of [0, m) of its size. */
struct brute {
	uint32_t m, n, s[8];
	uint32_t users[16];
	uint32_t best;
};

static void brute_rec(struct brute *b, uint32_t i)
{
	if (i == b->n) {
		uint32_t shared = 0;

		for (uint32_t x = 0; x < b->m; x++)
			shared += b->users[x] > 1;
		if (shared < b->best)
			b->best = shared;
		return;
	}
	for (uint32_t mask = 0; mask < 1u << b->m; mask++) {
		if (popc(mask) != b->s[i])
			continue;
		for (uint32_t x = 0; x < b->m; x++)
			b->users[x] += mask >> x & 1;
		brute_rec(b, i + 1);
		for (uint32_t x = 0; x < b->m; x++)
			b->users[x] -= mask >> x & 1;
	}
}

static uint32_t brute_min_shared(uint32_t m, uint32_t n, const uint32_t *s)
{
	struct brute b;

	memset(&b, 0, sizeof(b));
	b.m = m;
	b.n = n;
	memcpy(b.s, s, n * sizeof(*s));
	b.best = UINT32_MAX;
	brute_rec(&b, 0);
	return b.best;
}

static void check_placed(const struct ncs_layout *l, const uint32_t *s)
{
	assert_int_equal(ncs_check(l), 0);
	for (uint32_t i = 0; i < l->n; i++)
		assert_int_equal(ncs_count(&l->set[i]), s[i]);
}

/* Every size vector on m = 1..5 slots with n = 1..3 vGPUs: the closed
 * form equals the exhaustive minimum, and ncs_place reaches it. */
static void test_min_shared_exhaustive_small(void **state)
{
	struct ncs_layout *l = calloc(1, sizeof(*l));
	uint32_t cases = 0;

	(void)state;
	for (uint32_t m = 1; m <= 5; m++)
		for (uint32_t n = 1; n <= 3; n++) {
			uint32_t total = 1;

			for (uint32_t i = 0; i < n; i++)
				total *= m;
			for (uint32_t code = 0; code < total; code++) {
				uint32_t s[3], c = code;

				for (uint32_t i = 0; i < n; i++) {
					s[i] = 1 + c % m;
					c /= m;
				}
				uint32_t want = brute_min_shared(m, n, s);

				assert_int_equal(ncs_min_shared(m, n, s), want);
				l->m = m;
				l->n = n;
				assert_int_equal(ncs_place(l, s, NULL), want);
				check_placed(l, s);
				assert_int_equal(ncs_shared(l), want);
				cases++;
			}
		}
	assert_true(cases > 100);
	free(l);
}

/* Larger: m = 6 or 7, four vGPUs, random sizes and weights. */
static void test_min_shared_exhaustive_random(void **state)
{
	struct ncs_layout *l = calloc(1, sizeof(*l));
	uint32_t st = 99;

	(void)state;
	for (int t = 0; t < 40; t++) {
		uint32_t m = 6 + rnd(&st, 2), n = 4, s[4], w[4];
		uint32_t want;

		for (uint32_t i = 0; i < n; i++) {
			s[i] = 1 + rnd(&st, m);
			w[i] = rnd(&st, 100);
		}
		want = brute_min_shared(m, n, s);
		assert_int_equal(ncs_min_shared(m, n, s), want);
		l->m = m;
		l->n = n;
		assert_int_equal(ncs_place(l, s, w), want);
		check_placed(l, s);
		assert_int_equal(ncs_shared(l), want);
	}
	free(l);
}

/* Contiguous placement is a special case of sets: no contiguous layout
 * (DymGPU's, or any) has fewer shared slots than the minimum. */
static void test_never_worse_than_contiguous(void **state)
{
	struct ncs_layout *l = calloc(1, sizeof(*l));
	uint32_t st = 5;

	(void)state;
	for (int t = 0; t < 3000; t++) {
		struct slot_layout c;
		uint32_t s[SLOTS_MAX_VGPUS];
		int min, dym;

		memset(&c, 0, sizeof(c));
		c.m = 1 + rnd(&st, 60);
		c.n = 1 + rnd(&st, 20);
		for (uint32_t i = 0; i < c.n; i++)
			s[i] = c.s[i] = 1 + rnd(&st, c.m);
		min = ncs_min_shared(c.m, c.n, s);
		assert_true(min >= 0);
		dym = dymgpu_place_by_size(&c);
		assert_true(dym >= 0);
		assert_true(slots_shared(&c) >= (uint32_t)min);
		for (uint32_t i = 0; i < c.n; i++)
			c.p[i] = rnd(&st, c.m - c.s[i] + 1);
		assert_true(slots_shared(&c) >= (uint32_t)min);
		/* And the sets reach it, sizes honoured, inside m. */
		l->m = c.m;
		l->n = c.n;
		assert_int_equal(ncs_place(l, s, NULL), min);
		check_placed(l, s);
		ncs_from_contig(l, &c);
		assert_int_equal(ncs_shared(l), slots_shared(&c));
	}
	free(l);
}

/* Weights: within the minimum, the private slots left over go to the
 * heaviest first, and the shared parts go to the least loaded slots. */
static void test_place_weights(void **state)
{
	struct ncs_layout *l = calloc(1, sizeof(*l));
	/* 10 slots, 12 wanted: one shared slot; each must keep s - 1 slots
	 * of its own (8), the ninth private slot goes to the busiest. */
	static const uint32_t s[] = { 4, 4, 2, 2 }, w[] = { 5, 90, 10, 80 };
	static const uint32_t s2[] = { 4, 4, 4, 4 }, w2[] = { 5, 90, 10, 80 };
	struct ncs_run r[4];

	(void)state;
	l->m = 10;
	l->n = 4;
	assert_int_equal(ncs_place(l, s, w), 1);
	check_placed(l, s);
	for (uint32_t x = 0; x < 10; x++)
		if (ncs_has(&l->set[1], x))
			assert_int_equal(ncs_users(l, x), 1);
	/* Busiest first: vGPU 1 in one run from slot 0. */
	assert_int_equal(ncs_runs(&l->set[1], l->m, r, 4), 1);
	assert_int_equal(r[0].first, 0);
	assert_int_equal(r[0].count, 4);
	/* 16 wanted on 10: the minimum (2) forces every vGPU onto both
	 * shared slots - fewest shared slots is not fewest copies when the
	 * vGPUs differ in load (see ncs_cost). */
	assert_int_equal(ncs_place(l, s2, w2), 2);
	check_placed(l, s2);
	assert_int_equal(ncs_users(l, 8), 4);
	assert_int_equal(ncs_users(l, 9), 4);
	free(l);
}

/* Among all q-subsets outside the set, ncs_expand takes one covering the
 * fewest occupied slots (Algorithm 1's count), and ncs_reduce gives up a
 * q-subset with the most. */
static uint32_t others(const struct ncs_layout *l, uint32_t k, uint32_t x)
{
	uint32_t u = ncs_users(l, x);

	return ncs_has(&l->set[k], x) ? u - 1 : u;
}

static void test_expand_reduce_optimal(void **state)
{
	struct ncs_layout *l = calloc(1, sizeof(*l));
	uint32_t st = 17;

	(void)state;
	for (int t = 0; t < 4000; t++) {
		uint32_t k, q, best, got, have = 0;
		struct ncs_set added, removed;

		memset(l, 0, sizeof(*l));
		l->m = 1 + rnd(&st, 10);
		l->n = 1 + rnd(&st, 5);
		for (uint32_t i = 0; i < l->n; i++)
			for (uint32_t x = 0; x < l->m; x++)
				if (rnd(&st, 3) == 0)
					ncs_add(&l->set[i], x);
		k = rnd(&st, l->n);
		for (uint32_t x = 0; x < l->m; x++)
			have |= (uint32_t)ncs_has(&l->set[k], x) << x;
		q = rnd(&st, l->m + 1);
		if (popc(have) + q > l->m) {
			assert_int_equal(ncs_expand(l, k, q, NULL, NULL),
					 -GPU_EINVAL);
			continue;
		}
		best = UINT32_MAX;
		for (uint32_t mask = 0; mask < 1u << l->m; mask++) {
			uint32_t c = 0;

			if ((mask & have) || popc(mask) != q)
				continue;
			for (uint32_t x = 0; x < l->m; x++)
				c += (mask >> x & 1) * others(l, k, x);
			best = c < best ? c : best;
		}
		assert_int_equal(ncs_expand(l, k, q, NULL, &added), 0);
		got = 0;
		for (uint32_t x = 0; x < l->m; x++)
			if (ncs_has(&added, x)) {
				assert_false(have >> x & 1);
				got += others(l, k, x);
			}
		assert_int_equal(ncs_count(&added), q);
		assert_int_equal(got, best);
		assert_int_equal(ncs_count(&l->set[k]), popc(have) + q);
		/* Reduce by a random amount: the most shared go. */
		have = 0;
		for (uint32_t x = 0; x < l->m; x++)
			have |= (uint32_t)ncs_has(&l->set[k], x) << x;
		q = rnd(&st, popc(have) + 1);
		best = 0;
		for (uint32_t mask = 0; mask < 1u << l->m; mask++) {
			uint32_t c = 0;

			if ((mask & ~have) || popc(mask) != q)
				continue;
			for (uint32_t x = 0; x < l->m; x++)
				c += (mask >> x & 1) * others(l, k, x);
			best = c > best ? c : best;
		}
		assert_int_equal(ncs_reduce(l, k, q, NULL, &removed), 0);
		got = 0;
		for (uint32_t x = 0; x < l->m; x++)
			if (ncs_has(&removed, x)) {
				assert_true(have >> x & 1);
				assert_false(ncs_has(&l->set[k], x));
				got += others(l, k, x);
			}
		assert_int_equal(got, best);
		assert_int_equal(ncs_count(&l->set[k]), popc(have) - q);
		assert_int_equal(ncs_check(l), 0);
	}
	free(l);
}

/* The gBalloon figure 4 situation with sets: vGPU4 (one slot, slot 2
 * 0-based) asks for two more. Contiguous, the best is left by two (2
 * occupied slots covered). Every slot is occupied here, so a set covers 2
 * as well: it takes slots 1 (next to its own) and 0, the same as
 * Algorithm 1. */
static void test_figure4_with_sets(void **state)
{
	static const uint32_t s[] = { 2, 2, 2, 1 }, p[] = { 0, 2, 3, 2 };
	struct ncs_layout *l = calloc(1, sizeof(*l));
	struct slot_layout c;
	struct ncs_set added;
	uint32_t cov = 0;

	(void)state;
	memset(&c, 0, sizeof(c));
	c.m = 5;
	c.n = 4;
	memcpy(c.s, s, sizeof(s));
	memcpy(c.p, p, sizeof(p));
	ncs_from_contig(l, &c);
	assert_int_equal(ncs_expand(l, 3, 2, NULL, &added), 0);
	for (uint32_t x = 0; x < 5; x++)
		if (ncs_has(&added, x))
			cov += others(l, 3, x);
	assert_int_equal(cov, 2);
	/* Adjacent to its own slot among equals: slots 0 and 1. */
	assert_true(ncs_has(&added, 1));
	free(l);
}

/* The copy cost: two always-busy users of a slot cost 2 slot copies per
 * round, busy with idle 0; three busy at 50%: each copies when one of the
 * other two ran (75%), 3 x 0.5 x 0.75. */
static void test_cost_model(void **state)
{
	struct ncs_layout *l = calloc(1, sizeof(*l));
	uint32_t u[3] = { 1000, 1000, 0 };

	(void)state;
	l->m = 4;
	l->n = 3;
	ncs_add(&l->set[0], 0);
	ncs_add(&l->set[1], 0);
	ncs_add(&l->set[2], 1);
	ncs_add(&l->set[0], 1);
	assert_int_equal(ncs_cost(l, u), 2000);
	u[0] = u[1] = u[2] = 500;
	ncs_add(&l->set[2], 0);
	assert_int_equal(ncs_cost(l, u), 1125 + 2 * 500 * 500 / 1000);
	u[0] = 5000; /* clamped to 1000 */
	assert_int_equal(ncs_cost(l, u), 500 * 1000 / 1000 * 2 + 1000 * 750 /
			 1000 + 1000 * 500 / 1000 + 500 * 1000 / 1000);
	free(l);
}

/* Exhaustive on small cases: the copy-aware placement is never costlier
 * than the fewest-shared one, within 15% of the true minimum, and equal to
 * it in most cases (388 of 400 when this was written). */
struct cbrute {
	struct ncs_layout l;
	uint32_t m, n, s[8], u[8];
	uint64_t best;
};

static void cbrute_rec(struct cbrute *b, uint32_t i)
{
	if (i == b->n) {
		uint64_t c = ncs_cost(&b->l, b->u);

		if (c < b->best)
			b->best = c;
		return;
	}
	for (uint32_t mask = 0; mask < 1u << b->m; mask++) {
		if (popc(mask) != b->s[i])
			continue;
		memset(&b->l.set[i], 0, sizeof(b->l.set[i]));
		for (uint32_t x = 0; x < b->m; x++)
			if (mask >> x & 1)
				ncs_add(&b->l.set[i], x);
		cbrute_rec(b, i + 1);
	}
	memset(&b->l.set[i], 0, sizeof(b->l.set[i]));
}

static void test_place_cost_near_optimal(void **state)
{
	struct cbrute *b = calloc(1, sizeof(*b));
	struct ncs_layout *g = calloc(1, sizeof(*g)), *h = calloc(1, sizeof(*h));
	uint32_t st = 1, optimal = 0;

	(void)state;
	for (int t = 0; t < 400; t++) {
		int64_t c;

		memset(b, 0, sizeof(*b));
		b->m = 3 + rnd(&st, 4);
		b->n = 2 + rnd(&st, 3);
		for (uint32_t i = 0; i < b->n; i++) {
			b->s[i] = 1 + rnd(&st, b->m);
			b->u[i] = rnd(&st, 3) == 0 ? 1000 : rnd(&st, 1001);
		}
		b->l.m = b->m;
		b->l.n = b->n;
		b->best = UINT64_MAX;
		cbrute_rec(b, 0);
		g->m = h->m = b->m;
		g->n = h->n = b->n;
		c = ncs_place_cost(g, b->s, b->u);
		assert_true(c >= 0);
		check_placed(g, b->s);
		assert_int_equal((uint64_t)c, ncs_cost(g, b->u));
		assert_true(ncs_place(h, b->s, b->u) >= 0);
		assert_true((uint64_t)c <= ncs_cost(h, b->u));
		assert_true((uint64_t)c * 100 <= b->best * 115);
		optimal += (uint64_t)c == b->best;
	}
	assert_true(optimal >= 360);
	free(b);
	free(g);
	free(h);
}

static void test_runs(void **state)
{
	struct ncs_set s;
	struct ncs_run r[3];

	(void)state;
	memset(&s, 0, sizeof(s));
	assert_int_equal(ncs_runs(&s, 10, r, 3), 0);
	ncs_add(&s, 0);
	ncs_add(&s, 1);
	ncs_add(&s, 4);
	ncs_add(&s, 7);
	ncs_add(&s, 8);
	ncs_add(&s, 9);
	assert_int_equal(ncs_runs(&s, 10, r, 3), 3);
	assert_int_equal(r[0].first, 0);
	assert_int_equal(r[0].count, 2);
	assert_int_equal(r[1].first, 4);
	assert_int_equal(r[1].count, 1);
	assert_int_equal(r[2].first, 7);
	assert_int_equal(r[2].count, 3);
	/* More runs than room: counted, only max written. */
	ncs_add(&s, 2);
	ncs_del(&s, 1);
	memset(r, 0xff, sizeof(r));
	assert_int_equal(ncs_runs(&s, 10, r, 2), 4);
	assert_int_equal(r[1].first, 2);
	assert_int_equal(r[1].count, 1);
	/* Only the first m slots count. */
	assert_int_equal(ncs_runs(&s, 5, r, 3), 3);
	/* Slots 255 and beyond the bitmap. */
	memset(&s, 0, sizeof(s));
	ncs_add(&s, SLOTS_MAX - 1);
	ncs_add(&s, SLOTS_MAX); /* ignored */
	assert_int_equal(ncs_count(&s), 1);
	assert_false(ncs_has(&s, SLOTS_MAX));
	assert_int_equal(ncs_runs(&s, SLOTS_MAX + 5, r, 3), 1);
	assert_int_equal(r[0].first, SLOTS_MAX - 1);
}

static void test_bad_input(void **state)
{
	struct ncs_layout *l = calloc(1, sizeof(*l));
	uint32_t s[2] = { 3, 0 };

	(void)state;
	l->m = 4;
	l->n = 2;
	assert_int_equal(ncs_min_shared(4, 2, s), -GPU_EINVAL); /* size 0 */
	assert_int_equal(ncs_place(l, s, NULL), -GPU_EINVAL);
	s[1] = 5;
	assert_int_equal(ncs_min_shared(4, 2, s), -GPU_EINVAL); /* > m */
	s[1] = 4;
	assert_int_equal(ncs_min_shared(SLOTS_MAX + 1, 2, s), -GPU_EINVAL);
	assert_int_equal(ncs_min_shared(4, SLOTS_MAX_VGPUS + 1, s),
			 -GPU_EINVAL);
	assert_int_equal(ncs_place(l, s, NULL), 3);
	assert_int_equal(ncs_expand(l, 2, 1, NULL, NULL), -GPU_EINVAL);
	assert_int_equal(ncs_expand(l, 0, 2, NULL, NULL), -GPU_EINVAL);
	assert_int_equal(ncs_reduce(l, 0, 4, NULL, NULL), -GPU_EINVAL);
	assert_int_equal(ncs_reduce(l, 1, 4, NULL, NULL), 0);
	assert_int_equal(ncs_count(&l->set[1]), 0);
	/* A set reaching past m is refused. */
	ncs_add(&l->set[0], 4);
	assert_int_equal(ncs_check(l), -GPU_EINVAL);
	assert_int_equal(ncs_expand(l, 1, 1, NULL, NULL), -GPU_EINVAL);
	free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_min_shared_exhaustive_small),
		cmocka_unit_test(test_min_shared_exhaustive_random),
		cmocka_unit_test(test_never_worse_than_contiguous),
		cmocka_unit_test(test_place_weights),
		cmocka_unit_test(test_expand_reduce_optimal),
		cmocka_unit_test(test_figure4_with_sets),
		cmocka_unit_test(test_cost_model),
		cmocka_unit_test(test_place_cost_near_optimal),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_bad_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
