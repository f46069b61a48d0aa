/* The VMCS side of guest_state_check.h: guest writes of CRs and of the
 * VMCS-backed MSRs, checked and then stored, and the explanation of a
 * VM-entry failure. All act on the current VMCS (the VM being handled). */
#ifndef HV_VM_GUEST_STATE_VMCS_H
#define HV_VM_GUEST_STATE_VMCS_H

#include <stdint.h>

#include "hv/vm/vm.h"

/* MOV to CR0/CR3/CR4 by the guest (CR8: only one with bits 63:4 set). 0 when stored; -1 when the value is
 * illegal: #GP has been queued and the event counted (the caller must not
 * skip the instruction). -2: legal on hardware but beyond this hypervisor
 * (leaving paging outside 64-bit mode): the VM has been stopped. */
int guest_write_cr(struct vm *vm, unsigned cr, uint64_t val);

/* WRMSR of an MSR whose value lives in VMCS `field`: 0 stored, -1 #GP
 * queued and counted. */
int guest_write_vmcs_msr(struct vm *vm, uint32_t msr, uint32_t field,
			 uint64_t val);

/* CR4 bits a guest may own (set without an exit): the guest/host mask is
 * the complement, plus the bits VMX pins. */
uint64_t guest_cr4_allowed(void);

/* A VM entry failed on guest state: name the first failing check of SDM
 * 27.3.1 (Bochs's words) on the console. */
void guest_entry_failure_explain(struct vm *vm);

#endif
