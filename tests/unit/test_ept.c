/* Unit tests for hv/vmx/ept.c, over the fake page allocator.
 *
 * Host addresses in leaves are plain numbers (nothing dereferences them);
 * table pages are real host memory from fake_pages.c, which also counts
 * them so every test can check that nothing leaks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/vmx/ept.h"
#include "tests/harness/fake_pages.h"

#define K4 EPT_PAGE_4K
#define M2 EPT_PAGE_2M
#define G1 EPT_PAGE_1G

static int setup(void **state)
{
	(void)state;
	fake_pages_reset();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	fake_pages_reset();
	return 0;
}

/* The ept's own accounting must match the allocator's. */
static void check_accounting(const struct ept *e)
{
	assert_int_equal(e->table_pages + e->deferred_pages, fake_pages_live());
}

static void init(struct ept *e)
{
	assert_int_equal(ept_init(e), 0);
	check_accounting(e);
}

static void destroy(struct ept *e)
{
	ept_destroy(e);
	assert_int_equal(fake_pages_live(), 0);
	assert_null(e->pml4);
}

static void expect_xlat(const struct ept *e, uint64_t gpa, uint64_t hpa,
			uint64_t page_size, unsigned perms, unsigned memtype)
{
	struct ept_xlat x;
	int err = ept_translate(e, gpa, &x);

	if (err)
		fail_msg("gpa 0x%llx: translate %d", (unsigned long long)gpa,
			 err);
	if (x.hpa != hpa || x.page_size != page_size || x.perms != perms ||
	    x.memtype != memtype)
		fail_msg("gpa 0x%llx: hpa 0x%llx size 0x%llx perms %u mt 0x%x;"
			 " want 0x%llx 0x%llx %u 0x%x",
			 (unsigned long long)gpa, (unsigned long long)x.hpa,
			 (unsigned long long)x.page_size, x.perms, x.memtype,
			 (unsigned long long)hpa,
			 (unsigned long long)page_size, perms, memtype);
}

/* Same translation, whatever the page size (after a failed operation a
 * large page may have been split). */
static void expect_same(const struct ept *e, uint64_t gpa, uint64_t hpa,
			unsigned perms, unsigned memtype)
{
	struct ept_xlat x;

	assert_int_equal(ept_translate(e, gpa, &x), 0);
	expect_xlat(e, gpa, hpa, x.page_size, perms, memtype);
}

static void expect_unmapped(const struct ept *e, uint64_t gpa)
{
	struct ept_xlat x;

	assert_int_equal(ept_translate(e, gpa, &x), -HV_ENOENT);
}

/* --- basics -------------------------------------------------------------- */

static void test_init_destroy(void **state)
{
	struct ept e;

	(void)state;
	init(&e);
	assert_int_equal(e.table_pages, 1);
	assert_int_equal(fake_pages_live(), 1);
	assert_false(ept_flush_needed(&e));
	destroy(&e);
	ept_destroy(&e);	/* twice is harmless */

	fake_pages_fail_after(0);
	assert_int_equal(ept_init(&e), -HV_ENOMEM);
	assert_null(e.pml4);
	assert_int_equal(fake_pages_live(), 0);
	ept_destroy(&e);
}

static void test_map_4k_round_trip(void **state)
{
	struct ept e;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, 0x12345000, 0xabcde000, K4, EPT_RW,
				 MEMTYPE_WB), 0);
	expect_xlat(&e, 0x12345000, 0xabcde000, K4, EPT_RW, MEMTYPE_WB);
	expect_xlat(&e, 0x12345abc, 0xabcdeabc, K4, EPT_RW, MEMTYPE_WB);
	expect_unmapped(&e, 0x12344fff);
	expect_unmapped(&e, 0x12346000);
	expect_unmapped(&e, 0);
	assert_int_equal(e.table_pages, 4);	/* PML4 PDPT PD PT */
	assert_false(ept_flush_needed(&e));	/* new mapping: no flush */
	check_accounting(&e);
	destroy(&e);
}

static void test_2m_pages_chosen(void **state)
{
	struct ept e;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, 0x200000, 0x40000000, 2 * M2, EPT_RWX,
				 MEMTYPE_WB), 0);
	expect_xlat(&e, 0x200000, 0x40000000, M2, EPT_RWX, MEMTYPE_WB);
	expect_xlat(&e, 0x5fffff, 0x403fffff, M2, EPT_RWX, MEMTYPE_WB);
	expect_unmapped(&e, 0x600000);
	assert_int_equal(e.table_pages, 3);	/* no PT */
	destroy(&e);
}

