/* RDMSR/WRMSR (exit reasons 31, 32). The MSR bitmap sends every MSR here
 * except the few the guest owns outright (vcpu.c). Known ones are emulated
 * from the VMCS or the virtual APIC; any other gets #GP, as a CPU without
 * that MSR would give, and is counted and logged. */
#include "hv/vm/guest_state_vmcs.h"
#include "hv/console/console.h"
#include "hv/vm/msr_platform.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vmexit.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/x86.h"

#define MISC_ENABLE_FAST_STRINGS 1ull
#define MTRR_DEF_TYPE_WB_ON	0x806ull	/* MTRRs enabled, default WB */

/* MSRs whose value lives in a VMCS guest-state field. */
static const struct {
	uint32_t msr, field;
} vmcs_msrs[] = {
	{ MSR_IA32_EFER, VMCS_GUEST_IA32_EFER },
	{ MSR_IA32_PAT, VMCS_GUEST_IA32_PAT },
	{ MSR_IA32_SYSENTER_CS, VMCS_GUEST_IA32_SYSENTER_CS },
	{ MSR_IA32_SYSENTER_ESP, VMCS_GUEST_IA32_SYSENTER_ESP },
	{ MSR_IA32_SYSENTER_EIP, VMCS_GUEST_IA32_SYSENTER_EIP },
	{ MSR_IA32_DEBUGCTL, VMCS_GUEST_IA32_DEBUGCTL },
};

static int vmcs_msr_field(uint32_t msr)
{
	for (unsigned i = 0; i < sizeof(vmcs_msrs) / sizeof(vmcs_msrs[0]); i++)
		if (vmcs_msrs[i].msr == msr)
			return (int)vmcs_msrs[i].field;
	return -1;
}

static int msr_read(struct vm *vm, uint32_t msr, uint64_t *val)
{
	int field = vmcs_msr_field(msr);

	if (vlapic_is_msr(msr))
		return vlapic_x2apic_mode(vm_vcpu(vm)->lapic)
			       ? vlapic_rdmsr(vm_vcpu(vm)->lapic, msr, rdtsc(), val) : -1;
	if (field >= 0) {
		*val = vmread((uint32_t)field);
		return 0;
	}
	switch (msr) {
	case MSR_IA32_APIC_BASE: *val = vm_vcpu(vm)->lapic->apic_base; return 0;
	case MSR_IA32_TIME_STAMP_COUNTER: *val = rdtsc(); return 0;
	case MSR_IA32_MISC_ENABLE: *val = MISC_ENABLE_FAST_STRINGS; return 0;
	case MSR_IA32_MTRRCAP: *val = 0; return 0;	/* no variable MTRRs */
	case MSR_IA32_MTRR_DEF_TYPE: *val = MTRR_DEF_TYPE_WB_ON; return 0;
	default: return msr_platform_read(vm, msr, val);
	}
}

static int msr_write(struct vm *vm, uint32_t msr, uint64_t val)
{
	int field = vmcs_msr_field(msr);

	if (vlapic_is_msr(msr)) {
		int rc = vlapic_x2apic_mode(vm_vcpu(vm)->lapic)
			? vlapic_wrmsr(vm_vcpu(vm)->lapic, msr, val, rdtsc()) : -1;

		vipi_send(vm);	/* an ICR write to other vCPUs */
		return rc;
	}
	/* Checked like the CPU checks it (EFER.LMA stays the CPU's);
	 * -2: #GP already queued. */
	if (field >= 0)
		return guest_write_vmcs_msr(vm, msr, (uint32_t)field, val)
			? -2 : 0;
	switch (msr) {
	case MSR_IA32_APIC_BASE:
		return vlapic_set_apic_base(vm_vcpu(vm)->lapic, val);
	case MSR_IA32_TIME_STAMP_COUNTER:
	case MSR_IA32_MISC_ENABLE:
	case MSR_IA32_MTRR_DEF_TYPE:
		return 0;	/* accepted and ignored, as Linux expects */
	default:
		return msr_platform_write(vm, msr, val);
	}
}

/* Counted always, logged the first time for each MSR, with its name. */
static void refused(struct vm *vm, const char *op, uint32_t msr, uint64_t val)
{
	const char *name = msr_name(msr);

	vm->stats.events[VM_EV_UNKNOWN_MSR]++;
	if (!msr_first_refusal(vm, msr))
		return;
	if (op[0] == 'w')
		kprintf("vm '%s': wrmsr %x%s%s <- %llx: #GP injected\n",
			vm->name, msr, name ? " " : "", name ? name : "",
			(unsigned long long)val);
	else
		kprintf("vm '%s': rdmsr %x%s%s: #GP injected\n", vm->name,
			msr, name ? " " : "", name ? name : "");
}

enum exit_action handle_rdmsr(struct vm *vm, const struct vm_exit *ex)
{
	struct guest_regs *r = &vm_vcpu(vm)->regs;
	uint32_t msr = (uint32_t)r->rcx;
	uint64_t val = 0;

	(void)ex;
	if (msr_read(vm, msr, &val)) {
		refused(vm, "rdmsr", msr, 0);
		vcpu_inject_exception(vm, EXC_GP, true, 0);
		return EXIT_RESUME;
	}
	r->rax = (uint32_t)val;
	r->rdx = val >> 32;
	vcpu_skip_insn();
	return EXIT_RESUME;
}

enum exit_action handle_wrmsr(struct vm *vm, const struct vm_exit *ex)
{
	struct guest_regs *r = &vm_vcpu(vm)->regs;
	uint32_t msr = (uint32_t)r->rcx;
	uint64_t val = (r->rdx << 32) | (uint32_t)r->rax;

	int rc = msr_write(vm, msr, val);

	(void)ex;
	if (rc == -2)
		return EXIT_RESUME;
	if (rc) {
		refused(vm, "wrmsr", msr, val);
		vcpu_inject_exception(vm, EXC_GP, true, 0);
		return EXIT_RESUME;
	}
	vcpu_skip_insn();
	return EXIT_RESUME;
}
