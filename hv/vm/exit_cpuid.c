/* CPUID (exit reason 10): the host's answers, edited so that the guest
 * sees a CPU without VMX, with the "hypervisor present" bit, our signature
 * at leaf 0x40000000, and APIC features we actually emulate. */
#include "guest-shim/include/g9hv/hypercall.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vmexit.h"
#include "hv/x86.h"

#define CPUID1_ECX_MONITOR	(1u << 3)
#define CPUID1_ECX_VMX		(1u << 5)
#define CPUID1_ECX_SMX		(1u << 6)
#define CPUID1_ECX_X2APIC	(1u << 21)
#define CPUID1_ECX_TSC_DEADLINE	(1u << 24)
/* XSAVE and what needs it: no per-VM XCR0, CR4.OSXSAVE gives #GP. */
#define CPUID1_ECX_XSAVE_ALL	((1u << 12) | (1u << 26) | (1u << 27) | \
				 (1u << 28) | (1u << 29))
#define CPUID7_ECX_NO_GUEST	((1u << 3) | (1u << 4) | (1u << 16)) /* PKU LA57 */
#define CPUID1_ECX_HYPERVISOR	(1u << 31)
#define CPUID6_EAX_ARAT		(1u << 2)
#define G9HV_LEAF_MAX		(G9HV_CPUID_LEAF + 1)

static void leaf1(struct cpuid_regs *c)
{
	c->ecx &= ~(CPUID1_ECX_VMX | CPUID1_ECX_SMX | CPUID1_ECX_MONITOR |
		    CPUID1_ECX_TSC_DEADLINE | CPUID1_ECX_XSAVE_ALL);
	c->ecx |= CPUID1_ECX_HYPERVISOR | CPUID1_ECX_X2APIC;
	/* One logical processor, initial APIC id 0. */
	c->ebx &= 0x0000ffffu;
	c->ebx |= 1u << 16;
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
	} else if (leaf < 0x40000000u || leaf >= 0x80000000u) {
		c = cpuid(leaf, sub);
		if (leaf == 1)
			leaf1(&c);
		else if (leaf == 6)
			c.eax |= CPUID6_EAX_ARAT; /* vAPIC timer never stops */
		else if (leaf == 0xb || leaf == 0x1f)
			c.edx = 0;	/* x2APIC id */
		else if (leaf == 7 && sub == 0)
			c.ecx &= ~CPUID7_ECX_NO_GUEST;
		else if (leaf == 0xd)
			c = (struct cpuid_regs){ 0, 0, 0, 0 }; /* no XSAVE */
	}
	r->rax = c.eax;
	r->rbx = c.ebx;
	r->rcx = c.ecx;
	r->rdx = c.edx;
	vcpu_skip_insn();
	return EXIT_RESUME;
}
