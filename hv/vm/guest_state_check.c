/* Guest-written CPU state checked as the CPU checks it; see
 * guest_state_check.h. Rules from SDM Vol. 3A 2.5 (control registers),
 * 2.2.1 and 4.1.1 (EFER), 11.12.2 (PAT), 17.4.1 (DEBUGCTL), Vol. 4
 * (SYSENTER_*: canonical since the 64-bit CPUs), Vol. 3C 27.3.1. */
#include "hv/vm/guest_state_check.h"
#include "hv/vmx/vmx_defs.h"

#define CR0_DEFINED	(CR0_PE | CR0_MP | CR0_EM | CR0_TS | CR0_ET | \
			 CR0_NE | CR0_WP | CR0_AM | CR0_NW | CR0_CD | CR0_PG)
#define EFER_DEFINED	(GSC_EFER_SCE | GSC_EFER_LME | GSC_EFER_LMA | \
			 GSC_EFER_NXE)
#define CR3_PCID_NOFLUSH (1ull << 63)
#define RFLAGS_RESERVED	(~0x3fffffull | (1ull << 3) | (1ull << 5) | \
			 (1ull << 15))
#define DEBUGCTL_DEFINED 0xffc3ull	/* bits 15:6, 1, 0 (Skylake) */

bool gsc_canonical(uint64_t va)
{
	return (uint64_t)((int64_t)(va << 16) >> 16) == va;
}

/* Memory types 2 and 3 are reserved, so are 8 and up (SDM Table 11-10). */
bool gsc_pat_valid(uint64_t pat)
{
	for (unsigned i = 0; i < 8; i++) {
		unsigned t = (unsigned)(pat >> (8 * i)) & 0xff;

		if (t > 7 || t == 2 || t == 3)
			return false;
	}
	return true;
}

static bool paging_on(const struct gsc_ctx *c)
{
	return (c->cr0 & CR0_PG) != 0;
}

static bool long_mode_active(const struct gsc_ctx *c)
{
	return (c->efer & GSC_EFER_LMA) != 0;
}

static uint64_t phys_reserved(unsigned maxphyaddr)
{
	if (maxphyaddr < 32 || maxphyaddr > 52)
		maxphyaddr = 36;	/* the architectural minimum for PAE */
	return ~((1ull << maxphyaddr) - 1);
}

static gsc_result check_efer(const struct gsc_ctx *c, uint64_t *val)
{
	uint64_t v = *val;

	if (v & ~EFER_DEFINED)
		return "EFER: reserved bit set";
	if (paging_on(c) && ((v ^ c->efer) & GSC_EFER_LME))
		return "EFER.LME changed while paging is on";
	/* LMA is the CPU's: a write leaves it as it is. */
	*val = (v & ~GSC_EFER_LMA) | (c->efer & GSC_EFER_LMA);
	return NULL;
}

static gsc_result check_debugctl(uint64_t val)
{
	if (val & ~GSC_DEBUGCTL_ALLOWED)
		return "DEBUGCTL: reserved or unsupported bit set";
	return NULL;
}

gsc_result gsc_check_wrmsr(const struct gsc_ctx *c, uint32_t msr,
			   uint64_t *val)
{
	switch (msr) {
	case MSR_IA32_EFER:
		return check_efer(c, val);
	case MSR_IA32_PAT:
		return gsc_pat_valid(*val) ? NULL : "PAT: reserved memory type";
	case MSR_IA32_SYSENTER_ESP:
	case MSR_IA32_SYSENTER_EIP:
		return gsc_canonical(*val) ? NULL
					   : "SYSENTER_ESP/EIP: not canonical";
	case MSR_IA32_SYSENTER_CS:
		return (*val >> 32) ? "SYSENTER_CS: bits 63:32 set" : NULL;
	case MSR_IA32_DEBUGCTL:
		return check_debugctl(*val);
	default:
		return NULL;
	}
}

gsc_result gsc_check_cr0(const struct gsc_ctx *c, uint64_t *val)
{
	uint64_t v = *val;

	if (v >> 32)
		return "CR0: bits 63:32 set";
	v &= CR0_DEFINED;	/* reserved bits of 31:0 are ignored */
	if ((v & CR0_NW) && !(v & CR0_CD))
		return "CR0: NW set without CD";
	if ((v & CR0_PG) && !(v & CR0_PE))
		return "CR0: PG set without PE";
	if ((v & CR0_PG) && !paging_on(c) && (c->efer & GSC_EFER_LME) &&
	    !(c->cr4 & CR4_PAE))
		return "CR0: PG set with EFER.LME and CR4.PAE clear";
	if (long_mode_active(c) && !(v & CR0_PG))
		return "CR0: PG cleared in IA-32e mode";
	if (!(v & CR0_PE) && long_mode_active(c))
		return "CR0: PE cleared in IA-32e mode";
	*val = v;
	return NULL;
}

