; VM entry and VM exit: the only code that runs with guest registers loaded.
;
; int vmx_enter(struct guest_regs *regs, int launched)
;   Saves the host's callee-saved registers, points VMCS_HOST_RSP at this
;   stack frame, loads the guest's general-purpose registers from *regs and
;   executes VMRESUME (launched != 0) or VMLAUNCH. Returns 0 after a VM
;   exit with the guest's registers stored back into *regs (RSP excluded:
;   the CPU keeps it in the VMCS), or VMX_FAIL_INVALID (1) / VMX_FAIL_VALID
;   (2) when the instruction itself failed and no guest code ran.
;
; VMCS_HOST_RIP is vmx_exit_stub (written once per VMCS by C). On a VM
; exit the CPU loads RSP from VMCS_HOST_RSP, i.e. the frame built here.
; The offsets below are those of struct guest_regs (hv/vmx/guest_regs.h,
; asserted there): gpr[i] at 8*i in SDM register-number order.

bits 64
default rel
section .text

VMCS_HOST_RSP equ 0x6c14

%define G_RAX 0*8
%define G_RCX 1*8
%define G_RDX 2*8
%define G_RBX 3*8
%define G_RBP 5*8
%define G_RSI 6*8
%define G_RDI 7*8
%define G_R8  8*8
%define G_R9  9*8
%define G_R10 10*8
%define G_R11 11*8
%define G_R12 12*8
%define G_R13 13*8
%define G_R14 14*8
%define G_R15 15*8

global vmx_enter
global vmx_exit_stub
vmx_enter:
	push rbx
	push rbp
	push r12
	push r13
	push r14
	push r15
	push rdi		; regs, found again at [rsp] after the exit
	mov eax, VMCS_HOST_RSP
	vmwrite rax, rsp
	jbe .fail_early

	test esi, esi		; launched? (tested now, before rsi is guest's)
	mov rax, rdi
	mov rcx, [rax + G_RCX]
	mov rdx, [rax + G_RDX]
	mov rbx, [rax + G_RBX]
	mov rbp, [rax + G_RBP]
	mov rsi, [rax + G_RSI]
	mov rdi, [rax + G_RDI]
	mov r8,  [rax + G_R8]
	mov r9,  [rax + G_R9]
	mov r10, [rax + G_R10]
	mov r11, [rax + G_R11]
	mov r12, [rax + G_R12]
	mov r13, [rax + G_R13]
	mov r14, [rax + G_R14]
	mov r15, [rax + G_R15]
	mov rax, [rax + G_RAX]	; mov does not touch the flags of the test
	jnz .resume
	vmlaunch
	jmp .failed
.resume:
	vmresume
.failed:
	; Only reached when VMLAUNCH/VMRESUME failed: RFLAGS says how.
	; Host registers other than RSP are the guest's values now; the
	; callee-saved ones are restored from the frame below.
	mov eax, 1		; VMX_FAIL_INVALID (CF=1)
	jc vmx_return
	mov eax, 2		; VMX_FAIL_VALID (ZF=1)
	jmp vmx_return
.fail_early:
	mov eax, 1
	jc vmx_return
	mov eax, 2
vmx_return:			; both ways out: eax = the result
	add rsp, 8		; drop the regs pointer
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbp
	pop rbx
	ret

; VM exit lands here with RSP = the frame vmx_enter built, every other
; general-purpose register still the guest's, and RFLAGS = 0x2 (SDM 28.5.3:
; interrupts stay off in the hypervisor).
vmx_exit_stub:
	push rax		; guest RAX; regs pointer now at [rsp + 8]
	mov rax, [rsp + 8]
	mov [rax + G_RCX], rcx
	mov [rax + G_RDX], rdx
	mov [rax + G_RBX], rbx
	mov [rax + G_RBP], rbp
	mov [rax + G_RSI], rsi
	mov [rax + G_RDI], rdi
	mov [rax + G_R8],  r8
	mov [rax + G_R9],  r9
	mov [rax + G_R10], r10
	mov [rax + G_R11], r11
	mov [rax + G_R12], r12
	mov [rax + G_R13], r13
	mov [rax + G_R14], r14
	mov [rax + G_R15], r15
	pop qword [rax + G_RAX]
	xor eax, eax
	jmp vmx_return
section .note.GNU-stack noalloc noexec nowrite progbits
