/* DymGPU placements and gBalloon's Algorithm 1 (gpu/policy) on the papers'
 * worked examples, plus property tests on random layouts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/hw/gpu_hw.h"
#include "gpu/dymgpu/dymgpu_place.h"
#include "gpu/gballoon/gballoon_adjust.h"
#include "gpu/policy/slots.h"

static struct slot_layout layout(uint32_t m, uint32_t n, const uint32_t *s,
				 const uint32_t *p)
{
	struct slot_layout l;

	memset(&l, 0, sizeof(l));
	l.m = m;
	l.n = n;
	for (uint32_t i = 0; i < n; i++) {
		l.s[i] = s[i];
		l.p[i] = p ? p[i] : 0;
	}
	return l;
}

/* gBalloon figure 4: five slots; vGPU1..vGPU3 hold two slots each at 1-2,
 * 3-4 and 4-5, vGPU4 one slot at 3 (1-based). vGPU4 asks for two more:
 * left 2 adds 2 shared slots, 1+1 adds 3, right 2 adds 3: it expands left
 * by two. */
static void test_gballoon_figure4_expand_left(void **state)
{
	static const uint32_t s[] = { 2, 2, 2, 1 }, p[] = { 0, 2, 3, 2 };
	struct slot_layout l = layout(5, 4, s, p);
	uint32_t left, right;

	(void)state;
	assert_int_equal(gballoon_expand(&l, 3, 2, &left, &right), 0);
	assert_int_equal(left, 2);
	assert_int_equal(right, 0);
	slots_apply(&l, 3, (int32_t)left, (int32_t)right);
	assert_int_equal(l.p[3], 0);
	assert_int_equal(l.s[3], 3);
	assert_int_equal(slots_check(&l), 0);
}

/* Same figure: reducing vGPU3 by one slot gives up slot 4 (shared with
 * vGPU2), not slot 5. */
static void test_gballoon_figure4_reduce(void **state)
{
	static const uint32_t s[] = { 2, 2, 2, 1 }, p[] = { 0, 2, 3, 2 };
	struct slot_layout l = layout(5, 4, s, p);
	uint32_t left, right;

	(void)state;
	assert_int_equal(gballoon_reduce(&l, 2, 1, &left, &right), 0);
	assert_int_equal(left, 1);
	assert_int_equal(right, 0);
}

static void test_gballoon_errors(void **state)
{
	static const uint32_t s[] = { 2, 2, 2, 1 }, p[] = { 0, 2, 3, 2 };
	struct slot_layout l = layout(5, 4, s, p);
	uint32_t left, right;

	(void)state;
	/* S_K + Q > M */
	assert_int_equal(gballoon_expand(&l, 3, 5, &left, &right), -GPU_EINVAL);
	/* S_K < Q */
	assert_int_equal(gballoon_reduce(&l, 3, 2, &left, &right), -GPU_EINVAL);
	/* no such vGPU; a layout that does not fit */
	assert_int_equal(gballoon_expand(&l, 4, 1, &left, &right), -GPU_EINVAL);
	l.p[0] = 4;
	assert_int_equal(gballoon_expand(&l, 3, 1, &left, &right), -GPU_EINVAL);
}

/* DymGPU figure 5: M = 5, needs 4, 4, 3, 2 -> P = 0, 1, 1, 1 and L = 3. */
static void test_dymgpu_figure5(void **state)
{
	static const uint32_t s[] = { 4, 4, 3, 2 };
	struct slot_layout l = layout(5, 4, s, NULL);

	(void)state;
	assert_int_equal(dymgpu_place_by_size(&l), 3);
	assert_int_equal(l.p[0], 0);
	assert_int_equal(l.p[1], 1);
	assert_int_equal(l.p[2], 1);
	assert_int_equal(l.p[3], 1);
	assert_int_equal(slots_shared(&l), 3); /* slots 1, 2, 3 (0-based) */
}

static void test_dymgpu_fits_unshared(void **state)
{
	static const uint32_t s[] = { 1, 3, 2 };
	struct slot_layout l = layout(6, 3, s, NULL);

	(void)state;
	assert_int_equal(dymgpu_place_by_size(&l), 0);
	assert_int_equal(l.p[1], 0);
	assert_int_equal(l.p[2], 3);
	assert_int_equal(l.p[0], 5);
	assert_int_equal(slots_shared(&l), 0);
	l.s[0] = 7; /* larger than high GM */
	assert_int_equal(dymgpu_place_by_size(&l), -GPU_EINVAL);
}

/* Figure 6: the busiest get slots of their own, the rest the right end. */
static void test_dymgpu_by_util(void **state)
{
	static const uint32_t s[] = { 2, 2, 2, 2 }, util[] = { 10, 50, 30, 5 };
	struct slot_layout l = layout(6, 4, s, NULL);

	(void)state;
	assert_int_equal(dymgpu_place_by_util(&l, util), 3);
	assert_int_equal(l.p[1], 0);
	assert_int_equal(l.p[2], 2);
	assert_int_equal(l.p[0], 4);
	assert_int_equal(l.p[3], 4); /* shares with the least busy placed */
}

