/* Unit tests for hv/vmx/vmx_caps.c.
 *
 * IA32_VMX_BASIC, the allowed-1 half of IA32_VMX_PROCBASED_CTLS2 and
 * IA32_VMX_EPT_VPID_CAP are the values read on Bochs 2.7 (corei7_skylake_x)
 * under OVMF (docs/debugging-in-bochs.md, "What Bochs reports of VT-x").
 * The other MSR values are made up in the shape of a Skylake's and serve
 * the error and selection paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/vmx/vmx_caps.h"
#include "hv/vmx/vmx_defs.h"

#define BOCHS_VMX_BASIC		0x00d810000000002bull
#define BOCHS_PROCBASED_CTLS2	0x02177fff00000000ull
#define BOCHS_EPT_VPID_CAP	0x00000f0106334141ull

/* --- a fake RDMSR: a table; reading an MSR not in it is the #GP the real
 * CPU would raise, and fails the test. -------------------------------- */

struct msr_val {
	uint32_t msr;
	uint64_t val;
};

struct fake_msrs {
	struct msr_val v[24];
	size_t n;
	unsigned reads;
};

static void fake_set(struct fake_msrs *f, uint32_t msr, uint64_t val)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].msr == msr) {
			f->v[i].val = val;
			return;
		}
	assert_true(f->n < sizeof(f->v) / sizeof(f->v[0]));
	f->v[f->n++] = (struct msr_val){ msr, val };
}

static void fake_del(struct fake_msrs *f, uint32_t msr)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].msr == msr) {
			f->v[i] = f->v[--f->n];
			return;
		}
}

static uint64_t fake_rdmsr(void *ctx, uint32_t msr)
{
	struct fake_msrs *f = ctx;
	size_t i;

	f->reads++;
	for (i = 0; i < f->n; i++)
		if (f->v[i].msr == msr)
			return f->v[i].val;
	fail_msg("RDMSR 0x%x: not present on this CPU (#GP)", msr);
	return 0;
}

/* Bochs-like CPU: TRUE controls, secondary controls, EPT and VPID. */
static void bochs_msrs(struct fake_msrs *f)
{
	memset(f, 0, sizeof(*f));
	fake_set(f, MSR_IA32_VMX_BASIC, BOCHS_VMX_BASIC);
	fake_set(f, MSR_IA32_VMX_PINBASED_CTLS, 0x0000007f00000016ull);
	fake_set(f, MSR_IA32_VMX_TRUE_PINBASED_CTLS, 0x0000007f00000016ull);
	fake_set(f, MSR_IA32_VMX_PROCBASED_CTLS, 0xfff9fffe0401e172ull);
	fake_set(f, MSR_IA32_VMX_TRUE_PROCBASED_CTLS, 0xfff9fffe04006172ull);
	fake_set(f, MSR_IA32_VMX_EXIT_CTLS, 0x01ffffff00036dffull);
	fake_set(f, MSR_IA32_VMX_TRUE_EXIT_CTLS, 0x01ffffff00036dfbull);
	fake_set(f, MSR_IA32_VMX_ENTRY_CTLS, 0x0003ffff000011ffull);
	fake_set(f, MSR_IA32_VMX_TRUE_ENTRY_CTLS, 0x0003ffff000011fbull);
	fake_set(f, MSR_IA32_VMX_MISC, 0x00000000300481e5ull);
	fake_set(f, MSR_IA32_VMX_CR0_FIXED0, 0x80000021ull);
	fake_set(f, MSR_IA32_VMX_CR0_FIXED1, 0xffffffffull);
	fake_set(f, MSR_IA32_VMX_CR4_FIXED0, 0x00002000ull);
	fake_set(f, MSR_IA32_VMX_CR4_FIXED1, 0x003767ffull);
	fake_set(f, MSR_IA32_VMX_PROCBASED_CTLS2, BOCHS_PROCBASED_CTLS2);
	fake_set(f, MSR_IA32_VMX_EPT_VPID_CAP, BOCHS_EPT_VPID_CAP);
}

