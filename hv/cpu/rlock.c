/* The owner-recursive spinlock's out-of-line paths; the free take and
 * the outermost drop are inline in rlock.h. */
#include "hv/cpu/rlock.h"

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* The inline CMPXCHG found `seen` as owner word. Its owner nests (only
 * it writes the word while it holds it, so what it saw stays true; past
 * RLOCK_NEST_MAX it traps); anyone else spins until the CMPXCHG takes
 * it, and counts that it waited. The inline attempt was the first
 * failed one: counted in spins. */
void rlock_take_slow(struct rlock *l, uint32_t me, uint32_t seen)
{
	uint64_t spins = 1;

	if ((seen & RLOCK_ID_MASK) == me) {
		if ((seen >> 24) >= RLOCK_NEST_MAX)
			__builtin_trap();	/* nesting runaway */
		__atomic_store_n(&l->owner, seen + RLOCK_NEST_ONE,
				 __ATOMIC_RELAXED);
		return;
	}
	relax();
	for (;;) {
		uint32_t free_ = RLOCK_FREE;

		if (__atomic_compare_exchange_n(&l->owner, &free_, me, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
		spins++;
		relax();
	}
	l->takes++;
	l->contended++;
	__atomic_fetch_add(&l->spins, spins, __ATOMIC_RELAXED);
}

/* Not held by me at all: trap. Nested: one level less (only the owner
 * writes the word while it holds it); held once: freed, as inline. */
void rlock_drop_slow(struct rlock *l, uint32_t me)
{
	uint32_t w = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);

	if ((w & RLOCK_ID_MASK) != me)
		__builtin_trap();	/* dropping a lock it does not hold */
	if (w == me)
		__atomic_store_n(&l->owner, RLOCK_FREE, __ATOMIC_RELEASE);
	else
		__atomic_store_n(&l->owner, w - RLOCK_NEST_ONE,
				 __ATOMIC_RELAXED);
}
