/* Unit tests of the physical page allocator (hv/mm/page_alloc.c).
 *
 * "Physical memory" is a page-aligned arena from aligned_alloc; as on the
 * machine, a pointer is its own physical address (hv/mm/mem.h). Host heap
 * addresses are far above PAGE_ALLOC_MIN_ADDR, so ranges below 1 MiB are
 * fabricated and only inspected (page_alloc_range, stats), never allocated
 * from: the allocator touches memory only when it hands it out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/mm/page_alloc.h"

#define ARENA_PAGES 256
#define POISON 0xa5

static uint8_t *arena;
static struct page_alloc_stats st;

static uint64_t arena_pa(unsigned page)
{
	return (uint64_t)(uintptr_t)(arena + (size_t)page * PAGE_SIZE);
}

static struct mem_range usable(unsigned first, unsigned pages)
{
	return (struct mem_range){ arena_pa(first), pages, MEM_USABLE };
}

static int setup(void **state)
{
	(void)state;
	if (!arena) {
		arena = aligned_alloc(PAGE_SIZE, ARENA_PAGES * PAGE_SIZE);
		if (!arena)
			return -1;
	}
	memset(arena, POISON, ARENA_PAGES * PAGE_SIZE);
	page_alloc_init(NULL, 0);
	return 0;
}

static int teardown_group(void **state)
{
	(void)state;
	free(arena);
	arena = NULL;
	return 0;
}

static void stats(void)
{
	page_alloc_get_stats(&st);
}

/* p is page-aligned, inside [first, first+pages) of the arena, and zero. */
static unsigned check_page(const void *p, unsigned first, unsigned pages)
{
	const uint8_t *b = p;
	size_t idx;

	assert_non_null(p);
	assert_int_equal((uintptr_t)p % PAGE_SIZE, 0);
	assert_true(b >= arena + (size_t)first * PAGE_SIZE);
	idx = (size_t)(b - arena) / PAGE_SIZE;
	assert_true(idx < (size_t)first + pages);
	for (size_t i = 0; i < PAGE_SIZE; i++)
		if (b[i])
			fail_msg("page %zu byte %zu not zeroed", idx, i);
	return (unsigned)idx;
}

static bool page_is_poison(unsigned page)
{
	const uint8_t *b = arena + (size_t)page * PAGE_SIZE;

	for (size_t i = 0; i < PAGE_SIZE; i++)
		if (b[i] != POISON)
			return false;
	return true;
}

static void test_empty(void **state)
{
	uint64_t base, pages, left;

	(void)state;
	stats();
	assert_int_equal(st.total_pages, 0);
	assert_int_equal(st.nr_ranges, 0);
	assert_null(page_alloc());
	assert_null(page_alloc_contig(2));
	stats();
	assert_int_equal(st.failed_calls, 2);
	assert_int_equal(st.alloc_calls, 0);
	assert_false(page_alloc_range(0, &base, &pages, &left));
}

static void test_init_ranges_and_types(void **state)
{
	uint64_t base, pages, left;

	(void)state;
	struct mem_range map[] = {
		usable(0, 16),
		{ arena_pa(16), 8, MEM_FIRMWARE },
		{ arena_pa(24), 8, MEM_ACPI_RECLAIM },
		usable(32, 0), /* empty */
		usable(40, 8),
		{ arena_pa(48), 8, MEM_RESERVED },
		{ arena_pa(56), 8, MEM_HV_IMAGE },
		{ arena_pa(64), 8, MEM_MMIO },
		{ arena_pa(72), 8, MEM_ACPI_NVS },
		{ arena_pa(80), 8, MEM_UNUSABLE },
		{ arena_pa(88), 8, MEM_TYPE_COUNT }, /* unknown type */
		{ arena_pa(96), 8, 0x12345 },
		usable(104, 4),
	};

	page_alloc_init(map, sizeof(map) / sizeof(map[0]));
	stats();
	assert_int_equal(st.nr_ranges, 3);
	assert_int_equal(st.total_pages, 28);
	assert_int_equal(st.free_pages, 28);
	assert_int_equal(st.ranges_dropped, 0);
	assert_true(page_alloc_range(0, &base, &pages, &left));
	assert_int_equal(base, arena_pa(0));
	assert_int_equal(pages, 16);
	assert_int_equal(left, 16);
	assert_true(page_alloc_range(1, &base, &pages, &left));
	assert_int_equal(base, arena_pa(40));
	assert_int_equal(pages, 8);
	assert_true(page_alloc_range(2, &base, &pages, &left));
	assert_int_equal(base, arena_pa(104));
	assert_int_equal(pages, 4);
	assert_false(page_alloc_range(3, &base, &pages, &left));

	/* Everything handed out is in the usable ranges only. */
	bool seen[ARENA_PAGES] = { false };

	for (int i = 0; i < 28; i++) {
		void *p = page_alloc();
		unsigned idx = check_page(p, 0, ARENA_PAGES);

		assert_true(idx < 16 || (idx >= 40 && idx < 48) ||
			    (idx >= 104 && idx < 108));
		assert_false(seen[idx]);
		seen[idx] = true;
	}
	assert_null(page_alloc());
	/* The other ranges were never touched. */
	for (unsigned i = 16; i < 40; i++)
		assert_true(page_is_poison(i));
	for (unsigned i = 48; i < 104; i++)
		assert_true(page_is_poison(i));
	for (unsigned i = 108; i < ARENA_PAGES; i++)
		assert_true(page_is_poison(i));
}

