/* VMX capability MSRs -> control values, CR fixed bits, summary line. */
#include <stdarg.h>

#include "hv/hv_errno.h"
#include "hv/vmx/vmx_caps.h"
#include "hv/vmx/vmx_defs.h"
#include "mini/stdio.h"

/* --- control fields ------------------------------------------------------ */

static const struct {
	uint32_t msr, true_msr;
} ctls_msrs[VMX_CTLS_COUNT] = {
	[VMX_CTLS_PINBASED]   = { MSR_IA32_VMX_PINBASED_CTLS,
				  MSR_IA32_VMX_TRUE_PINBASED_CTLS },
	[VMX_CTLS_PROCBASED]  = { MSR_IA32_VMX_PROCBASED_CTLS,
				  MSR_IA32_VMX_TRUE_PROCBASED_CTLS },
	[VMX_CTLS_PROCBASED2] = { MSR_IA32_VMX_PROCBASED_CTLS2,
				  MSR_IA32_VMX_PROCBASED_CTLS2 },
	[VMX_CTLS_EXIT]       = { MSR_IA32_VMX_EXIT_CTLS,
				  MSR_IA32_VMX_TRUE_EXIT_CTLS },
	[VMX_CTLS_ENTRY]      = { MSR_IA32_VMX_ENTRY_CTLS,
				  MSR_IA32_VMX_TRUE_ENTRY_CTLS },
};

uint32_t vmx_ctls_msr_index(enum vmx_ctls which, uint64_t basic_msr)
{
	if ((unsigned)which >= VMX_CTLS_COUNT)
		return 0;
	return (basic_msr & VMX_BASIC_TRUE_CTLS) ? ctls_msrs[which].true_msr
						 : ctls_msrs[which].msr;
}

static uint32_t allowed1(uint64_t cap_msr)
{
	return (uint32_t)(cap_msr >> 32);
}

int vmx_adjust_ctls(uint64_t cap_msr, uint32_t want, uint32_t optional,
		    uint32_t *out)
{
	uint32_t must1 = (uint32_t)cap_msr;
	uint32_t may1 = allowed1(cap_msr);

	if (must1 & ~may1) {
		*out = must1 & ~may1;
		return -HV_EINVAL;
	}
	if (want & ~may1) {
		*out = want & ~may1;
		return -HV_ENOTSUP;
	}
	*out = want | must1 | (optional & may1);
	return 0;
}

int vmx_caps_adjust(const struct vmx_caps *caps, enum vmx_ctls which,
		    uint32_t want, uint32_t optional, uint32_t *out)
{
	if ((unsigned)which >= VMX_CTLS_COUNT) {
		*out = 0;
		return -HV_EINVAL;
	}
	return vmx_adjust_ctls(caps->ctls[which], want, optional, out);
}

/* --- CR0 / CR4 ------------------------------------------------------------ */

uint64_t vmx_fix_cr(uint64_t val, uint64_t fixed0, uint64_t fixed1)
{
	return (val | fixed0) & fixed1;
}

bool vmx_cr_valid(uint64_t val, uint64_t fixed0, uint64_t fixed1)
{
	return (val & fixed0) == fixed0 && (val & ~fixed1) == 0;
}

/* IA32_VMX_CR0_FIXED0 reports PE and PG as fixed to 1 even on CPUs with
 * unrestricted guest; the exception for guests is written in SDM 27.3.1.1,
 * not in the MSR, so it is applied here. */
static uint64_t guest_cr0_fixed0(const struct vmx_caps *caps,
				 bool unrestricted_guest)
{
	uint64_t f0 = caps->cr0_fixed0;

	if (unrestricted_guest)
		f0 &= ~(CR0_PE | CR0_PG);
	return f0;
}

uint64_t vmx_fix_guest_cr0(const struct vmx_caps *caps, uint64_t cr0,
			   bool unrestricted_guest)
{
	return vmx_fix_cr(cr0, guest_cr0_fixed0(caps, unrestricted_guest),
			  caps->cr0_fixed1);
}

uint64_t vmx_fix_guest_cr4(const struct vmx_caps *caps, uint64_t cr4)
{
	return vmx_fix_cr(cr4, caps->cr4_fixed0, caps->cr4_fixed1);
}

uint64_t vmx_guest_cr0_fixed_bits(const struct vmx_caps *caps,
				  bool unrestricted_guest)
{
	return guest_cr0_fixed0(caps, unrestricted_guest) | ~caps->cr0_fixed1;
}