static void test_mixed_alignment(void **state)
{
	struct ept e;
	uint64_t gpa;

	(void)state;
	init(&e);
	/* 4K head, two 2M pages, 4K tail */
	assert_int_equal(ept_map(&e, 0x1ff000, 0x801ff000, 0x402000, EPT_RW,
				 MEMTYPE_UC), 0);
	expect_xlat(&e, 0x1ff000, 0x801ff000, K4, EPT_RW, MEMTYPE_UC);
	expect_xlat(&e, 0x200000, 0x80200000, M2, EPT_RW, MEMTYPE_UC);
	expect_xlat(&e, 0x400000, 0x80400000, M2, EPT_RW, MEMTYPE_UC);
	expect_xlat(&e, 0x600000, 0x80600000, K4, EPT_RW, MEMTYPE_UC);
	expect_unmapped(&e, 0x601000);
	expect_unmapped(&e, 0x1fe000);

	/* gpa 2M-aligned but hpa only 4K-aligned: 4K pages throughout */
	assert_int_equal(ept_map(&e, 0x40000000, 0x90001000, M2, EPT_R,
				 MEMTYPE_WB), 0);
	for (gpa = 0x40000000; gpa < 0x40000000 + M2; gpa += K4)
		expect_xlat(&e, gpa, gpa - 0x40000000 + 0x90001000, K4, EPT_R,
			    MEMTYPE_WB);
	/* size below 2M at an aligned address: 4K pages */
	assert_int_equal(ept_map(&e, 0x80000000, 0x80000000, M2 - K4, EPT_R,
				 MEMTYPE_WB), 0);
	expect_xlat(&e, 0x80000000, 0x80000000, K4, EPT_R, MEMTYPE_WB);
	check_accounting(&e);
	destroy(&e);
}

/* The bits in memory follow SDM Tables 29-x, not just our own reading. */
static void test_entry_format(void **state)
{
	struct ept e;
	uint64_t pml4e, pdpte, pde, pte, *pd, *pt;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, 0x200000, 0x7fe00000, M2, EPT_RX,
				 MEMTYPE_WB | EPT_IGNORE_PAT), 0);
	assert_int_equal(ept_map(&e, 0x1000, 0xfed00000, K4, EPT_RW,
				 MEMTYPE_UC), 0);
	pml4e = e.pml4[0];
	assert_int_equal(pml4e & 0xfff, 0x7);		/* RWX, nothing else */
	pdpte = ((uint64_t *)hv_va(pml4e & EPT_ENTRY_ADDR_MASK))[0];
	assert_int_equal(pdpte & 0xfff, 0x7);
	pd = hv_va(pdpte & EPT_ENTRY_ADDR_MASK);
	pde = pd[1];					/* 2M leaf */
	assert_int_equal(pde, 0x7fe00000ull | EPT_ENTRY_LARGE |
			      EPT_ENTRY_IGNORE_PAT | (6ull << 3) | 0x5);
	pt = hv_va(pd[0] & EPT_ENTRY_ADDR_MASK);
	assert_int_equal(pd[0] & (EPT_ENTRY_LARGE | 0x7), 0x7);
	pte = pt[1];
	assert_int_equal(pte, 0xfed00000ull | (0ull << 3) | 0x3);
	assert_int_equal(pt[0], 0);
	expect_xlat(&e, 0x200000, 0x7fe00000, M2, EPT_RX,
		    MEMTYPE_WB | EPT_IGNORE_PAT);
	destroy(&e);
}

static void test_eptp(void **state)
{
	struct ept e;
	uint64_t pa;

	(void)state;
	init(&e);
	pa = hv_pa(e.pml4);
	assert_int_equal(pa & 0xfff, 0);
	assert_int_equal(ept_eptp(&e, false), pa | 0x1e);	/* WB, 4-level */
	assert_int_equal(ept_eptp(&e, true), pa | 0x5e);	/* + A/D */
	destroy(&e);
}

/* --- split on protect ------------------------------------------------------ */

