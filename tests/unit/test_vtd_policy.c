/* Which pages the iGPU may reach (hv/vtd/vtd_policy.c), checked by walking the
 * tables the way the unit does (vtd_translate): the RMRRs, the mediator's
 * pages, the RAM of VMs that have a vGPU while they run, test buffers,
 * and nothing else; pages taken back ask for an IOTLB invalidation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/vtd/vtd_policy.h"
#include "hv/vtd/vtd_tables.h"
#include "tests/harness/fake_pages.h"

#define IGPU_DEVFN (2 << 3)
#define MiB (1ull << 20)

/* A Skylake-like layout: stolen memory reserved by an RMRR, two VMs'
 * RAM, a few mediator pages. */
#define RMRR_BASE 0x7b000000ull
#define RMRR_LIMIT 0x7effffffull
#define VM0_BASE 0x20000000ull
#define VM1_BASE 0x40000000ull
#define VM_LEN (64 * MiB)
#define MED 0x10000000ull

static struct vtd_domain dom;
static struct vtd_policy pol;

static bool reach(uint64_t a, bool write)
{
	uint64_t hpa;

	return vtd_translate(&dom, 0, IGPU_DEVFN, a, write, &hpa) && hpa == a;
}

/* Every page of [base, base + len) reachable read-write, and the pages
 * just outside it not. */
static void assert_only(uint64_t base, uint64_t len)
{
	for (uint64_t a = base; a < base + len; a += len / 16)
		assert_true(reach(a, true));
	assert_true(reach(base + len - 4096, true));
	assert_false(reach(base - 4096, false));
	assert_false(reach(base + len, false));
}

static int setup(void **state)
{
	(void)state;
	fake_pages_reset();
	assert_int_equal(vtd_domain_init(&dom, 4, 1, 0, IGPU_DEVFN, NULL), 0);
	vtd_policy_init(&pol, &dom);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	vtd_domain_free(&dom);
	assert_int_equal(fake_pages_live(), 0);
	return 0;
}

static void test_rmrr_only_at_first(void **state)
{
	(void)state;
	/* the DMAR's limit is inclusive; an unaligned one rounds out */
	assert_int_equal(vtd_policy_add_rmrr(&pol, RMRR_BASE, RMRR_LIMIT), 0);
	assert_int_equal(dom.pages_allowed, (RMRR_LIMIT + 1 - RMRR_BASE) / 4096);
	assert_only(RMRR_BASE, RMRR_LIMIT + 1 - RMRR_BASE);
	assert_int_equal(vtd_policy_add_rmrr(&pol, 0x1800, 0x27ff), 0);
	assert_true(reach(0x1000, false) && reach(0x2000, false));
	assert_false(reach(0x3000, false));
	/* nothing else: RAM, low memory, MMIO, the top of the width */
	assert_false(reach(0, false));
	assert_false(reach(VM0_BASE, false));
	assert_false(reach(0xfed90000, false));
	assert_false(reach((1ull << 48) - 4096, false));
	assert_int_equal(vtd_policy_add_rmrr(&pol, 0x3000, 0x2fff), -HV_EINVAL);
	assert_true(pol.refused > 0);
}

static void test_vm_ram_follows_vgpu_and_state(void **state)
{
	(void)state;
	assert_int_equal(vtd_policy_add_rmrr(&pol, RMRR_BASE, RMRR_LIMIT), 0);
	(void)vtd_policy_take_flush(&pol, false);
	/* vm 0 has a vGPU and runs; vm 1 has none. The cost of mapping
	 * 64 MiB with 4 KiB leaves: 32 last-level tables and one directory
	 * for its GiB (the PML4 and PDPT exist already): 33 pages, 0.2% */
	{
		size_t before = fake_pages_live();

		assert_int_equal(vtd_policy_vm(&pol, 0, true, VM0_BASE, VM_LEN),
				 0);
		assert_int_equal(fake_pages_live() - before,
				 (VM_LEN >> 21) + 1);
	}
	assert_int_equal(vtd_policy_vm(&pol, 1, false, VM1_BASE, VM_LEN), 0);
	assert_only(VM0_BASE, VM_LEN);
	assert_false(reach(VM1_BASE, false));
	assert_false(vtd_policy_take_flush(&pol, false));  /* only given */
	/* a caching-mode unit may hold "not present": giving needs a flush */
	assert_int_equal(vtd_policy_mediator(&pol, MED, 1, true), 0);
	assert_true(vtd_policy_take_flush(&pol, true));
	assert_int_equal(vtd_policy_mediator(&pol, MED, 1, false), 0);
	assert_true(vtd_policy_take_flush(&pol, false));
	/* the same again changes nothing */
	assert_int_equal(vtd_policy_vm(&pol, 0, true, VM0_BASE, VM_LEN), 0);
	assert_false(vtd_policy_take_flush(&pol, true));
	/* vm 0 stops: all its RAM is taken back, the unit must forget it */
	assert_int_equal(vtd_policy_vm(&pol, 0, false, VM0_BASE, VM_LEN), 0);
	for (uint64_t a = VM0_BASE; a < VM0_BASE + VM_LEN; a += 4096)
		if (reach(a, false))
			fail_msg("page %llx still reachable",
				 (unsigned long long)a);
	assert_true(vtd_policy_take_flush(&pol, false));
	assert_false(vtd_policy_take_flush(&pol, false));
	/* the RMRR stays */
	assert_only(RMRR_BASE, RMRR_LIMIT + 1 - RMRR_BASE);
	assert_int_equal(dom.pages_allowed, (RMRR_LIMIT + 1 - RMRR_BASE) / 4096);
}