uint64_t vmx_guest_cr4_fixed_bits(const struct vmx_caps *caps)
{
	return caps->cr4_fixed0 | ~caps->cr4_fixed1;
}

/* --- decoding -------------------------------------------------------------- */

bool vmx_caps_same(const struct vmx_caps *a, const struct vmx_caps *b)
{
	for (unsigned i = 0; i < VMX_CTLS_COUNT; i++)
		if (a->ctls[i] != b->ctls[i])
			return false;
	return a->basic_msr == b->basic_msr && a->misc_msr == b->misc_msr &&
	       a->cr0_fixed0 == b->cr0_fixed0 &&
	       a->cr0_fixed1 == b->cr0_fixed1 &&
	       a->cr4_fixed0 == b->cr4_fixed0 &&
	       a->cr4_fixed1 == b->cr4_fixed1 &&
	       a->ept_vpid_msr == b->ept_vpid_msr;
}

void vmx_decode_basic(uint64_t msr, struct vmx_basic *out)
{
	out->revision = (uint32_t)(msr & VMX_BASIC_REVISION_MASK);
	out->region_size = (uint32_t)((msr >> VMX_BASIC_REGION_SIZE_SHIFT) &
				      VMX_BASIC_REGION_SIZE_MASK);
	out->memtype = (uint8_t)((msr >> VMX_BASIC_MEMTYPE_SHIFT) &
				 VMX_BASIC_MEMTYPE_MASK);
	out->pa_32bit = msr & VMX_BASIC_PA_32BIT;
	out->dual_monitor = msr & VMX_BASIC_DUAL_MONITOR;
	out->ins_outs_info = msr & VMX_BASIC_INS_OUTS_INFO;
	out->true_ctls = msr & VMX_BASIC_TRUE_CTLS;
	out->no_errcode_req = msr & VMX_BASIC_NO_ERRCODE_REQ;
}

/* One row per capability bit: where it is in the MSR, where it goes in the
 * struct, and its name in the summary line. */
struct cap_bit {
	uint64_t bit;
	size_t offset;		/* of a bool in struct vmx_ept_vpid */
	const char *name;
};

#define CAP(b, field, n) { b, offsetof(struct vmx_ept_vpid, field), n }

static const struct cap_bit ept_bits[] = {
	CAP(EPT_CAP_WALK_4,		walk_4,		"4-level"),
	CAP(EPT_CAP_WALK_5,		walk_5,		"5-level"),
	CAP(EPT_CAP_MEMTYPE_WB,		memtype_wb,	"WB"),
	CAP(EPT_CAP_MEMTYPE_UC,		memtype_uc,	"UC"),
	CAP(EPT_CAP_PDE_2M,		page_2m,	"2M"),
	CAP(EPT_CAP_PDPTE_1G,		page_1g,	"1G"),
	CAP(EPT_CAP_AD,			ad,		"A/D"),
	CAP(EPT_CAP_EXEC_ONLY,		exec_only,	"x-only"),
	CAP(EPT_CAP_ADV_EXIT_INFO,	adv_exit_info,	"adv-info"),
	CAP(EPT_CAP_INVEPT,		invept,		"invept"),
	CAP(EPT_CAP_INVEPT_SINGLE,	invept_single,	"single"),
	CAP(EPT_CAP_INVEPT_ALL,		invept_all,	"all"),
};

