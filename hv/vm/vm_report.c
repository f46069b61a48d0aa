/* What a Linux VM cost, printed when it stops: its exits by reason, its
 * guest time, and its interrupt plumbing (the figures behind the boot
 * measurements in docs/linux-guests.md; `exits <vm>` in the shell shows
 * the same counts while a VM runs). */
#include "hv/console/console.h"
#include "hv/platform/tsc.h"
#include "hv/vm/vm.h"
#include "hv/vmx/exit_reason.h"
#include "hv/cpu/x86.h"

static uint64_t ms(uint64_t tsc)
{
	uint64_t hz = tsc_hz();

	return hz ? tsc * 1000 / hz : 0;
}

void vm_report(const struct vm *vm)
{
	const struct vm_stats *s = &vm->stats;
	uint64_t total = 0;

	for (unsigned r = 0; r < EXIT_REASON_COUNT; r++)
		total += s->exits[r];
	kprintf("vm '%s': %llu exits, %llu ms in the guest, %llu ms since "
		"start (%llu TSC ticks)\n", vm->name,
		(unsigned long long)total, (unsigned long long)ms(s->run_tsc),
		(unsigned long long)ms(rdtsc() - s->start_tsc),
		(unsigned long long)(rdtsc() - s->start_tsc));
	for (unsigned r = 0; r < EXIT_REASON_COUNT; r++)
		if (s->exits[r])
			kprintf("vm '%s':   %-22s %10llu\n", vm->name,
				vmx_exit_reason_name(r),
				(unsigned long long)s->exits[r]);
	kprintf("vm '%s': %llu interrupts injected, %llu timer expiries; "
		"IOAPIC %llu delivered, %llu masked; UART %llu IRQs, %llu "
		"bytes out, %llu dropped (buffer full)\n", vm->name,
		(unsigned long long)s->irqs_injected,
		(unsigned long long)vm->lapic.timer_fires,
		(unsigned long long)vm->ioapic.delivered,
		(unsigned long long)vm->ioapic.masked_drops,
		(unsigned long long)vm->uart.irqs,
		(unsigned long long)vm->uart.tx_bytes,
		(unsigned long long)vm->uart.tx_dropped);
}

void vm_report_exit_max(const struct vm *vm)
{
	uint64_t hz = tsc_hz(), t = vm->stats.exit_max_tsc;

	kprintf("vm '%s': longest exit %llu us (%llu TSC ticks, %s); UART "
		"bytes dropped (buffer full) %llu\n",
		vm->name, (unsigned long long)(hz ? t * 1000000 / hz : 0),
		(unsigned long long)t,
		vmx_exit_reason_name(vm->stats.exit_max_reason),
		(unsigned long long)vm->uart.tx_dropped);
}
