/* Host interrupts: the hypervisor runs with IF=0 and takes device
 * interrupts at two places only, so no handler ever interrupts half-done
 * work: (1) host_irq_window() in the main loop (one instruction with
 * IF=1), (2) a VM exit for an external interrupt while a guest runs (the
 * exit acknowledges it; exit_misc.c passes the vector here). Either way
 * host_irq_dispatch runs the vector's handler and sends the LAPIC its EOI.
 * Handlers only record that work is pending; the work runs from the main
 * loop (hv/gpu/gpu_host.c for the GPU's MSI). */
#ifndef HV_HOST_IRQ_H
#define HV_HOST_IRQ_H

#include <stdbool.h>
#include <stdint.h>

/* The vector the GPU's MSI carries (above the exceptions, below the
 * spurious vector; any free one would do). */
#define HOST_VEC_GPU 0x50

typedef void (*host_irq_fn)(void *ctx, bool in_guest);

struct host_irq_stats {
	uint64_t taken[2];	/* [0] in the host window, [1] by a VM exit */
	uint64_t stray;		/* vectors nobody registered (EOI'd) */
	uint64_t spurious;	/* the LAPIC's spurious vector (no EOI) */
	uint32_t last_stray;
};

/* The LAPIC enabled for delivery; call once before registering. */
void host_irq_init(void);
/* fn(ctx) runs for vector (32..254); 0, or -1 if taken or out of range. */
int host_irq_register(uint8_t vector, host_irq_fn fn, void *ctx);
/* Run vector's handler and EOI. true when a handler was registered for
 * it (false: stray or spurious, counted). */
bool host_irq_dispatch(uint8_t vector, bool in_guest);
/* Let pending interrupts in: sti, one instruction, cli. */
void host_irq_window(void);
/* Sleep until an interrupt: sti, hlt, cli. STI's shadow covers the HLT,
 * so an interrupt that became pending while the caller looked for work
 * with IF=0 wakes it at once rather than being missed. */
void host_irq_idle(void);
const struct host_irq_stats *host_irq_stats(void);

#endif
