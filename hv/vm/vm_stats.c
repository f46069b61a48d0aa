/* A VM's accounting when it starts a new life (vm_stats_new_life in
 * vm.h). Pure: no hardware, host unit test tests/unit/test_vm_stats.c. */
#include "hv/vm/vm.h"
#include "mini/string.h"

void vm_stats_new_life(struct vm_stats *s, uint64_t now)
{
	/* The report's share line (hv/vm/vm_report.c) divides these by the
	 * ticks since start_tsc: all of them restart with it. */
	memset(s->exits, 0, sizeof(s->exits));
	memset(s->exit_tsc, 0, sizeof(s->exit_tsc));
	s->entries = 0;
	s->run_tsc = 0;
	s->slice_tsc = 0;
	s->slices = 0;
	s->halted_tsc = 0;
	s->halt_start_tsc = 0;	/* the fresh vCPU is not halted */
	/* A restart runs inside the slice that carried it out: that slice
	 * counts from now on. */
	if (s->slice_start_tsc)
		s->slice_start_tsc = now;
	s->start_tsc = now;
}
