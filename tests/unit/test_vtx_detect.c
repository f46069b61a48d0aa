/* Unit tests of the VT-x availability decision (hv/platform/vtx_detect.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/platform/vtx_detect.h"
#include "hv/cpu/x86.h"

#define VMX CPUID_1_ECX_VMX
#define HYP CPUID_1_ECX_HYPERVISOR
#define LOCK FEATURE_CONTROL_LOCKED
#define IN_SMX FEATURE_CONTROL_VMXON_IN_SMX
#define OUT_SMX FEATURE_CONTROL_VMXON_OUTSIDE_SMX

/* The architectural bit positions (SDM vol. 3, 23.7 and CPUID leaf 1). */
static void test_bit_positions(void **state)
{
	(void)state;
	assert_int_equal(VMX, 1u << 5);
	assert_int_equal(HYP, 1u << 31);
	assert_int_equal(LOCK, 1);
	assert_int_equal(IN_SMX, 2);
	assert_int_equal(OUT_SMX, 4);
	assert_int_equal(MSR_IA32_FEATURE_CONTROL, 0x3a);
}

static void test_absent(void **state)
{
	struct vtx_verdict v;

	(void)state;
	/* Without the VMX bit the MSR value is meaningless (and not read on
	 * the machine): whatever is passed, the verdict is absent. */
	static const uint64_t fcs[] = { 0, LOCK, LOCK | OUT_SMX, ~0ull };

	for (unsigned i = 0; i < sizeof(fcs) / sizeof(fcs[0]); i++) {
		v = vtx_decide(0, fcs[i]);
		assert_int_equal(v.state, VTX_ABSENT);
		assert_int_equal(v.feature_control, 0);
		assert_false(v.in_vm);
		assert_false(vtx_usable(&v));

		v = vtx_decide(~VMX, fcs[i]); /* every other ECX bit set */
		assert_int_equal(v.state, VTX_ABSENT);
		assert_true(v.in_vm);
		assert_int_equal(v.feature_control, 0);
		assert_false(vtx_usable(&v));
	}
}

static void test_unlocked(void **state)
{
	struct vtx_verdict v;

	(void)state;
	/* Unlocked: whatever the enable bits say, we can set them. */
	static const uint64_t fcs[] = { 0, IN_SMX, OUT_SMX, IN_SMX | OUT_SMX,
					~LOCK };

	for (unsigned i = 0; i < sizeof(fcs) / sizeof(fcs[0]); i++) {
		v = vtx_decide(VMX, fcs[i]);
		assert_int_equal(v.state, VTX_READY_UNLOCKED);
		assert_int_equal(v.feature_control, fcs[i]);
		assert_false(v.in_vm);
		assert_true(vtx_usable(&v));
	}
}

static void test_locked_enabled(void **state)
{
	struct vtx_verdict v;

	(void)state;
	v = vtx_decide(VMX, LOCK | OUT_SMX);
	assert_int_equal(v.state, VTX_READY_LOCKED);
	assert_int_equal(v.feature_control, LOCK | OUT_SMX);
	assert_true(vtx_usable(&v));
	v = vtx_decide(VMX, LOCK | OUT_SMX | IN_SMX | (0x7full << 8));
	assert_int_equal(v.state, VTX_READY_LOCKED);
	assert_true(vtx_usable(&v));
	v = vtx_decide(VMX, ~0ull);
	assert_int_equal(v.state, VTX_READY_LOCKED);
}

static void test_locked_disabled(void **state)
{
	struct vtx_verdict v;

	(void)state;
	v = vtx_decide(VMX, LOCK);
	assert_int_equal(v.state, VTX_DISABLED_BY_FW);
	assert_int_equal(v.feature_control, LOCK);
	assert_false(vtx_usable(&v));
	/* VMX only inside SMX (TXT) is no use to us. */
	v = vtx_decide(VMX, LOCK | IN_SMX);
	assert_int_equal(v.state, VTX_DISABLED_BY_FW);
	assert_false(vtx_usable(&v));
	v = vtx_decide(VMX, ~OUT_SMX);
	assert_int_equal(v.state, VTX_DISABLED_BY_FW);
	assert_false(vtx_usable(&v));
}

