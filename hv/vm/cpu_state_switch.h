/* The guest-visible CPU state VMX does not switch, moved by hand when the
 * physical CPU passes from one VM to another (sched.c: only on a change of
 * VM, not on every exit: the hypervisor itself never touches any of it).
 *
 * The declared list of guest-visible state and who switches it:
 *   by the entry/exit stub:  RAX..R15 except RSP
 *   by the VMCS (per VM):    RSP RIP RFLAGS CR0 CR3 CR4 (read shadows),
 *                            segment registers, GDTR IDTR LDTR TR, EFER,
 *                            PAT, SYSENTER_CS/ESP/EIP, FS/GS base, DR7 and
 *                            DEBUGCTL (VM-entry "load debug controls",
 *                            VM-exit "save debug controls": required
 *                            controls, hv/vmx/vmx.c), interruptibility
 *   here (cpu_state_items):  CR2, DR0-DR3, DR6, STAR, LSTAR, CSTAR, FMASK,
 *                            KERNEL_GS_BASE, TSC_AUX (where the CPU has
 *                            RDTSCP), the x87/SSE state (FXSAVE)
 *   not guest-visible:       XCR0 and every XSAVE component beyond x87/SSE
 *                            (CPUID hides XSAVE, CR4.OSXSAVE and XSETBV
 *                            give #GP), PKRU (CR4.PKE gives #GP), LBR and
 *                            BTS records (DEBUGCTL accepts only BTF).
 *
 * Debug registers: switched eagerly here, no MOV-DR exiting. A guest's
 * MOV DR then costs nothing, the switch costs ten MOV DR per change of VM
 * (next to an FXSAVE/FXRSTOR pair and five MSR writes already there), and
 * there is no "dirty" state to get wrong. DR7 is the VMCS's, and VM exit
 * loads DR7 = 0x400, so a guest's breakpoints never fire in the host. */
#ifndef HV_VM_CPU_STATE_SWITCH_H
#define HV_VM_CPU_STATE_SWITCH_H

#include "hv/vm/vm.h"
#include "hv/vmx/insn_decode.h"

/* Reset values of what is switched here (SDM Table 9-1). */
void cpu_state_reset(struct vcpu *vc);

/* Out of the CPU into *vc / from *vc into the CPU, every item in turn. */
void cpu_state_save(struct vcpu *vc);
void cpu_state_load(const struct vcpu *vc);

/* The running VM's XMM0-15, live in the CPU (the hypervisor is built
 * without vector registers, mk/efi.mk, and a VM's state leaves the CPU
 * only when another VM is switched in): for emulating an SSE access in
 * the exit that trapped it. Read: the low 16 bytes of each vr->b[i], the
 * rest zero; write: the low 16 bytes back, MXCSR and x87 untouched. */
void cpu_state_xmm_read(struct vec_regs *vr);
void cpu_state_xmm_write(const struct vec_regs *vr);

#endif