static void read_bochs(struct vmx_caps *caps)
{
	struct fake_msrs f;

	bochs_msrs(&f);
	assert_int_equal(vmx_caps_read(caps, fake_rdmsr, &f), 0);
}

/* --- vmx_caps_same (an AP against the BSP, docs/smp.md) ------------------ */

static void test_caps_same(void **state)
{
	struct vmx_caps bsp, ap;
	struct fake_msrs f;

	(void)state;
	read_bochs(&bsp);
	read_bochs(&ap);
	assert_true(vmx_caps_same(&bsp, &ap));
	/* One control bit fewer on the AP: a VMCS built on the BSP could
	 * ask for it there. */
	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_PROCBASED_CTLS2,
		 BOCHS_PROCBASED_CTLS2 & ~(1ull << 33));
	assert_int_equal(vmx_caps_read(&ap, fake_rdmsr, &f), 0);
	assert_false(vmx_caps_same(&bsp, &ap));
	/* Another VMCS revision. */
	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_BASIC, BOCHS_VMX_BASIC + 1);
	assert_int_equal(vmx_caps_read(&ap, fake_rdmsr, &f), 0);
	assert_false(vmx_caps_same(&bsp, &ap));
	/* Other CR4 fixed bits. */
	read_bochs(&ap);
	ap.cr4_fixed1 &= ~(1ull << 20);
	assert_false(vmx_caps_same(&bsp, &ap));
}

/* --- vmx_adjust_ctls --------------------------------------------------- */

static void test_adjust_rules(void **state)
{
	/* must-be-1: bits 1,2,4; may-be-1: bits 0-7 */
	const uint64_t msr = 0x000000ff00000016ull;
	uint32_t out;

	(void)state;
	assert_int_equal(vmx_adjust_ctls(msr, 0, 0, &out), 0);
	assert_int_equal(out, 0x16);			/* default1 bits added */
	assert_int_equal(vmx_adjust_ctls(msr, 0x81, 0, &out), 0);
	assert_int_equal(out, 0x97);
	/* optional bits: kept if allowed, dropped silently if not */
	assert_int_equal(vmx_adjust_ctls(msr, 0x1, 0x300 | 0x40, &out), 0);
	assert_int_equal(out, 0x57);
	/* wanted but not allowed: error names the bits */
	assert_int_equal(vmx_adjust_ctls(msr, 0x101 | 0x8000, 0, &out),
			 -HV_ENOTSUP);
	assert_int_equal(out, 0x8100);
	/* malformed MSR: a must-be-1 bit that may not be 1 */
	assert_int_equal(vmx_adjust_ctls(0x0000000f00000010ull, 0, 0, &out),
			 -HV_EINVAL);
	assert_int_equal(out, 0x10);
	/* everything allowed, nothing required */
	assert_int_equal(vmx_adjust_ctls(0xffffffff00000000ull, 0x80000001u,
					 0x2, &out), 0);
	assert_int_equal(out, 0x80000003u);
}

static void test_adjust_bochs_secondary(void **state)
{
	uint32_t out;
	const uint32_t want = PROC_CTL2_ENABLE_EPT | PROC_CTL2_ENABLE_VPID |
			      PROC_CTL2_UNRESTRICTED_GUEST;

	(void)state;
	assert_int_equal(vmx_adjust_ctls(BOCHS_PROCBASED_CTLS2, want,
					 PROC_CTL2_ENABLE_RDTSCP |
					 PROC_CTL2_ENABLE_INVPCID |
					 PROC_CTL2_ENABLE_XSAVES |
					 PROC_CTL2_CONCEAL_VMX_FROM_PT, &out),
			 0);
	/* bit 19 (conceal from PT) is not in 0x02177fff: dropped */
	assert_int_equal(out, want | PROC_CTL2_ENABLE_RDTSCP |
			      PROC_CTL2_ENABLE_INVPCID |
			      PROC_CTL2_ENABLE_XSAVES);
	assert_int_equal(vmx_adjust_ctls(BOCHS_PROCBASED_CTLS2,
					 want | PROC_CTL2_ENCLS_EXITING, 0,
					 &out), -HV_ENOTSUP);
	assert_int_equal(out, PROC_CTL2_ENCLS_EXITING);
}

