/* hv/cpu/rlock.c with rlock.h: the owner-recursive spinlock as the
 * mediator and each VM's device lock use it. Nesting, the counters
 * (takes = outermost acquisitions, contended = of those found held,
 * spins = failed attempts), a drop by a CPU that does not hold it traps,
 * two threads exclude each other and the counters stay consistent when
 * they meet. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "hv/cpu/rlock.h"

static void test_nesting(void **state)
{
	struct rlock l = RLOCK_INIT;

	(void)state;
	rlock_take(&l, 0);
	rlock_take(&l, 0);
	rlock_take(&l, 0);
	assert_int_equal(rlock_depth(&l, 0), 3);
	assert_int_equal(l.takes, 1);
	rlock_drop(&l, 0);
	rlock_drop(&l, 0);
	assert_true(rlock_held(&l, 0));
	assert_int_equal(rlock_depth(&l, 0), 1);
	assert_int_equal(rlock_depth(&l, 1), 0);
	rlock_drop(&l, 0);
	assert_false(rlock_held(&l, 0));
	assert_int_equal(l.owner, RLOCK_FREE);
	/* Another CPU takes it free afterwards, inline. */
	rlock_take(&l, 1);
	assert_true(rlock_held(&l, 1));
	rlock_drop(&l, 1);
	assert_int_equal(l.takes, 2);
	assert_int_equal(l.contended, 0);
	assert_int_equal(l.spins, 0);
}

/* rlock_try: free or mine (nested) taken, another CPU's refused
 * without waiting or counting. */
static void test_try(void **state)
{
	struct rlock l = RLOCK_INIT;

	(void)state;
	assert_true(rlock_try(&l, 1));
	assert_true(rlock_try(&l, 1));
	assert_int_equal(rlock_depth(&l, 1), 2);
	assert_false(rlock_try(&l, 2));
	assert_int_equal(rlock_depth(&l, 1), 2);
	rlock_drop(&l, 1);
	rlock_drop(&l, 1);
	assert_true(rlock_try(&l, 2));
	rlock_drop(&l, 2);
	assert_int_equal(l.owner, RLOCK_FREE);
	assert_int_equal(l.takes, 2);
	assert_int_equal(l.contended, 0);
	assert_int_equal(l.spins, 0);
}

/* The deepest nesting allowed, and back to free. */
static void test_nesting_max(void **state)
{
	struct rlock l = RLOCK_INIT;

	(void)state;
	for (unsigned i = 0; i <= RLOCK_NEST_MAX; i++)
		rlock_take(&l, 63);
	assert_int_equal(rlock_depth(&l, 63), RLOCK_NEST_MAX + 1);
	assert_true(l.owner != RLOCK_FREE);
	for (unsigned i = 0; i <= RLOCK_NEST_MAX; i++)
		rlock_drop(&l, 63);
	assert_int_equal(l.owner, RLOCK_FREE);
	assert_int_equal(l.takes, 1);
}

/* The slow path entered after the inline CMPXCHG saw another owner
 * that has gone since: taken on its first try, counted as contended
 * with the one failed attempt. */
static void test_slow_after_release(void **state)
{
	struct rlock l = RLOCK_INIT;

	(void)state;
	rlock_take_slow(&l, 2, 9);
	assert_true(rlock_held(&l, 2));
	assert_int_equal(rlock_depth(&l, 2), 1);
	assert_int_equal(l.takes, 1);
	assert_int_equal(l.contended, 1);
	assert_int_equal(l.spins, 1);
	rlock_drop(&l, 2);
	assert_int_equal(l.owner, RLOCK_FREE);
}

/* drop_bad: 0 free lock, 1 held by another CPU, 2 one drop too many,
 * 3 nested by another CPU, 4 nested past RLOCK_NEST_MAX. */
static void drop_bad(int how)
{
	struct rlock l = RLOCK_INIT;

	if (how == 1)
		rlock_take(&l, 4);
	if (how == 2) {
		rlock_take(&l, 3);
		rlock_take(&l, 3);
		rlock_drop(&l, 3);
		rlock_drop(&l, 3);
	}
	if (how == 3) {
		rlock_take(&l, 4);
		rlock_take(&l, 4);
	}
	if (how == 4) {
		for (unsigned i = 0; i <= RLOCK_NEST_MAX + 1; i++)
			rlock_take(&l, 3);
		return;		/* the last take traps */
	}
	rlock_drop(&l, 3);
}

