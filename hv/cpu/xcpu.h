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

/* Registers the kick's handler (the BSP, before the APs run VMs). */
void xcpu_init(void);
/* This CPU is about to look at its mailboxes and enter a guest / has
 * left it. Between the two nothing may wait for another CPU. */
void xcpu_guest_enter(void);
void xcpu_guest_exit(void);
/* After posting to p's VM: an IPI when p is between enter and exit.
 * true when one was sent. */
bool xcpu_kick(struct percpu *p);
/* Spins while p is in its guest and *pending (atomic) is nonzero: until
 * p left the guest or took the request itself; at most max_ticks of the
 * TSC, false on time-out. */
bool xcpu_wait_out(struct percpu *p, const uint32_t *pending,
		   uint64_t max_ticks);

struct xcpu_stats {
	uint64_t kicks_sent, kick_fails, waits, wait_timeouts;
};
const struct xcpu_stats *xcpu_stats(void);

#endif
