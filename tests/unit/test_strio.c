/* Unit tests for hv/vm/strio.c: a REP string I/O instruction done in
 * chunks of at most STRIO_CHUNK elements per exit ends with the registers
 * the CPU would leave after doing it in one go, whatever the count, the
 * direction and the address size; every exit but the last leaves work
 * (RIP stays). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "hv/vm/strio.h"

/* Runs the instruction exit by exit as exit_io_string.c does; returns
 * the number of exits and the largest chunk one exit did. */
static unsigned run(struct strio *s, uint64_t *max_chunk, uint64_t *moved)
{
	unsigned exits = 0;

	*max_chunk = 0;
	*moved = 0;
	for (;;) {
		uint64_t n = strio_chunk(s);

		exits++;
		if (n > *max_chunk)
			*max_chunk = n;
		for (uint64_t i = 0; i < n; i++)
			strio_advance(s);
		*moved += n;
		if (!strio_left(s) || !s->rep)
			return exits;	/* RIP moves on */
		assert_true(exits < 1000000);
	}
}

static void test_rep_4096_forward(void **state)
{
	struct strio s = { .idx = 0x1000, .rcx = 4096, .amask = ~0ull,
			   .step = 1, .rep = true };
	uint64_t max, moved;

	(void)state;
	assert_int_equal(run(&s, &max, &moved), 4096 / STRIO_CHUNK);
	assert_int_equal(max, STRIO_CHUNK);
	assert_int_equal(moved, 4096);
	assert_int_equal(s.idx, 0x1000 + 4096);
	assert_int_equal(s.rcx, 0);
}

/* A count that is not a multiple of the chunk, dwords, DF set. */
static void test_rep_backward_dwords(void **state)
{
	struct strio s = { .idx = 0x8000, .rcx = 37, .amask = ~0ull,
			   .step = -4, .rep = true };
	uint64_t max, moved;

	(void)state;
	assert_int_equal(run(&s, &max, &moved), 3);
	assert_int_equal(moved, 37);
	assert_int_equal(s.idx, 0x8000 - 37 * 4);
	assert_int_equal(s.rcx, 0);
}

/* 16-bit addressing: SI and CX wrap within 16 bits, the upper bits of
 * RSI/RCX stay as they were; the count is CX alone. */
static void test_addr16_wraps(void **state)
{
	struct strio s = { .idx = 0xabcd0000fff0ull, .rcx = 0x5555000000000020ull,
			   .amask = 0xffff, .step = 1, .rep = true };
	uint64_t max, moved;

	(void)state;
	assert_int_equal(strio_left(&s), 0x20);
	run(&s, &max, &moved);
	assert_int_equal(moved, 0x20);
	assert_int_equal(s.idx, 0xabcd00000010ull);
	assert_int_equal(s.rcx, 0x5555000000000000ull);
}

/* Without REP: one element, RCX untouched, done in one exit. */
static void test_no_rep(void **state)
{
	struct strio s = { .idx = 10, .rcx = 999, .amask = ~0ull, .step = 2,
			   .rep = false };
	uint64_t max, moved;

	(void)state;
	assert_int_equal(run(&s, &max, &moved), 1);
	assert_int_equal(moved, 1);
	assert_int_equal(s.idx, 12);
	assert_int_equal(s.rcx, 999);
}

/* REP with a zero count does nothing and moves on. */
static void test_rep_zero(void **state)
{
	struct strio s = { .idx = 10, .rcx = 0, .amask = 0xffffffffull,
			   .step = 1, .rep = true };

	(void)state;
	assert_int_equal(strio_chunk(&s), 0);
	assert_int_equal(strio_left(&s), 0);
}

/* A guest-chosen count of 2^32 - 1 never makes one exit do more than a
 * chunk. */
static void test_huge_count_bounded(void **state)
{
	struct strio s = { .idx = 0, .rcx = 0xffffffffull, .amask = 0xffffffffull,
			   .step = 1, .rep = true };

	(void)state;
	assert_int_equal(strio_chunk(&s), STRIO_CHUNK);
	for (unsigned i = 0; i < STRIO_CHUNK; i++)
		strio_advance(&s);
	assert_int_equal(s.rcx, 0xffffffffull - STRIO_CHUNK);
	assert_int_equal(s.idx, STRIO_CHUNK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rep_4096_forward),
		cmocka_unit_test(test_rep_backward_dwords),
		cmocka_unit_test(test_addr16_wraps),
		cmocka_unit_test(test_no_rep),
		cmocka_unit_test(test_rep_zero),
		cmocka_unit_test(test_huge_count_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