uint64_t gsc_cr0_efer(const struct gsc_ctx *c, uint64_t cr0)
{
	bool lma = (cr0 & CR0_PG) && (c->efer & GSC_EFER_LME);

	return (c->efer & ~GSC_EFER_LMA) | (lma ? GSC_EFER_LMA : 0);
}

gsc_result gsc_check_cr3(const struct gsc_ctx *c, uint64_t *val)
{
	uint64_t v = *val;

	if (c->cr4 & CR4_PCIDE)
		v &= ~CR3_PCID_NOFLUSH;
	if (v & phys_reserved(c->maxphyaddr))
		return "CR3: bits beyond MAXPHYADDR set";
	*val = v;
	return NULL;
}

gsc_result gsc_check_cr4(const struct gsc_ctx *c, uint64_t *val)
{
	uint64_t v = *val, allowed = c->cr4_allowed & GSC_CR4_GUEST_BITS;

	if (v & ~allowed)
		return "CR4: reserved or unsupported bit set";
	if (long_mode_active(c) && !(v & CR4_PAE))
		return "CR4: PAE cleared in IA-32e mode";
	if ((v & CR4_PCIDE) && !(c->cr4 & CR4_PCIDE) &&
	    !long_mode_active(c))
		return "CR4: PCIDE set outside IA-32e mode";
	return NULL;
}

/* --- VM-entry checks, in the order and words of Bochs's VMenterLoadCheck
 * GuestState (SDM 27.3.1.1 control registers, 27.3.1.4 RFLAGS). */

static gsc_result entry_check_crs(const struct gsc_entry_state *s)
{
	if ((~s->cr0 & s->cr0_fixed0) || (s->cr0 & ~s->cr0_fixed1))
		return "VMENTER FAIL: VMCS guest invalid CR0";
	if (s->cr3 & phys_reserved(s->maxphyaddr))
		return "VMENTER FAIL: VMCS guest invalid CR3";
	if ((~s->cr4 & s->cr4_fixed0) || (s->cr4 & ~s->cr4_fixed1))
		return "VMENTER FAIL: VMCS guest invalid CR4";
	if (s->ia32e_mode_guest && !(s->cr4 & CR4_PAE))
		return "VMENTER FAIL: VMCS guest CR4.PAE=0 in x86-64 mode";
	if (!s->ia32e_mode_guest && (s->cr4 & CR4_PCIDE))
		return "VMENTER FAIL: VMCS CR4.PCIDE set in 32-bit guest";
	if (s->load_debugctl && (s->dr7 >> 32))
		return "VMENTER FAIL: VMCS guest invalid DR7";
	return NULL;
}

static gsc_result entry_check_msrs(const struct gsc_entry_state *s)
{
	if (!gsc_canonical(s->fs_base))
		return "VMENTER FAIL: VMCS guest FS.BASE non canonical";
	if (!gsc_canonical(s->gs_base))
		return "VMENTER FAIL: VMCS guest GS.BASE non canonical";
	if (!gsc_canonical(s->sysenter_esp))
		return "VMENTER FAIL: VMCS guest SYSENTER_ESP_MSR non canonical";
	if (!gsc_canonical(s->sysenter_eip))
		return "VMENTER FAIL: VMCS guest SYSENTER_EIP_MSR non canonical";
	if (s->load_pat && !gsc_pat_valid(s->pat))
		return "VMENTER FAIL: invalid Memory Type in guest MSR_PAT";
	if (s->load_efer) {
		bool lma = (s->efer & GSC_EFER_LMA) != 0;
		bool lme = (s->efer & GSC_EFER_LME) != 0;

		if (s->efer & ~EFER_DEFINED)
			return "VMENTER FAIL: VMCS guest EFER reserved bits set";
		if (lma != s->ia32e_mode_guest)
			return "VMENTER FAIL: VMCS guest EFER.LMA doesn't match "
			       "x86_64 entry control";
		if ((s->cr0 & CR0_PG) && lma != lme)
			return "VMENTER FAIL: VMCS guest EFER (LME != LMA)";
	}
	if (s->load_debugctl && (s->debugctl & ~DEBUGCTL_DEFINED))
		return "VMENTER FAIL: VMCS guest invalid IA32_DEBUGCTL";
	return NULL;
}

gsc_result gsc_entry_check(const struct gsc_entry_state *s)
{
	gsc_result r = entry_check_crs(s);

	if (!r)
		r = entry_check_msrs(s);
	if (!r && ((s->rflags & RFLAGS_RESERVED) || !(s->rflags & RFLAGS_FIXED1)))
		return "VMENTER FAIL: RFLAGS reserved bits are set";
	return r;
}
