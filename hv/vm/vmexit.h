/* VM-exit dispatch: one table indexed by basic exit reason (SDM Appendix
 * C), one small handler per reason, named for it.
 *
 * Contract of a handler: it runs with the VM's VMCS current and the
 * guest's GPRs in vm_vcpu(vm)->regs; it advances RIP itself when it emulated
 * the instruction (vcpu_skip_insn), so a handler that injects a fault
 * leaves RIP alone; it returns what the scheduler does next. A guest's bad
 * input never ends the hypervisor: the handler injects an exception, gives
 * an error value, or stops this VM only. */
#ifndef HV_VM_VMEXIT_H
#define HV_VM_VMEXIT_H

#include <stdint.h>

#include "hv/vm/vm.h"

enum exit_action {
	EXIT_RESUME,	/* enter the guest again (slice permitting) */
	EXIT_YIELD,	/* end this VM's slice (HLT, yield hypercall) */
	EXIT_STOP,	/* the VM has been stopped */
};

struct vm_exit {
	uint32_t reason;	/* basic exit reason, bits 15:0 */
	uint32_t raw_reason;	/* the whole field, with flag bits */
	uint64_t qual;		/* exit qualification, if the entry asks */
};

typedef enum exit_action (*exit_handler_fn)(struct vm *vm,
					    const struct vm_exit *ex);

/* Reads the exit information and runs the handler for it. */
enum exit_action vmexit_dispatch(struct vm *vm);

/* The handlers, by file. */
enum exit_action handle_cpuid(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_rdmsr(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_wrmsr(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_io(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_ept_violation(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_ept_misconfig(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_vmcall(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_hlt(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_preemption_timer(struct vm *vm,
					 const struct vm_exit *ex);
enum exit_action handle_interrupt_window(struct vm *vm,
					 const struct vm_exit *ex);
enum exit_action handle_external_interrupt(struct vm *vm,
					   const struct vm_exit *ex);
enum exit_action handle_exception_nmi(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_cr_access(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_vmx_insn(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_skip(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_pause(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_xsetbv(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_fatal(struct vm *vm, const struct vm_exit *ex);
/* APIC virtualization (hv/vm/vlapic_apicv.c). */
enum exit_action handle_apic_access(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_apic_write(struct vm *vm, const struct vm_exit *ex);
enum exit_action handle_virtualized_eoi(struct vm *vm,
					const struct vm_exit *ex);
enum exit_action handle_tpr_below_threshold(struct vm *vm,
					    const struct vm_exit *ex);

#endif
