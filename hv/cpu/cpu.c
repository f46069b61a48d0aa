/* GDT, TSS and IDT of the hypervisor, one set per logical CPU in its
 * per-CPU area (hv/cpu/percpu.h). The firmware's tables live in boot
 * services memory and OVMF leaves TR null, which VM entry rejects as host
 * state, so we install our own before anything else. Each CPU has its own
 * GDT (its TSS descriptor's busy bit is its own), TSS (its own stack for
 * NMI, #DF, #MC) and IDT; the gates are the same everywhere: exceptions go
 * to exception_handler's fatal path, vectors 32-255 to host_irq_dispatch
 * (hv/cpu/host_irq.c). */
#include "hv/cpu/cpu.h"
#include "hv/cpu/percpu.h"
#include "hv/cpu/x86.h"
#include "mini/string.h"

#define ISR_STUB_SIZE 16
#define NR_VECTORS 256 /* exceptions 0-31, interrupts 32-255 */
#define VEC_NMI 2
#define VEC_DF 8
#define VEC_MC 18
#define MSR_GS_BASE 0xc0000101u

struct idt_gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_hi;
	uint32_t reserved;
} __attribute__((packed));

_Static_assert(NR_VECTORS * sizeof(struct idt_gate) == PERCPU_IDT_BYTES,
	       "an AP's IDT page holds the 256 gates");

extern const uint8_t isr_stubs[];
void gdt_load(const struct desc_ptr *gdtr, uint16_t cs, uint16_t ds,
	      uint16_t tr);

/* The BSP's area: static, because cpu_init runs before the page
 * allocator. Double fault, NMI and machine check get a known-good stack:
 * the fault may be a stack overflow. */
static struct percpu bsp_cpu;
static struct idt_gate bsp_idt[NR_VECTORS] __attribute__((aligned(16)));
static uint8_t bsp_ist_stack[PERCPU_IST_BYTES] __attribute__((aligned(16)));

#define SEG_CODE64 0x00209a0000000000ull /* P, DPL0, code, exec/read, L */
#define SEG_DATA 0x0000920000000000ull   /* P, DPL0, data, read/write */
#define TSS_TYPE_AVAIL 0x89ull            /* P, 64-bit TSS (available) */
#define GATE_INTERRUPT 0x8e               /* P, DPL0, 64-bit interrupt gate */

static void set_tss_descriptor(struct percpu *p)
{
	uint64_t base = (uint64_t)(uintptr_t)&p->tss;
	uint64_t limit = sizeof(p->tss) - 1;

	p->gdt[3] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		    (TSS_TYPE_AVAIL << 40) | (((limit >> 16) & 0xf) << 48) |
		    (((base >> 24) & 0xff) << 56);
	p->gdt[4] = base >> 32;
}

static void set_gate(struct idt_gate *idt, unsigned vec, uint8_t ist)
{
	uint64_t off = (uint64_t)(uintptr_t)(isr_stubs + vec * ISR_STUB_SIZE);

	idt[vec] = (struct idt_gate){
		.offset_lo = (uint16_t)off,
		.selector = GDT_CODE64,
		.ist = ist,
		.type_attr = GATE_INTERRUPT,
		.offset_mid = (uint16_t)(off >> 16),
		.offset_hi = (uint32_t)(off >> 32),
	};
}

void cpu_tables_build(struct percpu *p)
{
	struct idt_gate *idt = p->idt;

	p->gdt[0] = 0;
	p->gdt[1] = SEG_CODE64;
	p->gdt[2] = SEG_DATA;
	memset(&p->tss, 0, sizeof(p->tss));
	p->tss.ist[0] = p->ist_top;
	p->tss.iomap_base = sizeof(p->tss); /* no I/O permission bitmap */
	set_tss_descriptor(p);
	for (unsigned v = 0; v < NR_VECTORS; v++)
		set_gate(idt, v,
			 (v == VEC_DF || v == VEC_NMI || v == VEC_MC) ? 1 : 0);
}

void cpu_tables_load(struct percpu *p)
{
	struct desc_ptr gdtr = { sizeof(p->gdt) - 1,
				 (uint64_t)(uintptr_t)p->gdt };
	struct desc_ptr idtr = { PERCPU_IDT_BYTES - 1,
				 (uint64_t)(uintptr_t)p->idt };

	gdt_load(&gdtr, GDT_CODE64, GDT_DATA, GDT_TSS);
	__asm__ volatile("lidt %0" : : "m"(idtr));
	/* After gdt_load: loading the null selector into GS clears its
	 * base on Intel CPUs. */
	wrmsr(MSR_GS_BASE, (uint64_t)(uintptr_t)p);
}

void cpu_init(void)
{
	bsp_cpu.self = &bsp_cpu;
	bsp_cpu.idt = bsp_idt;
	bsp_cpu.ist_top = (uint64_t)(uintptr_t)(bsp_ist_stack +
						sizeof(bsp_ist_stack));
	bsp_cpu.state = PERCPU_UP;
	cpu_tables_build(&bsp_cpu);
	cpu_tables_load(&bsp_cpu);
}

uint64_t cpu_gdt_base(void) { return (uint64_t)(uintptr_t)this_cpu()->gdt; }
uint64_t cpu_idt_base(void) { return (uint64_t)(uintptr_t)this_cpu()->idt; }
uint64_t cpu_tss_base(void) { return (uint64_t)(uintptr_t)&this_cpu()->tss; }
