/* GDT, TSS and IDT of the hypervisor. The firmware's tables live in boot
 * services memory and OVMF leaves TR null, which VM entry rejects as host
 * state, so we install our own before anything else. The IDT has all 256
 * vectors: exceptions go to exception_handler's fatal path, vectors 32-255
 * to host_irq_dispatch (hv/cpu/host_irq.c). */
#include "hv/cpu/cpu.h"
#include "mini/string.h"

#define IST_STACK_BYTES 8192
#define ISR_STUB_SIZE 16
#define NR_VECTORS 256 /* exceptions 0-31, interrupts 32-255 */
#define VEC_NMI 2
#define VEC_DF 8
#define VEC_MC 18

struct tss64 {
	uint32_t reserved0;
	uint64_t rsp[3];
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

struct idt_gate {
	uint16_t offset_lo;
	uint16_t selector;
	uint8_t ist;
	uint8_t type_attr;
	uint16_t offset_mid;
	uint32_t offset_hi;
	uint32_t reserved;
} __attribute__((packed));

extern const uint8_t isr_stubs[];
void gdt_load(const struct desc_ptr *gdtr, uint16_t cs, uint16_t ds,
	      uint16_t tr);

static uint64_t gdt[5] __attribute__((aligned(16)));
static struct tss64 tss __attribute__((aligned(16)));
static struct idt_gate idt[NR_VECTORS] __attribute__((aligned(16)));
/* Double fault, NMI and machine check get a known-good stack: the fault may
 * be a stack overflow. */
static uint8_t ist_stack[IST_STACK_BYTES] __attribute__((aligned(16)));

#define SEG_CODE64 0x00209a0000000000ull /* P, DPL0, code, exec/read, L */
#define SEG_DATA 0x0000920000000000ull   /* P, DPL0, data, read/write */
#define TSS_TYPE_AVAIL 0x89ull            /* P, 64-bit TSS (available) */
#define GATE_INTERRUPT 0x8e               /* P, DPL0, 64-bit interrupt gate */

static void set_tss_descriptor(void)
{
	uint64_t base = (uint64_t)(uintptr_t)&tss;
	uint64_t limit = sizeof(tss) - 1;

	gdt[3] = (limit & 0xffff) | ((base & 0xffffff) << 16) |
		 (TSS_TYPE_AVAIL << 40) | (((limit >> 16) & 0xf) << 48) |
		 (((base >> 24) & 0xff) << 56);
	gdt[4] = base >> 32;
}

static void set_gate(unsigned vec, uint8_t ist)
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

void cpu_init(void)
{
	struct desc_ptr gdtr = { sizeof(gdt) - 1, (uint64_t)(uintptr_t)gdt };
	struct desc_ptr idtr = { sizeof(idt) - 1, (uint64_t)(uintptr_t)idt };

	gdt[0] = 0;
	gdt[1] = SEG_CODE64;
	gdt[2] = SEG_DATA;
	memset(&tss, 0, sizeof(tss));
	tss.ist[0] = (uint64_t)(uintptr_t)(ist_stack + sizeof(ist_stack));
	tss.iomap_base = sizeof(tss); /* no I/O permission bitmap */
	set_tss_descriptor();
	gdt_load(&gdtr, GDT_CODE64, GDT_DATA, GDT_TSS);

	for (unsigned v = 0; v < NR_VECTORS; v++)
		set_gate(v, (v == VEC_DF || v == VEC_NMI || v == VEC_MC) ? 1 : 0);
	__asm__ volatile("lidt %0" : : "m"(idtr));
}

uint64_t cpu_gdt_base(void) { return (uint64_t)(uintptr_t)gdt; }
uint64_t cpu_idt_base(void) { return (uint64_t)(uintptr_t)idt; }
uint64_t cpu_tss_base(void) { return (uint64_t)(uintptr_t)&tss; }
