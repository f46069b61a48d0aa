/* Unit tests for hv/vm/guest_state_check.c: guest CR/MSR values checked as
 * the CPU checks them (the #GP cases of SDM Vol. 3A 2.5 and Vol. 4), and
 * the VM-entry check that names what failed. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vm/guest_state_check.h"
#include "hv/vmx/vmx_defs.h"

#define LONG_CR0 (CR0_PE | CR0_ET | CR0_NE | CR0_PG)
#define LONG_EFER (GSC_EFER_LME | GSC_EFER_LMA)

static struct gsc_ctx long_mode(void)
{
	struct gsc_ctx c = {
		.cr0 = LONG_CR0, .cr4 = CR4_PAE, .efer = LONG_EFER,
		.cs_l = true, .maxphyaddr = 39,
		.cr4_allowed = GSC_CR4_GUEST_BITS | CR4_VMXE | CR4_OSXSAVE |
			       CR4_PKE,
	};
	return c;
}

static void test_canonical(void **state)
{
	(void)state;
	assert_true(gsc_canonical(0));
	assert_true(gsc_canonical(0x00007fffffffffffull));
	assert_true(gsc_canonical(0xffff800000000000ull));
	assert_false(gsc_canonical(0x0000800000000000ull));
	assert_false(gsc_canonical(0xffff000000001000ull));
	assert_false(gsc_canonical(0x8000000000000000ull));
}

static void test_pat(void **state)
{
	(void)state;
	assert_true(gsc_pat_valid(0x0007040600070406ull));
	assert_true(gsc_pat_valid(0x0101010101010101ull));
	assert_false(gsc_pat_valid(0x0007040600070402ull));	/* type 2 */
	assert_false(gsc_pat_valid(0x0307040600070406ull));	/* type 3 */
	assert_false(gsc_pat_valid(0x0807040600070406ull));	/* type 8 */
	assert_false(gsc_pat_valid(0xff07040600070406ull));
}

static void test_efer(void **state)
{
	struct gsc_ctx c = long_mode();
	uint64_t v;

	(void)state;
	v = LONG_EFER | GSC_EFER_NXE | GSC_EFER_SCE;
	assert_null(gsc_check_wrmsr(&c, MSR_IA32_EFER, &v));
	v = LONG_EFER | 2;
	assert_non_null(gsc_check_wrmsr(&c, MSR_IA32_EFER, &v));
	v = LONG_EFER | (1ull << 12);	/* SVME: AMD only */
	assert_non_null(gsc_check_wrmsr(&c, MSR_IA32_EFER, &v));
	v = GSC_EFER_LMA;		/* LME cleared with paging on */
	assert_non_null(gsc_check_wrmsr(&c, MSR_IA32_EFER, &v));
	/* LMA is read-only: a write that clears it keeps it. */
	v = GSC_EFER_LME;
	assert_null(gsc_check_wrmsr(&c, MSR_IA32_EFER, &v));
	assert_int_equal(v, LONG_EFER);
	/* Without paging LME may change; LMA stays the CPU's. */
	c.cr0 = CR0_PE;
	c.efer = 0;
	v = GSC_EFER_LME | GSC_EFER_LMA;
	assert_null(gsc_check_wrmsr(&c, MSR_IA32_EFER, &v));
	assert_int_equal(v, GSC_EFER_LME);
}

static void test_msrs(void **state)
{
	struct gsc_ctx c = long_mode();
	uint64_t v;

	(void)state;
	v = 0x0000800000000000ull;
	assert_non_null(gsc_check_wrmsr(&c, MSR_IA32_SYSENTER_EIP, &v));
	assert_non_null(gsc_check_wrmsr(&c, MSR_IA32_SYSENTER_ESP, &v));
	v = 0xffff800000001000ull;
	assert_null(gsc_check_wrmsr(&c, MSR_IA32_SYSENTER_EIP, &v));
	v = 0x0007040600070403ull;
	assert_non_null(gsc_check_wrmsr(&c, MSR_IA32_PAT, &v));
	v = GSC_DEBUGCTL_BTF;
	assert_null(gsc_check_wrmsr(&c, MSR_IA32_DEBUGCTL, &v));
	v = 1;	/* LBR: would record into MSRs nobody switches */
	assert_non_null(gsc_check_wrmsr(&c, MSR_IA32_DEBUGCTL, &v));
	v = 1ull << 63;
	assert_non_null(gsc_check_wrmsr(&c, MSR_IA32_DEBUGCTL, &v));
	v = 1ull << 32;
	assert_non_null(gsc_check_wrmsr(&c, MSR_IA32_SYSENTER_CS, &v));
	v = 12345;	/* not ours to check */
	assert_null(gsc_check_wrmsr(&c, 0x10, &v));
}

