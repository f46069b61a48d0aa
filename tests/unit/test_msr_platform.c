/* The platform MSR table (hv/vm/msr_platform.c) as KVM answers a guest:
 * the values Linux reads at boot, the writes it accepts, and for every
 * MSR that raises #GP, the CPUID bit that would name it is hidden
 * (hv/vm/cpuid_edit.c), so a Linux guest only reaches it through
 * rdmsr_safe and never logs "unchecked MSR access". */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vm/cpuid_edit.h"
#include "hv/vm/msr_platform.h"
#include "hv/vm/vm.h"

#define ALL_ONES ((struct cpuid_regs){ ~0u, ~0u, ~0u, ~0u })

static struct vm vm;

static uint64_t read_ok(uint32_t msr)
{
	uint64_t v = 0xdeadbeefull;

	assert_int_equal(msr_platform_read(&vm, msr, &v), 0);
	return v;
}

static void reads_as_kvm(void **state)
{
	/* RAPL: units and energy counters 0, never the package's counts
	 * (another VM's activity); the power limit is not there. */
	static const uint32_t zero[] = {
		0x606, 0x611, 0x619, 0x639, 0x641,	/* RAPL */
		0x0ce,	/* PLATFORM_INFO: no ratios, no CPUID faulting */
		0x140,	/* MISC_FEATURES_ENABLES */
		0x017, 0x02a, 0x034, 0x199,	/* PLATFORM_ID ... PERF_CTL */
		0x03b, 0x08b, 0x179, 0x17a,
	};
	uint64_t v;

	(void)state;
	for (unsigned i = 0; i < sizeof(zero) / sizeof(zero[0]); i++)
		assert_int_equal(read_ok(zero[i]), 0);
	assert_int_equal(read_ok(0x03a), 1);	/* FEATURE_CONTROL locked */
	assert_int_equal(msr_platform_read(&vm, 0x610, &v), -1);
	assert_string_equal(msr_name(0x611), "MSR_PKG_ENERGY_STATUS");
	assert_null(msr_name(0x12345678));
	assert_int_equal(msr_platform_read(&vm, 0x12345678, &v), -1);
}

static void writes_as_kvm(void **state)
{
	(void)state;
	/* Read-only as on KVM (host-initiated writes only there). */
	assert_int_equal(msr_platform_write(&vm, 0x0ce, 0), -1);
	assert_int_equal(msr_platform_write(&vm, 0x606, 0), -1);
	assert_int_equal(msr_platform_write(&vm, 0x611, 0), -1);
	/* MISC_FEATURES_ENABLES: no CPUID faulting, so only 0 (Linux
	 * writes back what it read). */
	assert_int_equal(msr_platform_write(&vm, 0x140, 0), 0);
	assert_int_equal(msr_platform_write(&vm, 0x140, 1), -1);
	assert_int_equal(msr_platform_write(&vm, 0x03b, 0), 0);
	assert_int_equal(msr_platform_write(&vm, 0x03b, 5), -1);
	assert_int_equal(msr_platform_write(&vm, 0x08b, 7), 0);
}

/* Each #GP MSR and the CPUID bit that announces it to Linux. */
static const struct {
	uint32_t msr, leaf;
	char reg;	/* 'a', 'b', 'c', 'd' */
	unsigned bit;
} gp_msrs[] = {
	{ 0x048, 7, 'd', 26 },	/* SPEC_CTRL: IBRS */
	{ 0x049, 7, 'd', 26 },	/* PRED_CMD: IBPB */
	{ 0x10b, 7, 'd', 28 },	/* FLUSH_CMD */
	{ 0x10a, 7, 'd', 29 },	/* ARCH_CAPABILITIES */
	{ 0x0cf, 7, 'd', 30 },	/* CORE_CAPABILITIES */
	{ 0x0e7, 6, 'c', 0 },	/* MPERF */
	{ 0x0e8, 6, 'c', 0 },	/* APERF */
	{ 0x19b, 1, 'd', 22 },	/* THERM_INTERRUPT: ACPI */
	{ 0x19c, 6, 'a', 0 },	/* THERM_STATUS: DTS */
	{ 0x1a2, 6, 'a', 0 },	/* TEMPERATURE_TARGET: coretemp needs DTS */
	{ 0x1b1, 6, 'a', 6 },	/* PACKAGE_THERM_STATUS: PTM */
	{ 0x1b0, 6, 'c', 3 },	/* ENERGY_PERF_BIAS */
	{ 0x345, 1, 'c', 15 },	/* PERF_CAPABILITIES: PDCM */
	{ 0x38f, 0xa, 'a', 0 },	/* PERF_GLOBAL_CTRL: PMU version */
	{ 0x6e0, 1, 'c', 24 },	/* TSC_DEADLINE */
};

static uint32_t reg_of(const struct cpuid_regs *c, char r)
{
	return r == 'a' ? c->eax : r == 'b' ? c->ebx : r == 'c' ? c->ecx
								: c->edx;
}

static void gp_only_where_cpuid_hides_it(void **state)
{
	(void)state;
	for (unsigned i = 0; i < sizeof(gp_msrs) / sizeof(gp_msrs[0]); i++) {
		struct cpuid_regs c = ALL_ONES;
		uint64_t v;

		assert_int_equal(msr_platform_read(&vm, gp_msrs[i].msr, &v),
				 -1);
		assert_int_equal(msr_platform_write(&vm, gp_msrs[i].msr, 0),
				 -1);
		assert_non_null(msr_name(gp_msrs[i].msr));
		cpuid_edit_basic(gp_msrs[i].leaf, 0, &c);
		if (gp_msrs[i].leaf == 0xa) {	/* whole leaf: no PMU */
			assert_int_equal(c.eax & 0xff, 0);
			continue;
		}
		assert_int_equal(reg_of(&c, gp_msrs[i].reg) &
					 (1u << gp_msrs[i].bit), 0);
	}
}

/* Refusals are logged once per MSR per VM, then only counted. */
static void first_refusal_once(void **state)
{
	(void)state;
	memset(&vm, 0, sizeof(vm));
	assert_true(msr_first_refusal(&vm, 0x610));
	assert_false(msr_first_refusal(&vm, 0x610));
	assert_true(msr_first_refusal(&vm, 0x611));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_as_kvm),
		cmocka_unit_test(writes_as_kvm),
		cmocka_unit_test(gp_only_where_cpuid_hides_it),
		cmocka_unit_test(first_refusal_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
