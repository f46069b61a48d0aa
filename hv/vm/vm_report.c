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

/* ticks as permille of all, for the share lines */
static unsigned long long permille(uint64_t ticks, uint64_t all)
{
	return all ? (unsigned long long)(ticks * 1000 / all) : 0;
}

/* The hypervisor's share of the VM's time since its start: handling its
 * exits, the rest of its slices (entry preparation, the scheduler's own
 * per-exit work), and everything outside its slices (other VMs, the idle
 * loop, the GPU's and the console's polling). */
static uint64_t sub0(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

static void report_share(const struct vm *vm, uint64_t exit_ticks)
{
	const struct vm_stats *s = &vm->stats;
	uint64_t now = rdtsc(), all = now - s->start_tsc;
	/* A stop comes inside an exit of the slice running now. */
	uint64_t slices = s->slice_tsc +
		(s->slice_start_tsc ? now - s->slice_start_tsc : 0);
	uint64_t in_slices = sub0(slices, s->run_tsc + exit_ticks);
	/* Halted: it waited for an interrupt, not for the CPU. */
	uint64_t halted = s->halted_tsc +
		(s->halt_start_tsc ? now - s->halt_start_tsc : 0);
	uint64_t outside = sub0(sub0(all, slices), halted);

	kprintf("vm '%s': ticks: guest %llu (%llu permille), exits %llu (%llu "
		"permille), rest of its slices %llu (%llu permille), outside its "
		"slices %llu (%llu permille), halted %llu (%llu permille)\n",
		vm->name,
		(unsigned long long)s->run_tsc, permille(s->run_tsc, all),
		(unsigned long long)exit_ticks, permille(exit_ticks, all),
		(unsigned long long)in_slices, permille(in_slices, all),
		(unsigned long long)outside, permille(outside, all),
		(unsigned long long)halted, permille(halted, all));
	kprintf("vm '%s': %llu slices, %llu ticks outside them per slice\n",
		vm->name, (unsigned long long)s->slices,
		(unsigned long long)(s->slices ? outside / s->slices : 0));
}

void vm_report(const struct vm *vm)
{
	const struct vm_stats *s = &vm->stats;
	uint64_t total = 0, exit_ticks = 0;

	for (unsigned r = 0; r < EXIT_REASON_COUNT; r++) {
		total += s->exits[r];
		exit_ticks += s->exit_tsc[r];
	}
	kprintf("vm '%s': %llu exits, %llu ms in the guest, %llu ms since "
		"start (%llu TSC ticks)\n", vm->name,
		(unsigned long long)total, (unsigned long long)ms(s->run_tsc),
		(unsigned long long)ms(rdtsc() - s->start_tsc),
		(unsigned long long)(rdtsc() - s->start_tsc));
	for (unsigned r = 0; r < EXIT_REASON_COUNT; r++)
		if (s->exits[r])
			kprintf("vm '%s':   %-22s %10llu  %12llu ticks, %llu "
				"per exit\n", vm->name,
				vmx_exit_reason_name(r),
				(unsigned long long)s->exits[r],
				(unsigned long long)s->exit_tsc[r],
				(unsigned long long)(s->exit_tsc[r] /
						     s->exits[r]));
	/* Issue 31's "exits apart from the console's bytes": a 16550
	 * console's floor is two per byte (docs/performance.md). */
	kprintf("vm '%s': %llu exits apart from COM1's ports (COM1: %llu "
		"port I/O exits)\n", vm->name,
		(unsigned long long)(total - s->com1_io_exits),
		(unsigned long long)s->com1_io_exits);
	report_share(vm, exit_ticks);
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
