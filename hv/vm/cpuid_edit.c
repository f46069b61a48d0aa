/* See cpuid_edit.h. Each mask hides a feature whose state we do not switch
 * between VMs or whose MSRs we do not virtualise: a guest that is told a
 * feature exists uses it without asking (Linux reads thermal and
 * APERF/MPERF MSRs with plain RDMSR once CPUID names them), so hiding it is
 * the only honest answer. The choice follows what KVM offers a guest. */
#include "hv/vm/cpuid_edit.h"

#define CPUID1_ECX_MONITOR	(1u << 3)
#define CPUID1_ECX_VMX		(1u << 5)
#define CPUID1_ECX_SMX		(1u << 6)
#define CPUID1_ECX_X2APIC	(1u << 21)
#define CPUID1_ECX_TSC_DEADLINE	(1u << 24)
#define CPUID1_ECX_HYPERVISOR	(1u << 31)
#define CPUID1_ECX_FMA		(1u << 12)
#define CPUID1_ECX_PDCM		(1u << 15)	/* PERF_CAPABILITIES MSR */
#define CPUID1_ECX_XSAVE	(1u << 26)
#define CPUID1_ECX_OSXSAVE	(1u << 27)
#define CPUID1_ECX_AVX		(1u << 28)
#define CPUID1_ECX_F16C		(1u << 29)
/* Leaf 7 subleaf 0: AVX2, AVX-512 F/DQ/IFMA/PF/ER/CD/BW/VL in EBX. */
#define CPUID7_EBX_XSAVE_DEPS	((1u << 5) | (1u << 16) | (1u << 17) | \
				 (1u << 21) | (1u << 26) | (1u << 27) | \
				 (1u << 28) | (1u << 30) | (1u << 31))
/* ECX: AVX512_VBMI, LA57, AVX512_VBMI2, VAES, VPCLMULQDQ, VNNI, BITALG,
 * VPOPCNTDQ. */
#define CPUID7_ECX_LA57		(1u << 16)
/* PKU, OSPKE: no PKRU is switched between VMs, CR4.PKE gives #GP. */
#define CPUID7_ECX_PKU		((1u << 3) | (1u << 4))
#define CPUID7_ECX_XSAVE_DEPS	((1u << 1) | (1u << 6) | (1u << 9) | \
				 (1u << 10) | (1u << 11) | (1u << 12) | \
				 (1u << 14))
#define CPUID7_EDX_AVX512	((1u << 2) | (1u << 3))	/* 4VNNIW, 4FMAPS */
/* EDX 26-31: IBRS/IBPB (SPEC_CTRL, PRED_CMD), STIBP, L1D_FLUSH
 * (FLUSH_CMD), ARCH_CAPABILITIES, CORE_CAPABILITIES, SSBD: MSRs we
 * neither switch per VM nor emulate (msr_platform.c: #GP). Linux writes
 * SPEC_CTRL and PRED_CMD and reads ARCH_CAPABILITIES with plain
 * WRMSR/RDMSR once these bits say they exist. */
#define CPUID7_EDX_MSRS		(0x3fu << 26)

static void leaf1(struct cpuid_regs *c)
{
	c->ecx &= ~(CPUID1_ECX_VMX | CPUID1_ECX_SMX | CPUID1_ECX_MONITOR |
		    CPUID1_ECX_TSC_DEADLINE | CPUID1_ECX_XSAVE |
		    CPUID1_ECX_OSXSAVE | CPUID1_ECX_AVX | CPUID1_ECX_FMA |
		    CPUID1_ECX_F16C | CPUID1_ECX_PDCM);
	c->ecx |= CPUID1_ECX_HYPERVISOR | CPUID1_ECX_X2APIC;
}

static void leaf7(struct cpuid_regs *c, uint32_t sub)
{
	if (sub) {
		*c = (struct cpuid_regs){ 0, 0, 0, 0 };
		return;
	}
	c->eax = 0;		/* no further subleaves */
	c->ebx &= ~CPUID7_EBX_XSAVE_DEPS;
	c->ecx &= ~(CPUID7_ECX_LA57 | CPUID7_ECX_PKU | CPUID7_ECX_XSAVE_DEPS);
	c->edx &= ~(CPUID7_EDX_AVX512 | CPUID7_EDX_MSRS);
}

