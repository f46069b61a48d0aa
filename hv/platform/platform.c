#include "hv/platform/platform.h"
#include "hv/console/console.h"
#include "hv/cpu/x86.h"

#define QEMU_DEBUG_EXIT_PORT 0x501 /* -device isa-debug-exit,iobase=0x501 */
#define BOCHS_SHUTDOWN_PORT 0x8900 /* "Shutdown" written here quits Bochs */
#define PCI_RESET_PORT 0xcf9       /* reset control register (PCH) */
#define CF9_FULL_RESET 0x0e        /* full reset: SYS_RST | RST_CPU | FULL_RST */
#define KBC_CMD_PORT 0x64
#define KBC_PULSE_RESET 0xfe

static bool test_exit_enabled;

void platform_set_test_exit(bool enabled)
{
	test_exit_enabled = enabled;
}

void platform_test_exit(int status)
{
	static const char shutdown[] = "Shutdown";

	kprintf("HV-EXIT: status=%d\n", status);
	console_flush();	/* COM1 gets everything before we go */
	if (!test_exit_enabled)
		return;
	/* QEMU exits with (status << 1) | 1. */
	outb(QEMU_DEBUG_EXIT_PORT, (uint8_t)status);
	for (const char *p = shutdown; *p; p++)
		outb(BOCHS_SHUTDOWN_PORT, (uint8_t)*p);
	platform_halt("emulator did not exit");
}

void platform_halt(const char *why)
{
	kprintf("HALTED: %s\n", why);
	console_flush();
	for (;;) {
		cli();
		hlt();
	}
}

void platform_reboot(void)
{
	kprintf("rebooting\n");
	console_flush();
	outb(PCI_RESET_PORT, CF9_FULL_RESET);
	outb(KBC_CMD_PORT, KBC_PULSE_RESET);
	/* Last resort: a triple fault through an empty IDT. */
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) empty = { 0, 0 };
	__asm__ volatile("lidt %0; int3" : : "m"(empty));
	platform_halt("reset did not happen");
}
