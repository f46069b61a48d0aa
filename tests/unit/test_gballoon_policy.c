/* gBalloon's runtime policy (gpu/policy/gballoon_policy.c): equation 3 with
 * the paper's thresholds, and the choice of the vGPU to shrink. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpu/policy/gballoon_policy.h"

static const struct gballoon_params defaults;

static void test_f_normalizes_both_terms(void **state)
{
	struct gballoon_params p = { .w_max_permille = 2000,
				     .rcopy_max_permille = 100 };

	(void)state;
	assert_int_equal(gballoon_f(&p, 4, 0, 0), 0);
	/* Half of each maximum: 0.5 + 0.5. */
	assert_int_equal(gballoon_f(&p, 4, 1000, 50), 1000);
	/* The paper's range is 0..2: each term saturates at its maximum. */
	assert_int_equal(gballoon_f(&p, 4, 5000, 900), 2000);
	/* Defaults: W_max = 100% per VM, R_max = 100%. */
	assert_int_equal(gballoon_f(&defaults, 3, 1500, 0), 500);
	assert_int_equal(gballoon_f(&defaults, 3, 0, 250), 250);
	assert_int_equal(gballoon_f(&defaults, 0, 500, 0), 500);
}

static void test_bands_at_the_thresholds(void **state)
{
	struct gballoon_params p = { .low = 300, .high = 700 };

	(void)state;
	assert_int_equal(gballoon_band_of(&defaults, 0), GBALLOON_CALM);
	assert_int_equal(gballoon_band_of(&defaults, 499), GBALLOON_CALM);
	assert_int_equal(gballoon_band_of(&defaults, 500), GBALLOON_BUSY);
	assert_int_equal(gballoon_band_of(&defaults, 999), GBALLOON_BUSY);
	assert_int_equal(gballoon_band_of(&defaults, 1000), GBALLOON_OVERLOADED);
	assert_int_equal(gballoon_band_of(&defaults, 2000), GBALLOON_OVERLOADED);
	assert_int_equal(gballoon_band_of(&p, 299), GBALLOON_CALM);
	assert_int_equal(gballoon_band_of(&p, 300), GBALLOON_BUSY);
	assert_int_equal(gballoon_band_of(&p, 700), GBALLOON_OVERLOADED);
}

static void test_victim_is_largest_then_least_used(void **state)
{
	struct gballoon_vgpu v[4] = {
		{ 4, 2, 900 }, { 6, 0, 100 }, { 4, 1, 300 }, { 2, 1, 0 },
	};

	(void)state;
	/* vGPU 1 is largest but holds no grant: never shrunk. Of 0 and 2
	 * (4 slots each), 2 uses less. */
	assert_int_equal(gballoon_pick_victim(v, 4), 2);
	v[2].used_permille = 950;
	assert_int_equal(gballoon_pick_victim(v, 4), 0);
	v[0].granted = v[2].granted = 0;
	assert_int_equal(gballoon_pick_victim(v, 4), 3);
	v[3].granted = 0;
	assert_int_equal(gballoon_pick_victim(v, 4), -1);
	assert_int_equal(gballoon_pick_victim(v, 0), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f_normalizes_both_terms),
		cmocka_unit_test(test_bands_at_the_thresholds),
		cmocka_unit_test(test_victim_is_largest_then_least_used),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