static const struct cap_bit vpid_bits[] = {
	CAP(VPID_CAP_INVVPID,		invvpid,	"invvpid"),
	CAP(VPID_CAP_INVVPID_ADDR,	invvpid_addr,	"addr"),
	CAP(VPID_CAP_INVVPID_SINGLE,	invvpid_single,	"single"),
	CAP(VPID_CAP_INVVPID_ALL,	invvpid_all,	"all"),
	CAP(VPID_CAP_INVVPID_SINGLE_GLOBALS, invvpid_single_globals,
	    "single-keep-globals"),
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

static void decode_bits(uint64_t msr, const struct cap_bit *bits, size_t n,
			struct vmx_ept_vpid *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		*(bool *)((char *)out + bits[i].offset) = msr & bits[i].bit;
}

void vmx_decode_ept_vpid(uint64_t msr, struct vmx_ept_vpid *out)
{
	decode_bits(msr, ept_bits, ARRAY_LEN(ept_bits), out);
	decode_bits(msr, vpid_bits, ARRAY_LEN(vpid_bits), out);
}

/* --- reading --------------------------------------------------------------- */

static bool may_set(const struct vmx_caps *caps, enum vmx_ctls which,
		    uint32_t bits)
{
	return (allowed1(caps->ctls[which]) & bits) == bits;
}

static void read_ctls(struct vmx_caps *caps, vmx_rdmsr_fn rdmsr, void *ctx)
{
	static const enum vmx_ctls primary[] = {
		VMX_CTLS_PINBASED, VMX_CTLS_PROCBASED, VMX_CTLS_EXIT,
		VMX_CTLS_ENTRY,
	};
	size_t i;

	for (i = 0; i < ARRAY_LEN(primary); i++)
		caps->ctls[primary[i]] = rdmsr(ctx,
			vmx_ctls_msr_index(primary[i], caps->basic_msr));
	/* PROCBASED_CTLS2 exists only if secondary controls can be on. */
	caps->ctls[VMX_CTLS_PROCBASED2] = 0;
	if (may_set(caps, VMX_CTLS_PROCBASED, PROC_CTL_ACTIVATE_SECONDARY))
		caps->ctls[VMX_CTLS_PROCBASED2] =
			rdmsr(ctx, MSR_IA32_VMX_PROCBASED_CTLS2);
}

int vmx_caps_read(struct vmx_caps *caps, vmx_rdmsr_fn rdmsr, void *ctx)
{
	*caps = (struct vmx_caps){ 0 };
	caps->basic_msr = rdmsr(ctx, MSR_IA32_VMX_BASIC);
	vmx_decode_basic(caps->basic_msr, &caps->basic);
	caps->misc_msr = rdmsr(ctx, MSR_IA32_VMX_MISC);
	caps->cr0_fixed0 = rdmsr(ctx, MSR_IA32_VMX_CR0_FIXED0);
	caps->cr0_fixed1 = rdmsr(ctx, MSR_IA32_VMX_CR0_FIXED1);
	caps->cr4_fixed0 = rdmsr(ctx, MSR_IA32_VMX_CR4_FIXED0);
	caps->cr4_fixed1 = rdmsr(ctx, MSR_IA32_VMX_CR4_FIXED1);
	read_ctls(caps, rdmsr, ctx);

	caps->has_ept = may_set(caps, VMX_CTLS_PROCBASED2,
				PROC_CTL2_ENABLE_EPT);
	caps->has_vpid = may_set(caps, VMX_CTLS_PROCBASED2,
				 PROC_CTL2_ENABLE_VPID);
	caps->has_unrestricted_guest = may_set(caps, VMX_CTLS_PROCBASED2,
					       PROC_CTL2_UNRESTRICTED_GUEST);
	caps->has_ple = may_set(caps, VMX_CTLS_PROCBASED2,
				PROC_CTL2_PAUSE_LOOP_EXITING);
	caps->has_preemption_timer = may_set(caps, VMX_CTLS_PINBASED,
					     PIN_CTL_PREEMPTION_TIMER);
	/* EPT_VPID_CAP exists only if one of the two can be enabled. */
	if (caps->has_ept || caps->has_vpid)
		caps->ept_vpid_msr = rdmsr(ctx, MSR_IA32_VMX_EPT_VPID_CAP);
	vmx_decode_ept_vpid(caps->ept_vpid_msr, &caps->ept);

	/* We put VMXON regions and VMCSs in one WB page anywhere in memory. */
	if (caps->basic.region_size == 0 || caps->basic.region_size > 4096 ||
	    caps->basic.pa_32bit || caps->basic.memtype != MEMTYPE_WB)
		return -HV_ENOTSUP;
	return 0;
}

bool vmx_vpid_usable(const struct vmx_caps *caps, bool want)
{
	const struct vmx_ept_vpid *e = &caps->ept;

	return want && caps->has_vpid && e->invvpid &&
	       (e->invvpid_single || e->invvpid_all);
}

uint32_t vmx_apicv_proc2(const struct vmx_caps *caps, bool want)
{
	if (!want || !may_set(caps, VMX_CTLS_PROCBASED,
			      PROC_CTL_USE_TPR_SHADOW |
			      PROC_CTL_ACTIVATE_SECONDARY) ||
	    !may_set(caps, VMX_CTLS_PROCBASED2,
		     PROC_CTL2_VIRTUALIZE_APIC_ACCESSES))
		return 0;
	return PROC_CTL2_VIRTUALIZE_APIC_ACCESSES |
	       (may_set(caps, VMX_CTLS_PROCBASED2, PROC_CTL2_APIC_REGISTER_VIRT)
		? PROC_CTL2_APIC_REGISTER_VIRT : 0);
}

uint32_t vmx_vid_proc2(const struct vmx_caps *caps, uint32_t apicv_proc2,
		       bool want)
{
	if (!want || !(apicv_proc2 & PROC_CTL2_VIRTUALIZE_APIC_ACCESSES) ||
	    !may_set(caps, VMX_CTLS_PROCBASED2,
		     PROC_CTL2_VIRTUAL_INTR_DELIVERY) ||
	    !may_set(caps, VMX_CTLS_PINBASED,
		     PIN_CTL_EXTERNAL_INTERRUPT_EXITING))
		return 0;
	return PROC_CTL2_VIRTUAL_INTR_DELIVERY;
}

/* --- summary --------------------------------------------------------------- */

struct line {
	char *buf;
	size_t size;
	size_t len;	/* length of the full line, even past size */
};

__attribute__((format(printf, 2, 3)))
static void line_add(struct line *l, const char *fmt, ...)
{
	size_t room = l->len < l->size ? l->size - l->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? l->buf + l->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		l->len += (size_t)n;
}

static void line_add_bits(struct line *l, const struct vmx_ept_vpid *caps,
			  const struct cap_bit *bits, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (*(const bool *)((const char *)caps + bits[i].offset))
			line_add(l, " %s", bits[i].name);
}

static const char *memtype_name(unsigned mt)
{
	static const char *const names[8] = {
		[MEMTYPE_UC] = "UC", [MEMTYPE_WC] = "WC", [MEMTYPE_WT] = "WT",
		[MEMTYPE_WP] = "WP", [MEMTYPE_WB] = "WB",
	};

	return mt < 8 && names[mt] ? names[mt] : "?";
}

/* The APIC-virtualization controls the CPU offers (SDM 29). */
static void line_add_apic(struct line *l, const struct vmx_caps *caps)
{
	static const struct {
		enum vmx_ctls which;
		uint32_t bit;
		const char *name;
	} apic[] = {
		{ VMX_CTLS_PROCBASED, PROC_CTL_USE_TPR_SHADOW, " tpr-shadow" },
		{ VMX_CTLS_PROCBASED2, PROC_CTL2_VIRTUALIZE_APIC_ACCESSES,
		  " apic-access" },
		{ VMX_CTLS_PROCBASED2, PROC_CTL2_APIC_REGISTER_VIRT,
		  " apic-reg" },
		{ VMX_CTLS_PROCBASED2, PROC_CTL2_VIRTUAL_INTR_DELIVERY,
		  " vid" },
		{ VMX_CTLS_PINBASED, PIN_CTL_POSTED_INTERRUPTS, " posted" },
	};

	const char *sep = " | APIC";

	for (size_t i = 0; i < ARRAY_LEN(apic); i++)
		if (may_set(caps, apic[i].which, apic[i].bit)) {
			line_add(l, "%s%s", sep, apic[i].name);
			sep = "";
		}
}

int vmx_caps_summary(const struct vmx_caps *caps, char *buf, size_t size)
{
	struct line l = { .buf = buf, .size = size, .len = 0 };

	if (buf == NULL && size > 0)
		return -HV_EINVAL;
	if (size > 0)
		buf[0] = '\0';
	line_add(&l, "VMX rev 0x%x VMCS %uB %s%s", caps->basic.revision,
		 caps->basic.region_size, memtype_name(caps->basic.memtype),
		 caps->basic.true_ctls ? " true-ctls" : "");
	line_add(&l, " | ctls2:%s%s%s%s%s",
		 caps->has_ept ? " ept" : "", caps->has_vpid ? " vpid" : "",
		 caps->has_unrestricted_guest ? " unrestricted" : "",
		 caps->has_ple ? " ple" : "",
		 caps->has_preemption_timer ? " preempt-timer" : "");
	line_add_apic(&l, caps);
	if (caps->has_ept) {
		line_add(&l, " | EPT");
		line_add_bits(&l, &caps->ept, ept_bits, ARRAY_LEN(ept_bits));
	}
	if (caps->has_vpid) {
		line_add(&l, " | VPID");
		line_add_bits(&l, &caps->ept, vpid_bits, ARRAY_LEN(vpid_bits));
	}
	return (int)l.len;
}
