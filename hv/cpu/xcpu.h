/* Kicking another CPU out of its guest (docs/smp.md "Mediator
 * concurrency"): each CPU says when it is between the last look at its
 * VMs' mailboxes (hv/vm/vm_mailbox.c) and the exit that follows the
 * entry (percpu.in_guest); a CPU that has just posted to such a CPU's VM
 * sends it a fixed IPI on HOST_VEC_KICK, a vector of the hypervisor's own
 * IDT. The exit for it does nothing but return to the scheduler, which
 * looks at the mailboxes before the next entry. Posting and looking are
 * ordered so that one of the two always sees the other: the poster
 * writes the mailbox, then reads in_guest; the runner sets in_guest, then
 * reads the mailbox (both sequentially consistent). */
#ifndef HV_CPU_XCPU_H
#define HV_CPU_XCPU_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/cpu/percpu.h"

#define HOST_VEC_KICK 0x51
#define HOST_VEC_WAKE 0x52	/* the LAPIC timer of an idle CPU */

/* Registers the kick's handler (the BSP, before the APs run VMs). */
void xcpu_init(void);
/* This CPU is about to look at its mailboxes and enter a guest / has
 * left it. Between the two nothing may wait for another CPU. */
void xcpu_guest_enter(void);
void xcpu_guest_exit(void);
/* An idle CPU (an AP whose VMs are all halted) sleeps instead of
 * spinning: on a hyperthreaded core a spinning sibling takes the other
 * thread's issue slots, and an emulator runs every CPU it has.
 * xcpu_idle_begin marks the CPU idle, so that from here a poster kicks
 * it; the caller then looks once more for work that came before the mark
 * (mailboxes, requests) and, if none, calls xcpu_idle_sleep(until): HLT
 * until the TSC reaches until (the LAPIC's TSC-deadline timer) or a kick,
 * then the mark is cleared. xcpu_idle_end clears it without sleeping.
 * Without a TSC-deadline timer xcpu_can_sleep is false and the caller
 * spins as before. */
bool xcpu_can_sleep(void);
void xcpu_idle_begin(void);
void xcpu_idle_sleep(uint64_t until);
void xcpu_idle_end(void);
/* After posting to p's VM: an IPI when p is between enter and exit, or
 * idle. true when one was sent. */
bool xcpu_kick(struct percpu *p);
/* Spins while p is in its guest and *pending (atomic) is nonzero: until
 * p left the guest or took the request itself; at most max_ticks of the
 * TSC, false on time-out. */
bool xcpu_wait_out(struct percpu *p, const uint32_t *pending,
		   uint64_t max_ticks);

struct xcpu_stats {
	uint64_t kicks_sent, kick_fails, waits, wait_timeouts, sleeps;
};
const struct xcpu_stats *xcpu_stats(void);

#endif