static void test_protect_splits_2m(void **state)
{
	const uint64_t gpa = 0x40000000, hpa = 0x120000000ull;
	struct ept e;
	unsigned i, pages_before;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, gpa, hpa, M2, EPT_RWX, MEMTYPE_WB), 0);
	assert_int_equal(ept_map(&e, gpa + M2, hpa + M2, M2, EPT_RWX,
				 MEMTYPE_WB), 0);
	pages_before = e.table_pages;

	/* write-protect one guest page-table page inside the 2M page */
	assert_int_equal(ept_protect(&e, gpa + 0x5000, K4, EPT_RX), 0);
	assert_int_equal(e.splits, 1);
	assert_int_equal(e.table_pages, pages_before + 1);
	assert_true(ept_flush_needed(&e));	/* W taken away */
	for (i = 0; i < 512; i++)
		expect_xlat(&e, gpa + i * K4, hpa + i * K4, K4,
			    i == 5 ? EPT_RX : EPT_RWX, MEMTYPE_WB);
	/* the neighbouring 2M page is untouched */
	expect_xlat(&e, gpa + M2, hpa + M2, M2, EPT_RWX, MEMTYPE_WB);

	/* second protect in the same 2M: no new split */
	ept_flush_done(&e);
	assert_int_equal(ept_protect(&e, gpa + 0x7000, 2 * K4, EPT_R), 0);
	assert_int_equal(e.splits, 1);
	expect_xlat(&e, gpa + 0x7000, hpa + 0x7000, K4, EPT_R, MEMTYPE_WB);
	expect_xlat(&e, gpa + 0x8000, hpa + 0x8000, K4, EPT_R, MEMTYPE_WB);
	expect_xlat(&e, gpa + 0x9000, hpa + 0x9000, K4, EPT_RWX, MEMTYPE_WB);

	/* giving access back needs no INVEPT */
	ept_flush_done(&e);
	assert_int_equal(ept_protect(&e, gpa + 0x5000, K4, EPT_RWX), 0);
	assert_false(ept_flush_needed(&e));
	expect_xlat(&e, gpa + 0x5000, hpa + 0x5000, K4, EPT_RWX, MEMTYPE_WB);

	/* protect a whole 2M page: no split, one entry */
	assert_int_equal(ept_protect(&e, gpa + M2, M2, EPT_R), 0);
	assert_int_equal(e.splits, 1);
	expect_xlat(&e, gpa + M2 + 0x1234, hpa + M2 + 0x1234, M2, EPT_R,
		    MEMTYPE_WB);
	check_accounting(&e);
	destroy(&e);
}

static void test_protect_range_across_pages(void **state)
{
	struct ept e;
	uint64_t gpa;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, 0, 0x10000000, 4 * M2, EPT_RWX,
				 MEMTYPE_WB), 0);
	/* from the middle of page 0 to the middle of page 2: two splits,
	 * page 1 changed whole */
	assert_int_equal(ept_protect(&e, M2 - 3 * K4, M2 + 6 * K4, EPT_R), 0);
	assert_int_equal(e.splits, 2);
	for (gpa = 0; gpa < 4 * M2; gpa += K4) {
		bool in = gpa >= M2 - 3 * K4 && gpa < 2 * M2 + 3 * K4;
		uint64_t ps = (gpa >= M2 && gpa < 2 * M2) ||
			      gpa >= 3 * M2 ? M2 : K4;

		expect_xlat(&e, gpa, 0x10000000 + gpa, ps,
			    in ? EPT_R : EPT_RWX, MEMTYPE_WB);
	}
	destroy(&e);
}

/* One page short of a whole large page is not the whole large page. */
static void test_all_but_one_page(void **state)
{
	struct ept e;
	uint64_t gpa;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, 0, 0x10000000, 2 * M2, EPT_RWX,
				 MEMTYPE_WB), 0);
	assert_int_equal(ept_protect(&e, 0, M2 - K4, EPT_R), 0);
	assert_int_equal(ept_unmap(&e, M2 + K4, M2 - K4), 0);
	for (gpa = 0; gpa < M2 - K4; gpa += K4)
		expect_xlat(&e, gpa, 0x10000000 + gpa, K4, EPT_R, MEMTYPE_WB);
	expect_xlat(&e, M2 - K4, 0x10000000 + M2 - K4, K4, EPT_RWX,
		    MEMTYPE_WB);
	expect_xlat(&e, M2, 0x10000000 + M2, K4, EPT_RWX, MEMTYPE_WB);
	for (gpa = M2 + K4; gpa < 2 * M2; gpa += K4)
		expect_unmapped(&e, gpa);
	assert_int_equal(e.splits, 2);
	destroy(&e);
}