static void test_true_ctls_selection(void **state)
{
	(void)state;
	assert_int_equal(vmx_ctls_msr_index(VMX_CTLS_PINBASED,
					    BOCHS_VMX_BASIC),
			 MSR_IA32_VMX_TRUE_PINBASED_CTLS);
	assert_int_equal(vmx_ctls_msr_index(VMX_CTLS_PROCBASED,
					    BOCHS_VMX_BASIC),
			 MSR_IA32_VMX_TRUE_PROCBASED_CTLS);
	assert_int_equal(vmx_ctls_msr_index(VMX_CTLS_EXIT, BOCHS_VMX_BASIC),
			 MSR_IA32_VMX_TRUE_EXIT_CTLS);
	assert_int_equal(vmx_ctls_msr_index(VMX_CTLS_ENTRY, BOCHS_VMX_BASIC),
			 MSR_IA32_VMX_TRUE_ENTRY_CTLS);
	assert_int_equal(vmx_ctls_msr_index(VMX_CTLS_PROCBASED2,
					    BOCHS_VMX_BASIC),
			 MSR_IA32_VMX_PROCBASED_CTLS2);
	/* bit 55 clear: the plain MSRs */
	assert_int_equal(vmx_ctls_msr_index(VMX_CTLS_PINBASED,
					    BOCHS_VMX_BASIC &
					    ~VMX_BASIC_TRUE_CTLS),
			 MSR_IA32_VMX_PINBASED_CTLS);
	assert_int_equal(vmx_ctls_msr_index(VMX_CTLS_ENTRY, 0),
			 MSR_IA32_VMX_ENTRY_CTLS);
	assert_int_equal(vmx_ctls_msr_index(VMX_CTLS_COUNT, 0), 0);
}

/* --- decoding ------------------------------------------------------------ */

static void test_decode_basic_bochs(void **state)
{
	struct vmx_basic b;

	(void)state;
	vmx_decode_basic(BOCHS_VMX_BASIC, &b);
	assert_int_equal(b.revision, 0x2b);
	assert_int_equal(b.region_size, 4096);
	assert_int_equal(b.memtype, MEMTYPE_WB);
	assert_true(b.true_ctls);
	assert_true(b.ins_outs_info);
	assert_false(b.pa_32bit);
	assert_false(b.dual_monitor);
	assert_false(b.no_errcode_req);

	/* made up: every flag, revision with bit 31 set is not part of it */
	vmx_decode_basic(0x01ff1fffffffffffull, &b);
	assert_int_equal(b.revision, 0x7fffffff);
	assert_int_equal(b.region_size, 0x1fff);
	assert_int_equal(b.memtype, 0xf);
	assert_true(b.pa_32bit && b.dual_monitor && b.ins_outs_info &&
		    b.true_ctls && b.no_errcode_req);
}

static void test_decode_ept_vpid_bochs(void **state)
{
	struct vmx_ept_vpid e;

	(void)state;
	vmx_decode_ept_vpid(BOCHS_EPT_VPID_CAP, &e);
	assert_true(e.exec_only);
	assert_true(e.walk_4);
	assert_false(e.walk_5);
	assert_true(e.memtype_uc);
	assert_true(e.memtype_wb);
	assert_true(e.page_2m);
	assert_true(e.page_1g);
	assert_true(e.invept);
	assert_true(e.ad);
	assert_false(e.adv_exit_info);
	assert_true(e.invept_single);
	assert_true(e.invept_all);
	assert_true(e.invvpid);
	assert_true(e.invvpid_addr);
	assert_true(e.invvpid_single);
	assert_true(e.invvpid_all);
	assert_true(e.invvpid_single_globals);

	vmx_decode_ept_vpid(EPT_CAP_WALK_4 | EPT_CAP_MEMTYPE_WB, &e);
	assert_true(e.walk_4 && e.memtype_wb);
	assert_false(e.page_2m || e.invept || e.invvpid || e.ad ||
		     e.exec_only || e.memtype_uc);
}

