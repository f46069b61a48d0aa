/* Unit tests for hv/vm/vm_stats.c: a restarted VM's share line counts
 * only its new life (the skew vm_restart used to leave: start_tsc reset,
 * guest, exit, slice and halted ticks not). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vm/vm.h"
#include "hv/vmx/vmx_defs.h"

/* A first life: 1,000 ticks, 700 in the guest, 100 handling exits, 900
 * in slices, 50 halted. */
static void first_life(struct vm_stats *s)
{
	memset(s, 0, sizeof(*s));
	s->start_tsc = 1000;
	s->run_tsc = 700;
	s->exits[EXIT_REASON_IO_INSTRUCTION] = 30;
	s->exit_tsc[EXIT_REASON_IO_INSTRUCTION] = 100;
	s->entries = 30;
	s->slice_tsc = 900;
	s->slices = 9;
	s->halted_tsc = 50;
	s->steal_tsc = 77;
	s->irqs_injected = 5;
	s->exit_max_tsc = 400;
}

static void test_restart_inside_a_slice(void **state)
{
	struct vm_stats s;

	(void)state;
	first_life(&s);
	s.slice_start_tsc = 1900;	/* vm_reset_if_pending runs in a slice */
	vm_stats_new_life(&s, 2000);
	assert_int_equal(s.start_tsc, 2000);
	assert_int_equal(s.run_tsc, 0);
	assert_int_equal(s.exits[EXIT_REASON_IO_INSTRUCTION], 0);
	assert_int_equal(s.exit_tsc[EXIT_REASON_IO_INSTRUCTION], 0);
	assert_int_equal(s.entries, 0);
	assert_int_equal(s.slice_tsc, 0);
	assert_int_equal(s.slices, 0);
	assert_int_equal(s.halted_tsc, 0);
	/* The running slice's part before the restart was the old life's. */
	assert_int_equal(s.slice_start_tsc, 2000);
	/* Not the life's: steal (gBalloon's w), events, the longest exit. */
	assert_int_equal(s.steal_tsc, 77);
	assert_int_equal(s.irqs_injected, 5);
	assert_int_equal(s.exit_max_tsc, 400);
}

static void test_restart_outside_a_slice(void **state)
{
	struct vm_stats s;

	(void)state;
	first_life(&s);
	s.halt_start_tsc = 1500;	/* halted when the shell restarted it */
	vm_stats_new_life(&s, 2000);
	assert_int_equal(s.slice_start_tsc, 0);
	assert_int_equal(s.halt_start_tsc, 0);
	assert_int_equal(s.halted_tsc, 0);
	assert_int_equal(s.start_tsc, 2000);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restart_inside_a_slice),
		cmocka_unit_test(test_restart_outside_a_slice),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
