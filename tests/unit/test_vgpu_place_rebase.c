/* The guest side of a move (guest-shim/vmrpc, g9hv/vmrpc_guest.h): a
 * layout is collected from its R_RANGES replies (one per range, "more
 * follows" on all but the last; a sequence with a hole is dropped), and a
 * GM address is re-based by its high offset (the k-th page of the old
 * ranges is the k-th of the new ones). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "guest-shim/include/g9hv/vmrpc_guest.h"

#define MiB (1ull << 20)

static struct vmrpc_reply ranges(uint32_t i, uint64_t base, uint64_t size,
				 uint32_t status)
{
	struct vmrpc_reply r = { VMRPC_R_RANGES, 0, status, i,
				 0x8000000, 32 * MiB, base, size };

	return r;
}

static void test_layout_from_replies(void **state)
{
	struct vmrpc_layout b = { 0 }, done = { 0 };
	struct vmrpc_reply r = ranges(0, 0x48000000, 64 * MiB, VMRPC_MORE);
	struct vmrpc_reply ack = { VMRPC_R_ACK, 5, VMRPC_OK, 0, 0, 0, 0, 0 };

	(void)state;
	assert_false(vmrpc_layout_feed(&b, &ack, &done));
	assert_false(vmrpc_layout_feed(&b, &r, &done));
	r = ranges(1, 0x58000000, 64 * MiB, VMRPC_OK);
	assert_true(vmrpc_layout_feed(&b, &r, &done));
	assert_int_equal(done.n, 2);
	assert_int_equal(done.base[1], 0x58000000);
	assert_int_equal(done.low_size, 32 * MiB);
	/* A hole (range 1 overwritten unread): dropped until a range 0. */
	r = ranges(0, 0x28000000, 64 * MiB, VMRPC_MORE);
	assert_false(vmrpc_layout_feed(&b, &r, &done));
	r = ranges(2, 0x38000000, 64 * MiB, VMRPC_OK);
	assert_false(vmrpc_layout_feed(&b, &r, &done));
	r = ranges(1, 0x30000000, 64 * MiB, VMRPC_OK);
	assert_false(vmrpc_layout_feed(&b, &r, &done));
	assert_int_equal(done.n, 2); /* the last good one */
	/* A move is R_MOVED; a sequence mixing both kinds is dropped. */
	r = ranges(0, 0x40000000, 128 * MiB, VMRPC_OK);
	r.type = VMRPC_R_MOVED;
	assert_true(vmrpc_layout_feed(&b, &r, &done));
	assert_true(done.moved);
	r = ranges(0, 0x48000000, 64 * MiB, VMRPC_MORE);
	r.type = VMRPC_R_MOVED;
	assert_false(vmrpc_layout_feed(&b, &r, &done));
	r = ranges(1, 0x58000000, 64 * MiB, VMRPC_OK);
	assert_false(vmrpc_layout_feed(&b, &r, &done));
	assert_int_equal(done.base[0], 0x40000000);
	/* One range, as a version-1 hypervisor sends it. */
	r = ranges(0, 0x28000000, 128 * MiB, VMRPC_OK);
	assert_true(vmrpc_layout_feed(&b, &r, &done));
	assert_int_equal(done.n, 1);
	assert_false(done.moved);
	/* Too many ranges: never a layout. */
	for (uint32_t i = 0; i <= VMRPC_MAX_RANGES; i++) {
		r = ranges(i, 0x28000000 + i * 128 * MiB, 64 * MiB,
			   i == VMRPC_MAX_RANGES ? VMRPC_OK : VMRPC_MORE);
		assert_false(vmrpc_layout_feed(&b, &r, &done));
	}
}

static void test_rebase_by_high_offset(void **state)
{
	struct vmrpc_layout one = { .n = 1, .base = { 0x28000000 },
				    .size = { 128 * MiB } };
	struct vmrpc_layout split = { .n = 2,
				      .base = { 0x48000000, 0x58000000 },
				      .size = { 64 * MiB, 64 * MiB } };
	struct vmrpc_layout small = { .n = 1, .base = { 0x28000000 },
				      .size = { 64 * MiB } };

	(void)state;
	/* First half stays first, second half goes to the second range. */
	assert_int_equal(vmrpc_rebase(&one, &split, 0x28001234), 0x48001234);
	assert_int_equal(vmrpc_rebase(&one, &split, 0x28000000 + 64 * MiB + 8),
			 0x58000008);
	assert_int_equal(vmrpc_rebase(&split, &one, 0x58000008),
			 0x28000000 + 64 * MiB + 8);
	/* Low GM and foreign addresses do not move. */
	assert_int_equal(vmrpc_rebase(&one, &split, 0x8001000), 0x8001000);
	/* Beyond the new layout: ~0. */
	assert_int_equal(vmrpc_rebase(&one, &small, 0x28000000 + 100 * MiB),
			 ~0ull);
	assert_true(vmrpc_layout_same(&one, &one));
	assert_false(vmrpc_layout_same(&one, &split));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_from_replies),
		cmocka_unit_test(test_rebase_by_high_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
