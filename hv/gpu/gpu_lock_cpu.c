/* The mediator lock's machine side: the CPU id is the per-CPU area's
 * index (hv/cpu/percpu.h), a miss goes to the console. A host test links
 * its own pair instead. */
#include "hv/console/console.h"
#include "hv/cpu/percpu.h"
#include "hv/gpu/gpu_lock.h"

uint32_t gpu_lock_self(void)
{
	return this_cpu()->index;
}

void gpu_lock_report_miss(const char *what)
{
	kprintf("gpu: BUG: %s on cpu %u without the mediator lock\n", what,
		this_cpu()->index);
}
