/* Orchestration: the one place that puts the hypervisor's parts together
 * at run time. It creates the VMs of hv.cfg (each with its vGPU), registers
 * the shell's command groups, and runs the main loop: shell input, the
 * GPU and its mediator, one scheduler slice, and the test-exit summary. */
#ifndef HV_ORCHESTRATE_H
#define HV_ORCHESTRATE_H

#include "boot/config.h"

/* Enables VMX and creates the VMs of hv.cfg whose files were loaded, with
 * their vGPUs and hv.cfg's placement. Prints one line per VM. Returns the
 * number of VMs created. */
unsigned vms_create_from_config(const struct hv_config *cfg);

/* The main loop, forever. With test_exit=vms in cfg, prints a summary
 * and the test exit marker once every VM has stopped (at once without
 * VMs). */
void hv_run(const struct hv_config *cfg) __attribute__((noreturn));

#endif
