/* The owner-recursive spinlock's out-of-line paths; the free take and
 * the outermost drop are inline in rlock.h. */
#include "hv/cpu/rlock.h"

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* The inline CMPXCHG found `seen` as owner. Its owner nests (only it
 * writes owner == me, so what it saw stays true); anyone else spins
 * until the CMPXCHG takes it, and counts that it waited. The inline
 * attempt was the first failed one: one PAUSE counted for it. */
void rlock_take_slow(struct rlock *l, uint32_t me, uint32_t seen)
{
	uint64_t spins = 1;

	if (seen == me) {
		l->depth++;
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
	l->depth = 1;
	l->takes++;
	l->contended++;
	__atomic_fetch_add(&l->spins, spins, __ATOMIC_RELAXED);
}

void rlock_drop_slow(struct rlock *l, uint32_t me)
{
	if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) != me || !l->depth)
		__builtin_trap();	/* dropping a lock it does not hold */
	if (--l->depth)
		return;
	__atomic_store_n(&l->owner, RLOCK_FREE, __ATOMIC_RELEASE);
}