static void test_protect_unmapped_is_enoent(void **state)
{
	struct ept e;
	unsigned i;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, 0, 0x10000000, M2, EPT_RWX,
				 MEMTYPE_WB), 0);
	/* the range runs 4K past the mapping: nothing may change */
	assert_int_equal(ept_protect(&e, M2 - 8 * K4, 9 * K4, EPT_R),
			 -HV_ENOENT);
	/* Documented: the split done while preparing stays (invisible). */
	assert_int_equal(e.splits, 1);
	for (i = 0; i < 512; i++)
		expect_xlat(&e, i * K4, 0x10000000 + i * K4, K4, EPT_RWX,
			    MEMTYPE_WB);
	expect_unmapped(&e, M2);
	assert_false(ept_flush_needed(&e));
	assert_int_equal(ept_protect(&e, 0x40000000, K4, EPT_R), -HV_ENOENT);
	check_accounting(&e);
	destroy(&e);
}

/* --- unmap and remap -------------------------------------------------------- */

static void test_unmap(void **state)
{
	struct ept e;
	uint64_t gpa;
	size_t live;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, 0, 0x20000000, 2 * M2, EPT_RWX,
				 MEMTYPE_WB), 0);
	/* a hole of one page in the first 2M */
	assert_int_equal(ept_unmap(&e, 0x3000, K4), 0);
	assert_true(ept_flush_needed(&e));
	assert_int_equal(e.splits, 1);
	for (gpa = 0; gpa < M2; gpa += K4) {
		if (gpa == 0x3000)
			expect_unmapped(&e, gpa);
		else
			expect_xlat(&e, gpa, 0x20000000 + gpa, K4, EPT_RWX,
				    MEMTYPE_WB);
	}
	expect_xlat(&e, M2, 0x20000000 + M2, M2, EPT_RWX, MEMTYPE_WB);
	ept_flush_done(&e);

	/* the whole range, holes included; the split PT is detached, and
	 * freed only after the flush */
	live = fake_pages_live();
	assert_int_equal(ept_unmap(&e, 0, 2 * M2), 0);
	assert_true(ept_flush_needed(&e));
	assert_int_equal(e.deferred_pages, 1);
	assert_int_equal(fake_pages_live(), live);
	check_accounting(&e);
	for (gpa = 0; gpa < 2 * M2; gpa += K4)
		expect_unmapped(&e, gpa);
	ept_flush_done(&e);
	assert_int_equal(e.deferred_pages, 0);
	assert_int_equal(fake_pages_live(), live - 1);
	assert_false(ept_flush_needed(&e));

	/* unmapping nothing: fine, nothing to flush */
	assert_int_equal(ept_unmap(&e, 0x7000000000ull, 64 * M2), 0);
	assert_false(ept_flush_needed(&e));
	check_accounting(&e);
	destroy(&e);
}

static void test_unmap_large_range_detaches_tables(void **state)
{
	struct ept e;
	uint64_t gpa;

	(void)state;
	init(&e);
	/* 4K pages spread over two 1G regions */
	for (gpa = G1 - 4 * K4; gpa < G1 + 4 * K4; gpa += K4)
		assert_int_equal(ept_map(&e, gpa, gpa, K4, EPT_RW,
					 MEMTYPE_WB), 0);
	/* PML4 PDPT + 2 PD + 2 PT */
	assert_int_equal(e.table_pages, 6);
	/* unmapping 2 GiB detaches both PDs and their PTs */
	assert_int_equal(ept_unmap(&e, 0, 2 * G1), 0);
	assert_int_equal(e.table_pages, 2);
	assert_int_equal(e.deferred_pages, 4);
	expect_unmapped(&e, G1);
	ept_flush_done(&e);
	assert_int_equal(fake_pages_live(), 2);
	destroy(&e);
}