/* Ranges below 1 MiB are ignored; one straddling it keeps only the part
 * above. Fabricated addresses, never allocated from. */
static void test_low_memory_trimmed(void **state)
{
	uint64_t base, pages, left;

	(void)state;
	struct mem_range map[] = {
		{ 0x0, 0x9f, MEM_USABLE },         /* 0 - 636 KiB */
		{ 0x1000, 1, MEM_USABLE },
		{ 0xff000, 1, MEM_USABLE },        /* last page below 1 MiB */
		{ 0x80000, 0x80, MEM_USABLE },     /* ends exactly at 1 MiB */
		{ 0x90000, 0x100, MEM_USABLE },    /* straddles: 0x90 above */
		{ 0xff000, 3, MEM_USABLE },        /* straddles: 2 above */
		{ 0x100000, 5, MEM_USABLE },       /* starts at 1 MiB */
	};

	page_alloc_init(map, sizeof(map) / sizeof(map[0]));
	stats();
	assert_int_equal(st.nr_ranges, 3);
	assert_int_equal(st.total_pages, 0x90 + 2 + 5);
	assert_int_equal(st.free_pages, st.total_pages);
	assert_true(page_alloc_range(0, &base, &pages, &left));
	assert_int_equal(base, 0x100000);
	assert_int_equal(pages, 0x90);
	assert_int_equal(left, 0x90);
	assert_true(page_alloc_range(1, &base, &pages, &left));
	assert_int_equal(base, 0x100000);
	assert_int_equal(pages, 2);
	assert_true(page_alloc_range(2, &base, &pages, &left));
	assert_int_equal(base, 0x100000);
	assert_int_equal(pages, 5);
	assert_int_equal(st.alloc_calls, 0);
}

static void test_alloc_zeroed_aligned_distinct(void **state)
{
	struct mem_range map[] = { usable(0, 32), usable(64, 32) };
	bool seen[ARENA_PAGES] = { false };

	(void)state;
	page_alloc_init(map, 2);
	for (int i = 0; i < 64; i++) {
		uint8_t *p = page_alloc();
		unsigned idx = check_page(p, 0, 96);

		assert_true(idx < 32 || idx >= 64);
		assert_false(seen[idx]);
		seen[idx] = true;
		memset(p, 0xff, PAGE_SIZE); /* dirty it for the reuse test */
		stats();
		assert_int_equal(st.free_pages, 64 - (i + 1));
		assert_int_equal(st.alloc_calls, i + 1);
	}
	assert_null(page_alloc());
	for (unsigned i = 32; i < 64; i++)
		assert_true(page_is_poison(i));
}

static void test_free_list_reuse(void **state)
{
	struct mem_range map[] = { usable(0, 8) };
	uint8_t *a, *b, *c, *p;

	(void)state;
	page_alloc_init(map, 1);
	a = page_alloc();
	b = page_alloc();
	c = page_alloc();
	memset(a, 0x11, PAGE_SIZE);
	memset(b, 0x22, PAGE_SIZE);
	memset(c, 0x33, PAGE_SIZE);
	page_free(b);
	page_free(a);
	stats();
	assert_int_equal(st.free_calls, 2);
	assert_int_equal(st.free_pages, 8 - 3 + 2);
	/* Freed pages come back first, most recently freed first, zeroed
	 * (including the free-list link written into them). */
	p = page_alloc();
	assert_ptr_equal(p, a);
	check_page(p, 0, 8);
	p = page_alloc();
	assert_ptr_equal(p, b);
	check_page(p, 0, 8);
	/* Then the bump pointer again. */
	p = page_alloc();
	assert_int_equal(check_page(p, 0, 8), 3);
	assert_int_equal(c[0], 0x33); /* live pages untouched */
	stats();
	assert_int_equal(st.alloc_calls, 6);
	assert_int_equal(st.free_pages, 4);

	page_free(NULL); /* no-op, not counted */
	stats();
	assert_int_equal(st.free_calls, 2);
	assert_int_equal(st.free_pages, 4);
}