/* --- vmx_caps_read -------------------------------------------------------- */

static void test_read_bochs(void **state)
{
	struct vmx_caps c;
	uint32_t out;

	(void)state;
	read_bochs(&c);
	assert_int_equal(c.basic.revision, 0x2b);
	/* TRUE MSRs were chosen */
	assert_int_equal(c.ctls[VMX_CTLS_PROCBASED], 0xfff9fffe04006172ull);
	assert_int_equal(c.ctls[VMX_CTLS_EXIT], 0x01ffffff00036dfbull);
	assert_int_equal(c.ctls[VMX_CTLS_PROCBASED2], BOCHS_PROCBASED_CTLS2);
	assert_int_equal(c.ept_vpid_msr, BOCHS_EPT_VPID_CAP);
	assert_true(c.has_ept && c.has_vpid && c.has_unrestricted_guest);
	assert_true(c.has_preemption_timer);
	assert_true(c.ept.walk_4 && c.ept.page_2m);

	/* With TRUE ctls, CR3-load/store exiting (default1) may be 0. */
	assert_int_equal(vmx_caps_adjust(&c, VMX_CTLS_PROCBASED,
					 PROC_CTL_HLT_EXITING |
					 PROC_CTL_ACTIVATE_SECONDARY, 0, &out),
			 0);
	assert_int_equal(out & (PROC_CTL_CR3_LOAD_EXITING |
				PROC_CTL_CR3_STORE_EXITING), 0);
	assert_int_equal(out & 0x04006172u, 0x04006172u);
	assert_int_equal(vmx_caps_adjust(&c, VMX_CTLS_COUNT, 0, 0, &out),
			 -HV_EINVAL);
}

/* VPID on Bochs; off by the switch; off when the control may not be 1 or
 * INVVPID has neither type vcpu.c flushes with (the no-VPID path). */
static void test_vpid_usable(void **state)
{
	struct fake_msrs f;
	struct vmx_caps c;

	(void)state;
	read_bochs(&c);
	assert_true(vmx_vpid_usable(&c, true));
	assert_false(vmx_vpid_usable(&c, false));

	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_PROCBASED_CTLS2,
		 BOCHS_PROCBASED_CTLS2 & ~((uint64_t)PROC_CTL2_ENABLE_VPID << 32));
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_false(c.has_vpid);
	assert_false(vmx_vpid_usable(&c, true));

	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_EPT_VPID_CAP,
		 BOCHS_EPT_VPID_CAP & ~VPID_CAP_INVVPID);
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_true(c.has_vpid);
	assert_false(vmx_vpid_usable(&c, true));

	bochs_msrs(&f);	/* only the individual-address type */
	fake_set(&f, MSR_IA32_VMX_EPT_VPID_CAP,
		 BOCHS_EPT_VPID_CAP & ~(VPID_CAP_INVVPID_SINGLE |
					VPID_CAP_INVVPID_ALL));
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_false(vmx_vpid_usable(&c, true));
	fake_set(&f, MSR_IA32_VMX_EPT_VPID_CAP,
		 BOCHS_EPT_VPID_CAP & ~VPID_CAP_INVVPID_SINGLE);
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_true(vmx_vpid_usable(&c, true));
}

/* APIC virtualization on Bochs: APIC-access page with register
 * virtualization; off by the switch; off without the TPR shadow or the
 * APIC-access control (the EPT-violation path); without register
 * virtualization, the APIC-access page alone. */
