/* The mediator lock (docs/smp.md "Mediator concurrency"): one lock over
 * everything of gpu/ - the mediator, its vGPUs, the GPU model, the pGPU
 * driver, gBalloon/DymGPU/gScale - taken by hv/gpu at every entry into
 * gpu/ (gpu_entry.c for a VM's traps, gpu_host.c for the main loop's
 * poll and ticks, hv/orchestrate.c for the guest channel and the shell's
 * GPU commands) and held only across that entry's mediator work.
 * Recursive on its owner CPU: an entry may call another entry's code
 * (the main loop's teardown runs the vGPU's teardown hook; the shell's
 * report calls the balloon's report). */
#ifndef HV_GPU_LOCK_H
#define HV_GPU_LOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/cpu/rlock.h"

/* Which CPU the caller is: this_cpu()->index in the hypervisor
 * (gpu_lock_cpu.c), the thread's own id in a host test. */
uint32_t gpu_lock_self(void);
/* Says the first miss of gpu_lock_check (the console in the hypervisor,
 * stderr in a host test). */
void gpu_lock_report_miss(const char *what);

void gpu_lock(void);
void gpu_unlock(void);
/* This CPU holds it: for assertions in code that must run under it. */
bool gpu_lock_held(void);
/* Its counters (outermost takes, contended takes, spins). */
const struct rlock *gpu_lock_stats(void);

/* The check that code needing the lock runs under it: one load and
 * compare, cheap enough for every build. Not fatal: a miss is counted
 * and said once on the console ("gpu: BUG: ... without the mediator
 * lock"), and the count is printed with the summary, which the emulator
 * cases with a vGPU hold to 0 (tests/emu/cases/gpu3-bochs). hv_ops_impl.c
 * checks it in every op, since gpu/ calls the hypervisor only from
 * inside an entry. */
void gpu_lock_check(const char *what);
uint64_t gpu_lock_misses(void);

#endif
