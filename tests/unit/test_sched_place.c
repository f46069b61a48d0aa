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

/* cpus=1,2 with vcpus=2: one vCPU per CPU in list order; vcpus=3 on
 * cpus=2,1: round robin, the list's order kept (2, 1, 2); no list: all
 * on the home CPU, slot 0. */
static void test_vcpus_on_list(void **state)
{
	const uint8_t two[] = { 1, 2 }, rev[] = { 2, 1 };
	uint32_t cpu[8];
	uint8_t slot[8];

	(void)state;
	assert_true(sched_place_vcpus(two, 2, 0, 2, cpu, slot) == 0x6);
	assert_int_equal(cpu[0], 1);
	assert_int_equal(cpu[1], 2);
	assert_int_equal(slot[0], 0);
	assert_int_equal(slot[1], 1);

	assert_true(sched_place_vcpus(rev, 2, 0, 3, cpu, slot) == 0x6);
	assert_int_equal(cpu[0], 2);
	assert_int_equal(cpu[1], 1);
	assert_int_equal(cpu[2], 2);
	assert_int_equal(slot[2], 0);

	assert_true(sched_place_vcpus(NULL, 0, 3, 4, cpu, slot) == 0x8);
	for (unsigned i = 0; i < 4; i++) {
		assert_int_equal(cpu[i], 3);
		assert_int_equal(slot[i], 0);
	}
	assert_true(sched_place_vcpus(NULL, 0, 0, 1, cpu, slot) == 0x1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spread_in_order),
		cmocka_unit_test(test_least_loaded),
		cmocka_unit_test(test_bsp_and_bounds),
		cmocka_unit_test(test_aps_wanted),
		cmocka_unit_test(test_vcpus_on_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
