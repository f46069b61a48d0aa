/* The vCPU's VMCS: building it, entering the guest, and the small
 * accessors exit handlers use (RIP advance, event injection). All of them
 * act on the current VMCS, which the scheduler has made the VM's. */
#ifndef HV_VM_VCPU_H
#define HV_VM_VCPU_H

#include <stdint.h>

#include "hv/vm/vm.h"

/* Where the loader wants the guest to start (64-bit mode, paging on). */
struct vcpu_boot_state {
	uint64_t rip, rsp, rsi, cr3;
	uint64_t gdt_base;
	uint16_t gdt_limit;
	uint16_t cs_sel, ds_sel;	/* 0: 0x08 code, 0x10 data */
};

/* Whether the guest reads the MSRs VM entry loads with its own values
 * (EFER, PAT, SYSENTER_*, TSC) without an exit: hv.cfg's
 * vmx_msr_reads= (on by default), before the first vcpu_init; prints
 * which. */
void vcpu_set_msr_reads(bool direct);

/* Allocates and fills the VMCS of each of vm's vCPUs (vm->nr_vcpus):
 * vCPU 0 starts at bs, the others wait for a STARTUP IPI (hv/vm/vipi.h),
 * which starts them in the same long mode (bs's CR3, GDT, selectors) at
 * vector << 12 (docs/smp.md, "Several vCPUs"). Leaves vCPU 0 current, as
 * vm_vcpu(vm). */
int vcpu_init(struct vm *vm, const struct vcpu_boot_state *bs);
/* The current vCPU (vm_vcpu(vm), its VMCS current) got its SIPI: its guest
 * state rewritten to start at start_rip. */
int vcpu_start_ap(struct vm *vm);
/* Moving a VM's vCPUs to another physical CPU (docs/smp.md). On the CPU that
 * holds them: every vCPU's VMCS written back and inactive there
 * (VMCLEAR), so its next entry is a VMLAUNCH. On the CPU that takes
 * one (vm_vcpu(vm)): its VMCS current there and the host-state fields (GS
 * base, TR, GDTR, IDTR) that CPU's. */
int vcpu_hand_off(struct vm *vm);
int vcpu_take(struct vm *vm);

/* The vCPUs back at power-on state on their existing VMCSs: vCPU 0 at bs
 * (its VMCS made current, as vm_vcpu(vm)), the others waiting for a SIPI.
 * For a restart. */
int vcpu_reset(struct vm *vm, const struct vcpu_boot_state *bs);

/* VMLAUNCH/VMRESUME until the next VM exit. 0 after an exit; a negative
 * HV_E* code if the entry failed (the reason has been printed). */
int vcpu_enter(struct vm *vm);

/* Skip the instruction that caused the exit (VMCS exit instruction
 * length), and drop STI/MOV-SS blocking, which ends with it. */
void vcpu_skip_insn(void);

/* Queue an exception for the next VM entry (with error code if
 * has_errcode). A second one before the entry replaces the first. */
void vcpu_inject_exception(struct vm *vm, unsigned vector, bool has_errcode,
			   uint32_t errcode);
#define EXC_UD 6
#define EXC_GP 13

/* Interrupt delivery before an entry: the pending IDT-vectoring event,
 * else a queued exception, else the highest deliverable vLAPIC interrupt
 * (or interrupt-window exiting when the guest cannot take it now). */
void vcpu_prepare_events(struct vm *vm);

/* CPL of the guest (SS.DPL). */
unsigned vcpu_cpl(void);

/* MSRs and FPU state VMX does not switch: out of the CPU when the VM
 * leaves it, into the CPU when it comes back. */
void vcpu_switch_out(struct vcpu *vc);
void vcpu_switch_in(struct vcpu *vc);

#endif