static void test_remap(void **state)
{
	struct ept e;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, 0, 0x30000000, M2, EPT_RWX,
				 MEMTYPE_WB), 0);
	/* identical mapping again: nothing to flush */
	assert_int_equal(ept_map(&e, 0, 0x30000000, M2, EPT_RWX,
				 MEMTYPE_WB), 0);
	assert_false(ept_flush_needed(&e));
	/* one 4K page moved elsewhere (ladder mapping) */
	assert_int_equal(ept_map(&e, 0x2000, 0x55555000, K4, EPT_RW,
				 MEMTYPE_WB), 0);
	assert_true(ept_flush_needed(&e));
	expect_xlat(&e, 0x2000, 0x55555000, K4, EPT_RW, MEMTYPE_WB);
	expect_xlat(&e, 0x3000, 0x30003000, K4, EPT_RWX, MEMTYPE_WB);
	ept_flush_done(&e);
	/* memory type change alone needs a flush */
	assert_int_equal(ept_map(&e, 0x3000, 0x30003000, K4, EPT_RWX,
				 MEMTYPE_UC), 0);
	assert_true(ept_flush_needed(&e));
	ept_flush_done(&e);
	/* the whole 2M mapped again: back to one large page, PT detached */
	assert_int_equal(ept_map(&e, 0, 0x60000000, M2, EPT_RX,
				 MEMTYPE_WB), 0);
	assert_true(ept_flush_needed(&e));
	assert_int_equal(e.deferred_pages, 1);
	expect_xlat(&e, 0x2000, 0x60002000, M2, EPT_RX, MEMTYPE_WB);
	ept_flush_done(&e);
	check_accounting(&e);
	destroy(&e);
}

/* --- failure injection -------------------------------------------------------- */

/* A map of 4 pages straddling 1 GiB, where the lower two lie in an existing
 * 2M page: needs 3 allocations (the split's PT; PD and PT above 1 GiB).
 * Fail at each step in turn.
 * Each failure must leave every translation as it was and leak nothing. */
static void test_map_enomem_each_step(void **state)
{
	const uint64_t base = G1 - M2;	/* existing 2M page, will be split */
	struct ept e;
	long n;
	int err;

	(void)state;
	for (n = 0;; n++) {
		uint64_t gpa;

		fake_pages_reset();
		init(&e);
		assert_int_equal(ept_map(&e, base, 0x70000000, M2, EPT_RWX,
					 MEMTYPE_WB), 0);
		fake_pages_fail_after(n);
		err = ept_map(&e, G1 - 2 * K4, 0x99998000, 4 * K4, EPT_R,
			      MEMTYPE_UC);
		fake_pages_fail_after(-1);
		check_accounting(&e);
		if (err == 0)
			break;
		assert_int_equal(err, -HV_ENOMEM);
		assert_false(ept_flush_needed(&e));
		for (gpa = base; gpa < G1; gpa += K4)
			expect_same(&e, gpa, 0x70000000 + gpa - base, EPT_RWX,
				    MEMTYPE_WB);
		for (gpa = G1; gpa < G1 + 4 * K4; gpa += K4)
			expect_unmapped(&e, gpa);
		/* the same call succeeds once memory is back */
		assert_int_equal(ept_map(&e, G1 - 2 * K4, 0x99998000, 4 * K4,
					 EPT_R, MEMTYPE_UC), 0);
		expect_xlat(&e, G1 + K4, 0x9999b000, K4, EPT_R, MEMTYPE_UC);
		destroy(&e);
	}
	/* split of the 2M page, PD and PT for the 1G side */
	assert_int_equal(n, 3);
	expect_xlat(&e, G1 - 2 * K4, 0x99998000, K4, EPT_R, MEMTYPE_UC);
	expect_xlat(&e, G1 - 3 * K4, 0x70000000 + M2 - 3 * K4, K4, EPT_RWX,
		    MEMTYPE_WB);
	destroy(&e);
}

static void test_protect_unmap_enomem(void **state)
{
	struct ept e;
	long n;
	int err;
	uint64_t gpa;

	(void)state;
	/* protect straddling two 2M pages needs two splits */
	for (n = 0; n < 2; n++) {
		fake_pages_reset();
		init(&e);
		assert_int_equal(ept_map(&e, 0, 0x10000000, 2 * M2, EPT_RWX,
					 MEMTYPE_WB), 0);
		fake_pages_fail_after(n);
		err = ept_protect(&e, M2 - K4, 2 * K4, EPT_R);
		fake_pages_fail_after(-1);
		assert_int_equal(err, -HV_ENOMEM);
		assert_false(ept_flush_needed(&e));
		for (gpa = 0; gpa < 2 * M2; gpa += K4)
			expect_same(&e, gpa, 0x10000000 + gpa, EPT_RWX,
				    MEMTYPE_WB);
		check_accounting(&e);
		destroy(&e);
	}
	/* same for unmap */
	for (n = 0; n < 2; n++) {
		fake_pages_reset();
		init(&e);
		assert_int_equal(ept_map(&e, 0, 0x10000000, 2 * M2, EPT_RWX,
					 MEMTYPE_WB), 0);
		fake_pages_fail_after(n);
		err = ept_unmap(&e, M2 - K4, 2 * K4);
		fake_pages_fail_after(-1);
		assert_int_equal(err, -HV_ENOMEM);
		assert_false(ept_flush_needed(&e));
		for (gpa = 0; gpa < 2 * M2; gpa += K4)
			expect_same(&e, gpa, 0x10000000 + gpa, EPT_RWX,
				    MEMTYPE_WB);
		check_accounting(&e);
		destroy(&e);
	}
}

