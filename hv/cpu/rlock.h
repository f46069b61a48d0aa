/* A spinlock owned by one CPU at a time, recursive on its owner (the
 * console's kind, hv/console/console.c): the mediator lock of
 * hv/gpu/gpu_lock.c. Pure: the caller says which CPU it is, so host
 * threads (tests/stress/) use the very same code with their own ids.
 * The hypervisor runs with interrupts off, so no handler interrupts a
 * holder on its own CPU; a waiter spins with PAUSE. */
#ifndef HV_CPU_RLOCK_H
#define HV_CPU_RLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define RLOCK_FREE 0xffffffffu

struct rlock {
	uint32_t owner;		/* a CPU id, or RLOCK_FREE (atomic) */
	uint32_t depth;		/* the owner's nesting, only it touches */
	uint64_t takes;		/* outermost acquisitions (owner only) */
	uint64_t contended;	/* of those, how many found it held */
	uint64_t spins;		/* PAUSEs spent waiting, all CPUs */
};

#define RLOCK_INIT { RLOCK_FREE, 0, 0, 0, 0 }

void rlock_take(struct rlock *l, uint32_t me);
void rlock_drop(struct rlock *l, uint32_t me);
/* me holds it (at any depth). */
bool rlock_held(const struct rlock *l, uint32_t me);

#endif
