/* Where a VM without cpus= runs (docs/smp.md "Sharing the CPUs"), kept
 * apart from the VMs so it can be tested on the host
 * (tests/unit/test_sched_place.c).
 *
 * Each unpinned VM is placed once, when it is created, on the least
 * loaded of the shared CPUs (the BSP and the APs nobody pinned that were
 * readied for VMs); the load of a CPU is the vCPUs of its VMs not
 * stopped. A tie goes to the lowest CPU number, so the BSP (which also
 * runs the shell, the console and the GPU poll) takes the first VM and
 * one VM alone stays where it always ran. No migration: a VM stays on
 * its CPU until it stops. */
#ifndef HV_VM_SCHED_PLACE_H
#define HV_VM_SCHED_PLACE_H

#include <stdbool.h>
#include <stdint.h>

#define SCHED_PLACE_CPUS	64	/* bits of a cpus= mask */

/* The CPU, among the bits of `shared` below nr (the BSP, bit 0, always
 * counts as shared), whose load[] is lowest; the lowest such number on
 * a tie. */
unsigned sched_place_pick(const uint32_t *load, unsigned nr,
			  uint64_t shared);

/* How many APs to ready for unpinned VMs at boot: one fewer than those
 * VMs (the BSP takes one), none if there is at most one or spreading is
 * off (hv.cfg spread=no). */
unsigned sched_place_aps_wanted(unsigned nr_unpinned, bool spread);

/* Where each vCPU of a VM runs (docs/smp.md "A VM on several CPUs"):
 * with a cpus= list (list[0..n), n >= 1) vCPU i on list[i % n], its
 * slot (the per-(VM, CPU) index of the scheduler and the mailbox) i % n;
 * without one (n = 0) every vCPU on `home`, slot 0. Fills cpu[] and
 * slot[] for the nr_vcpus vCPUs; returns the mask of the CPUs used. */
uint64_t sched_place_vcpus(const uint8_t *list, unsigned n, unsigned home,
			   unsigned nr_vcpus, uint32_t *cpu, uint8_t *slot);

#endif
