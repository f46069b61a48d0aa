/* VMX operation on this CPU: enabling it (IA32_FEATURE_CONTROL, CR0/CR4
 * fixed bits, VMXON), the control values every VMCS uses (computed once
 * from the capability MSRs), and the current-VMCS bookkeeping. */
#ifndef HV_VMX_VMX_H
#define HV_VMX_VMX_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vmx/vmx_caps.h"

struct vmx_cpu {
	struct vmx_caps caps;
	/* Control fields as adjusted to the CPU (interrupt-window exiting is
	 * added per entry when needed; proc_ctls holds the base value). */
	uint32_t pin_ctls, proc_ctls, proc2_ctls, exit_ctls, entry_ctls;
	unsigned preempt_shift;	/* timer ticks = TSC >> preempt_shift */
	void *vmxon_region;
	bool on;
	/* VPIDs in use (vmx_vpid_set): each vCPU's VMCS tags its TLB
	 * entries with its own VPID, so entries and exits keep them. */
	bool vpid_on;
	/* APIC virtualization (vmx_apicv_set): the secondary controls each
	 * vCPU's VMCS adds (0 = off: the xAPIC page is EPT-trapped MMIO). */
	uint32_t apicv_proc2;
	/* Virtual-interrupt delivery (vmx_vid_set): part of apicv_proc2;
	 * a vCPU in xAPIC mode gets its interrupts from RVI and its
	 * virtual-APIC page, not by injection (hv/vm/vlapic_apicv.c). */
	bool vid_on;
};

extern struct vmx_cpu vmx_cpu;

/* Brings the CPU into VMX root operation. 0, or a negative HV_E* code with
 * the reason printed. Safe to call once. */
int vmx_enable(void);

/* VMX root operation on an AP (docs/smp.md), run on the AP itself once the
 * BSP is in VMX operation: its own IA32_FEATURE_CONTROL, its capability
 * MSRs the same as the BSP's (the controls computed there must hold
 * here), CR0/CR4 fixed bits, VMXON on region (one zeroed page the BSP
 * allocated: an AP never calls the page allocator). Prints nothing (the
 * console is the BSP's); returns an enum vmx_ap_status. */
enum vmx_ap_status {
	VMX_AP_ON,
	VMX_AP_NO_VMX,		/* decided by the caller from CPUID */
	VMX_AP_FW_DISABLED,
	VMX_AP_CAPS_DIFFER,
	VMX_AP_VMXON_FAILED,
	VMX_AP_BSP_OFF,
};
int vmx_ap_enable(void *region);

/* VPIDs on if the CPU offers them (vmx_vpid_usable) and `want` (hv.cfg's
 * vmx_vpid=); prints which. Called before the first VMCS is built. */
void vmx_vpid_set(bool want);

/* APIC virtualization on if the CPU offers it (vmx_apicv_proc2) and
 * `want` (hv.cfg's vmx_apicv=): adds "use TPR shadow" to proc_ctls and
 * sets apicv_proc2; prints which. Called before the first VMCS is built. */
void vmx_apicv_set(bool want);

/* Virtual-interrupt delivery on if APIC virtualization is on, the CPU
 * offers it (vmx_vid_proc2) and `want` (hv.cfg's vmx_vid=); prints which.
 * After vmx_apicv_set, before the first VMCS is built. */
void vmx_vid_set(bool want);

/* Drops every TLB entry tagged with vpid on this CPU (INVVPID
 * single-context, or all-context where the CPU has only that). 0 or
 * -HV_EIO. Only with vpid_on. */
int vmx_invvpid(uint16_t vpid);
const char *vmx_ap_status_name(int status);

/* A fresh VMCS region (revision id written, VMCLEARed). NULL on ENOMEM. */
void *vmcs_alloc(void);

/* Makes the VMCS at `pa` current on this CPU (VMPTRLD) unless it already
 * is. The current VMCS is per CPU (struct percpu, docs/smp.md). */
int vmcs_make_current(uint64_t pa);

/* This CPU's current VMCS (physical address), 0 if none. */
uint64_t vmcs_current(void);

/* VMCLEAR of the VMCS at `pa` on this CPU: its state goes to memory, it is
 * no longer active here and another CPU may VMPTRLD it (SDM Vol. 3C
 * 24.11.1); its next entry is a VMLAUNCH. */
int vmcs_release(uint64_t pa);

/* After a failed VMX instruction with a current VMCS: the error number
 * (VMCS_VM_INSTRUCTION_ERROR) and its name. */
uint32_t vmx_insn_error(void);

/* INVEPT single-context for one EPTP (all-context if the CPU lacks the
 * single type). */
int vmx_invept(uint64_t eptp);

#endif
