/* Unit tests for hv/vm/sched_slice.c: the scheduler's picks, budgets and
 * slice ends with time as plain numbers, including a simulation of one VM
 * storming timer interrupts beside a busy victim. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "hv/vm/sched_slice.h"

#define SLICE 10000
#define FLOOR 1000

static void test_deadline_floor(void **state)
{
	(void)state;
	/* Another VM's deadline already past: not before the floor. */
	assert_int_equal(sched_deadline(100, 100 + SLICE, UINT64_MAX, 50,
					FLOOR), 100 + FLOOR);
	/* Later than the floor: taken as is. */
	assert_int_equal(sched_deadline(100, 100 + SLICE, UINT64_MAX, 3000,
					FLOOR), 3000);
	/* The VM's own timer may be earlier than the floor. */
	assert_int_equal(sched_deadline(100, 100 + SLICE, 150, 50, FLOOR),
			 150);
	/* Never beyond the slice's end. */
	assert_int_equal(sched_deadline(100, 600, UINT64_MAX, UINT64_MAX,
					FLOOR), 600);
}

static void test_slice_over(void **state)
{
	(void)state;
	assert_false(sched_slice_over(500, 100, 100 + SLICE, 0, FLOOR));
	assert_true(sched_slice_over(1100, 100, 100 + SLICE, 0, FLOOR));
	assert_false(sched_slice_over(2000, 100, 100 + SLICE, UINT64_MAX,
				      FLOOR));
	assert_true(sched_slice_over(100 + SLICE, 100, 100 + SLICE,
				     UINT64_MAX, FLOOR));
}

static void test_pick_prefers_irq_with_budget(void **state)
{
	struct sched_cand c[3] = {
		{ true, false, SLICE }, { true, true, SLICE },
		{ true, true, 0 },
	};

	(void)state;
	assert_int_equal(sched_pick(c, 3, 0, SLICE), 1);
	c[1].budget = 0;	/* used up: no more preference */
	assert_int_equal(sched_pick(c, 3, 0, SLICE), 0);
	assert_int_equal(sched_pick(c, 3, 1, SLICE), 0);
}

static void test_pick_refills(void **state)
{
	struct sched_cand c[3] = {
		{ true, false, 0 }, { false, false, 500 }, { true, false, -300 },
	};

	(void)state;
	assert_int_equal(sched_pick(c, 3, 2, SLICE), 2);
	assert_int_equal(c[0].budget, SLICE);
	assert_int_equal(c[1].budget, SLICE);	/* no hoarding */
	assert_int_equal(c[2].budget, SLICE - 300);	/* debt carried */
}

static void test_pick_none(void **state)
{
	struct sched_cand c[2] = { { false, true, 0 }, { false, false, 5 } };

	(void)state;
	assert_int_equal(sched_pick(c, 2, 0, SLICE), -1);
	assert_int_equal(sched_pick(c, 0, 0, SLICE), -1);
}

static void test_charge_keeps_debt(void **state)
{
	(void)state;
	assert_int_equal(sched_charge(SLICE, 400), SLICE - 400);
	assert_int_equal(sched_charge(100, 50 * SLICE), 100 - 50 * SLICE);
	/* saturates instead of wrapping */
	assert_int_equal(sched_charge(-SCHED_DEBT_MAX + 5, 10),
			 -SCHED_DEBT_MAX);
	assert_int_equal(sched_charge(0, UINT64_MAX), -SCHED_DEBT_MAX);
}

/* VM 0 holds the CPU for 50 slices in one exit; VM 1 is runnable all the
 * time. The debt is paid: VM 1 then runs 49 or 50 slices before VM 0 is
 * picked again, and over the whole run each got half the CPU. */
static void test_debt_paid_in_later_rounds(void **state)
{
	struct sched_cand c[2] = { { true, false, 0 }, { true, false, 0 } };
	uint64_t ran[2] = { 0, 0 };
	unsigned cursor = 0, vm1_runs = 0;
	bool hogged = false;

	(void)state;
	for (int picks = 0; picks < 400; picks++) {
		int i = sched_pick(c, 2, cursor, SLICE);
		uint64_t t = (uint64_t)c[i].budget;

		assert_true(i >= 0);
		if (i == 0 && !hogged) {
			t = 50 * SLICE;		/* the long exit */
			hogged = true;
		} else if (i == 0 && hogged && vm1_runs < 1000) {
			assert_true(vm1_runs >= 49 && vm1_runs <= 51);
			vm1_runs = 1000;	/* checked once */
		} else if (i == 1 && vm1_runs < 1000) {
			vm1_runs++;
		}
		ran[i] += t;
		c[i].budget = sched_charge(c[i].budget, t);
		cursor = (unsigned)i + 1;
	}
	assert_int_equal(vm1_runs, 1000);
	assert_true(ran[0] * 100 / (ran[0] + ran[1]) >= 45);
	assert_true(ran[1] * 100 / (ran[0] + ran[1]) >= 45);
}