static uint32_t rnd(uint32_t *st, uint32_t n)
{
	*st = *st * 1103515245u + 12345u;
	return (*st >> 8) % n;
}

static struct slot_layout random_layout(uint32_t *st)
{
	struct slot_layout l;

	memset(&l, 0, sizeof(l));
	l.m = 2 + rnd(st, 14);
	l.n = 1 + rnd(st, 8);
	for (uint32_t i = 0; i < l.n; i++) {
		l.s[i] = 1 + rnd(st, l.m);
		l.p[i] = rnd(st, l.m - l.s[i] + 1);
	}
	return l;
}

/* Occupied slots of the others that vGPU k's new slots would cover. */
static uint32_t added(const struct slot_layout *l, uint32_t k, uint32_t left,
		      uint32_t right)
{
	uint32_t c = 0;

	for (uint32_t j = 0; j < l->n; j++) {
		if (j == k)
			continue;
		for (uint32_t x = l->p[k] - left; x < l->p[k]; x++)
			c += x >= l->p[j] && x - l->p[j] < l->s[j];
		for (uint32_t x = l->p[k] + l->s[k];
		     x < l->p[k] + l->s[k] + right; x++)
			c += x >= l->p[j] && x - l->p[j] < l->s[j];
	}
	return c;
}

/* Brute force over every split that keeps the vGPU in high GM: Algorithm 1
 * finds the minimum (expansion) / maximum (reduction). */
static void test_gballoon_optimal_on_random_layouts(void **state)
{
	uint32_t st = 42;

	(void)state;
	for (int t = 0; t < 20000; t++) {
		struct slot_layout l = random_layout(&st);
		uint32_t k = rnd(&st, l.n), q = rnd(&st, l.m + 1), L, R;
		uint32_t best = UINT32_MAX;

		if (gballoon_expand(&l, k, q, &L, &R)) {
			assert_true(l.s[k] + q > l.m);
			continue;
		}
		assert_int_equal(L + R, q);
		assert_true(L <= l.p[k] && l.p[k] + l.s[k] + R <= l.m);
		for (uint32_t i = 0; i <= q; i++)
			if (i <= l.p[k] && l.p[k] + l.s[k] + (q - i) <= l.m &&
			    added(&l, k, i, q - i) < best)
				best = added(&l, k, i, q - i);
		assert_int_equal(added(&l, k, L, R), best);
		slots_apply(&l, k, (int32_t)L, (int32_t)R);
		assert_int_equal(slots_check(&l), 0);
		/* And back: the reduction gives up the most shared slots. */
		q = rnd(&st, l.s[k] + 1);
		assert_int_equal(gballoon_reduce(&l, k, q, &L, &R), 0);
		best = 0;
		for (uint32_t i = 0; i <= q; i++) {
			struct slot_layout c = l;

			slots_apply(&c, k, -(int32_t)i, -(int32_t)(q - i));
			if (added(&c, k, i, q - i) > best)
				best = added(&c, k, i, q - i);
		}
		{
			struct slot_layout c = l;

			slots_apply(&c, k, -(int32_t)L, -(int32_t)R);
			assert_int_equal(added(&c, k, L, R), best);
		}
	}
}

static void test_dymgpu_random_placements_valid(void **state)
{
	uint32_t st = 7;

	(void)state;
	for (int t = 0; t < 5000; t++) {
		struct slot_layout l = random_layout(&st);
		uint32_t s0[SLOTS_MAX_VGPUS], util[SLOTS_MAX_VGPUS];
		int band;

		memcpy(s0, l.s, sizeof(s0));
		band = dymgpu_place_by_size(&l);
		assert_true(band >= 0);
		assert_int_equal(slots_check(&l), 0);
		assert_memory_equal(s0, l.s, l.n * sizeof(uint32_t));
		/* Unshared placement leaves no shared slot at all. */
		if (band == 0)
			assert_int_equal(slots_shared(&l), 0);
		for (uint32_t i = 0; i < l.n; i++)
			util[i] = rnd(&st, 100);
		assert_true(dymgpu_place_by_util(&l, util) >= 1);
		assert_int_equal(slots_check(&l), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gballoon_figure4_expand_left),
		cmocka_unit_test(test_gballoon_figure4_reduce),
		cmocka_unit_test(test_gballoon_errors),
		cmocka_unit_test(test_dymgpu_figure5),
		cmocka_unit_test(test_dymgpu_fits_unshared),
		cmocka_unit_test(test_dymgpu_by_util),
		cmocka_unit_test(test_gballoon_optimal_on_random_layouts),
		cmocka_unit_test(test_dymgpu_random_placements_valid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
