/* Test guest runtime: console, checks, IDT and trap handling. */
#include <stdarg.h>

#include "guest-shim/testguest/tg.h"
#include "mini/stdio.h"
#include "mini/string.h"

#define COM1 0x3f8
#define LSR_THRE 0x20

unsigned tg_failed;
volatile uint64_t tg_ticks, tg_msis;
extern uint64_t tg_fixup_rip, tg_fault_vector;
extern const uint64_t tg_trap_stubs[36];

struct idt_gate {
	uint16_t off0, sel;
	uint8_t ist, type;
	uint16_t off1;
	uint32_t off2, zero;
} __attribute__((packed));

static struct idt_gate idt[256] __attribute__((aligned(16)));

static void set_gate(unsigned vec, uint64_t handler)
{
	idt[vec] = (struct idt_gate){ (uint16_t)handler, 0x08, 0, 0x8e,
				      (uint16_t)(handler >> 16),
				      (uint32_t)(handler >> 32), 0 };
}

void tg_idt_load(void)
{
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) idtr = { sizeof(idt) - 1,
					   (uint64_t)(uintptr_t)idt };

	__asm__ volatile("lidt %0" : : "m"(idtr));
}

void tg_idt_init(void)
{
	for (unsigned v = 0; v < 32; v++)
		set_gate(v, tg_trap_stubs[v]);
	set_gate(TG_TIMER_VECTOR, tg_trap_stubs[32]);
	set_gate(TG_MSI_VECTOR, tg_trap_stubs[33]);
	set_gate(TG_PING_VECTOR, tg_trap_stubs[34]);
	set_gate(TG_PONG_VECTOR, tg_trap_stubs[35]);
	tg_idt_load();
}

void tg_trap(struct tg_frame *f)
{
	if (f->vector == 2 && tg_smp_active) {
		tg_smp_nmis++;	/* an NMI IPI (smp_test.c) */
		return;
	}
	if (f->vector == TG_PING_VECTOR || f->vector == TG_PONG_VECTOR) {
		tg_smp_irq(f->vector);
		return;
	}
	if (f->vector == TG_TIMER_VECTOR || f->vector == TG_MSI_VECTOR) {
		if (f->vector == TG_TIMER_VECTOR)
			tg_ticks++;
		else
			tg_msis++;
		wrmsr(0x80b, 0);	/* x2APIC EOI */
		return;
	}
	if (tg_fixup_rip) {
		tg_fault_vector = f->vector;
		f->rip = tg_fixup_rip;
		return;
	}
	tg_printf("unexpected exception %llu (error %llx) at rip %llx\n",
		  (unsigned long long)f->vector,
		  (unsigned long long)f->error_code,
		  (unsigned long long)f->rip);
	tg_exit(99);
}

static void uart_putc(char c)
{
	while (!(inb(COM1 + 5) & LSR_THRE))
		;
	outb(COM1, (uint8_t)c);
}

void tg_printf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	for (int i = 0; i < n; i++)
		uart_putc(buf[i]);
}

void tg_check(const char *name, bool ok, const char *fmt, ...)
{
	char detail[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	tg_printf("CHECK %s: %s (%s)\n", name, ok ? "PASS" : "FAIL", detail);
	hypercall(G9HV_HC_TEST_REPORT, (uint64_t)(uintptr_t)name, strlen(name),
		  ok ? G9HV_TEST_PASS : G9HV_TEST_FAIL);
	if (!ok)
		tg_failed++;
}

void tg_exit(int status)
{
	hypercall(G9HV_HC_EXIT, (uint64_t)status, 0, 0);
	for (;;)
		__asm__ volatile("cli; hlt");
}