/* VM 0 has a timer due every 10 ticks forever; VM 1 just computes. With
 * the old rule (cut at the other VM's deadline, no floor) VM 1 would run
 * 0 ticks per pick. Simulated, VM 1 must get about half the CPU. */
static void test_lone_end(void **state)
{
	(void)state;
	/* A lone VM runs the longer of its budget and the lone length. */
	assert_int_equal(sched_lone_end(100, SLICE, 10 * SLICE),
			 100 + 10 * SLICE);
	assert_int_equal(sched_lone_end(100, 20 * SLICE, 10 * SLICE),
			 100 + 20 * SLICE);
	/* slice_lone_ms=0: the budget, as a plain slice. */
	assert_int_equal(sched_lone_end(100, SLICE / 2, 0), 100 + SLICE / 2);
	assert_int_equal(sched_lone_end(100, -5, 0), 100);
}

/* A lone slice ends with what a lone VM would have after as many plain
 * slices (each refilled by sched_pick) as it spanned. */
static void test_charge_lone_matches_rounds(void **state)
{
	(void)state;
	for (uint64_t ran = 1; ran <= 25 * SLICE; ran += 777) {
		int64_t lone = sched_charge_lone(SLICE, ran, SLICE);
		int64_t b = SLICE;
		uint64_t left = ran;

		/* plain: run min(budget, left), refill when used up */
		while (left) {
			uint64_t r = (uint64_t)b < left ? (uint64_t)b : left;

			b = sched_charge(b, r);
			left -= r;
			if (b <= 0)
				b += SLICE;
		}
		assert_true(lone > 0 && lone <= SLICE);
		assert_int_equal(lone, b);
	}
	/* Within its budget: charged as usual. */
	assert_int_equal(sched_charge_lone(SLICE, 300, SLICE), SLICE - 300);
	/* Saturated debt stays bounded and positive after refills. */
	assert_true(sched_charge_lone(1, UINT64_MAX, SLICE) > 0);
}

static void test_storm_victim_share(void **state)
{
	struct sched_cand c[2] = { { true, true, 0 }, { true, false, 0 } };
	uint64_t now = 0, ran[2] = { 0, 0 };
	unsigned cursor = 0;

	(void)state;
	for (int picks = 0; picks < 10000; picks++) {
		int i = sched_pick(c, 2, cursor, SLICE);
		uint64_t start = now, end = now + (uint64_t)c[i].budget;
		uint64_t other = i == 1 ? now + 10 : UINT64_MAX;
		uint64_t stop = sched_deadline(start, end, UINT64_MAX, other,
					       FLOOR);

		assert_true(i >= 0);
		assert_true(stop - start >= FLOOR ||
			    stop - start == (uint64_t)c[i].budget);
		assert_true(sched_slice_over(stop, start, end, other, FLOOR));
		now = stop;
		ran[i] += stop - start;
		c[i].budget = sched_charge(c[i].budget, stop - start);
		cursor = (unsigned)i + 1;
	}
	assert_true(ran[1] * 100 / now >= 45);
	assert_true(ran[0] * 100 / now >= 45);
}

/* The preemption timer as hv/vm/sched.c arms it: sched_deadline against
 * the end stretched by sched_stretch_end. */
struct sched_timer_in {
	uint64_t start, end, own, other, floor, stretch;
};

static uint64_t sched_timer_deadline(const struct sched_timer_in *in)
{
	return sched_deadline(in->start, sched_stretch_end(in->end,
							   in->stretch),
			      in->own, in->other, in->floor);
}

/* The preemption timer's deadline with and without the stretch:
 * without it, the end; with it, the VM's own event past the end, up to
 * end + stretch. */
