/* Small exit handlers: HLT, timers and interrupt windows, host interrupts,
 * control registers, VMX instructions from the guest, and the fatal ones. */
#include "hv/console/console.h"
#include "hv/cpu/host_irq.h"
#include "hv/vm/guest_state_vmcs.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vmexit.h"
#include "hv/vmx/exit_reason.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/x86.h"

#define PIC1_CMD	0x20
#define PIC2_CMD	0xa0
#define PIC_EOI		0x20

/* HLT: the guest waits for an interrupt, so the CPU goes to another VM. A
 * HLT with interrupts off can only end by NMI, INIT or reset: on vCPU 0
 * none will come (the guest resets the VM through its ports), so that VM
 * is finished; another vCPU is parked there (Linux's offline CPUs, its
 * CPUs stopped at power-off) until an NMI or INIT IPI of a sibling
 * (hv/vm/vipi.c). */
enum exit_action handle_hlt(struct vm *vm, const struct vm_exit *ex)
{
	(void)ex;
	vcpu_skip_insn();
	if (!(vmread(VMCS_GUEST_RFLAGS) & RFLAGS_IF) && vm_vcpu(vm)->idx) {
		if (vm_vcpu(vm)->nmi_pending)
			return EXIT_RESUME;
		vm_vcpu(vm)->run = VCPU_PARKED;
		return EXIT_YIELD;
	}
	if (!(vmread(VMCS_GUEST_RFLAGS) & RFLAGS_IF)) {
		vm_stop(vm, "halted with interrupts disabled");
		return EXIT_STOP;
	}
	if (vlapic_pending(vm_vcpu(vm)->lapic) >= 0 || vm_vcpu(vm)->nmi_pending)
		return EXIT_RESUME;	/* the interrupt it waits for is here */
	/* This vCPU halts, not the VM: a sibling on another CPU runs on
	 * (the scheduler works out the (VM, CPU)'s state, hv/vm/sched.c). */
	vm_vcpu(vm)->run = VCPU_HALTED;
	return EXIT_YIELD;
}

/* PAUSE-loop exiting (only with several vCPUs, hv/vm/vcpu.c): the vCPU
 * spins in PAUSE waiting for something a sibling holds, which cannot
 * come while it keeps the CPU. Its PAUSE is done; the turn goes to the
 * next runnable vCPU (sched.c, as after a kick), or back to it if it is
 * the only one. */
enum exit_action handle_pause(struct vm *vm, const struct vm_exit *ex)
{
	(void)ex;
	vcpu_skip_insn();
	vm_vcpu(vm)->kick = true;
	return EXIT_RESUME;
}

/* The slice or a virtual timer deadline is due; the scheduler's run loop
 * decides which, after every exit. */
enum exit_action handle_preemption_timer(struct vm *vm,
					 const struct vm_exit *ex)
{
	(void)vm;
	(void)ex;
	return EXIT_RESUME;
}

/* The guest can take interrupts again; vcpu_prepare_events injects. */
enum exit_action handle_interrupt_window(struct vm *vm,
					 const struct vm_exit *ex)
{
	(void)vm;
	(void)ex;
	return EXIT_RESUME;
}

/* A host interrupt arrived while a guest ran; "acknowledge interrupt on
 * exit" handed us its vector. A registered one (the GPU's MSI) goes to its
 * handler (hv/cpu/host_irq.c, which sends the EOI) and ends the slice, so the
 * main loop runs the work it marked pending now rather than after the
 * guest's slice. Anything else is a stray: every other host source is
 * masked at boot; acknowledge it where it may have come from and go on. */
enum exit_action handle_external_interrupt(struct vm *vm,
					   const struct vm_exit *ex)
{
	static bool told;
	uint32_t info = (uint32_t)vmread(VMCS_EXIT_INTR_INFO);

	(void)ex;
	if ((info & INTR_INFO_VALID) &&
	    host_irq_dispatch((uint8_t)(info & INTR_INFO_VECTOR_MASK), true))
		return EXIT_YIELD;
	outb(PIC2_CMD, PIC_EOI);
	outb(PIC1_CMD, PIC_EOI);
	if (!told) {
		told = true;
		pr_warn("vmx", "stray host interrupt vector %u during vm '%s' "
			"(acknowledged; not reported again)",
			info & INTR_INFO_VECTOR_MASK, vm->name);
	}
	return EXIT_RESUME;
}

/* The exception bitmap is empty, so only NMIs (which belong to the host)
 * exit here. Nothing on this machine sends them on purpose. */
enum exit_action handle_exception_nmi(struct vm *vm, const struct vm_exit *ex)
{
	uint32_t info = (uint32_t)vmread(VMCS_EXIT_INTR_INFO);