/* --- limits and argument checks --------------------------------------------- */

static void test_address_limits(void **state)
{
	const uint64_t top = EPT_GPA_LIMIT;
	struct ept e;
	struct ept_xlat x;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, top, 0, K4, EPT_R, MEMTYPE_WB),
			 -HV_ERANGE);
	assert_int_equal(ept_map(&e, top - K4, 0, 2 * K4, EPT_R, MEMTYPE_WB),
			 -HV_ERANGE);
	assert_int_equal(ept_map(&e, 1ull << 63, 0, K4, EPT_R, MEMTYPE_WB),
			 -HV_ERANGE);
	assert_int_equal(ept_map(&e, K4, 0, ~0ull & PAGE_MASK, EPT_R,
				 MEMTYPE_WB), -HV_ERANGE);
	assert_int_equal(ept_translate(&e, top, &x), -HV_ERANGE);
	assert_int_equal(ept_unmap(&e, top, K4), -HV_ERANGE);
	assert_int_equal(ept_protect(&e, top - K4, 2 * K4, EPT_R),
			 -HV_ERANGE);
	assert_int_equal(ept_map(&e, 0, EPT_HPA_LIMIT, K4, EPT_R, MEMTYPE_WB),
			 -HV_ERANGE);
	assert_int_equal(ept_map(&e, 0, EPT_HPA_LIMIT - K4, 2 * K4, EPT_R,
				 MEMTYPE_WB), -HV_ERANGE);
	assert_int_equal(e.table_pages, 1);	/* nothing was built */

	/* the very last page of each space is fine */
	assert_int_equal(ept_map(&e, top - K4, EPT_HPA_LIMIT - K4, K4, EPT_R,
				 MEMTYPE_WB), 0);
	expect_xlat(&e, top - 1, EPT_HPA_LIMIT - 1, K4, EPT_R, MEMTYPE_WB);
	assert_int_equal(ept_map(&e, top - M2, EPT_HPA_LIMIT - M2, M2, EPT_R,
				 MEMTYPE_WB), 0);
	expect_xlat(&e, top - 1, EPT_HPA_LIMIT - 1, M2, EPT_R, MEMTYPE_WB);
	assert_int_equal(ept_unmap(&e, top - G1, G1), 0);
	expect_unmapped(&e, top - 1);
	destroy(&e);
}

