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
 *  - no PMU (leaf 0xA, PDCM): its MSRs are not virtualised;
 *  - no thermal or power management (leaf 6, the ACPI/TM/EST bits of
 *    leaf 1), as KVM offers none: their MSRs are the host's business.
 * The edits of the host's basic leaves are in cpuid_edit.c (host-tested). */
#include "guest-shim/include/g9hv/hypercall.h"
#include "hv/platform/tsc.h"
#include "hv/vm/cpuid_edit.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vmexit.h"
#include "hv/cpu/x86.h"

#define LEAF_TSC		0x15u
#define LEAF_FREQ		0x16u
#define G9HV_LEAF_MAX		(G9HV_CPUID_LEAF + 1)

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

/* Basic leaves: the host's, edited (cpuid_edit.c). The maximum basic leaf
 * is raised to 0x16 if the host's is lower, so the frequency leaves are
 * seen. */
static void basic_leaf(uint32_t leaf, uint32_t sub, struct cpuid_regs *c)
{
	if (leaf == LEAF_TSC || leaf == LEAF_FREQ) {
		tsc_leaves(leaf, c);
		return;
	}
	*c = cpuid(leaf, sub);
	if (leaf == 0 && c->eax < LEAF_FREQ)
		c->eax = LEAF_FREQ;
	else
		cpuid_edit_basic(leaf, sub, c);
}

enum exit_action handle_cpuid(struct vm *vm, const struct vm_exit *ex)
{
	struct guest_regs *r = &vm_vcpu(vm)->regs;
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
		cpuid_edit_topology(leaf, sub, vm_vcpu(vm)->idx, vm->nr_vcpus,
				    &c);
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
