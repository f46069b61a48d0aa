/* VT-d tables for the iGPU: what the unit would let 00:02.0 reach, walked
 * the way the hardware walks them (vtd_translate), plus the fault
 * record layout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/vtd_fault.h"
#include "hv/vtd_tables.h"
#include "tests/harness/fake_pages.h"

#define IGPU_DEVFN (2 << 3)

static int setup(void **state)
{
	(void)state;
	fake_pages_reset();
	return 0;
}

static void test_only_allowed_pages_translate(void **state)
{
	struct vtd_domain d;
	uint64_t hpa = 0;

	(void)state;
	for (unsigned levels = 3; levels <= 4; levels++) {
		assert_int_equal(vtd_domain_init(&d, levels, 1, 0, IGPU_DEVFN, NULL), 0);
		assert_int_equal(vtd_allow(&d, 0x12340000, 0x3000, true), 0);
		assert_int_equal(vtd_allow(&d, 0x7f000000, 0x1000, false), 0);
		assert_int_equal(d.pages_allowed, 4);
		/* allowed: identity, read-write or read-only as asked */
		assert_true(vtd_translate(&d, 0, IGPU_DEVFN, 0x12341abc, true, &hpa));
		assert_int_equal(hpa, 0x12341abc);
		assert_true(vtd_translate(&d, 0, IGPU_DEVFN, 0x7f000010, false, &hpa));
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN, 0x7f000010, true, &hpa));
		/* next to an allowed range, or another device: faults */
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN, 0x12343000, false, &hpa));
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN, 0x1233f000, false, &hpa));
		assert_false(vtd_translate(&d, 0, 3 << 3, 0x12340000, false, &hpa));
		assert_false(vtd_translate(&d, 1, IGPU_DEVFN, 0x12340000, false, &hpa));
		/* beyond the width the context entry gives */
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN,
					   1ull << (12 + 9 * levels), false, &hpa));
		/* taken back */
		vtd_deny(&d, 0x12341000, 0x1000);
		assert_int_equal(d.pages_allowed, 3);
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN, 0x12341000, false, &hpa));
		assert_true(vtd_translate(&d, 0, IGPU_DEVFN, 0x12342000, false, &hpa));
		vtd_domain_free(&d);
		assert_int_equal(fake_pages_live(), 0);
	}
}

static void test_bad_arguments_and_no_memory(void **state)
{
	struct vtd_domain d;

	(void)state;
	assert_int_equal(vtd_domain_init(&d, 5, 1, 0, IGPU_DEVFN, NULL), -HV_EINVAL);
	fake_pages_fail_after(2);
	assert_int_equal(vtd_domain_init(&d, 4, 1, 0, IGPU_DEVFN, NULL), -HV_ENOMEM);
	assert_int_equal(fake_pages_live(), 0);
	fake_pages_fail_after(-1);
	assert_int_equal(vtd_domain_init(&d, 3, 1, 0, IGPU_DEVFN, NULL), 0);
	assert_int_equal(vtd_allow(&d, 0x1001, 0x1000, true), -HV_EINVAL);
	assert_int_equal(vtd_allow(&d, 1ull << 39, 0x1000, true), -HV_EINVAL);
	fake_pages_fail_after(0);
	assert_int_equal(vtd_allow(&d, 0x40000000, 0x1000, true), -HV_ENOMEM);
	fake_pages_fail_after(-1);
	vtd_domain_free(&d);
	assert_int_equal(fake_pages_live(), 0);
}

static void test_fault_record_layout(void **state)
{
	struct vtd_fault f;

	(void)state;
	/* F=1, T=1 (read), FR=0x06 (not present), SID 00:02.0, page 7f00b000 */
	vtd_fault_decode(0x7f00b000ull, (1ull << 63) | (1ull << 62) |
			 (0x06ull << 32) | IGPU_DEVFN, &f);
	assert_true(f.valid);
	assert_true(f.read);
	assert_int_equal(f.reason, 6);
	assert_int_equal(f.source, 0x0010);
	assert_int_equal(f.addr, 0x7f00b000);
	vtd_fault_decode(0, 0, &f);
	assert_false(f.valid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_only_allowed_pages_translate, setup),
		cmocka_unit_test_setup(test_bad_arguments_and_no_memory, setup),
		cmocka_unit_test_setup(test_fault_record_layout, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
