; Test guest entry, trap stubs and the "try" helpers that run an
; instruction which may fault and report the vector instead of dying.
bits 64
default rel
%include "guest-shim/testguest/gpr_frame.inc"

extern tg_main
extern tg_trap
extern __bss_start
extern __image_end

section .text.entry
global _start
_start:
	; RSI = boot info (g9hv/raw64_boot.h), RSP = a stack below the image.
	mov r12, rsi
	lea rdi, [__bss_start]
	lea rcx, [__image_end]
	sub rcx, rdi
	xor eax, eax
	rep stosb
	mov rdi, r12
	call tg_main
.hang:	cli
	hlt
	jmp .hang

section .text
; Trap stubs: vectors 0-31 and 0x40 (the timer). Each pushes a dummy
; error code when the CPU does not, then the vector.
%macro stub 1
trap_%1:
%if %1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17
%else
	push 0
%endif
	push %1
	jmp trap_common
%endmacro

%assign v 0
%rep 32
stub v
%assign v v+1
%endrep
stub 64
stub 65
stub 66
stub 67

trap_common:
	PUSH_GPRS
	mov rdi, rsp
	call tg_trap
	POP_GPRS
	add rsp, 16
	iretq

section .rodata
global tg_trap_stubs
tg_trap_stubs:
%assign v 0
%rep 32
	dq trap_ %+ v
%assign v v+1
%endrep
	dq trap_64
	dq trap_65
	dq trap_66
	dq trap_67

; mode=smp: an AP's first instruction after the trampoline
; (smp_test.c). Its stack is picked by its x2APIC ID (0-7), 4 KiB each.
extern tg_ap_main
global tg_ap_entry
tg_ap_entry:
	cli
	cld
	mov ecx, 0x802
	rdmsr
	and eax, 7
	mov edi, eax
	lea rsp, [tg_ap_stacks]
	inc rax
	shl rax, 12
	add rsp, rax
	call tg_ap_main
.hang:	cli
	hlt
	jmp .hang

section .bss
alignb 16
tg_ap_stacks: resb 4096 * 8

section .bss
global tg_fixup_rip
global tg_fault_vector
tg_fixup_rip: resq 1
tg_fault_vector: resq 1

section .text
; Each try_* returns -1 when the instruction completed, else the vector of
; the exception it raised (the trap handler jumps to tg_fixup_rip).
; int64_t tg_try_rdmsr(uint32_t msr, uint64_t *val)
global tg_try_rdmsr
tg_try_rdmsr:
	lea rax, [.fix]
	mov [tg_fixup_rip], rax
	mov ecx, edi
	rdmsr
	shl rdx, 32
	or rax, rdx
	mov [rsi], rax
	mov qword [tg_fixup_rip], 0
	mov rax, -1
	ret
.fix:	mov qword [tg_fixup_rip], 0
	mov rax, [tg_fault_vector]
	ret

; int64_t tg_try_wrmsr(uint32_t msr, uint64_t val)
global tg_try_wrmsr
tg_try_wrmsr:
	lea rax, [.fix]
	mov [tg_fixup_rip], rax
	mov ecx, edi
	mov rax, rsi
	mov rdx, rsi
	shr rdx, 32
	wrmsr
	mov qword [tg_fixup_rip], 0
	mov rax, -1
	ret
.fix:	mov qword [tg_fixup_rip], 0
	mov rax, [tg_fault_vector]
	ret

; int64_t tg_try_vmxon(void): VMXON of a dummy region (expects #UD)
global tg_try_vmxon
tg_try_vmxon:
	lea rax, [.fix]
	mov [tg_fixup_rip], rax
	vmxon [tg_fault_vector]
	mov qword [tg_fixup_rip], 0
	mov rax, -1
	ret
.fix:	mov qword [tg_fixup_rip], 0
	mov rax, [tg_fault_vector]
	ret

; int64_t tg_try_vmread(void): expects #UD
global tg_try_vmread
tg_try_vmread:
	lea rax, [.fix]
	mov [tg_fixup_rip], rax
	xor ecx, ecx
	vmread rax, rcx
	mov qword [tg_fixup_rip], 0
	mov rax, -1
	ret
.fix:	mov qword [tg_fixup_rip], 0
	mov rax, [tg_fault_vector]
	ret

section .note.GNU-stack noalloc noexec nowrite progbits
