/* The mediator lock; see gpu_lock.h. Pure (the caller's CPU id comes from
 * gpu_lock_self), so the host stress test (tests/stress/) runs this very
 * file under ThreadSanitizer. */
#include "hv/gpu/gpu_lock.h"

static struct rlock mediator = RLOCK_INIT;

void gpu_lock(void)
{
	rlock_take(&mediator, gpu_lock_self());
}

void gpu_unlock(void)
{
	rlock_drop(&mediator, gpu_lock_self());
}

bool gpu_lock_held(void)
{
	return rlock_held(&mediator, gpu_lock_self());
}

const struct rlock *gpu_lock_stats(void)
{
	return &mediator;
}

static uint64_t misses;

/* Only the counter and the line: the console is below us. */
void gpu_lock_check(const char *what)
{
	if (gpu_lock_held())
		return;
	if (__atomic_fetch_add(&misses, 1, __ATOMIC_RELAXED) == 0)
		gpu_lock_report_miss(what);
}

uint64_t gpu_lock_misses(void)
{
	return __atomic_load_n(&misses, __ATOMIC_RELAXED);
}