static void test_cr0(void **state)
{
	struct gsc_ctx c = long_mode();
	uint64_t v;

	(void)state;
	v = LONG_CR0 | CR0_WP | CR0_AM;
	assert_null(gsc_check_cr0(&c, &v));
	v = LONG_CR0 | (1ull << 7);	/* reserved in 31:0: ignored */
	assert_null(gsc_check_cr0(&c, &v));
	assert_int_equal(v, LONG_CR0);
	v = LONG_CR0 | (1ull << 32);
	assert_non_null(gsc_check_cr0(&c, &v));
	v = LONG_CR0 | CR0_NW;
	assert_non_null(gsc_check_cr0(&c, &v));
	v = LONG_CR0 | CR0_NW | CR0_CD;
	assert_null(gsc_check_cr0(&c, &v));
	v = LONG_CR0 & ~CR0_PG;
	assert_non_null(gsc_check_cr0(&c, &v));
	v = LONG_CR0 & ~CR0_PE;
	assert_non_null(gsc_check_cr0(&c, &v));	/* PG without PE */
	/* Outside IA-32e mode paging may go off (the caller decides
	 * whether it can run that). */
	c.efer = 0;
	v = CR0_PE | CR0_ET;
	assert_null(gsc_check_cr0(&c, &v));
}

/* Linux's AP trampoline under unrestricted guest: real mode, PE on, EFER.LME
 * by WRMSR, then PG: each CR0 write checked and EFER.LMA following PG with
 * LME (hv/vm/guest_state_vmcs.c sets "IA-32e mode guest" from it). */
static void test_cr0_real_to_long(void **state)
{
	struct gsc_ctx c = long_mode();
	uint64_t v;

	(void)state;
	c.cr0 = CR0_ET | CR0_NE;	/* after SIPI */
	c.cr4 = 0;
	c.efer = 0;
	c.cs_l = false;
	v = c.cr0 | CR0_PE;
	assert_null(gsc_check_cr0(&c, &v));
	assert_int_equal(gsc_cr0_efer(&c, v), 0);
	c.cr0 = v;
	v = GSC_EFER_LME | GSC_EFER_LMA;	/* LMA written: kept 0 */
	assert_null(gsc_check_wrmsr(&c, MSR_IA32_EFER, &v));
	assert_int_equal(v, GSC_EFER_LME);
	c.efer = v;
	v = c.cr0 | CR0_PG;	/* PAE still clear: #GP */
	assert_string_equal(gsc_check_cr0(&c, &v),
			    "CR0: PG set with EFER.LME and CR4.PAE clear");
	c.cr4 = CR4_PAE;
	v = c.cr0 | CR0_PG;
	assert_null(gsc_check_cr0(&c, &v));
	assert_int_equal(gsc_cr0_efer(&c, v), GSC_EFER_LME | GSC_EFER_LMA);
	/* Paging on without LME: 32-bit paging, LMA stays 0. */
	c.efer = GSC_EFER_NXE;
	assert_int_equal(gsc_cr0_efer(&c, v), GSC_EFER_NXE);
	/* Paging off from compatibility-like state: LMA drops with PG. */
	c.efer = GSC_EFER_LME | GSC_EFER_LMA;
	assert_int_equal(gsc_cr0_efer(&c, CR0_PE | CR0_ET), GSC_EFER_LME);
}