/* The hypervisor bit is reported and changes nothing else. */
static void test_hypervisor_bit(void **state)
{
	static const uint64_t fcs[] = { 0, LOCK, LOCK | OUT_SMX, LOCK | IN_SMX,
					OUT_SMX };

	(void)state;
	for (unsigned i = 0; i < sizeof(fcs) / sizeof(fcs[0]); i++) {
		for (int vmx = 0; vmx < 2; vmx++) {
			uint32_t ecx = vmx ? VMX : 0;
			struct vtx_verdict bare = vtx_decide(ecx, fcs[i]);
			struct vtx_verdict nested = vtx_decide(ecx | HYP, fcs[i]);

			assert_false(bare.in_vm);
			assert_true(nested.in_vm);
			assert_int_equal(bare.state, nested.state);
			assert_int_equal(bare.feature_control,
					 nested.feature_control);
			assert_int_equal(vtx_usable(&bare),
					 vtx_usable(&nested));
		}
	}
}

/* Every (VMX, lock, outside-SMX, inside-SMX, hypervisor) combination
 * against the rule written out independently. */
static void test_all_combinations(void **state)
{
	(void)state;
	for (unsigned bits = 0; bits < 32; bits++) {
		bool vmx = bits & 1, lock = bits & 2, out = bits & 4,
		     in = bits & 8, hyp = bits & 16;
		uint32_t ecx = (vmx ? VMX : 0) | (hyp ? HYP : 0);
		uint64_t fc = (lock ? LOCK : 0) | (out ? OUT_SMX : 0) |
			      (in ? IN_SMX : 0);
		enum vtx_state want = !vmx ? VTX_ABSENT
				    : !lock ? VTX_READY_UNLOCKED
				    : out ? VTX_READY_LOCKED
					  : VTX_DISABLED_BY_FW;
		struct vtx_verdict v = vtx_decide(ecx, fc);

		assert_int_equal(v.state, want);
		assert_int_equal(v.in_vm, hyp);
		assert_int_equal(v.feature_control, vmx ? fc : 0);
		assert_int_equal(vtx_usable(&v),
				 want == VTX_READY_LOCKED ||
					 want == VTX_READY_UNLOCKED);
	}
}

static void test_explain(void **state)
{
	const enum vtx_state all[] = { VTX_ABSENT, VTX_DISABLED_BY_FW,
				       VTX_READY_LOCKED, VTX_READY_UNLOCKED };
	const char *seen[4];

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		struct vtx_verdict v = { .state = all[i] };
		const char *s = vtx_explain(&v);

		assert_non_null(s);
		assert_true(strlen(s) > 10);
		assert_null(strchr(s, '\n')); /* one line */
		for (unsigned j = 0; j < i; j++)
			assert_true(strcmp(seen[j], s) != 0);
		seen[i] = s;
	}
	/* The two "cannot run" states say so; the usable ones do not. */
	{
		struct vtx_verdict v = vtx_decide(0, 0);

		assert_non_null(strstr(vtx_explain(&v), "cannot run"));
		v = vtx_decide(VMX, LOCK);
		assert_non_null(strstr(vtx_explain(&v), "cannot run"));
		assert_non_null(strstr(vtx_explain(&v), "firmware"));
		v = vtx_decide(VMX, LOCK | OUT_SMX);
		assert_null(strstr(vtx_explain(&v), "cannot"));
		v = vtx_decide(VMX, 0);
		assert_null(strstr(vtx_explain(&v), "cannot"));
	}
	/* A corrupt verdict (out-of-range state) still gets a string. */
	{
		struct vtx_verdict v = { .state = (enum vtx_state)99 };
		const char *s = vtx_explain(&v);

		assert_non_null(s);
		assert_true(strlen(s) > 0);
		assert_false(vtx_usable(&v));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bit_positions),
		cmocka_unit_test(test_absent),
		cmocka_unit_test(test_unlocked),
		cmocka_unit_test(test_locked_enabled),
		cmocka_unit_test(test_locked_disabled),
		cmocka_unit_test(test_hypervisor_bit),
		cmocka_unit_test(test_all_combinations),
		cmocka_unit_test(test_explain),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
