/* hv/cpu/rlock.h's inline fast path (docs/performance.md "The device
 * lock's fast path"): a take of a free lock and its owner's outermost
 * drop never leave the header. This test links no rlock.c: its own
 * rlock_take_slow/rlock_drop_slow count the calls and what they were
 * given, so anything the fast path does not finish shows up here (and
 * an rlock without the inline path does not link). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hv/cpu/rlock.h"

static unsigned take_calls, drop_calls;
static uint32_t take_seen;

void rlock_take_slow(struct rlock *l, uint32_t me, uint32_t seen)
{
	(void)l, (void)me;
	take_calls++;
	take_seen = seen;
}

void rlock_drop_slow(struct rlock *l, uint32_t me)
{
	(void)l, (void)me;
	drop_calls++;
}

static int reset(void **state)
{
	(void)state;
	take_calls = drop_calls = 0;
	take_seen = 0;
	return 0;
}

/* Free: taken and dropped inline, owner/depth/takes as the slow path
 * would leave them, nothing counted as contended. */
static void test_free_take_drop_inline(void **state)
{
	struct rlock l = RLOCK_INIT;

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		rlock_take(&l, 5);
		assert_int_equal(l.owner, 5);
		assert_int_equal(rlock_depth(&l, 5), 1);
		assert_true(rlock_held(&l, 5));
		assert_false(rlock_held(&l, 4));
		rlock_drop(&l, 5);
		assert_int_equal(l.owner, RLOCK_FREE);
	}
	assert_int_equal(l.takes, 3);
	assert_int_equal(l.contended, 0);
	assert_int_equal(l.spins, 0);
	assert_int_equal(take_calls, 0);
	assert_int_equal(drop_calls, 0);
}

/* Held by me: the CMPXCHG fails and the slow path gets me as the owner
 * seen (it nests); nothing changed inline. */
static void test_nested_take_goes_out(void **state)
{
	struct rlock l = RLOCK_INIT;

	(void)state;
	rlock_take(&l, 2);
	rlock_take(&l, 2);
	assert_int_equal(take_calls, 1);
	assert_int_equal(take_seen, 2);
	assert_int_equal(rlock_depth(&l, 2), 1);	/* the stub did not nest */
	assert_int_equal(l.takes, 1);
}

/* Held by another CPU: out of line with that CPU as the owner seen,
 * the lock untouched. */
static void test_held_elsewhere_goes_out(void **state)
{
	struct rlock l = RLOCK_INIT;

	(void)state;
	rlock_take(&l, 1);
	rlock_take(&l, 3);
	assert_int_equal(take_calls, 1);
	assert_int_equal(take_seen, 1);
	assert_int_equal(l.owner, 1);
	assert_int_equal(l.takes, 1);
}

/* A nested drop (depth 2) and a drop by a non-owner or of a free lock
 * go out of line (the slow path nests down or traps), the lock as was. */
static void test_other_drops_go_out(void **state)
{
	struct rlock l = RLOCK_INIT;

	(void)state;
	rlock_drop(&l, 0);		/* free */
	assert_int_equal(drop_calls, 1);
	l.owner = 7 | RLOCK_NEST_ONE;
	rlock_drop(&l, 7);		/* nested */
	assert_int_equal(drop_calls, 2);
	assert_int_equal(rlock_depth(&l, 7), 2);
	l.owner = 7;
	rlock_drop(&l, 6);		/* not the owner */
	assert_int_equal(drop_calls, 3);
	assert_int_equal(l.owner, 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_free_take_drop_inline, reset),
		cmocka_unit_test_setup(test_nested_take_goes_out, reset),
		cmocka_unit_test_setup(test_held_elsewhere_goes_out, reset),
		cmocka_unit_test_setup(test_other_drops_go_out, reset),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
