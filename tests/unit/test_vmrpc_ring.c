/* The guest channel's checking core (hv/vm/vmrpc_ring.c): which records a
 * kick takes, what is refused, and that a guest's head can never make it
 * read outside the ring or more than a ring's worth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "hv/vm/vmrpc_ring.h"

static struct vmrpc_msg ring[VMRPC_SLOTS];
static unsigned reads, bad_slot;

static bool read_ring(void *ctx, uint32_t slot, struct vmrpc_msg *out)
{
	(void)ctx;
	reads++;
	if (slot >= VMRPC_SLOTS) {
		bad_slot++;
		return false;
	}
	*out = ring[slot];
	return true;
}

static bool read_fails(void *ctx, uint32_t slot, struct vmrpc_msg *out)
{
	(void)ctx;
	(void)slot;
	(void)out;
	return false;
}

static void put(uint32_t at, uint32_t type, uint64_t a, uint64_t b)
{
	ring[at % VMRPC_SLOTS] = (struct vmrpc_msg){ type, at, a, b, 0 };
}

static void test_check_rules(void **state)
{
	struct vmrpc_msg m = { VMRPC_STATS, 1, 5, 4096, 0 };

	(void)state;
	assert_int_equal(vmrpc_check(&m), VMRPC_OK);
	m.reserved = 1;
	assert_int_equal(vmrpc_check(&m), VMRPC_EINVAL);
	m = (struct vmrpc_msg){ VMRPC_EXPAND, 1, 8, 0, 0 };
	assert_int_equal(vmrpc_check(&m), VMRPC_OK);
	m.a = 9;
	assert_int_equal(vmrpc_check(&m), VMRPC_ENOSPC);
	m.a = 0;
	assert_int_equal(vmrpc_check(&m), VMRPC_EINVAL);
	m = (struct vmrpc_msg){ VMRPC_RELEASE, 1, 2, 0, 0 };
	assert_int_equal(vmrpc_check(&m), VMRPC_OK);
	m.b = 1;
	assert_int_equal(vmrpc_check(&m), VMRPC_EINVAL);
	m = (struct vmrpc_msg){ 0, 1, 0, 0, 0 };
	assert_int_equal(vmrpc_check(&m), VMRPC_EINVAL);
	m.type = 0xffffffffu;
	assert_int_equal(vmrpc_check(&m), VMRPC_EINVAL);
}

static void test_takes_between_tail_and_head(void **state)
{
	struct vmrpc_msg out[VMRPC_SLOTS];
	struct vmrpc_take t;

	(void)state;
	memset(ring, 0, sizeof(ring));
	put(10, VMRPC_STATS, 1, 2);
	put(11, VMRPC_STATS, 3, 4);
	put(12, VMRPC_EXPAND, 2, 0);
	put(13, 99, 0, 0);
	put(14, VMRPC_EXPAND, 50, 0);	/* answered ENOSPC, so taken */
	vmrpc_take(15, 10, read_ring, NULL, out, VMRPC_SLOTS, &t);
	assert_int_equal(t.taken, 4);
	assert_int_equal(t.bad, 1);
	assert_int_equal(t.lost, 0);
	assert_int_equal(t.tail, 15);
	assert_int_equal(out[2].type, VMRPC_EXPAND);
	assert_int_equal(out[3].a, 50);
	/* Nothing new: nothing read. */
	reads = 0;
	vmrpc_take(15, 15, read_ring, NULL, out, VMRPC_SLOTS, &t);
	assert_int_equal(t.taken + t.bad + reads, 0);
	assert_int_equal(t.tail, 15);
}

/* A full ring taken in bounded chunks: 16, 16, ... each chunk's records
 * in order, `left` counting down, the lost count only in the first. */
static void test_chunks(void **state)
{
	struct vmrpc_msg out[16];
	struct vmrpc_take t;
	uint32_t tail = 200, chunks = 0, seen = 0;

	(void)state;
	memset(ring, 0, sizeof(ring));
	for (uint32_t i = 0; i < VMRPC_SLOTS + 40; i++)	/* 40 overwritten */
		put(200 + i, VMRPC_EXPAND, 1, 0);
	do {
		reads = 0;
		vmrpc_take(200 + VMRPC_SLOTS + 40, tail, read_ring, NULL, out,
			   16, &t);
		assert_true(reads <= 16);
		assert_int_equal(t.lost, chunks ? 0 : 40);
		for (uint32_t i = 0; i < t.taken; i++)
			assert_int_equal(out[i].seq, 240 + seen + i);
		seen += t.taken;
		tail = t.tail;
		chunks++;
		assert_int_equal(t.left, VMRPC_SLOTS - seen);
	} while (t.left);
	assert_int_equal(chunks, VMRPC_SLOTS / 16);
	assert_int_equal(seen, VMRPC_SLOTS);
	assert_int_equal(tail, 200 + VMRPC_SLOTS + 40);
}

static void test_indices_wrap(void **state)
{
	struct vmrpc_msg out[VMRPC_SLOTS];
	struct vmrpc_take t;

	(void)state;
	put(0xfffffffeu, VMRPC_STATS, 1, 1);
	put(0xffffffffu, VMRPC_STATS, 1, 1);
	put(0, VMRPC_STATS, 1, 1);
	vmrpc_take(1, 0xfffffffeu, read_ring, NULL, out, VMRPC_SLOTS, &t);
	assert_int_equal(t.taken, 3);
	assert_int_equal(t.tail, 1);
}

/* A guest that claims a billion records: one ring's worth read, the rest
 * counted lost, and never a slot outside the ring. */
static void test_overrun_is_bounded(void **state)
{
	struct vmrpc_msg out[VMRPC_SLOTS];
	struct vmrpc_take t;

	(void)state;
	memset(ring, 0, sizeof(ring));	/* type 0: all malformed */
	reads = bad_slot = 0;
	vmrpc_take(1000000000u, 0, read_ring, NULL, out, VMRPC_SLOTS, &t);
	assert_int_equal(reads, VMRPC_SLOTS);
	assert_int_equal(bad_slot, 0);
	assert_int_equal(t.bad, VMRPC_SLOTS);
	assert_int_equal(t.lost, 1000000000u - VMRPC_SLOTS);
	assert_int_equal(t.tail, 1000000000u);
	/* A head behind the tail is the same thing (indices are unsigned). */
	reads = 0;
	vmrpc_take(5, 6, read_ring, NULL, out, VMRPC_SLOTS, &t);
	assert_int_equal(reads, VMRPC_SLOTS);
	assert_int_equal(t.tail, 5);
}

static void test_unreadable_ring(void **state)
{
	struct vmrpc_msg out[VMRPC_SLOTS];
	struct vmrpc_take t;

	(void)state;
	vmrpc_take(3, 0, read_fails, NULL, out, VMRPC_SLOTS, &t);
	assert_int_equal(t.taken, 0);
	assert_int_equal(t.bad, 3);
	assert_int_equal(t.tail, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check_rules),
		cmocka_unit_test(test_takes_between_tail_and_head),
		cmocka_unit_test(test_indices_wrap),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_overrun_is_bounded),
		cmocka_unit_test(test_unreadable_ring),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
