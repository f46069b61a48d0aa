/* A spinlock owned by one CPU at a time, recursive on its owner (the
 * console's kind, hv/console/console.c): the mediator lock of
 * hv/gpu/gpu_lock.c and each VM's device lock (hv/vm/vm.h). Pure: the
 * caller says which CPU it is, so host threads (tests/stress/) use the
 * very same code with their own ids. The hypervisor runs with
 * interrupts off, so no handler interrupts a holder on its own CPU; a
 * waiter spins with PAUSE.
 *
 * The device lock is taken around every port-I/O, MMIO and hypercall
 * exit, almost always free: taking and dropping it free is inline here
 * (one LOCK CMPXCHG in, one release store out, no call), everything
 * else (its owner taking it again, a holder found on another CPU, the
 * last but not outermost drop) is out of line in rlock.c
 * (docs/performance.md "The device lock's fast path"). */
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

/* The out-of-line halves: `seen` is the owner the inline CMPXCHG found
 * (me: a nested take; another CPU: wait for it). */
void rlock_take_slow(struct rlock *l, uint32_t me, uint32_t seen);
void rlock_drop_slow(struct rlock *l, uint32_t me);

static inline void rlock_take(struct rlock *l, uint32_t me)
{
	uint32_t seen = RLOCK_FREE;

	if (__builtin_expect(__atomic_compare_exchange_n(&l->owner, &seen, me,
							 false,
							 __ATOMIC_ACQUIRE,
							 __ATOMIC_RELAXED), 1)) {
		l->depth = 1;
		l->takes++;
		return;
	}
	rlock_take_slow(l, me, seen);
}

/* The outermost drop by its owner frees it; a nested drop, or a drop by
 * a CPU that does not hold it (a bug: trap), goes out of line. The
 * owner is compared first so that only the holder reads depth. */
static inline void rlock_drop(struct rlock *l, uint32_t me)
{
	if (__builtin_expect(__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == me
			     && l->depth == 1, 1)) {
		l->depth = 0;
		__atomic_store_n(&l->owner, RLOCK_FREE, __ATOMIC_RELEASE);
		return;
	}
	rlock_drop_slow(l, me);
}

/* me holds it (at any depth). */
static inline bool rlock_held(const struct rlock *l, uint32_t me)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) == me;
}

#endif
