; The APs' way from a SIPI to C (docs/smp.md): real mode at vector:0000,
; a temporary GDT, 32-bit protected mode, PAE paging on a copy of the
; hypervisor's top-level table below 1 MiB, long mode, the BSP's CR0/CR4
; and real CR3, then the per-CPU area offered in the data block, its stack,
; and the C entry. The bytes from ap_tramp_start to ap_tramp_end are copied
; to a page below 1 MiB and patched by hv/cpu/ap_tramp.c: nothing here
; depends on where the hypervisor was loaded. The data block's layout is
; struct ap_tramp_data (hv/cpu/ap_tramp.h); offsets below are from the
; page's start.

D_MAGIC		equ 0x08
D_GDT		equ 0x10
D_GDTR		equ 0x30
D_JMP32		equ 0x38
D_JMP64		equ 0x40
D_CR3_LOW	equ 0x4c
D_EFER		equ 0x50
D_CR3		equ 0x58
D_CR0		equ 0x60
D_CR4		equ 0x68
D_ENTRY		equ 0x70
D_PERCPU	equ 0x78
D_END		equ 0x80
PERCPU_STACK_TOP equ 8		; struct percpu (hv/cpu/percpu.h)
SEL_DATA32	equ 0x10
CR0_PE		equ 1
CR0_CD_NW	equ 0x60000000	; INIT leaves the caches disabled
CR0_PG		equ 0x80000000
CR4_PAE		equ 1 << 5
MSR_EFER	equ 0xc0000080

section .text
bits 16

global ap_tramp_start
global ap_tramp_end

ap_tramp_start:
	jmp short real16
	times D_MAGIC - ($ - ap_tramp_start) db 0
	dd 0x50413947			; "G9AP", AP_TRAMP_MAGIC
	dw 1				; AP_TRAMP_VERSION
	dw 0
	; D_GDT: null, 32-bit code (0x08), 32-bit data (0x10), 64-bit code
	; (0x18): flat, DPL 0.
	dq 0
	dq 0x00cf9a000000ffff
	dq 0x00cf92000000ffff
	dq 0x00af9a000000ffff
	times D_GDTR - ($ - ap_tramp_start) db 0
	dw 0, 0, 0, 0			; limit, base (patched), pad
	dd 0				; D_JMP32: offset (patched)
	dw 0, 0				; selector (patched), pad
	dd 0				; D_JMP64
	dw 0, 0
	dw pm32 - ap_tramp_start	; read by ap_tramp.c
	dw lm64 - ap_tramp_start
	dd 0				; D_CR3_LOW
	dq 0, 0, 0, 0, 0, 0		; EFER, CR3, CR0, CR4, entry, percpu
	times D_END - ($ - ap_tramp_start) db 0
	times ($ - ap_tramp_start) - D_END db 0

real16:
	cli
	cld
	xor ebx, ebx
	mov bx, cs
	shl ebx, 4			; EBX: the page's linear address
	o32 lgdt [cs:D_GDTR]
	mov eax, cr0
	and eax, ~CR0_CD_NW
	or eax, CR0_PE
	mov cr0, eax
	jmp dword far [cs:D_JMP32]

bits 32
pm32:
	mov ax, SEL_DATA32
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, CR4_PAE
	mov cr4, eax
	mov eax, [ebx + D_CR3_LOW]
	mov cr3, eax
	mov ecx, MSR_EFER
	mov eax, [ebx + D_EFER]		; LME, and NXE: the tables may set XD
	mov edx, [ebx + D_EFER + 4]
	wrmsr
	mov eax, cr0
	or eax, CR0_PG			; long mode is active from here
	mov cr0, eax
	jmp far [ebx + D_JMP64]

bits 64
lm64:
	mov ebx, ebx			; the upper half is undefined here
	mov rax, [rbx + D_CR0]
	mov cr0, rax
	mov rax, [rbx + D_CR4]
	mov cr4, rax
	mov rax, [rbx + D_CR3]
	mov cr3, rax
	; Take the area offered: an AP that finds none (the BSP gave up on
	; it, or another AP took it) halts here, touching nothing else.
	xor edi, edi
	xchg [rbx + D_PERCPU], rdi
	test rdi, rdi
	jz .park
	mov rsp, [rdi + PERCPU_STACK_TOP]
	xor ebp, ebp
	call [rbx + D_ENTRY]		; smp_ap_entry(area): never returns
.park:
	cli
	hlt
	jmp .park
ap_tramp_end:

section .note.GNU-stack noalloc noexec nowrite progbits