static void test_apicv_proc2(void **state)
{
	const uint32_t full = PROC_CTL2_VIRTUALIZE_APIC_ACCESSES |
			      PROC_CTL2_APIC_REGISTER_VIRT;
	struct fake_msrs f;
	struct vmx_caps c;

	(void)state;
	read_bochs(&c);
	assert_int_equal(vmx_apicv_proc2(&c, true), full);
	assert_int_equal(vmx_apicv_proc2(&c, false), 0);

	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_TRUE_PROCBASED_CTLS, 0xfff9fffe04006172ull &
		 ~((uint64_t)PROC_CTL_USE_TPR_SHADOW << 32));
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_int_equal(vmx_apicv_proc2(&c, true), 0);

	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_PROCBASED_CTLS2, BOCHS_PROCBASED_CTLS2 &
		 ~((uint64_t)PROC_CTL2_VIRTUALIZE_APIC_ACCESSES << 32));
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_int_equal(vmx_apicv_proc2(&c, true), 0);

	fake_set(&f, MSR_IA32_VMX_PROCBASED_CTLS2, BOCHS_PROCBASED_CTLS2 &
		 ~((uint64_t)PROC_CTL2_APIC_REGISTER_VIRT << 32));
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_int_equal(vmx_apicv_proc2(&c, true),
			 PROC_CTL2_VIRTUALIZE_APIC_ACCESSES);

	/* No secondary controls at all: PROCBASED2 reads as 0. */
	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_TRUE_PROCBASED_CTLS, 0xfff9fffe04006172ull &
		 ~((uint64_t)PROC_CTL_ACTIVATE_SECONDARY << 32));
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_int_equal(vmx_apicv_proc2(&c, true), 0);
}

/* Virtual-interrupt delivery: Bochs offers it; only on top of the
 * APIC-access page; off by the switch, without the control, or without
 * external-interrupt exiting (which it requires). */
static void test_vid_proc2(void **state)
{
	const uint32_t apicv = PROC_CTL2_VIRTUALIZE_APIC_ACCESSES |
			       PROC_CTL2_APIC_REGISTER_VIRT;
	struct fake_msrs f;
	struct vmx_caps c;

	(void)state;
	read_bochs(&c);
	assert_int_equal(vmx_vid_proc2(&c, apicv, true),
			 PROC_CTL2_VIRTUAL_INTR_DELIVERY);
	assert_int_equal(vmx_vid_proc2(&c, apicv, false), 0);
	assert_int_equal(vmx_vid_proc2(&c, 0, true), 0);

	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_PROCBASED_CTLS2, BOCHS_PROCBASED_CTLS2 &
		 ~((uint64_t)PROC_CTL2_VIRTUAL_INTR_DELIVERY << 32));
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_int_equal(vmx_vid_proc2(&c, apicv, true), 0);

	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_TRUE_PINBASED_CTLS, 0x0000007e00000016ull);
	fake_set(&f, MSR_IA32_VMX_PINBASED_CTLS, 0x0000007e00000016ull);
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_int_equal(vmx_vid_proc2(&c, apicv, true), 0);
}

static void test_read_without_true_ctls(void **state)
{
	struct fake_msrs f;
	struct vmx_caps c;
	uint32_t out;

	(void)state;
	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_BASIC, BOCHS_VMX_BASIC & ~VMX_BASIC_TRUE_CTLS);
	fake_del(&f, MSR_IA32_VMX_TRUE_PINBASED_CTLS);
	fake_del(&f, MSR_IA32_VMX_TRUE_PROCBASED_CTLS);
	fake_del(&f, MSR_IA32_VMX_TRUE_EXIT_CTLS);
	fake_del(&f, MSR_IA32_VMX_TRUE_ENTRY_CTLS);
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_int_equal(c.ctls[VMX_CTLS_PROCBASED], 0xfff9fffe0401e172ull);
	/* the plain MSR forces CR3-load/store exiting on */
	assert_int_equal(vmx_caps_adjust(&c, VMX_CTLS_PROCBASED, 0, 0, &out),
			 0);
	assert_int_equal(out & (PROC_CTL_CR3_LOAD_EXITING |
				PROC_CTL_CR3_STORE_EXITING),
			 PROC_CTL_CR3_LOAD_EXITING | PROC_CTL_CR3_STORE_EXITING);
}