static void test_invalid_arguments(void **state)
{
	static const unsigned bad_perms[] = { 0, EPT_W, EPT_X, EPT_W | EPT_X,
					      8, EPT_RWX | 8 };
	static const unsigned bad_mt[] = { 2, 3, 7, 8, 0x200, MEMTYPE_WB | 0x80 };
	struct ept e, none = { .pml4 = NULL };
	struct ept_xlat x;
	size_t i;

	(void)state;
	init(&e);
	assert_int_equal(ept_map(&e, 0x800, 0, K4, EPT_R, MEMTYPE_WB),
			 -HV_EINVAL);
	assert_int_equal(ept_map(&e, 0, 0x800, K4, EPT_R, MEMTYPE_WB),
			 -HV_EINVAL);
	assert_int_equal(ept_map(&e, 0, 0, 0x800, EPT_R, MEMTYPE_WB),
			 -HV_EINVAL);
	assert_int_equal(ept_map(&e, 0, 0, 0, EPT_R, MEMTYPE_WB), -HV_EINVAL);
	for (i = 0; i < sizeof(bad_perms) / sizeof(bad_perms[0]); i++) {
		assert_int_equal(ept_map(&e, 0, 0, K4, bad_perms[i],
					 MEMTYPE_WB), -HV_EINVAL);
		assert_int_equal(ept_protect(&e, 0, K4, bad_perms[i]),
				 -HV_EINVAL);
	}
	for (i = 0; i < sizeof(bad_mt) / sizeof(bad_mt[0]); i++)
		assert_int_equal(ept_map(&e, 0, 0, K4, EPT_R, bad_mt[i]),
				 -HV_EINVAL);
	assert_int_equal(ept_unmap(&e, 0x10, K4), -HV_EINVAL);
	assert_int_equal(ept_protect(&e, 0, 0, EPT_R), -HV_EINVAL);
	assert_int_equal(e.table_pages, 1);
	/* every valid type is accepted */
	assert_int_equal(ept_map(&e, 0, 0, K4, EPT_R, MEMTYPE_WC), 0);
	assert_int_equal(ept_map(&e, 0, 0, K4, EPT_R, MEMTYPE_WT), 0);
	assert_int_equal(ept_map(&e, 0, 0, K4, EPT_R, MEMTYPE_WP), 0);
	assert_int_equal(ept_map(&e, 0, 0, K4, EPT_R,
				 MEMTYPE_UC | EPT_IGNORE_PAT), 0);
	expect_xlat(&e, 0, 0, K4, EPT_R, MEMTYPE_UC | EPT_IGNORE_PAT);
	destroy(&e);

	assert_int_equal(ept_map(&none, 0, 0, K4, EPT_R, MEMTYPE_WB),
			 -HV_EINVAL);
	assert_int_equal(ept_unmap(&none, 0, K4), -HV_EINVAL);
	assert_int_equal(ept_protect(&none, 0, K4, EPT_R), -HV_EINVAL);
	assert_int_equal(ept_translate(&none, 0, &x), -HV_EINVAL);
}

/* --- destroy ------------------------------------------------------------------ */

static void test_destroy_frees_everything(void **state)
{
	struct ept e;
	uint64_t gpa;

	(void)state;
	init(&e);
	for (gpa = 0; gpa < 8 * G1; gpa += G1 / 2 + 3 * K4)
		assert_int_equal(ept_map(&e, gpa, gpa, 3 * M2, EPT_RWX,
					 MEMTYPE_WB), 0);
	assert_int_equal(ept_map(&e, 0x7f0000000000ull, 0, 64 * K4, EPT_R,
				 MEMTYPE_UC), 0);
	assert_int_equal(ept_protect(&e, 5 * K4, K4, EPT_R), 0);
	assert_int_equal(ept_unmap(&e, 0, G1), 0);	/* deferred pages */
	assert_true(e.deferred_pages > 0);
	assert_true(fake_pages_live() > 10);
	check_accounting(&e);
	destroy(&e);	/* without ept_flush_done first */
}

/* --- model-based random test --------------------------------------------------- */

/* A 16 MiB window of guest pages against a flat reference array, with
 * random map / unmap / protect (biased towards 2M-aligned ranges so large
 * pages come and go) and random allocation failures. After every operation
 * the tree must agree with the model on every page. */
#define WIN_BASE	(3 * G1 - 4 * M2)	/* crosses a 1G boundary */
#define WIN_PAGES	4096u

struct model_page {
	uint64_t hpa;	/* 0 = unmapped (we never map hpa 0 here) */
	unsigned perms, memtype;
};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void random_range(uint64_t *first, uint64_t *npages)
{
	uint64_t unit = (rng() & 1) ? 512 : 1 + (rng() % 8);
	uint64_t start = (rng() % (WIN_PAGES / unit)) * unit;
	uint64_t max = WIN_PAGES - start;

	*npages = unit * (1 + rng() % 3);
	/* one page short of or past a large page: the split boundaries */
	if (unit == 512 && rng() % 4 == 0)
		*npages += (rng() & 1) ? 1 : -1ull;
	if (*npages > max)
		*npages = max;
	*first = start;
}

static const unsigned perms_choice[] = { EPT_R, EPT_RW, EPT_RX, EPT_RWX };

