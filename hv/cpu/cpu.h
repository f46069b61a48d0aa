/* The hypervisor's own CPU state: GDT with a TSS (VMX requires a non-null
 * host TR), IDT with exception handlers, and the frame they receive. */
#ifndef HV_CPU_H
#define HV_CPU_H

#include <stdbool.h>
#include <stdint.h>

#define GDT_CODE64 0x08
#define GDT_DATA 0x10
#define GDT_TSS 0x18

struct desc_ptr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

/* Pushed by hv/cpu/entry.asm isr_common, lowest address first. */
struct exception_frame {
	uint64_t r15, r14, r13, r12, r11, r10, r9, r8;
	uint64_t rdi, rsi, rbp, rbx, rdx, rcx, rax;
	uint64_t vector, error_code;
	uint64_t rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

struct percpu;

/* The BSP's tables, in its static per-CPU area, loaded; GS base points at
 * the area. First thing hv_main does. */
void cpu_init(void);
/* Fills p's GDT, TSS and IDT (p->idt and p->ist_top set by percpu_carve);
 * may run on another CPU than p's (the BSP builds an AP's). */
void cpu_tables_build(struct percpu *p);
/* Loads p's GDT (reloading CS, SS, DS, ES and TR), its IDT, and GS base =
 * p. Runs on the CPU p belongs to. */
void cpu_tables_load(struct percpu *p);
void exception_handler(struct exception_frame *f);
/* hook(f) sees every #PF first; true = handled (f may have been changed:
 * registers, rip), resume; false = the fatal path. */
void exception_set_pf_hook(bool (*hook)(struct exception_frame *f));
const char *exception_name(uint64_t vector);

/* Base of this CPU's GDT/IDT/TSS (the VMCS host-state area needs them). */
uint64_t cpu_gdt_base(void);
uint64_t cpu_idt_base(void);
uint64_t cpu_tss_base(void);

#endif