static void test_contig(void **state)
{
	uint64_t base, pages, left;
	struct mem_range map[] = { usable(0, 10), usable(16, 64) };
	uint8_t *a, *b, *c, *one;

	(void)state;
	page_alloc_init(map, 2);
	a = page_alloc_contig(4);
	assert_ptr_equal(a, arena);
	for (int i = 0; i < 4; i++)
		check_page(a + i * PAGE_SIZE, 0, 10);
	/* 7 do not fit in the 6 left of range 0: they come from range 1. */
	b = page_alloc_contig(7);
	assert_ptr_equal(b, arena + 16 * PAGE_SIZE);
	for (int i = 0; i < 7; i++)
		check_page(b + i * PAGE_SIZE, 16, 64);
	/* Range 0 still serves what fits. */
	c = page_alloc_contig(6);
	assert_ptr_equal(c, arena + 4 * PAGE_SIZE);
	assert_true(page_alloc_range(0, &base, &pages, &left));
	assert_int_equal(left, 0);
	assert_true(page_alloc_range(1, &base, &pages, &left));
	assert_int_equal(left, 64 - 7);
	stats();
	assert_int_equal(st.free_pages, 74 - 17);
	assert_int_equal(st.alloc_calls, 3);

	/* n == 1 is a single page (free list first); n == 0 is nothing. */
	page_free(a);
	one = page_alloc_contig(1);
	assert_ptr_equal(one, a);
	assert_null(page_alloc_contig(0));

	/* A run larger than any range fails and is counted. */
	assert_null(page_alloc_contig(65));
	assert_null(page_alloc_contig(SIZE_MAX));
	stats();
	assert_int_equal(st.failed_calls, 2);

	/* The whole rest of range 1 in one run. */
	b = page_alloc_contig(57);
	assert_non_null(b);
	assert_ptr_equal(b, arena + 23 * PAGE_SIZE);
	check_page(b + 56 * PAGE_SIZE, 16, 64);
	assert_null(page_alloc_contig(2));
	for (unsigned i = 80; i < ARENA_PAGES; i++)
		assert_true(page_is_poison(i));
}

static void test_free_contig(void **state)
{
	struct mem_range map[] = { usable(0, 8) };
	uint8_t *run, *p;

	(void)state;
	page_alloc_init(map, 1);
	run = page_alloc_contig(8);
	assert_non_null(run);
	assert_null(page_alloc());
	page_free_contig(run, 8);
	stats();
	assert_int_equal(st.free_calls, 8);
	assert_int_equal(st.free_pages, 8);
	/* The freed pages serve single allocations (last freed first)... */
	for (int i = 7; i >= 0; i--) {
		p = page_alloc();
		assert_ptr_equal(p, run + i * PAGE_SIZE);
		check_page(p, 0, 8);
	}
	assert_null(page_alloc());
	/* ...but runs come only from bump space (documented limitation). */
	page_free_contig(run, 2);
	assert_null(page_alloc_contig(2));
	stats();
	assert_int_equal(st.free_pages, 2);
}

static void test_exhaustion_counts(void **state)
{
	struct mem_range map[] = { usable(0, 3), usable(10, 2) };
	void *p[5];

	(void)state;
	page_alloc_init(map, 2);
	for (int i = 0; i < 5; i++)
		assert_non_null(p[i] = page_alloc());
	for (int i = 0; i < 3; i++)
		assert_null(page_alloc());
	assert_null(page_alloc_contig(2));
	stats();
	assert_int_equal(st.total_pages, 5);
	assert_int_equal(st.free_pages, 0);
	assert_int_equal(st.alloc_calls, 5);
	assert_int_equal(st.failed_calls, 4);
	/* A free makes one page available again. */
	page_free(p[2]);
	assert_ptr_equal(page_alloc(), p[2]);
	assert_null(page_alloc());
	stats();
	assert_int_equal(st.alloc_calls, 6);
	assert_int_equal(st.failed_calls, 5);
	assert_int_equal(st.free_calls, 1);
	assert_int_equal(st.free_pages, 0);
}

/* More ranges than PAGE_ALLOC_MAX_RANGES: the rest are dropped and counted;
 * the kept ones are the first. */
static void test_too_many_ranges(void **state)
{
	struct mem_range map[PAGE_ALLOC_MAX_RANGES + 6];
	unsigned n = sizeof(map) / sizeof(map[0]);

	(void)state;
	assert_true(2 * n <= ARENA_PAGES);
	for (unsigned i = 0; i < n; i++)
		map[i] = usable(2 * i, 1); /* every other page */
	page_alloc_init(map, n);
	stats();
	assert_int_equal(st.nr_ranges, PAGE_ALLOC_MAX_RANGES);
	assert_int_equal(st.ranges_dropped, 6);
	assert_int_equal(st.total_pages, PAGE_ALLOC_MAX_RANGES);
	for (unsigned i = 0; i < PAGE_ALLOC_MAX_RANGES; i++) {
		unsigned idx = check_page(page_alloc(), 0, ARENA_PAGES);

		assert_int_equal(idx, 2 * i);
	}
	assert_null(page_alloc());
	/* A run of 2 never spans two ranges, even adjacent-looking ones. */
	assert_null(page_alloc_contig(2));
	for (unsigned i = 0; i < ARENA_PAGES; i++)
		if (i % 2 || i >= 2 * PAGE_ALLOC_MAX_RANGES)
			assert_true(page_is_poison(i));
}

