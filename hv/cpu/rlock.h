/* A spinlock owned by one CPU at a time, recursive on its owner (the
 * console's kind, hv/console/console.c): the mediator lock of
 * hv/gpu/gpu_lock.c and each VM's device lock (hv/vm/vm.h). Pure: the
 * caller says which CPU it is, so host threads (tests/stress/) use the
 * very same code with their own ids. The hypervisor runs with
 * interrupts off, so no handler interrupts a holder on its own CPU; a
 * waiter spins with PAUSE.
 *
 * The device lock is taken around every port-I/O, MMIO and hypercall
 * exit, almost always free: taking it free and its owner's outermost
 * drop are inline here, with no call (one LOCK CMPXCHG in; a compare
 * and a release store out). One word says who holds it and how deeply,
 * so the drop reads a single word. Everything else (its owner taking it
 * again, a holder on another CPU, a nested or a bad drop) is out of line
 * in rlock.c (docs/performance.md "The device lock's fast path"). */
#ifndef HV_CPU_RLOCK_H
#define HV_CPU_RLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define RLOCK_FREE 0xffffffffu
/* owner: the CPU id in the low bits; the owner's nesting beyond its
 * first take in the top byte (0 when taken once). */
#define RLOCK_ID_MASK 0x00ffffffu
#define RLOCK_NEST_ONE 0x01000000u
#define RLOCK_NEST_MAX 254u	/* 255 with the id bits all set is FREE */

struct rlock {
	uint32_t owner;		/* RLOCK_FREE or id | nesting (atomic) */
	uint32_t pad;
	uint64_t takes;		/* outermost acquisitions (owner only) */
	uint64_t contended;	/* of those, how many found it held */
	uint64_t spins;		/* failed attempts waiting, all CPUs */
};

#define RLOCK_INIT { RLOCK_FREE, 0, 0, 0, 0 }

/* The out-of-line halves: `seen` is what the inline CMPXCHG found (me:
 * a nested take; another CPU: wait for it). */
__attribute__((cold)) void rlock_take_slow(struct rlock *l, uint32_t me,
					  uint32_t seen);
__attribute__((cold)) void rlock_drop_slow(struct rlock *l, uint32_t me);

/* me: a CPU id below RLOCK_ID_MASK. */
static inline void rlock_take(struct rlock *l, uint32_t me)
{
	uint32_t seen = RLOCK_FREE;

	if (__builtin_expect(__atomic_compare_exchange_n(&l->owner, &seen, me,
							 false,
							 __ATOMIC_ACQUIRE,
							 __ATOMIC_RELAXED), 1)) {
		l->takes++;
		return;
	}
	rlock_take_slow(l, me, seen);
}

/* Taken (free, or already mine: nested) or, if another CPU holds it,
 * false at once: for a CPU that must not wait for it (it holds a lock
 * the holder may want next). Counted as rlock_take counts. */
static inline bool rlock_try(struct rlock *l, uint32_t me)
{
	uint32_t seen = RLOCK_FREE;

	if (__atomic_compare_exchange_n(&l->owner, &seen, me, false,
					__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		l->takes++;
		return true;
	}
	if ((seen & RLOCK_ID_MASK) != me)
		return false;
	rlock_take_slow(l, me, seen);	/* nests */
	return true;
}

/* The owner word is exactly me (held once, by me): free it. A nested
 * drop, or a drop by a CPU that does not hold it (a bug: trap), goes out
 * of line. */
static inline void rlock_drop(struct rlock *l, uint32_t me)
{
	if (__builtin_expect(__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == me,
			     1)) {
		__atomic_store_n(&l->owner, RLOCK_FREE, __ATOMIC_RELEASE);
		return;
	}
	rlock_drop_slow(l, me);
}

/* me holds it (at any depth). */
static inline bool rlock_held(const struct rlock *l, uint32_t me)
{
	return (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) &
		RLOCK_ID_MASK) == me;
}

/* How many times me holds it (0: not me). */
static inline unsigned rlock_depth(const struct rlock *l, uint32_t me)
{
	uint32_t w = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);

	return (w & RLOCK_ID_MASK) == me ? (w >> 24) + 1 : 0;
}

#endif