/* A VM whose RAM moved (a restart that reallocated it): the old range
 * goes, the new one comes. */
static void test_vm_range_change(void **state)
{
	(void)state;
	assert_int_equal(vtd_policy_vm(&pol, 3, true, VM0_BASE, VM_LEN), 0);
	assert_int_equal(vtd_policy_vm(&pol, 3, true, VM1_BASE, VM_LEN), 0);
	assert_false(reach(VM0_BASE, false));
	assert_only(VM1_BASE, VM_LEN);
	assert_true(vtd_policy_take_flush(&pol, false));
	assert_int_equal(dom.pages_allowed, VM_LEN / 4096);
	/* bad requests are refused, counted, and change nothing */
	assert_int_equal(vtd_policy_vm(&pol, 16, true, VM0_BASE, VM_LEN),
			 -HV_EINVAL);
	assert_int_equal(vtd_policy_vm(&pol, 4, true, VM0_BASE + 1, VM_LEN),
			 -HV_EINVAL);
	assert_int_equal(vtd_policy_vm(&pol, 4, true, VM0_BASE, 0), -HV_EINVAL);
	assert_int_equal(pol.refused, 3);
	assert_int_equal(dom.pages_allowed, VM_LEN / 4096);
}

static void test_mediator_pages(void **state)
{
	(void)state;
	assert_int_equal(vtd_policy_mediator(&pol, MED, 4, true), 0);
	assert_int_equal(vtd_policy_mediator(&pol, MED + 0x10000, 1, true), 0);
	assert_only(MED, 4 * 4096);
	assert_true(reach(MED + 0x10000, true));
	assert_int_equal(pol.mediator_pages, 5);
	assert_int_equal(pol.mediator_allocs, 2);
	assert_false(vtd_policy_take_flush(&pol, false));
	/* freed: gone before the allocator may hand it to anyone else */
	assert_int_equal(vtd_policy_mediator(&pol, MED, 4, false), 0);
	assert_false(reach(MED, false));
	assert_true(reach(MED + 0x10000, true));
	assert_true(vtd_policy_take_flush(&pol, false));
	assert_int_equal(pol.mediator_pages, 1);
	assert_int_equal(vtd_policy_mediator(&pol, MED + 1, 1, true),
			 -HV_EINVAL);
	assert_int_equal(vtd_policy_mediator(&pol, MED, 1ull << 60, true),
			 -HV_EINVAL);
}

/* A range taken back never takes an RMRR page with it, even when the
 * ranges overlap (a broken memory map). */
static void test_deny_keeps_rmrr(void **state)
{
	(void)state;
	assert_int_equal(vtd_policy_add_rmrr(&pol, RMRR_BASE, RMRR_LIMIT), 0);
	assert_int_equal(vtd_policy_vm(&pol, 0, true, RMRR_BASE - 16 * MiB,
				       32 * MiB), 0);
	assert_int_equal(vtd_policy_vm(&pol, 0, false, 0, 0), 0);
	assert_false(reach(RMRR_BASE - 4096, false));
	assert_only(RMRR_BASE, RMRR_LIMIT + 1 - RMRR_BASE);
}

static void test_test_buffers_and_no_memory(void **state)
{
	(void)state;
	assert_int_equal(vtd_policy_test(&pol, MED, 4096, true), 0);
	assert_int_equal(vtd_policy_test(&pol, MED, 4096, true), 0); /* again */
	assert_int_equal(pol.nr_test, 1);
	assert_true(reach(MED, true));
	assert_int_equal(vtd_policy_test(&pol, MED, 4096, false), 0);
	assert_false(reach(MED, false));
	assert_int_equal(vtd_policy_test(&pol, MED, 4096, false), -HV_ENOENT);
	/* out of table pages half-way: nothing of the range stays mapped */
	fake_pages_fail_after(0);
	assert_int_equal(vtd_policy_vm(&pol, 0, true, 0x900000000ull, VM_LEN),
			 -HV_ENOMEM);
	fake_pages_fail_after(-1);
	assert_false(reach(0x900000000ull, false));
	assert_false(pol.vm[0].on);
	assert_int_equal(dom.pages_allowed, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_rmrr_only_at_first, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_vm_ram_follows_vgpu_and_state,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_vm_range_change, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_mediator_pages, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_deny_keeps_rmrr, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_test_buffers_and_no_memory,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