/* init starts over: stats, ranges and the free list. */
static void test_reinit(void **state)
{
	struct mem_range map1[] = { usable(0, 4) };
	struct mem_range map2[] = { usable(100, 2) };
	void *p;

	(void)state;
	page_alloc_init(map1, 1);
	p = page_alloc();
	page_free(p);
	assert_null(page_alloc_contig(9));
	page_alloc_init(map2, 1);
	stats();
	assert_int_equal(st.total_pages, 2);
	assert_int_equal(st.free_pages, 2);
	assert_int_equal(st.alloc_calls, 0);
	assert_int_equal(st.free_calls, 0);
	assert_int_equal(st.failed_calls, 0);
	assert_int_equal(st.nr_ranges, 1);
	/* The old free list is forgotten: allocations come from map2. */
	assert_int_equal(check_page(page_alloc(), 100, 2), 100);
	assert_int_equal(check_page(page_alloc(), 100, 2), 101);
	assert_null(page_alloc());
}

/* Random alloc/free/contig sequence against a model of which pages are
 * live: no page is ever handed out twice, stats always add up. */
static void test_random_consistency(void **state)
{
	struct mem_range map[] = { usable(0, 40), usable(50, 30),
				   usable(100, 60) };
	bool live[ARENA_PAGES] = { false };
	uint8_t *single[ARENA_PAGES];
	unsigned nsingle = 0;
	uint64_t x = 0x243F6A8885A308D3ull;
	uint64_t allocs = 0, frees = 0, fails = 0, nlive = 0;

	(void)state;
	page_alloc_init(map, 3);
	for (int step = 0; step < 3000; step++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		unsigned op = (unsigned)(x % 10);

		if (op < 5) {
			uint8_t *p = page_alloc();

			if (!p) {
				fails++;
				/* Only when no page at all is free (runs are
				 * never freed, so the free list is empty and
				 * every range is bumped to its end). */
				assert_int_equal(nlive, 130);
				continue;
			}
			unsigned idx = check_page(p, 0, ARENA_PAGES);

			assert_false(live[idx]);
			live[idx] = true;
			p[0] = (uint8_t)step;
			single[nsingle++] = p;
			allocs++;
			nlive++;
		} else if (op < 9 && nsingle) {
			unsigned k = (unsigned)((x >> 20) % nsingle);
			uint8_t *p = single[k];

			single[k] = single[--nsingle];
			live[(p - arena) / PAGE_SIZE] = false;
			page_free(p);
			frees++;
			nlive--;
		} else {
			size_t n = 2 + (size_t)((x >> 30) % 4);
			uint8_t *p = page_alloc_contig(n);

			if (!p) {
				fails++;
				continue;
			}
			for (size_t i = 0; i < n; i++) {
				unsigned idx = check_page(p + i * PAGE_SIZE, 0,
							  ARENA_PAGES);

				assert_false(live[idx]);
				live[idx] = true; /* runs are never freed here */
			}
			allocs++;
			nlive += n;
		}
		stats();
		assert_int_equal(st.alloc_calls, allocs);
		assert_int_equal(st.free_calls, frees);
		assert_int_equal(st.failed_calls, fails);
		assert_int_equal(st.free_pages, 130 - nlive);
	}
	assert_true(fails > 0); /* the sequence did reach exhaustion */
	for (unsigned i = 40; i < 50; i++)
		assert_true(page_is_poison(i));
	for (unsigned i = 80; i < 100; i++)
		assert_true(page_is_poison(i));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_empty, setup),
		cmocka_unit_test_setup(test_init_ranges_and_types, setup),
		cmocka_unit_test_setup(test_low_memory_trimmed, setup),
		cmocka_unit_test_setup(test_alloc_zeroed_aligned_distinct, setup),
		cmocka_unit_test_setup(test_free_list_reuse, setup),
		cmocka_unit_test_setup(test_contig, setup),
		cmocka_unit_test_setup(test_free_contig, setup),
		cmocka_unit_test_setup(test_exhaustion_counts, setup),
		cmocka_unit_test_setup(test_too_many_ranges, setup),
		cmocka_unit_test_setup(test_reinit, setup),
		cmocka_unit_test_setup(test_random_consistency, setup),
	};

	return cmocka_run_group_tests(tests, NULL, teardown_group);
}
