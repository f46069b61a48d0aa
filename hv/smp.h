/* Every logical CPU the firmware lists, brought up at boot (docs/smp.md):
 * each AP on its own GDT/TSS/IDT, stacks and per-CPU area, in VMX root
 * operation where it can be, then parked. No VM runs on an AP yet. */
#ifndef HV_SMP_H
#define HV_SMP_H

#include "boot/boot_info.h"
#include <stdbool.h>

#include "hv/cpu/percpu.h"

/* Starts the APs one after the other and prints what came up, ending with
 * the line "smp: N CPUs in the MADT, M up (LAPIC IDs ...), VMX on K".
 * Puts the BSP into VMX operation first when VT-x is usable. After
 * discover_vtx in hv_main. */
void smp_boot(const struct boot_info *bi);

/* The CPUs that checked in, the BSP first (index 0). */
unsigned smp_nr_up(void);
struct percpu *smp_cpu(unsigned i);

/* Running VMs on the APs (docs/smp.md). An AP that hv.cfg pins VMs to
 * (cpus=) and that is in VMX operation waits after its bring-up for the
 * BSP to hand it its scheduler loop; the others halt. */

/* NULL if CPU i (smp_cpu's numbering) runs the VMs pinned to it, else
 * why not, as the end of a sentence ("which did not come up"). */
const char *smp_cpu_refuses_vms(unsigned i);
/* CPU i takes VMs without cpus=: the BSP, and the APs readied for them
 * (hv.cfg spread, hv/vm/sched_place.h) that came up with VMX. */
bool smp_cpu_shared(unsigned i);

/* Every waiting AP starts run(itself); once, after the VMs are created
 * and the scheduler is set up. */
void smp_run_on_aps(void (*run)(struct percpu *p));

/* No AP is inside a scheduling step (which may still print). */
bool smp_aps_idle(void);

#endif