static void test_cr3_cr4(void **state)
{
	struct gsc_ctx c = long_mode();
	uint64_t v;

	(void)state;
	v = 0x12345000;
	assert_null(gsc_check_cr3(&c, &v));
	v = 1ull << 39;	/* MAXPHYADDR 39 */
	assert_non_null(gsc_check_cr3(&c, &v));
	v = (1ull << 63) | 0x1000;	/* no-flush bit, only with PCIDE */
	assert_non_null(gsc_check_cr3(&c, &v));
	c.cr4 |= CR4_PCIDE;
	assert_null(gsc_check_cr3(&c, &v));
	assert_int_equal(v, 0x1000);

	c = long_mode();
	v = CR4_PAE | CR4_PGE | CR4_OSFXSR | CR4_OSXMMEXCPT;
	assert_null(gsc_check_cr4(&c, &v));
	v = CR4_PAE | CR4_VMXE;		/* VMX is hidden */
	assert_non_null(gsc_check_cr4(&c, &v));
	v = CR4_PAE | CR4_OSXSAVE;	/* XSAVE is hidden */
	assert_non_null(gsc_check_cr4(&c, &v));
	v = CR4_PAE | CR4_PKE;
	assert_non_null(gsc_check_cr4(&c, &v));
	v = CR4_PAE | (1ull << 25);
	assert_non_null(gsc_check_cr4(&c, &v));
	v = 0;				/* PAE off in IA-32e mode */
	assert_non_null(gsc_check_cr4(&c, &v));
	c.cr4_allowed &= ~CR4_SMAP;	/* the CPU lacks it */
	v = CR4_PAE | CR4_SMAP;
	assert_non_null(gsc_check_cr4(&c, &v));
}

static struct gsc_entry_state good_entry(void)
{
	struct gsc_entry_state s = {
		.cr0 = LONG_CR0, .cr3 = 0x1000, .cr4 = CR4_PAE | CR4_VMXE,
		.dr7 = 0x400, .rflags = 2, .efer = LONG_EFER,
		.pat = 0x0007040600070406ull,
		.cr0_fixed0 = CR0_PE | CR0_NE | CR0_PG,
		.cr0_fixed1 = 0xffffffffull, .cr4_fixed0 = CR4_VMXE,
		.cr4_fixed1 = 0x3727ffull,
		.ia32e_mode_guest = true, .load_efer = true, .load_pat = true,
		.load_debugctl = true, .maxphyaddr = 39,
	};
	return s;
}

static void expect_entry(const struct gsc_entry_state *s, const char *want)
{
	const char *got = gsc_entry_check(s);

	assert_non_null(got);
	assert_non_null(strstr(got, want));
}

static void test_entry_check(void **state)
{
	struct gsc_entry_state s = good_entry();

	(void)state;
	assert_null(gsc_entry_check(&s));
	s.cr0 &= ~CR0_NE;
	expect_entry(&s, "invalid CR0");
	s = good_entry();
	s.cr4 &= ~CR4_VMXE;
	expect_entry(&s, "invalid CR4");
	s = good_entry();
	s.cr4 = CR4_VMXE;
	expect_entry(&s, "CR4.PAE=0");
	s = good_entry();
	s.dr7 = 1ull << 32;
	expect_entry(&s, "invalid DR7");
	s = good_entry();
	s.sysenter_eip = 0x0000800000000000ull;
	expect_entry(&s, "SYSENTER_EIP_MSR non canonical");
	s = good_entry();
	s.pat = 2;
	expect_entry(&s, "MSR_PAT");
	s = good_entry();
	s.efer = GSC_EFER_LME;	/* LMA != IA-32e mode guest */
	expect_entry(&s, "EFER.LMA");
	s = good_entry();
	s.debugctl = 1ull << 40;
	expect_entry(&s, "IA32_DEBUGCTL");
	s = good_entry();
	s.rflags = 0;
	expect_entry(&s, "RFLAGS");
	s = good_entry();
	s.cr3 = 1ull << 45;
	expect_entry(&s, "invalid CR3");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_canonical),
		cmocka_unit_test(test_pat),
		cmocka_unit_test(test_efer),
		cmocka_unit_test(test_msrs),
		cmocka_unit_test(test_cr0),
		cmocka_unit_test(test_cr0_real_to_long),
		cmocka_unit_test(test_cr3_cr4),
		cmocka_unit_test(test_entry_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