static void model_check(const struct ept *e, const struct model_page *m)
{
	unsigned i;

	for (i = 0; i < WIN_PAGES; i++) {
		uint64_t gpa = WIN_BASE + (uint64_t)i * K4;
		struct ept_xlat x;
		int err = ept_translate(e, gpa, &x);

		if (m[i].hpa == 0) {
			if (err != -HV_ENOENT)
				fail_msg("page %u: mapped, model says not", i);
			continue;
		}
		if (err || x.hpa != m[i].hpa || x.perms != m[i].perms ||
		    x.memtype != m[i].memtype)
			fail_msg("page %u: err %d hpa 0x%llx perms %u, model "
				 "0x%llx %u", i, err,
				 (unsigned long long)x.hpa, x.perms,
				 (unsigned long long)m[i].hpa, m[i].perms);
	}
}

static int random_op(struct ept *e, struct model_page *m)
{
	struct model_page next[WIN_PAGES];
	uint64_t first, n, i, hpa;
	unsigned perms = perms_choice[rng() % 4];
	unsigned mt = (rng() & 1) ? MEMTYPE_WB : MEMTYPE_UC;
	int op = (int)(rng() % 3), err;

	random_range(&first, &n);
	memcpy(next, m, sizeof(next));
	if (op == 0) {
		/* congruent with the gpa modulo 2M half the time, so that
		 * large pages come into play */
		uint64_t off = (rng() & 1) ? (first * K4) % M2
					   : (rng() % 512) * K4;

		hpa = 0x100000000ull + (rng() % 64) * M2 + off;
		err = ept_map(e, WIN_BASE + first * K4, hpa, n * K4, perms, mt);
		for (i = 0; i < n; i++)
			next[first + i] = (struct model_page){ hpa + i * K4,
							       perms, mt };
	} else if (op == 1) {
		err = ept_unmap(e, WIN_BASE + first * K4, n * K4);
		for (i = 0; i < n; i++)
			next[first + i].hpa = 0;
	} else {
		err = ept_protect(e, WIN_BASE + first * K4, n * K4, perms);
		for (i = 0; i < n; i++) {
			if (next[first + i].hpa == 0 && err == 0)
				fail_msg("protect of an unmapped page passed");
			next[first + i].perms = perms;
		}
	}
	if (err == 0)
		memcpy(m, next, sizeof(next));
	else if (err != -HV_ENOMEM && err != -HV_ENOENT)
		fail_msg("op %d: unexpected error %d", op, err);
	return err;
}

static void test_random_against_model(void **state)
{
	static struct model_page model[WIN_PAGES];
	struct ept e;
	unsigned iter, fails = 0, enoents = 0;
	int err;

	(void)state;
	memset(model, 0, sizeof(model));
	init(&e);
	for (iter = 0; iter < 1500; iter++) {
		bool inject = rng() % 4 == 0;

		if (inject)
			fake_pages_fail_after((long)(rng() % 3));
		err = random_op(&e, model);
		fake_pages_fail_after(-1);
		fails += err == -HV_ENOMEM;
		enoents += err == -HV_ENOENT;
		model_check(&e, model);
		check_accounting(&e);
		if (rng() % 8 == 0)
			ept_flush_done(&e);
	}
	print_message("random: %u ops, %u ENOMEM, %u ENOENT, %u splits, "
		      "%u table pages\n", iter, fails, enoents, e.splits,
		      e.table_pages);
	/* the run exercised the error paths too */
	assert_true(fails > 10);
	assert_true(enoents > 10);
	assert_true(e.splits > 10);
	destroy(&e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_init_destroy, setup, teardown),
		cmocka_unit_test_setup_teardown(test_map_4k_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(test_2m_pages_chosen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mixed_alignment, setup, teardown),
		cmocka_unit_test_setup_teardown(test_entry_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_eptp, setup, teardown),
		cmocka_unit_test_setup_teardown(test_protect_splits_2m, setup, teardown),
		cmocka_unit_test_setup_teardown(test_protect_range_across_pages, setup, teardown),
		cmocka_unit_test_setup_teardown(test_all_but_one_page, setup, teardown),
		cmocka_unit_test_setup_teardown(test_protect_unmapped_is_enoent, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmap_large_range_detaches_tables, setup, teardown),
		cmocka_unit_test_setup_teardown(test_remap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_map_enomem_each_step, setup, teardown),
		cmocka_unit_test_setup_teardown(test_protect_unmap_enomem, setup, teardown),
		cmocka_unit_test_setup_teardown(test_address_limits, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalid_arguments, setup, teardown),
		cmocka_unit_test_setup_teardown(test_destroy_frees_everything, setup, teardown),
		cmocka_unit_test_setup_teardown(test_random_against_model, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