static void test_timer_stretch_rules(void **state)
{
	struct sched_timer_in in = {
		.start = 100, .end = 100 + SLICE, .own = 100 + SLICE + 300,
		.other = UINT64_MAX, .floor = FLOOR, .stretch = 0,
	};

	(void)state;
	/* No stretch: the end, as before. */
	assert_int_equal(sched_timer_deadline(&in), 100 + SLICE);
	/* Stretch: the own event just past the end ends the slice too. */
	in.stretch = SLICE;
	assert_int_equal(sched_timer_deadline(&in), 100 + SLICE + 300);
	/* Own event before the end: taken as always. */
	in.own = 500;
	assert_int_equal(sched_timer_deadline(&in), 500);
	/* No own event, or one far off: bounded by end + stretch. */
	in.own = UINT64_MAX;
	assert_int_equal(sched_timer_deadline(&in), 100 + 2 * SLICE);
	in.own = 100 + 5 * SLICE;
	assert_int_equal(sched_timer_deadline(&in), 100 + 2 * SLICE);
	/* Another VM's event still cuts, not before the floor. */
	in.other = 50;
	assert_int_equal(sched_timer_deadline(&in), 100 + FLOOR);
	/* end + stretch past the top: saturates, never wraps below end. */
	in.other = UINT64_MAX;
	in.end = UINT64_MAX - 5;
	assert_int_equal(sched_timer_deadline(&in), 100 + 5 * SLICE);
	in.own = UINT64_MAX;
	assert_int_equal(sched_timer_deadline(&in), UINT64_MAX);
}

/* simulate_lone: a lone VM whose only exits are its own timer, every
 * `period` ticks (Linux's tick while busy), for `total` ticks; the slice
 * ends at the first exit at or past its end (sched_slice_over), as in
 * sched.c. Returns the preemption-timer exits; *slices and *longest the
 * main-loop rounds and the longest slice. */
static uint64_t simulate_lone(uint64_t period, uint64_t stretch,
			      uint64_t total, uint64_t *slices,
			      uint64_t *longest)
{
	uint64_t now = 0, start = 0, own = period, exits = 0;

	*slices = 0;
	*longest = 0;
	while (now < total) {
		struct sched_timer_in in = {
			.start = start, .end = start + SLICE, .own = own,
			.other = UINT64_MAX, .floor = FLOOR,
			.stretch = stretch,
		};

		now = sched_timer_deadline(&in);
		exits++;
		if (now >= own)
			own += period;	/* the timer interrupt injected */
		if (sched_slice_over(now, start, start + SLICE, UINT64_MAX,
				     FLOOR)) {
			if (now - start > *longest)
				*longest = now - start;
			(*slices)++;
			start = now;
		}
	}
	return exits;
}

/* Issue 31's preemption-timer exits: a VM alone with a 4,099-tick timer
 * and 10,000-tick slices takes one exit per timer event and one more per
 * slice end without the stretch; with it the slice ends ride on the
 * timer's exits (every exit is a timer event the guest needed), the main
 * loop still runs about once per slice, never later than slice + stretch. */
static void test_timer_stretch_saves_slice_exits(void **state)
{
	uint64_t total = 1000 * SLICE, slices, longest, before, after;
	uint64_t timer_events = total / 4099;

	(void)state;
	/* 4,099: its events never meet a slice end exactly */
	before = simulate_lone(4099, 0, total, &slices, &longest);
	assert_true(slices >= total / SLICE - 1);
	assert_true(before >= timer_events + slices - 1);
	after = simulate_lone(4099, SLICE, total, &slices, &longest);
	assert_true(after <= timer_events + 1);
	assert_true(slices >= total / (SLICE + 4099));
	assert_true(longest <= SLICE + 4099);
	/* No timer at all: one exit per slice + stretch, never longer. */
	after = simulate_lone(UINT64_MAX / 2, SLICE, total, &slices,
			      &longest);
	assert_int_equal(longest, 2 * SLICE);
	assert_int_equal(after, slices);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deadline_floor),
		cmocka_unit_test(test_slice_over),
		cmocka_unit_test(test_timer_stretch_rules),
		cmocka_unit_test(test_timer_stretch_saves_slice_exits),
		cmocka_unit_test(test_pick_prefers_irq_with_budget),
		cmocka_unit_test(test_pick_refills),
		cmocka_unit_test(test_pick_none),
		cmocka_unit_test(test_charge_keeps_debt),
		cmocka_unit_test(test_debt_paid_in_later_rounds),
		cmocka_unit_test(test_storm_victim_share),
		cmocka_unit_test(test_lone_end),
		cmocka_unit_test(test_charge_lone_matches_rounds),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