static void test_read_without_secondary(void **state)
{
	struct fake_msrs f;
	struct vmx_caps c;
	uint32_t out;

	(void)state;
	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_TRUE_PROCBASED_CTLS,
		 0x7ff9fffe04006172ull);	/* no bit 31 in allowed-1 */
	fake_del(&f, MSR_IA32_VMX_PROCBASED_CTLS2);
	fake_del(&f, MSR_IA32_VMX_EPT_VPID_CAP);
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_int_equal(c.ctls[VMX_CTLS_PROCBASED2], 0);
	assert_int_equal(c.ept_vpid_msr, 0);
	assert_false(c.has_ept || c.has_vpid || c.has_unrestricted_guest);
	assert_int_equal(vmx_caps_adjust(&c, VMX_CTLS_PROCBASED2,
					 PROC_CTL2_ENABLE_EPT, 0, &out),
			 -HV_ENOTSUP);
	assert_int_equal(vmx_caps_adjust(&c, VMX_CTLS_PROCBASED2, 0,
					 PROC_CTL2_ENABLE_EPT, &out), 0);
	assert_int_equal(out, 0);
}

static void test_read_secondary_without_ept_or_vpid(void **state)
{
	struct fake_msrs f;
	struct vmx_caps c;

	(void)state;
	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_PROCBASED_CTLS2,
		 (uint64_t)(PROC_CTL2_UNRESTRICTED_GUEST |
			    PROC_CTL2_ENABLE_RDTSCP) << 32);
	fake_del(&f, MSR_IA32_VMX_EPT_VPID_CAP);
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	assert_false(c.has_ept || c.has_vpid);
	assert_true(c.has_unrestricted_guest);
	assert_int_equal(c.ept_vpid_msr, 0);
}

static void test_read_rejects_unusable_basic(void **state)
{
	static const uint64_t bad[] = {
		(BOCHS_VMX_BASIC & ~(0x1fffull << 32)) | (0x1001ull << 32),
		BOCHS_VMX_BASIC & ~(0x1fffull << 32),	/* size 0 */
		BOCHS_VMX_BASIC | VMX_BASIC_PA_32BIT,
		BOCHS_VMX_BASIC & ~(0xfull << 50),	/* UC */
	};
	struct fake_msrs f;
	struct vmx_caps c;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		bochs_msrs(&f);
		fake_set(&f, MSR_IA32_VMX_BASIC, bad[i]);
		assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f),
				 -HV_ENOTSUP);
		/* still decoded, for the log */
		assert_int_equal(c.basic.revision, 0x2b);
	}
}

/* --- CR0 / CR4 -------------------------------------------------------------- */

static void test_cr_fixed_bits(void **state)
{
	struct vmx_caps c;

	(void)state;
	read_bochs(&c);
	/* host / restricted guest: PE, NE, PG forced on */
	assert_int_equal(vmx_fix_guest_cr0(&c, 0, false),
			 CR0_PE | CR0_NE | CR0_PG);
	/* unrestricted guest: only NE; real mode is allowed */
	assert_int_equal(vmx_fix_guest_cr0(&c, 0, true), CR0_NE);
	assert_int_equal(vmx_fix_guest_cr0(&c, CR0_PE | CR0_PG | CR0_CD, true),
			 CR0_PE | CR0_PG | CR0_CD | CR0_NE);
	/* bits above FIXED1 are cleared */
	assert_int_equal(vmx_fix_guest_cr0(&c, 1ull << 40, false),
			 CR0_PE | CR0_NE | CR0_PG);
	/* CR4: VMXE forced on, bits outside FIXED1 (e.g. 23) off */
	assert_int_equal(vmx_fix_guest_cr4(&c, 0), CR4_VMXE);
	assert_int_equal(vmx_fix_guest_cr4(&c, CR4_PAE | (1ull << 23)),
			 CR4_PAE | CR4_VMXE);

	assert_true(vmx_cr_valid(0x80000031, c.cr0_fixed0, c.cr0_fixed1));
	assert_false(vmx_cr_valid(0x80000011, c.cr0_fixed0, c.cr0_fixed1));
	assert_false(vmx_cr_valid(0x180000021ull, c.cr0_fixed0,
				  c.cr0_fixed1));
	assert_true(vmx_cr_valid(vmx_fix_cr(0x12345678, c.cr4_fixed0,
					    c.cr4_fixed1),
				 c.cr4_fixed0, c.cr4_fixed1));

	/* guest/host mask material */
	assert_int_equal(vmx_guest_cr0_fixed_bits(&c, true),
			 CR0_NE | 0xffffffff00000000ull);
	assert_int_equal(vmx_guest_cr0_fixed_bits(&c, false),
			 CR0_PE | CR0_NE | CR0_PG | 0xffffffff00000000ull);
	assert_int_equal(vmx_guest_cr4_fixed_bits(&c),
			 CR4_VMXE | ~0x003767ffull);
}

