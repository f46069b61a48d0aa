/* Unit tests for hv/vmx/exit_reason.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vmx/exit_reason.h"
#include "hv/vmx/vmx_defs.h"

/* Numbers the SDM leaves unassigned in Table C-1. */
static int is_reason_hole(uint32_t r)
{
	return r == 35 || r == 38 || r == 42 || r == 71;
}

static void test_known_reasons(void **state)
{
	(void)state;
	assert_string_equal(vmx_exit_reason_name(0), "EXCEPTION_NMI");
	assert_string_equal(vmx_exit_reason_name(1), "EXTERNAL_INTERRUPT");
	assert_string_equal(vmx_exit_reason_name(10), "CPUID");
	assert_string_equal(vmx_exit_reason_name(12), "HLT");
	assert_string_equal(vmx_exit_reason_name(18), "VMCALL");
	assert_string_equal(vmx_exit_reason_name(28), "CR_ACCESS");
	assert_string_equal(vmx_exit_reason_name(30), "IO_INSTRUCTION");
	assert_string_equal(vmx_exit_reason_name(31), "RDMSR");
	assert_string_equal(vmx_exit_reason_name(32), "WRMSR");
	assert_string_equal(vmx_exit_reason_name(33),
			    "ENTRY_FAIL_GUEST_STATE");
	assert_string_equal(vmx_exit_reason_name(48), "EPT_VIOLATION");
	assert_string_equal(vmx_exit_reason_name(49), "EPT_MISCONFIG");
	assert_string_equal(vmx_exit_reason_name(52), "PREEMPTION_TIMER");
	assert_string_equal(vmx_exit_reason_name(55), "XSETBV");
	assert_string_equal(vmx_exit_reason_name(69), "LOADIWKEY");
	assert_string_equal(vmx_exit_reason_name(70), "ENCLV");
	assert_string_equal(vmx_exit_reason_name(74), "BUS_LOCK");
	assert_string_equal(vmx_exit_reason_name(77), "TDCALL");
}

static void test_every_reason_named_once(void **state)
{
	uint32_t i, j;

	(void)state;
	for (i = 0; i < EXIT_REASON_COUNT; i++) {
		const char *n = vmx_exit_reason_name(i);

		if (is_reason_hole(i)) {
			assert_string_equal(n, "UNKNOWN");
			continue;
		}
		if (strcmp(n, "UNKNOWN") == 0)
			fail_msg("exit reason %u has no name", i);
		assert_int_equal(strspn(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789"),
				 strlen(n));
		for (j = 0; j < i; j++)
			if (strcmp(n, vmx_exit_reason_name(j)) == 0 &&
			    !is_reason_hole(j))
				fail_msg("reasons %u and %u share %s", j, i, n);
	}
}

static void test_reason_flags_and_range(void **state)
{
	(void)state;
	/* A failed VM entry reports 0x80000021: the flag is ignored. */
	assert_string_equal(vmx_exit_reason_name(EXIT_REASON_ENTRY_FAILURE |
						 33),
			    "ENTRY_FAIL_GUEST_STATE");
	assert_string_equal(vmx_exit_reason_name(EXIT_REASON_PENDING_MTF | 48),
			    "EPT_VIOLATION");
	assert_string_equal(vmx_exit_reason_name(EXIT_REASON_COUNT), "UNKNOWN");
	assert_string_equal(vmx_exit_reason_name(0xffff), "UNKNOWN");
	assert_string_equal(vmx_exit_reason_name(0xffffffffu), "UNKNOWN");
}

static void test_insn_errors(void **state)
{
	uint32_t i;

	(void)state;
	assert_string_equal(vmx_insn_error_name(4),
			    "VMLAUNCH with non-clear VMCS");
	assert_string_equal(vmx_insn_error_name(5),
			    "VMRESUME with non-launched VMCS");
	assert_string_equal(vmx_insn_error_name(7),
			    "VM entry with invalid control field(s)");
	assert_string_equal(vmx_insn_error_name(8),
			    "VM entry with invalid host-state field(s)");
	assert_string_equal(vmx_insn_error_name(12),
			    "VMREAD/VMWRITE from/to unsupported VMCS component");
	assert_string_equal(vmx_insn_error_name(26),
			    "VM entry with events blocked by MOV SS");
	assert_string_equal(vmx_insn_error_name(28),
			    "Invalid operand to INVEPT/INVVPID");
	for (i = 1; i <= 28; i++) {
		int reserved = (i == 14 || i == 21 || i == 27);
		int unknown = !strcmp(vmx_insn_error_name(i), "UNKNOWN");

		if (reserved != unknown)
			fail_msg("VM-instruction error %u: %s", i,
				 vmx_insn_error_name(i));
	}
	assert_string_equal(vmx_insn_error_name(0), "UNKNOWN");
	assert_string_equal(vmx_insn_error_name(29), "UNKNOWN");
	assert_string_equal(vmx_insn_error_name(0xffffffffu), "UNKNOWN");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_known_reasons),
		cmocka_unit_test(test_every_reason_named_once),
		cmocka_unit_test(test_reason_flags_and_range),
		cmocka_unit_test(test_insn_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
