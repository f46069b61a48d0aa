/* CPUID (exit reason 10): the host's answers, edited so that the guest
 * sees a CPU without VMX, with the "hypervisor present" bit, our signature
 * at leaf 0x40000000, and APIC features we actually emulate. What a Linux
 * guest relies on is told the truth:
 *  - leaves 0x15/0x16 give the TSC frequency the hypervisor measured, with
 *    a "crystal" equal to the TSC: Linux then needs no PIT/HPET to
 *    calibrate, and takes the crystal as the APIC timer's clock, which is
 *    exactly how our vLAPIC timer counts (TSC / DIV_CONF);
 *  - XSAVE is hidden, with everything that needs it (AVX, AVX2, AVX-512,
 *    leaf 0xD): we neither switch XCR0 nor accept XSETBV, so a guest must
 *    not see it (it keeps FXSAVE, which we do switch);
 *  - no 5-level paging (our guests' EPT and page tables are 4-level);
 *  - no PMU (leaf 0xA, PDCM): its MSRs are not virtualised. */
#include "guest-shim/include/g9hv/hypercall.h"
#include "hv/tsc.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vmexit.h"
#include "hv/x86.h"

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
#define LEAF_TSC		0x15u
#define LEAF_FREQ		0x16u
#define CPUID6_EAX_ARAT		(1u << 2)
#define G9HV_LEAF_MAX		(G9HV_CPUID_LEAF + 1)

static void leaf1(struct cpuid_regs *c)
{
	c->ecx &= ~(CPUID1_ECX_VMX | CPUID1_ECX_SMX | CPUID1_ECX_MONITOR |
		    CPUID1_ECX_TSC_DEADLINE | CPUID1_ECX_XSAVE |
		    CPUID1_ECX_OSXSAVE | CPUID1_ECX_AVX | CPUID1_ECX_FMA |
		    CPUID1_ECX_F16C | CPUID1_ECX_PDCM);
	c->ecx |= CPUID1_ECX_HYPERVISOR | CPUID1_ECX_X2APIC;
	/* One logical processor, initial APIC id 0. */
	c->ebx &= 0x0000ffffu;
	c->ebx |= 1u << 16;
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
	c->edx &= ~CPUID7_EDX_AVX512;
}

/* 0x15: TSC = crystal * EBX / EAX with ECX = crystal Hz; we say 1/1 and
 * crystal = TSC. 0x16: base and maximum MHz, bus MHz unknown (0). */
static void tsc_leaves(uint32_t leaf, struct cpuid_regs *c)
{
	uint64_t hz = tsc_hz();

	if (leaf == LEAF_TSC)
		*c = (struct cpuid_regs){ 1, 1, (uint32_t)hz, 0 };
	else
		*c = (struct cpuid_regs){ (uint32_t)(hz / 1000000),
					  (uint32_t)(hz / 1000000), 0, 0 };
}

/* Basic leaves: the host's, edited. The maximum basic leaf is raised to
 * 0x16 if the host's is lower, so the frequency leaves are seen. */
static void basic_leaf(uint32_t leaf, uint32_t sub, struct cpuid_regs *c)
{
	if (leaf == LEAF_TSC || leaf == LEAF_FREQ) {
		tsc_leaves(leaf, c);
		return;
	}
	*c = cpuid(leaf, sub);
	if (leaf == 0 && c->eax < LEAF_FREQ)
		c->eax = LEAF_FREQ;
	else if (leaf == 1)
		leaf1(c);
	else if (leaf == 6)
		c->eax |= CPUID6_EAX_ARAT; /* vAPIC timer never stops */
	else if (leaf == 7)
		leaf7(c, sub);
	else if (leaf == 0xd)
		*c = (struct cpuid_regs){ 0, 0, 0, 0 };	/* no XSAVE */
	else if (leaf == 0xa)	/* no PMU: its MSRs are not virtualised */
		*c = (struct cpuid_regs){ 0, 0, 0, 0 };
	else if (leaf == 0xb || leaf == 0x1f)
		c->edx = 0;	/* x2APIC id */
}

enum exit_action handle_cpuid(struct vm *vm, const struct vm_exit *ex)
{
	struct guest_regs *r = &vm->vcpu.regs;
	uint32_t leaf = (uint32_t)r->rax, sub = (uint32_t)r->rcx;
	struct cpuid_regs c = { 0, 0, 0, 0 };

	(void)ex;
	if (leaf == G9HV_CPUID_LEAF) {
		c = (struct cpuid_regs){ G9HV_LEAF_MAX, G9HV_CPUID_SIG_EBX,
					 G9HV_CPUID_SIG_ECX,
					 G9HV_CPUID_SIG_EDX };
	} else if (leaf == G9HV_CPUID_LEAF + 1) {
		c.eax = G9HV_ABI_VERSION;
	} else if (leaf < 0x40000000u) {
		basic_leaf(leaf, sub, &c);
	} else if (leaf >= 0x80000000u) {
		c = cpuid(leaf, sub);
	}
	r->rax = c.eax;
	r->rbx = c.ebx;
	r->rcx = c.ecx;
	r->rdx = c.edx;
	vcpu_skip_insn();
	return EXIT_RESUME;
}
