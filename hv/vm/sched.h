/* Running the VMs: one physical CPU, deficit round robin (sched_slice.h).
 * Each VM runs for what is left of its slice per round (hv.cfg slice_ms),
 * bounded by the VMX-preemption timer, or until it halts, yields or stops;
 * the slice also ends early when another VM's virtual timer is due, so
 * timer interrupts arrive on time, but never before the slice floor. When
 * no VM can run the CPU idles in the shell's input loop. */
#ifndef HV_VM_SCHED_H
#define HV_VM_SCHED_H

#include <stdbool.h>

#include "boot/config.h"

/* Enables VMX and creates the VMs of hv.cfg whose files were loaded.
 * Prints one line per VM. Returns the number of VMs created. */
unsigned vms_create_from_config(const struct hv_config *cfg);

/* The scheduler loop; also runs the shell. With exit_when_stopped, prints
 * a summary and the test exit marker once every VM has stopped. */
void sched_run(unsigned slice_ms, bool exit_when_stopped)
	__attribute__((noreturn));

#endif
