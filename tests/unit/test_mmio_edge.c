/* Unit tests for hv/vm/mmio_edge.c: which EPT violations on MMIO may be
 * emulated as one device access. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "hv/vm/mmio_edge.h"
#include "hv/vmx/vmx_defs.h"

#define DATA (EPT_QUAL_READ | EPT_QUAL_GLA_VALID | EPT_QUAL_GLA_TRANSLATED)
#define DEV 0xfe000000ull

static void test_walk(void **state)
{
	(void)state;
	assert_null(mmio_walk_problem(DATA));
	/* bit 7 set, bit 8 clear: a paging-structure access */
	assert_non_null(mmio_walk_problem(EPT_QUAL_READ | EPT_QUAL_GLA_VALID));
	/* no linear address at all */
	assert_non_null(mmio_walk_problem(EPT_QUAL_READ));
}

static const char *span(uint64_t gla, uint64_t gpa, unsigned size,
			uint64_t rgpa, uint64_t rsize)
{
	struct mmio_access a = { DATA, gla, gpa, size, false, 0 };

	return mmio_span_problem(&a, rgpa, rsize);
}

static void test_span(void **state)
{
	(void)state;
	assert_null(span(0x7000008, DEV + 8, 8, DEV, 4096));
	assert_null(span(0x7000ff8, DEV + 0xff8, 8, DEV, 4096));
	/* 8 bytes at 0xffc: runs off the page */
	assert_non_null(span(0x7000ffc, DEV + 0xffc, 8, DEV, 4096));
	/* inside the page but past a 16-byte device */
	assert_non_null(span(0x700000c, DEV + 0xc, 8, DEV, 16));
	/* the linear address says the access began on the page before */
	assert_non_null(span(0x7000ffc, DEV, 8, DEV, 4096));
	/* a region of several pages: crossing inside it is still a split */
	assert_non_null(span(0x7000ffe, DEV + 0xffe, 4, DEV, 8192));
	/* rsize 0: only the page counts (write-protected RAM) */
	assert_null(span(0x5010, 0x5010, 8, 0, 0));
	assert_non_null(span(0x5ffd, 0x5ffd, 4, 0, 0));
	assert_non_null(span(0x5000, 0x5000, 0, 0, 0));
	/* SSE/AVX moves: 16 and 32 bytes are one access here, still held
	 * to the page and the device */
	assert_null(span(0x5010, 0x5010, 16, 0, 0));
	assert_null(span(0x7000fe0, DEV + 0xfe0, 32, DEV, 4096));
	assert_non_null(span(0x7000ff8, DEV + 0xff8, 16, DEV, 4096));
	assert_non_null(span(0x7000008, DEV + 8, 16, DEV, 16));
	assert_non_null(span(0x5000, 0x5000, 33, 0, 0));
}

/* Pieces of a wide access: naturally aligned, at most 8 bytes, covering
 * it exactly, in address order. */
static void test_pieces(void **state)
{
	static const struct {
		uint64_t gpa;
		unsigned size, n;
		uint8_t want[8];
	} c[] = {
		{ 0x1000, 16, 2, { 8, 8 } },
		{ 0x1000, 32, 4, { 8, 8, 8, 8 } },
		{ 0x1004, 16, 3, { 4, 8, 4 } },
		{ 0x1001, 16, 5, { 1, 2, 4, 8, 1 } },
		{ 0x1002, 4, 2, { 2, 2 } },
		{ 0x1008, 8, 1, { 8 } },
		{ 0x1003, 1, 1, { 1 } },
	};

	(void)state;
	for (size_t k = 0; k < sizeof(c) / sizeof(c[0]); k++) {
		uint64_t at = c[k].gpa;
		unsigned left = c[k].size, i = 0;

		while (left) {
			unsigned p = mmio_piece(at, left);

			assert_true(i < c[k].n);
			assert_int_equal(p, c[k].want[i]);
			assert_int_equal(at & (p - 1), 0);
			at += p;
			left -= p;
			i++;
		}
		assert_int_equal(i, c[k].n);
	}
	assert_int_equal(mmio_piece(0x1000, 0), 0);
}

/* The CPU reports the faulting piece of a split access (Bochs does):
 * linear and physical offsets agree (0), only the instruction's own
 * address shows that it began 4 bytes earlier, in RAM. */
static void test_split_from_ram(void **state)
{
	struct mmio_access a = { DATA, 0x10000001000ull, DEV, 8, true,
				 0x10000000ffcull };

	(void)state;
	assert_non_null(mmio_span_problem(&a, DEV, 4096));
	a.ea = a.gla;		/* the aligned access there is fine */
	assert_null(mmio_span_problem(&a, DEV, 4096));
	a.have_ea = false;	/* unknown: nothing to compare */
	a.ea = 0;
	assert_null(mmio_span_problem(&a, DEV, 4096));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_span),
		cmocka_unit_test(test_split_from_ram),
		cmocka_unit_test(test_pieces),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
