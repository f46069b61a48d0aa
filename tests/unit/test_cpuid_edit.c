/* What a VM's CPUID hides and keeps (hv/vm/cpuid_edit.c): every feature
 * whose MSRs or state a guest would use without asking, and that we do not
 * virtualise, is hidden; what Linux needs (x2APIC, ARAT, the hypervisor
 * bit) is shown. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "hv/vm/cpuid_edit.h"

#define ALL_ONES ((struct cpuid_regs){ ~0u, ~0u, ~0u, ~0u })

static void leaf6_is_arat_only(void **state)
{
	struct cpuid_regs c = ALL_ONES;

	(void)state;
	cpuid_edit_basic(6, 0, &c);
	assert_int_equal(c.eax, 1u << 2);	/* ARAT; no DTS, PTM, HWP */
	assert_int_equal(c.ebx, 0);
	assert_int_equal(c.ecx, 0);		/* no APERF/MPERF, no EPB */
	assert_int_equal(c.edx, 0);
}

static void leaf1_hides_power_and_debug_store(void **state)
{
	struct cpuid_regs c = ALL_ONES;

	(void)state;
	cpuid_edit_basic(1, 0, &c);
	assert_int_equal(c.edx & (1u << 21), 0);	/* DS */
	assert_int_equal(c.edx & (1u << 22), 0);	/* ACPI thermal MSRs */
	assert_int_equal(c.edx & (1u << 29), 0);	/* TM */
	assert_int_equal(c.edx & (1u << 31), 0);	/* PBE */
	assert_int_equal(c.ecx & (1u << 7), 0);		/* EST */
	assert_int_equal(c.ecx & (1u << 8), 0);		/* TM2 */
	assert_int_equal(c.ecx & (1u << 5), 0);		/* VMX */
	assert_int_equal(c.ecx & (1u << 26), 0);	/* XSAVE */
	assert_int_not_equal(c.ecx & (1u << 21), 0);	/* x2APIC */
	assert_int_not_equal(c.ecx & (1u << 31), 0);	/* hypervisor */
	assert_int_not_equal(c.edx & (1u << 4), 0);	/* TSC kept */
}

/* Each vCPU's APIC ID and one topology for all of them: leaf 1, leaf 4's
 * core count, leaf 0xB's thread and core levels (Linux's
 * detect_extended_topology reads the shift and count of each). */
static void topology_per_vcpu(void **state)
{
	struct cpuid_regs c;

	(void)state;
	c = (struct cpuid_regs){ 0x00050654, 0xff3f0800, 0x7ffefbff,
				 0xbfebfbff };
	cpuid_edit_topology(1, 0, 0, 1, &c);
	assert_int_equal(c.ebx, 0x00010800);	/* ID 0, one CPU */
	assert_int_equal(c.edx & (1u << 28), 0);	/* no HTT */
	cpuid_edit_topology(1, 0, 2, 3, &c);
	assert_int_equal(c.ebx, 0x02030800);	/* ID 2 of 3 */
	assert_int_not_equal(c.edx & (1u << 28), 0);
	for (unsigned id = 0; id < 3; id++) {
		c = (struct cpuid_regs){ 1, 2, 0x100, 7 };
		cpuid_edit_topology(0xb, 0, id, 3, &c);
		assert_int_equal(c.eax, 0);		/* SMT: shift 0 */
		assert_int_equal(c.ebx, 1);		/* one thread */
		assert_int_equal(c.ecx, 0x100);
		assert_int_equal(c.edx, id);
		cpuid_edit_topology(0xb, 1, id, 3, &c);
		assert_int_equal(c.eax, 2);		/* 3 IDs need 2 bits */
		assert_int_equal(c.ebx, 3);
		assert_int_equal(c.ecx, 0x201);
		assert_int_equal(c.edx, id);
		cpuid_edit_topology(0x1f, 2, id, 3, &c);
		assert_int_equal(c.eax | c.ebx, 0);	/* no level 2 */
		assert_int_equal(c.ecx, 2);
		assert_int_equal(c.edx, id);
	}
	c = (struct cpuid_regs){ 0, 0, 0, 0 };
	cpuid_edit_topology(0xb, 1, 0, 1, &c);
	assert_int_equal(c.eax, 0);
	assert_int_equal(c.ebx, 1);
	c = (struct cpuid_regs){ 0x1c004121, 0, 0, 0 };	/* L1d, host's */
	cpuid_edit_topology(4, 0, 1, 2, &c);
	assert_int_equal(c.eax, 0x04004121);	/* 2 cores: field 1 */
	c = (struct cpuid_regs){ 0, 0, 0, 0 };	/* no more caches */
	cpuid_edit_topology(4, 4, 1, 2, &c);
	assert_int_equal(c.eax, 0);
}

static void leaf1_keeps_what_is_clear(void **state)
{
	struct cpuid_regs c = { 0, 0, 0, 0 };

	(void)state;
	cpuid_edit_basic(1, 0, &c);
	assert_int_equal(c.edx, 0);
	assert_int_equal(c.ecx, (1u << 21) | (1u << 31));
}

static void pmu_and_xsave_leaves_are_empty(void **state)
{
	static const uint32_t leaves[] = { 0xa, 0xd };

	(void)state;
	for (unsigned i = 0; i < 2; i++) {
		struct cpuid_regs c = ALL_ONES;

		cpuid_edit_basic(leaves[i], 0, &c);
		assert_int_equal(c.eax | c.ebx | c.ecx | c.edx, 0);
	}
}

static void leaf7_hides_xsave_users_keeps_rdpid(void **state)
{
	struct cpuid_regs c = ALL_ONES;

	(void)state;
	cpuid_edit_basic(7, 0, &c);
	assert_int_equal(c.eax, 0);
	assert_int_equal(c.ebx & (1u << 5), 0);		/* AVX2 */
	assert_int_equal(c.ecx & (1u << 16), 0);	/* LA57 */
	assert_int_equal(c.ecx & (1u << 3), 0);		/* PKU */
	/* RDPID reads TSC_AUX, which is switched per VM now */
	assert_int_not_equal(c.ecx & (1u << 22), 0);
	c = ALL_ONES;
	cpuid_edit_basic(7, 1, &c);
	assert_int_equal(c.eax | c.ebx | c.ecx | c.edx, 0);
}

static void other_leaves_untouched(void **state)
{
	struct cpuid_regs c = { 1, 2, 3, 4 };

	(void)state;
	cpuid_edit_basic(4, 0, &c);
	assert_int_equal(c.eax, 1);
	assert_int_equal(c.edx, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(leaf6_is_arat_only),
		cmocka_unit_test(leaf1_hides_power_and_debug_store),
		cmocka_unit_test(leaf1_keeps_what_is_clear),
		cmocka_unit_test(topology_per_vcpu),
		cmocka_unit_test(pmu_and_xsave_leaves_are_empty),
		cmocka_unit_test(leaf7_hides_xsave_users_keeps_rdpid),
		cmocka_unit_test(other_leaves_untouched),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
