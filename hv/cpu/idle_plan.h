/* When an idle CPU sleeps, and until when (docs/smp.md "CPU 0 sleeps
 * when idle"): pure, host-tested (test_idle_plan). The caller has found
 * nothing of its own runnable and marked itself idle (xcpu_idle_begin),
 * then gathers what could need it soon; this decides. */
#ifndef HV_CPU_IDLE_PLAN_H
#define HV_CPU_IDLE_PLAN_H

#include <stdbool.h>
#include <stdint.h>

/* Every time a TSC value; UINT64_MAX: no such event. */
struct idle_in {
	uint64_t now;
	uint64_t cap;		/* ticks: the longest sleep (wake sources
				 * nobody asks, e.g. the shell's input) */
	uint64_t min;		/* ticks: a shorter sleep is not worth it */
	uint64_t vm_next;	/* the CPU's VMs' next timer deadline */
	uint64_t dev_next;	/* the devices' (GPU) next need; <= now:
				 * busy, poll without pause */
	bool can_sleep;		/* a TSC-deadline timer to wake it */
	bool mail;		/* posted work (mailbox, request) waiting */
};

/* 0: do not sleep (spin one round); else the TSC to sleep until: the
 * earliest of now + cap, vm_next, dev_next. */
uint64_t idle_plan_until(const struct idle_in *in);

#endif
