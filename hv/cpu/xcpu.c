/* Kicking another CPU out of its guest; see xcpu.h. */
#include "hv/cpu/host_irq.h"
#include "hv/cpu/host_lapic.h"
#include "hv/cpu/x86.h"
#include "hv/cpu/xcpu.h"
#include "mini/x86.h"

static struct xcpu_stats stats;	/* atomic: any CPU counts */

static void count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

/* The exit itself was the point: the scheduler drains the mailboxes
 * before the next entry. */
static void kicked(void *ctx, bool in_guest)
{
	(void)ctx;
	(void)in_guest;
	this_cpu()->kicks_got++;
}

/* The interrupt woke the CPU from its HLT: nothing else to do. */
static void woken(void *ctx, bool in_guest)
{
	(void)ctx;
	(void)in_guest;
}

static bool deadline_timer;

void xcpu_init(void)
{
	(void)host_irq_register(HOST_VEC_KICK, kicked, NULL);
	(void)host_irq_register(HOST_VEC_WAKE, woken, NULL);
	deadline_timer = lapic_deadline_ok();
}

bool xcpu_can_sleep(void)
{
	return deadline_timer;
}

void xcpu_idle_begin(void)
{
	__atomic_store_n(&this_cpu()->idle, 1, __ATOMIC_SEQ_CST);
}

void xcpu_idle_end(void)
{
	__atomic_store_n(&this_cpu()->idle, 0, __ATOMIC_RELEASE);
}

void xcpu_idle_sleep(uint64_t until)
{
	struct percpu *p = this_cpu();

	if (until > rdtsc()) {
		lapic_deadline_arm(HOST_VEC_WAKE, until);
		host_irq_idle();	/* the kick's or the timer's handler ran */
		lapic_deadline_arm(HOST_VEC_WAKE, 0);
		p->sleeps++;
		count(&stats.sleeps);
	}
	xcpu_idle_end();
}

void xcpu_guest_enter(void)
{
	__atomic_store_n(&this_cpu()->in_guest, 1, __ATOMIC_SEQ_CST);
}

void xcpu_guest_exit(void)
{
	__atomic_store_n(&this_cpu()->in_guest, 0, __ATOMIC_RELEASE);
}

bool xcpu_kick(struct percpu *p)
{
	if (!p || p == this_cpu() ||
	    (!__atomic_load_n(&p->in_guest, __ATOMIC_SEQ_CST) &&
	     !__atomic_load_n(&p->idle, __ATOMIC_SEQ_CST)))
		return false;
	if (lapic_send_fixed(p->apic_id, HOST_VEC_KICK)) {
		count(&stats.kick_fails);
		return false;
	}
	count(&stats.kicks_sent);
	return true;
}

bool xcpu_wait_out(struct percpu *p, const uint32_t *pending,
		   uint64_t max_ticks)
{
	uint64_t t0 = rdtsc();

	count(&stats.waits);
	while (__atomic_load_n(&p->in_guest, __ATOMIC_SEQ_CST) &&
	       __atomic_load_n(pending, __ATOMIC_SEQ_CST)) {
		if (rdtsc() - t0 > max_ticks) {
			count(&stats.wait_timeouts);
			return false;
		}
		cpu_relax();
	}
	return true;
}

const struct xcpu_stats *xcpu_stats(void)
{
	return &stats;
}
