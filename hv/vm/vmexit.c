/* The exit table and its dispatcher; see vmexit.h. */
#include "hv/vm/vmexit.h"
#include "hv/console/console.h"
#include "hv/vm/vcpu.h"
#include "hv/vmx/exit_reason.h"
#include "hv/vmx/vmx_insn.h"

struct exit_entry {
	exit_handler_fn handler;
	bool need_qual;		/* read VMCS_EXIT_QUALIFICATION first */
	bool dev;		/* may reach a VM device: under vm->dev_lock */
};

/* Reasons missing here cannot happen with our controls; if one does, it is
 * a hypervisor bug, and handle_fatal stops that VM with its registers. */
static const struct exit_entry exit_table[EXIT_REASON_COUNT] = {
	[EXIT_REASON_EXCEPTION_NMI]	= { handle_exception_nmi, false },
	[EXIT_REASON_EXTERNAL_INTERRUPT] = { handle_external_interrupt, false },
	[EXIT_REASON_TRIPLE_FAULT]	= { handle_fatal, false },
	[EXIT_REASON_INTERRUPT_WINDOW]	= { handle_interrupt_window, false },
	[EXIT_REASON_CPUID]		= { handle_cpuid, false },
	[EXIT_REASON_HLT]		= { handle_hlt, false },
	[EXIT_REASON_INVD]		= { handle_skip, false },
	[EXIT_REASON_VMCALL]		= { handle_vmcall, false, true },
	[EXIT_REASON_VMCLEAR]		= { handle_vmx_insn, false },
	[EXIT_REASON_VMLAUNCH]		= { handle_vmx_insn, false },
	[EXIT_REASON_VMPTRLD]		= { handle_vmx_insn, false },
	[EXIT_REASON_VMPTRST]		= { handle_vmx_insn, false },
	[EXIT_REASON_VMREAD]		= { handle_vmx_insn, false },
	[EXIT_REASON_VMRESUME]		= { handle_vmx_insn, false },
	[EXIT_REASON_VMWRITE]		= { handle_vmx_insn, false },
	[EXIT_REASON_VMXOFF]		= { handle_vmx_insn, false },
	[EXIT_REASON_VMXON]		= { handle_vmx_insn, false },
	[EXIT_REASON_CR_ACCESS]		= { handle_cr_access, true },
	[EXIT_REASON_IO_INSTRUCTION]	= { handle_io, true, true },
	[EXIT_REASON_RDMSR]		= { handle_rdmsr, false },
	[EXIT_REASON_WRMSR]		= { handle_wrmsr, false },
	[EXIT_REASON_ENTRY_FAIL_GUEST_STATE] = { handle_fatal, true },
	[EXIT_REASON_ENTRY_FAIL_MSR_LOADING] = { handle_fatal, true },
	[EXIT_REASON_MWAIT]		= { handle_skip, false },
	[EXIT_REASON_MONITOR]		= { handle_skip, false },
	[EXIT_REASON_ENTRY_FAIL_MACHINE_CHECK] = { handle_fatal, false },
	[EXIT_REASON_TPR_BELOW_THRESHOLD] = { handle_tpr_below_threshold,
					      false },
	[EXIT_REASON_APIC_ACCESS]	= { handle_apic_access, true },
	[EXIT_REASON_APIC_WRITE]	= { handle_apic_write, true },
	[EXIT_REASON_VIRTUALIZED_EOI]	= { handle_virtualized_eoi, false },
	[EXIT_REASON_EPT_VIOLATION]	= { handle_ept_violation, true, true },
	[EXIT_REASON_EPT_MISCONFIG]	= { handle_ept_misconfig, false },
	[EXIT_REASON_INVEPT]		= { handle_vmx_insn, false },
	[EXIT_REASON_PREEMPTION_TIMER]	= { handle_preemption_timer, false },
	[EXIT_REASON_INVVPID]		= { handle_vmx_insn, false },
	[EXIT_REASON_WBINVD]		= { handle_skip, false },
	[EXIT_REASON_PAUSE]		= { handle_pause, false },
	[EXIT_REASON_XSETBV]		= { handle_xsetbv, false },
	[EXIT_REASON_VMFUNC]		= { handle_vmx_insn, false },
};

/* An exit while the CPU was delivering an event to the guest (an EPT
 * violation on the IDT or stack, say) loses that event unless we deliver
 * it again on the next entry (SDM 28.2.4, 27.6.1.1). */
static void requeue_vectoring_event(struct vm *vm)
{
	uint32_t info = (uint32_t)vmread(VMCS_IDT_VECTORING_INFO);
	struct vcpu *vc = vm_vcpu(vm);

	if (!(info & INTR_INFO_VALID))
		return;
	vc->inject_info = info & ~INTR_INFO_NMI_UNBLOCKING;
	vc->inject_errcode = (info & INTR_INFO_DELIVER_ERROR_CODE)
		? (uint32_t)vmread(VMCS_IDT_VECTORING_ERROR_CODE) : 0;
	vc->inject_insn_len = (uint32_t)vmread(VMCS_EXIT_INSTRUCTION_LENGTH);
}

/* Out of line: the exits that reach no device (CPUID, MSRs, the
 * vLAPIC) pay nothing for the lock. */
static __attribute__((noinline)) enum exit_action
run_locked(const struct exit_entry *e, struct vm *vm, struct vm_exit *ex)
{
	enum exit_action act;

	vm_dev_lock(vm);
	act = e->handler(vm, ex);
	vm_dev_unlock(vm);
	return act;
}

enum exit_action vmexit_dispatch(struct vm *vm)
{
	struct vm_exit ex = { 0 };
	const struct exit_entry *e;

	ex.raw_reason = (uint32_t)vmread(VMCS_EXIT_REASON);
	ex.reason = EXIT_REASON_BASIC(ex.raw_reason);
	if (ex.reason < EXIT_REASON_COUNT)
		__atomic_fetch_add(&vm->stats.exits[ex.reason], 1,
				   __ATOMIC_RELAXED);	/* its CPUs add */
	if (ex.reason >= EXIT_REASON_COUNT || !exit_table[ex.reason].handler)
		return handle_fatal(vm, &ex);
	e = &exit_table[ex.reason];
	if (e->need_qual)
		ex.qual = vmread(VMCS_EXIT_QUALIFICATION);
	if (!(ex.raw_reason & EXIT_REASON_ENTRY_FAILURE))
		requeue_vectoring_event(vm);
	return e->dev ? run_locked(e, vm, &ex) : e->handler(vm, &ex);
}