/* --- summary ------------------------------------------------------------------ */

static const char bochs_line[] =
	"VMX rev 0x2b VMCS 4096B WB true-ctls"
	" | ctls2: ept vpid unrestricted ple preempt-timer"
	" | APIC tpr-shadow apic-access apic-reg vid"
	" | EPT 4-level WB UC 2M 1G A/D x-only invept single all"
	" | VPID invvpid addr single all single-keep-globals";

static void test_summary(void **state)
{
	struct vmx_caps c;
	char buf[256], small[20];
	int n;

	(void)state;
	read_bochs(&c);
	assert_true(c.has_ple);		/* Bochs offers PAUSE-loop exiting */
	n = vmx_caps_summary(&c, buf, sizeof(buf));
	assert_string_equal(buf, bochs_line);
	assert_int_equal(n, (int)strlen(bochs_line));

	/* truncation: NUL-terminated prefix, full length returned */
	memset(small, 'x', sizeof(small));
	n = vmx_caps_summary(&c, small, sizeof(small));
	assert_int_equal(n, (int)strlen(bochs_line));
	assert_int_equal(strlen(small), sizeof(small) - 1);
	assert_memory_equal(small, bochs_line, sizeof(small) - 1);

	assert_int_equal(vmx_caps_summary(&c, NULL, 0),
			 (int)strlen(bochs_line));
	assert_int_equal(vmx_caps_summary(&c, NULL, 4), -HV_EINVAL);
}

static void test_summary_minimal(void **state)
{
	struct fake_msrs f;
	struct vmx_caps c;
	char buf[128];

	(void)state;
	bochs_msrs(&f);
	fake_set(&f, MSR_IA32_VMX_TRUE_PROCBASED_CTLS, 0x7ff9fffe04006172ull);
	fake_set(&f, MSR_IA32_VMX_TRUE_PINBASED_CTLS, 0x0000003f00000016ull);
	assert_int_equal(vmx_caps_read(&c, fake_rdmsr, &f), 0);
	vmx_caps_summary(&c, buf, sizeof(buf));
	assert_string_equal(buf, "VMX rev 0x2b VMCS 4096B WB true-ctls"
				 " | ctls2: | APIC tpr-shadow");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adjust_rules),
		cmocka_unit_test(test_adjust_bochs_secondary),
		cmocka_unit_test(test_true_ctls_selection),
		cmocka_unit_test(test_decode_basic_bochs),
		cmocka_unit_test(test_decode_ept_vpid_bochs),
		cmocka_unit_test(test_read_bochs),
		cmocka_unit_test(test_read_without_true_ctls),
		cmocka_unit_test(test_read_without_secondary),
		cmocka_unit_test(test_vpid_usable),
		cmocka_unit_test(test_apicv_proc2),
		cmocka_unit_test(test_vid_proc2),
		cmocka_unit_test(test_read_secondary_without_ept_or_vpid),
		cmocka_unit_test(test_read_rejects_unusable_basic),
		cmocka_unit_test(test_cr_fixed_bits),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_summary_minimal),
		cmocka_unit_test(test_caps_same),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
