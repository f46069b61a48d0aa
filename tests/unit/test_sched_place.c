/* hv/vm/sched_place.c: an unpinned VM goes to the least loaded shared
 * CPU, the lowest number on a tie (the BSP first); pinned or unready CPUs
 * never take one; how many APs are readied at boot. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hv/vm/sched_place.h"

/* VMs of one vCPU each, created one after the other on 4 CPUs of which
 * CPU 3 is pinned (not shared): 0, 1, 2, then round again from 0. */
static void test_spread_in_order(void **state)
{
	uint32_t load[4] = { 0 };
	const unsigned want[] = { 0, 1, 2, 0, 1, 2, 0 };

	(void)state;
	for (unsigned v = 0; v < sizeof(want) / sizeof(want[0]); v++) {
		unsigned cpu = sched_place_pick(load, 4, 0x7);

		assert_int_equal(cpu, want[v]);
		load[cpu]++;
	}
	assert_int_equal(load[3], 0);
}

/* Load counts vCPUs: a 3-vCPU VM on CPU 1 sends the next two VMs
 * elsewhere; a VM that stopped frees its share (the caller counts only
 * VMs not stopped). */
static void test_least_loaded(void **state)
{
	uint32_t load[3] = { 1, 3, 0 };

	(void)state;
	assert_int_equal(sched_place_pick(load, 3, 0x7), 2);
	load[2] = 1;
	assert_int_equal(sched_place_pick(load, 3, 0x7), 0);	/* tie: lowest */
	load[0] = 2;
	assert_int_equal(sched_place_pick(load, 3, 0x7), 2);
	load[1] = 0;		/* its VM stopped */
	assert_int_equal(sched_place_pick(load, 3, 0x7), 1);
}

/* The BSP counts as shared whatever the mask says; bits at or above nr
 * (CPUs that did not come up) and beyond 64 are never picked. */
static void test_bsp_and_bounds(void **state)
{
	uint32_t load[70] = { 5 };

	(void)state;
	assert_int_equal(sched_place_pick(load, 1, 0), 0);
	assert_int_equal(sched_place_pick(load, 2, 0), 0);	/* 1 not shared */
	assert_int_equal(sched_place_pick(load, 2, 0x2), 1);
	assert_int_equal(sched_place_pick(load, 1, 0x2), 0);	/* 1 not up */
	for (unsigned i = 1; i < 70; i++)
		load[i] = 9;
	load[65] = 0;
	assert_int_equal(sched_place_pick(load, 70, ~0ull), 0);
}

static void test_aps_wanted(void **state)
{
	(void)state;
	assert_int_equal(sched_place_aps_wanted(0, true), 0);
	assert_int_equal(sched_place_aps_wanted(1, true), 0);
	assert_int_equal(sched_place_aps_wanted(4, true), 3);
	assert_int_equal(sched_place_aps_wanted(4, false), 0);	/* spread=no */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_in_order),
		cmocka_unit_test(test_least_loaded),
		cmocka_unit_test(test_bsp_and_bounds),
		cmocka_unit_test(test_aps_wanted),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
