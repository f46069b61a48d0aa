/* The owner-recursive spinlock; see rlock.h. */
#include "hv/cpu/rlock.h"

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void rlock_take(struct rlock *l, uint32_t me)
{
	uint64_t spins = 0;
	bool waited = false;

	if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) == me) {
		l->depth++;	/* only me writes owner == me */
		return;
	}
	for (;;) {
		uint32_t free_ = RLOCK_FREE;

		if (__atomic_compare_exchange_n(&l->owner, &free_, me, false,
						__ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			break;
		waited = true;
		spins++;
		relax();
	}
	l->depth = 1;
	l->takes++;
	l->contended += waited;
	if (spins)
		__atomic_fetch_add(&l->spins, spins, __ATOMIC_RELAXED);
}

void rlock_drop(struct rlock *l, uint32_t me)
{
	if (__atomic_load_n(&l->owner, __ATOMIC_RELAXED) != me || !l->depth)
		__builtin_trap();	/* dropping a lock it does not hold */
	if (--l->depth)
		return;
	__atomic_store_n(&l->owner, RLOCK_FREE, __ATOMIC_RELEASE);
}

bool rlock_held(const struct rlock *l, uint32_t me)
{
	return __atomic_load_n(&l->owner, __ATOMIC_RELAXED) == me;
}
