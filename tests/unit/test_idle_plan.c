/* hv/cpu/idle_plan.c: an idle CPU sleeps until the earliest of its cap,
 * its VMs' next timer and its devices' next need; never when it cannot
 * be woken by a timer, when work was posted, when a device is busy or
 * when the sleep would be too short to pay. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hv/cpu/idle_plan.h"

#define NOW 1000000ull
#define CAP 2000ull	/* 1 ms at 2 GHz */
#define MIN 20ull

static struct idle_in quiet(void)
{
	struct idle_in in = {
		.now = NOW, .cap = CAP, .min = MIN,
		.vm_next = UINT64_MAX, .dev_next = UINT64_MAX,
		.can_sleep = true, .mail = false,
	};
	return in;
}

/* Nothing due: the cap bounds the sleep (the shell's input, the GPU's
 * vblank ticks wait at most that long). */
static void test_nothing_due_sleeps_the_cap(void **state)
{
	struct idle_in in = quiet();

	(void)state;
	assert_int_equal(idle_plan_until(&in), NOW + CAP);
}

/* A VM's timer before the cap ends the sleep there; after it, the cap. */
static void test_vm_timer_first(void **state)
{
	struct idle_in in = quiet();

	(void)state;
	in.vm_next = NOW + 500;
	assert_int_equal(idle_plan_until(&in), NOW + 500);
	in.vm_next = NOW + CAP + 1;
	assert_int_equal(idle_plan_until(&in), NOW + CAP);
}

/* The GPU's next need before the VMs' timer wins. */
static void test_device_first(void **state)
{
	struct idle_in in = quiet();

	(void)state;
	in.vm_next = NOW + 900;
	in.dev_next = NOW + 300;
	assert_int_equal(idle_plan_until(&in), NOW + 300);
}

/* A busy GPU (its next need now or past), a timer already due or one
 * closer than the shortest sleep worth its cost: spin, do not sleep. */
static void test_due_or_too_close_spins(void **state)
{
	struct idle_in in = quiet();

	(void)state;
	in.dev_next = NOW;
	assert_int_equal(idle_plan_until(&in), 0);
	in.dev_next = 0;
	assert_int_equal(idle_plan_until(&in), 0);
	in = quiet();
	in.vm_next = NOW - 1;
	assert_int_equal(idle_plan_until(&in), 0);
	in.vm_next = NOW + MIN - 1;
	assert_int_equal(idle_plan_until(&in), 0);
	in.vm_next = NOW + MIN;
	assert_int_equal(idle_plan_until(&in), NOW + MIN);
}

/* Posted work or no TSC-deadline timer: never sleep. */
static void test_mail_or_no_timer_spins(void **state)
{
	struct idle_in in = quiet();

	(void)state;
	in.mail = true;
	assert_int_equal(idle_plan_until(&in), 0);
	in = quiet();
	in.can_sleep = false;
	assert_int_equal(idle_plan_until(&in), 0);
}

/* A cap that would wrap the TSC saturates instead of waking at once. */
static void test_cap_saturates(void **state)
{
	struct idle_in in = quiet();

	(void)state;
	in.now = UINT64_MAX - 10;
	in.cap = 100;
	in.min = 1;
	assert_true(idle_plan_until(&in) == UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_due_sleeps_the_cap),
		cmocka_unit_test(test_vm_timer_first),
		cmocka_unit_test(test_device_first),
		cmocka_unit_test(test_due_or_too_close_spins),
		cmocka_unit_test(test_mail_or_no_timer_spins),
		cmocka_unit_test(test_cap_saturates),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
