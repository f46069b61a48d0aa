/* Host interrupt dispatch (host_irq.h). */
#include "hv/cpu/host_irq.h"
#include "hv/cpu/host_lapic.h"
#include "hv/cpu/x86.h"

#define PIC1_DATA 0x21
#define PIC2_DATA 0xa1

static host_irq_fn handlers[256];
static void *contexts[256];
static struct host_irq_stats stats;

/* Nothing but registered vectors may arrive in a window: the 8259s are
 * masked (their vectors could be anything the firmware chose, even one
 * below 32) and so are the LAPIC's timer and LINT0. */
void host_irq_init(void)
{
	outb(PIC1_DATA, 0xff);
	outb(PIC2_DATA, 0xff);
	lapic_init();
}

int host_irq_register(uint8_t vector, host_irq_fn fn, void *ctx)
{
	if (vector < 32 || vector == LAPIC_SPURIOUS_VECTOR || !fn ||
	    handlers[vector])
		return -1;
	contexts[vector] = ctx;
	handlers[vector] = fn;
	return 0;
}

/* Any CPU may take an interrupt (an AP running VMs exits on one): the
 * counters are shared, so atomic. */
static void count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

bool host_irq_dispatch(uint8_t vector, bool in_guest)
{
	if (vector == LAPIC_SPURIOUS_VECTOR) {
		count(&stats.spurious);
		return false; /* SDM 3A 10.9: a spurious vector gets no EOI */
	}
	if (!handlers[vector]) {
		count(&stats.stray);
		__atomic_store_n(&stats.last_stray, vector, __ATOMIC_RELAXED);
		lapic_eoi();
		return false;
	}
	count(&stats.taken[in_guest ? 1 : 0]);
	handlers[vector](contexts[vector], in_guest);
	lapic_eoi();
	return true;
}

void host_irq_window(void)
{
	/* STI's shadow covers the NOP: pending interrupts are taken after
	 * it, then CLI closes the window again. */
	__asm__ volatile("sti; nop; cli" ::: "memory");
}

void host_irq_idle(void)
{
	__asm__ volatile("sti; hlt; cli" ::: "memory");
}

const struct host_irq_stats *host_irq_stats(void)
{
	return &stats;
}
