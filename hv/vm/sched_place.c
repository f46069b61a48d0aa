/* Placement of unpinned VMs; see sched_place.h. */
#include "hv/vm/sched_place.h"

unsigned sched_place_pick(const uint32_t *load, unsigned nr,
			  uint64_t shared)
{
	unsigned best = 0;

	if (nr > SCHED_PLACE_CPUS)
		nr = SCHED_PLACE_CPUS;
	for (unsigned i = 1; i < nr; i++)
		if ((shared >> i & 1) && load[i] < load[best])
			best = i;
	return best;
}

unsigned sched_place_aps_wanted(unsigned nr_unpinned, bool spread)
{
	return spread && nr_unpinned > 1 ? nr_unpinned - 1 : 0;
}

uint64_t sched_place_vcpus(const uint8_t *list, unsigned n, unsigned home,
			   unsigned nr_vcpus, uint32_t *cpu, uint8_t *slot)
{
	uint64_t mask = 0;

	for (unsigned i = 0; i < nr_vcpus; i++) {
		slot[i] = (uint8_t)(n ? i % n : 0);
		cpu[i] = n ? list[slot[i]] : home;
		if (cpu[i] < SCHED_PLACE_CPUS)
			mask |= 1ull << cpu[i];
	}
	return mask;
}
