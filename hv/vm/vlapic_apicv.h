/* APIC virtualization for the xAPIC page; see vlapic_apicv.c. */
#ifndef HV_VM_VLAPIC_APICV_H
#define HV_VM_VLAPIC_APICV_H

#include <stdbool.h>

#include "hv/vm/vcpu.h"
#include "hv/vm/vlapic.h"
#include "hv/vmx/vmx.h"

struct vm;

/* With APIC virtualization on (vmx_cpu.apicv_proc2): the VM's virtual-APIC
 * and APIC-access pages (allocated at the first call) written to the
 * current VMCS, TPR threshold 0. 0 without it; -HV_ENOMEM, -HV_EIO. */
int vlapic_apicv_setup(struct vm *vm);

/* Before an entry, after the interrupt decision: the APIC-access page
 * mapped exactly in xAPIC mode, the virtual-APIC page rewritten if the
 * model changed, the TPR threshold updated. No-op without. */
void vlapic_apicv_prepare(struct vm *vm);

/* Virtual-interrupt delivery (vmx_cpu.vid_on) for the current vCPU at
 * its next entry: it is in xAPIC mode with its pages; then
 * vcpu_prepare_events injects no external interrupt (the CPU delivers
 * from RVI). */
static inline bool vlapic_apicv_vid(const struct vm *vm)
{
	const struct vlapic *l = vm_vcpu(vm)->lapic;

	return vmx_cpu.vid_on && l->vapic && vlapic_xapic_mode(l);
}

/* Right after an exit, before any handler: with virtual-interrupt
 * delivery in force at that entry, the page's IRR/ISR back into the
 * model (what the CPU delivered and retired). No-op without. */
static inline void vlapic_apicv_after_exit(struct vm *vm)
{
	struct vlapic *l = vm_vcpu(vm)->lapic;

	if (l->vid)
		vlapic_vapic_pull(l);
}

#endif