	(void)ex;
	if ((info & INTR_INFO_TYPE_MASK) == INTR_TYPE_NMI) {
		pr_warn("vmx", "host NMI during vm '%s'", vm->name);
		return EXIT_RESUME;
	}
	return handle_fatal(vm, ex);
}

/* MOV to CR0/CR4 touching a bit VMX pins or the guest may not set (the
 * guest keeps its value in the read shadow), CR3 moves when the CPU
 * insists on CR3 exiting, and CR8 (the TPR) kept in the virtual APIC. SDM
 * Table 28-3. Every new value is checked as the CPU checks it: an illegal
 * one gets #GP (guest_state_vmcs.c) and the instruction does not retire. */
enum exit_action handle_cr_access(struct vm *vm, const struct vm_exit *ex)
{
	unsigned cr = CR_QUAL_CR(ex->qual), gpr = CR_QUAL_GPR(ex->qual);
	struct guest_regs *r = &vm_vcpu(vm)->regs;
	uint64_t cr0;
	int rc = 0;

	if (gpr == GPR_RSP)
		r->rsp = vmread(VMCS_GUEST_RSP);
	switch (CR_QUAL_ACCESS(ex->qual)) {
	case CR_ACCESS_MOV_TO_CR:
		if (cr == 8 && (r->gpr[gpr] >> 4))
			rc = guest_write_cr(vm, 8, r->gpr[gpr]); /* #GP */
		else if (cr == 8)
			vlapic_set_tpr(vm_vcpu(vm)->lapic,
				       (uint32_t)(r->gpr[gpr] & 0xf) << 4);
		else
			rc = guest_write_cr(vm, cr, r->gpr[gpr]);
		break;
	case CR_ACCESS_MOV_FROM_CR:
		r->gpr[gpr] = cr == 8 ? vlapic_tpr(vm_vcpu(vm)->lapic) >> 4
				      : vmread(VMCS_GUEST_CR3);
		if (gpr == GPR_RSP)
			vmwrite(VMCS_GUEST_RSP, r->rsp);
		break;
	case CR_ACCESS_CLTS:
		cr0 = vmread(VMCS_CR0_READ_SHADOW) & ~CR0_TS;
		rc = guest_write_cr(vm, 0, cr0);
		break;
	default: /* LMSW: only PE, MP, EM, TS, and PE cannot be cleared */
		cr0 = vmread(VMCS_CR0_READ_SHADOW);
		cr0 = (cr0 & ~0xeull) | (CR_QUAL_LMSW_SOURCE(ex->qual) & 0xf) |
		      (cr0 & CR0_PE);
		rc = guest_write_cr(vm, 0, cr0);
		break;
	}
	if (rc == -2)
		return EXIT_STOP;
	if (rc == 0)
		vcpu_skip_insn();
	return EXIT_RESUME;
}

/* The guest sees no VMX (CPUID hides it), so VMX instructions are
 * undefined for it: #UD, as on a CPU without VMX. */
enum exit_action handle_vmx_insn(struct vm *vm, const struct vm_exit *ex)
{
	vm_event(vm, VM_EV_VMX_INSN, "%s at rip %llx: #UD injected",
		 vmx_exit_reason_name(ex->reason),
		 (unsigned long long)vmread(VMCS_GUEST_RIP));
	vcpu_inject_exception(vm, EXC_UD, false, 0);
	return EXIT_RESUME;
}

/* INVD, WBINVD, MONITOR, MWAIT: nothing to do for a VM that owns no
 * device memory and whose caches are coherent; they complete as no-ops. */
enum exit_action handle_skip(struct vm *vm, const struct vm_exit *ex)
{
	(void)vm;
	(void)ex;
	vcpu_skip_insn();
	return EXIT_RESUME;
}

/* XCR0 is not switched between VMs, so no VM may change it. */
enum exit_action handle_xsetbv(struct vm *vm, const struct vm_exit *ex)
{
	(void)ex;
	vcpu_inject_exception(vm, EXC_GP, true, 0);
	return EXIT_RESUME;
}

/* Triple fault, failed VM entry, or a reason our controls rule out: this
 * VM cannot go on. Say why, show its registers, stop it; the others run. */
enum exit_action handle_fatal(struct vm *vm, const struct vm_exit *ex)
{
	kprintf("vm '%s': fatal exit %u (%s)%s, qualification %llx\n",
		vm->name, ex->reason, vmx_exit_reason_name(ex->reason),
		(ex->raw_reason & EXIT_REASON_ENTRY_FAILURE)
			? " [VM-entry failure: the failed check is named in "
			  "Bochs's log]" : "",
		(unsigned long long)ex->qual);
	if (ex->raw_reason & EXIT_REASON_ENTRY_FAILURE)
		guest_entry_failure_explain(vm);
	vm_dump_regs(vm);
	vm_stop(vm, "%s", vmx_exit_reason_name(ex->reason));
	return EXIT_STOP;
}
