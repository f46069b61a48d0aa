/* The trapped-aperture redirect table against a plain reference map under
 * random sets and clears (deletion shifts entries back: every survivor
 * must stay findable), plus the edges: full table, offsets, VM ids. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hv/gpu/ap_redirect.h"

#define CAP 256
#define KEYS 400 /* (vm, page) pairs the random run draws from */

static struct ap_redirect_slot slots[CAP];
static struct ap_redirect T;

static void fresh(void)
{
	memset(slots, 0, sizeof(slots));
	ap_redirect_init(&T, slots, CAP);
}

static void test_set_find_clear(void **state)
{
	uint64_t hpa;

	(void)state;
	fresh();
	assert_false(ap_redirect_find(&T, 0, 0x1000, &hpa));
	assert_int_equal(ap_redirect_set(&T, 2, 0xc0001000, 0xffe0042000), 0);
	assert_true(ap_redirect_find(&T, 2, 0xc0001abc, &hpa));
	assert_int_equal(hpa, 0xffe0042abc); /* page offset carried over */
	assert_false(ap_redirect_find(&T, 3, 0xc0001000, &hpa)); /* other VM */
	assert_int_equal(ap_redirect_set(&T, 2, 0xc0001000, 0xffe0043000), 0);
	assert_int_equal(T.used, 1); /* replaced, not added */
	assert_true(ap_redirect_find(&T, 2, 0xc0001000, &hpa));
	assert_int_equal(hpa, 0xffe0043000);
	ap_redirect_clear(&T, 2, 0xc0001000);
	ap_redirect_clear(&T, 2, 0xc0001000); /* twice: nothing */
	assert_false(ap_redirect_find(&T, 2, 0xc0001000, &hpa));
	assert_int_equal(T.used, 0);
}

static void test_full_table_refuses(void **state)
{
	uint32_t n = 0;

	(void)state;
	fresh();
	while (ap_redirect_set(&T, 1, (uint64_t)n << 12, 0x1000) == 0)
		n++;
	assert_int_equal(n, CAP * 3 / 4);
	assert_int_equal(T.used, n);
}

static void test_random_against_reference(void **state)
{
	static uint64_t ref[KEYS]; /* 0: absent */
	uint64_t hpa;

	(void)state;
	fresh();
	memset(ref, 0, sizeof(ref));
	srand(16);
	for (int step = 0; step < 200000; step++) {
		int k = rand() % KEYS;
		uint32_t vm = (uint32_t)(k % 5);
		uint64_t gpa = 0x80000000ull + ((uint64_t)(k / 5) << 12);

		if (rand() % 3) {
			uint64_t h = ((uint64_t)(rand() % 100000) + 1) << 12;

			if (ap_redirect_set(&T, vm, gpa, h) == 0)
				ref[k] = h;
			else
				assert_int_equal(ref[k], 0); /* only new ones fail */
		} else {
			ap_redirect_clear(&T, vm, gpa);
			ref[k] = 0;
		}
		if (step % 97 == 0)
			for (int q = 0; q < KEYS; q++) {
				bool f = ap_redirect_find(&T, (uint32_t)(q % 5),
							  0x80000000ull +
							  ((uint64_t)(q / 5) << 12),
							  &hpa);

				assert_int_equal(f, ref[q] != 0);
				if (f)
					assert_int_equal(hpa, ref[q]);
			}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_set_find_clear),
		cmocka_unit_test(test_full_table_refuses),
		cmocka_unit_test(test_random_against_reference),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
