/* Where a VM's RAM lies (hv/vm/vm_layout.h): below the PCI hole up to
 * 0xC0000000, the rest from 4 GiB; what counts as RAM and where each
 * part sits in the VM's one host run. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "hv/vm/vm_layout.h"

#define MiB (1ull << 20)
#define GiB (1ull << 30)

static void small_vm_has_no_high_part(void **state)
{
	struct vm_ram_layout l;

	(void)state;
	vm_ram_layout_init(&l, 128 * MiB, VM_PCI_HOLE_BASE);
	assert_int_equal(l.low_end, 128 * MiB);
	assert_int_equal(vm_ram_high_bytes(&l), 0);
	assert_true(vm_ram_contains(&l, 0, 128 * MiB));
	assert_false(vm_ram_contains(&l, 128 * MiB - 4, 8));
	assert_false(vm_ram_contains(&l, 4 * GiB, 1));
	/* Exactly 3 GiB: all below the hole, nothing above. */
	vm_ram_layout_init(&l, 3 * GiB, VM_PCI_HOLE_BASE);
	assert_int_equal(l.low_end, 0xc0000000ull);
	assert_int_equal(vm_ram_high_bytes(&l), 0);
}

static void big_vm_splits_around_the_hole(void **state)
{
	struct vm_ram_layout l;

	(void)state;
	vm_ram_layout_init(&l, 6 * GiB, VM_PCI_HOLE_BASE);
	assert_int_equal(l.low_end, 0xc0000000ull);
	assert_int_equal(l.high_end, 4 * GiB + 3 * GiB);
	assert_true(vm_ram_contains(&l, 0xbffff000ull, 0x1000));
	/* The hole: the window, IOAPIC, LAPIC are not RAM. */
	assert_false(vm_ram_contains(&l, 0xc0000000ull, 1));
	assert_false(vm_ram_contains(&l, 0xfec00000ull, 4));
	assert_false(vm_ram_contains(&l, 0xfee00000ull, 4));
	assert_false(vm_ram_contains(&l, 0xbffffffcull, 8));	/* straddles */
	assert_true(vm_ram_contains(&l, 4 * GiB, 3 * GiB));
	assert_false(vm_ram_contains(&l, 7 * GiB - 4, 8));
	assert_false(vm_ram_contains(&l, 0xfffffffcull, 8));	/* into 4G */
	assert_false(vm_ram_contains(&l, ~0ull - 3, 8));	/* wraps */
	assert_false(vm_ram_contains(&l, 0, 0));
	/* Host run: the high part follows the low one. */
	assert_int_equal(vm_ram_offset(&l, 0x1000), 0x1000);
	assert_int_equal(vm_ram_offset(&l, 4 * GiB), 0xc0000000ull);
	assert_int_equal(vm_ram_offset(&l, 7 * GiB - 4096),
			 6 * GiB - 4096);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small_vm_has_no_high_part),
		cmocka_unit_test(big_vm_splits_around_the_hole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