/* Leaf 1 EDX: DS (debug store), ACPI (thermal monitor MSRs), TM, PBE. */
#define CPUID1_EDX_POWER	((1u << 21) | (1u << 22) | (1u << 29) | \
				 (1u << 31))
/* Leaf 1 ECX: DTES64, DS-CPL, EST (SpeedStep MSRs), TM2, xTPR. */
#define CPUID1_ECX_POWER	((1u << 2) | (1u << 4) | (1u << 7) | \
				 (1u << 8) | (1u << 14))
#define CPUID6_EAX_ARAT		(1u << 2)

static void leaf1_power(struct cpuid_regs *c)
{
	c->edx &= ~CPUID1_EDX_POWER;
	c->ecx &= ~CPUID1_ECX_POWER;
}

/* Leaf 6 (thermal and power): only ARAT, as KVM says. The host's DTS,
 * PTM, HWP (EAX), APERF/MPERF and EPB (ECX) would send the guest to MSRs
 * that #GP here; ARAT is true of our vAPIC timer, which never stops. */
static void leaf6(struct cpuid_regs *c)
{
	*c = (struct cpuid_regs){ CPUID6_EAX_ARAT, 0, 0, 0 };
}

void cpuid_edit_basic(uint32_t leaf, uint32_t sub, struct cpuid_regs *c)
{
	switch (leaf) {
	case 1:
		leaf1(c);
		leaf1_power(c);
		break;
	case 6:
		leaf6(c);
		break;
	case 7:
		leaf7(c, sub);
		break;
	case 0xa:	/* no PMU: its MSRs are not virtualised */
	case 0xd:	/* no XSAVE */
		*c = (struct cpuid_regs){ 0, 0, 0, 0 };
		break;
	default:
		break;
	}
}

#define CPUID1_EDX_HTT		(1u << 28)
#define TOPO_SMT		1u	/* leaf 0xB/0x1F level types */
#define TOPO_CORE		2u

/* Bits an APIC ID needs for n CPUs: the shift of the next level. */
static uint32_t id_bits(unsigned n)
{
	uint32_t b = 0;

	while ((1u << b) < n)
		b++;
	return b;
}

/* Leaf 0xB/0x1F subleaf sub: level 0 the thread (one per core), level 1
 * the core (nr_cpus in the package), nothing above (SDM Vol. 2A CPUID,
 * "Extended Topology Enumeration Leaf"). */
static void topo_leaf(uint32_t sub, unsigned apic_id, unsigned nr,
		      struct cpuid_regs *c)
{
	if (sub == 0)
		*c = (struct cpuid_regs){ 0, 1, TOPO_SMT << 8, apic_id };
	else if (sub == 1)
		*c = (struct cpuid_regs){ id_bits(nr), nr,
					  TOPO_CORE << 8 | 1, apic_id };
	else
		*c = (struct cpuid_regs){ 0, 0, sub & 0xff, apic_id };
}

void cpuid_edit_topology(uint32_t leaf, uint32_t sub, unsigned apic_id,
			 unsigned nr_cpus, struct cpuid_regs *c)
{
	switch (leaf) {
	case 1:	/* initial APIC ID, logical processors in the package */
		c->ebx = (c->ebx & 0x0000ffffu) | apic_id << 24 |
			 (nr_cpus & 0xff) << 16;
		c->edx = nr_cpus > 1 ? c->edx | CPUID1_EDX_HTT
				     : c->edx & ~CPUID1_EDX_HTT;
		break;
	case 4:	/* cores per package - 1, for each cache level */
		if (c->eax & 0x1f)
			c->eax = (c->eax & 0x03ffffffu) |
				 (uint32_t)(nr_cpus - 1) << 26;
		break;
	case 0xb:
	case 0x1f:
		topo_leaf(sub, apic_id, nr_cpus, c);
		break;
	default:
		break;
	}
}