static void test_bad_drop_traps(void **state)
{
	(void)state;
	for (int how = 0; how < 5; how++) {
		int st = 0;
		pid_t pid = fork();

		assert_true(pid >= 0);
		if (pid == 0) {
			signal(SIGILL, SIG_DFL);	/* not cmocka's */
			drop_bad(how);
			_exit(0);
		}
		assert_int_equal(waitpid(pid, &st, 0), pid);
		assert_true(WIFSIGNALED(st));
		assert_int_equal(WTERMSIG(st), SIGILL);
	}
}

#define ITERS 20000

struct racer {
	struct rlock *l;
	uint32_t id;
	unsigned long *count;
	unsigned *go;
};

static void *race(void *arg)
{
	struct racer *r = arg;

	while (!__atomic_load_n(r->go, __ATOMIC_ACQUIRE))
		;
	for (unsigned i = 0; i < ITERS; i++) {
		rlock_take(r->l, r->id);
		if (i & 1)
			rlock_take(r->l, r->id);	/* nested */
		/* not atomic: the lock is what keeps it exact */
		*r->count = *r->count + 1;
		if (i & 1)
			rlock_drop(r->l, r->id);
		rlock_drop(r->l, r->id);
	}
	return NULL;
}

/* Two threads as two CPUs: every increment kept, every outermost take
 * counted once, contended never more than taken and every contended
 * take with at least one failed attempt. */
static void test_two_cpus_exclude(void **state)
{
	struct rlock l = RLOCK_INIT;
	unsigned long count = 0;
	unsigned go = 0;
	struct racer a = { &l, 0, &count, &go }, b = { &l, 1, &count, &go };
	pthread_t ta, tb;

	(void)state;
	assert_int_equal(pthread_create(&ta, NULL, race, &a), 0);
	assert_int_equal(pthread_create(&tb, NULL, race, &b), 0);
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
	assert_int_equal(count, 2 * ITERS);
	assert_int_equal(l.takes, 2 * ITERS);
	assert_true(l.contended <= l.takes);
	assert_true(l.spins >= l.contended);
	assert_int_equal(l.owner, RLOCK_FREE);
}

struct waiter {
	struct rlock *l;
	unsigned started;
};

static void *wait_take(void *arg)
{
	struct waiter *w = arg;

	__atomic_store_n(&w->started, 1, __ATOMIC_RELEASE);
	rlock_take(w->l, 1);
	rlock_drop(w->l, 1);
	return NULL;
}

/* CPU 0 holds it while CPU 1 tries: that take is counted contended with
 * its spins. The thread may reach its take only after the drop (a
 * loaded host): up to 50 tries, each must keep the counts consistent,
 * and one must meet. */
static void test_contended_counted(void **state)
{
	struct timespec ms20 = { 0, 20 * 1000 * 1000 };
	unsigned tries, met = 0;

	(void)state;
	for (tries = 0; tries < 50 && !met; tries++) {
		struct rlock l = RLOCK_INIT;
		struct waiter w = { &l, 0 };
		pthread_t t;

		rlock_take(&l, 0);
		assert_int_equal(pthread_create(&t, NULL, wait_take, &w), 0);
		while (!__atomic_load_n(&w.started, __ATOMIC_ACQUIRE))
			;
		nanosleep(&ms20, NULL);
		rlock_drop(&l, 0);
		pthread_join(t, NULL);
		assert_int_equal(l.takes, 2);
		assert_true(l.contended <= 1);
		assert_true(l.spins >= l.contended);
		met = (unsigned)l.contended;
	}
	assert_int_equal(met, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nesting),
		cmocka_unit_test(test_nesting_max),
		cmocka_unit_test(test_try),
		cmocka_unit_test(test_slow_after_release),
		cmocka_unit_test(test_bad_drop_traps),
		cmocka_unit_test(test_two_cpus_exclude),
		cmocka_unit_test(test_contended_counted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
