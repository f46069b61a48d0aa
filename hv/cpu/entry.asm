; Assembly the C side cannot express: the switch to the hypervisor's stack,
; loading the GDT with a far return, and the exception entry stubs.

bits 64
default rel
%include "hv/cpu/gpr_frame.inc"
section .text

extern hv_main
extern exception_handler

; void hv_start(const struct boot_info *bi, uint64_t stack_top)
global hv_start
hv_start:
	mov rsp, rsi
	xor ebp, ebp
	call hv_main wrt ..plt
.hang:	cli
	hlt
	jmp .hang

; void gdt_load(const struct desc_ptr *gdtr, uint16_t cs, uint16_t ds, uint16_t tr)
global gdt_load
gdt_load:
	lgdt [rdi]
	mov ds, dx
	mov es, dx
	mov ss, dx
	xor eax, eax
	mov fs, ax
	mov gs, ax
	ltr cx
	; CS can only change through a far transfer: return to .reloaded in cs.
	lea rax, [.reloaded]
	push rsi
	push rax
	retfq
.reloaded:
	ret

; Interrupt stubs: one per IDT vector (the 32 exceptions, then 224 external
; interrupts: the GPU's MSI vector and anything stray), each exactly
; ISR_STUB_SIZE bytes so C can find stub n at isr_stubs + n * ISR_STUB_SIZE
; without a relocated pointer table. Vectors without a CPU-pushed error code
; push 0 so the frame is uniform. All 256 exist because a VM exit sets the
; IDTR limit to 0xffff: a vector past a shorter table would read garbage.
ISR_STUB_SIZE equ 16

%macro isr_stub 1
	align ISR_STUB_SIZE
%if %1 < 32 && (%1 == 8 || (%1 >= 10 && %1 <= 14) || %1 == 17 || %1 == 21 || %1 == 29 || %1 == 30)
	nop
	nop
%else
	push 0
%endif
	push %1
	jmp isr_common
%endmacro

	align ISR_STUB_SIZE
global isr_stubs
isr_stubs:
%assign v 0
%rep 256
	isr_stub v
%assign v v+1
%endrep

; Frame layout matches struct exception_frame in hv/cpu/cpu.h.
isr_common:
	PUSH_GPRS
	mov rdi, rsp
	cld
	call exception_handler wrt ..plt
	POP_GPRS
	add rsp, 16	; vector and error code
	iretq

section .note.GNU-stack noalloc noexec nowrite progbits
