/* The scheduler's arithmetic, kept apart from the VMs so it can be tested
 * on the host (tests/unit/test_sched_slice.c): who runs next, and when a
 * running VM's slice ends.
 *
 * Deficit round robin: every runnable VM has a budget of one slice per
 * round. A VM whose virtual APIC has an interrupt due is preferred (timer
 * interrupts arrive on time), but only while it has budget left, so a VM
 * storming itself with interrupts gets its slice per round and no more.
 * Another VM's timer deadline may end a running slice early, but never
 * before the slice floor: however often a deadline falls due, every VM
 * that is picked runs at least SCHED_FLOOR_US (or its budget, if less).
 * With N VMs runnable each therefore keeps about 1/N of the CPU. */
#ifndef HV_VM_SCHED_SLICE_H
#define HV_VM_SCHED_SLICE_H

#include <stdbool.h>
#include <stdint.h>

#define SCHED_FLOOR_US	1000u	/* minimum run once picked */

struct sched_cand {
	bool runnable;
	bool irq_due;		/* its vLAPIC has a deliverable interrupt */
	int64_t budget;		/* TSC ticks left in this round */
};

/* Index of the VM to run, or -1 if none is runnable. Refills every
 * budget (a new round) when no runnable VM has any left. `cursor` is
 * where round-robin order starts; the caller moves it past the pick. */
int sched_pick(struct sched_cand *c, unsigned n, unsigned cursor,
	       int64_t slice);

/* The budget left after running `ran` TSC ticks: guest time and exit
 * handling alike. The debt is carried, never forgiven: a VM that held the
 * CPU for k slices in one go sits out about k rounds while others want
 * the CPU (each refill pays one slice). Saturates at -SCHED_DEBT_MAX so
 * the arithmetic cannot wrap. */
#define SCHED_DEBT_MAX	(INT64_MAX / 4)
int64_t sched_charge(int64_t budget, uint64_t ran);

/* A VM alone runnable on its CPU (nothing to switch to) runs up to
 * `lone` ticks in one slice (hv.cfg slice_lone_ms) instead of ending it
 * when its budget is used: the main loop (the shell, the GPU's polling)
 * then runs once per `lone` instead of once per slice, and the slice's
 * preemption-timer exits go. The end of such a slice, started at `start`
 * with `budget` left: the later of the two. */
uint64_t sched_lone_end(uint64_t start, int64_t budget, uint64_t lone);

/* The budget after a lone slice that ran `ran` ticks: the rounds it
 * spanned are the refills a lone VM would have had between plain slices
 * (sched_pick refills when nobody runnable has budget), so it ends with
 * what is left of the last one, in (0, slice]; a slice that stayed within
 * its budget is charged as sched_charge does. */
int64_t sched_charge_lone(int64_t budget, uint64_t ran, int64_t slice);

/* When the preemption timer must fire for a slice that began at `start`
 * and may last until `end`: the VM's own timer event, another VM's event
 * (not before start + floor), or the end. */
uint64_t sched_deadline(uint64_t start, uint64_t end, uint64_t own_event,
			uint64_t other_event, uint64_t floor);

/* After an exit at `now`: is the slice over (its end reached, or another
 * VM's event due and the floor served)? */
bool sched_slice_over(uint64_t now, uint64_t start, uint64_t end,
		      uint64_t other_event, uint64_t floor);

/* The slice's end for the preemption timer (hv/vm/sched.c). A slice
 * ends at the first exit at or past its end (sched_slice_over), whatever
 * the exit's reason; the timer is there only so that such an exit comes.
 * When nobody else on the CPU waits for the main loop (the VM alone on
 * its CPU, the GPU not busy, nothing posted: the caller's `stretch` > 0),
 * the timer is armed with sched_deadline against end + stretch instead
 * of the end: it then fires for the VM's own next event (its vLAPIC
 * timer, a sibling vCPU's, COM1's drain), an exit the VM needs anyway
 * and which then also ends the slice, and at the latest at end + stretch,
 * so the main loop (the shell, the GPU's rounds) still comes at least
 * every slice + stretch. stretch 0: the end itself. Saturates. */
static inline uint64_t sched_stretch_end(uint64_t end, uint64_t stretch)
{
	return end + stretch < end ? UINT64_MAX : end + stretch;
}

#endif
