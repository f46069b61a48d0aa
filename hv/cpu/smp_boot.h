/* Starting one AP: INIT-SIPI-SIPI from the BSP through its LAPIC, the
 * SDM's delays measured with the TSC, a bounded wait for the AP's
 * check-in, and the AP's side: its own tables, then its work, then parked
 * (docs/smp.md). Nothing here prints: an AP must not touch the console,
 * and the BSP reports once every AP has had its turn (hv/smp.c). */
#ifndef HV_SMP_BOOT_H
#define HV_SMP_BOOT_H

#include <stdint.h>

#include "hv/cpu/percpu.h"

enum smp_start {
	SMP_START_UP,		/* checked in: on its own tables and stack */
	SMP_START_NO_CHECKIN,	/* never ran the trampoline: not waited for */
	SMP_START_STUCK,	/* took its area, never checked in: its memory
				 * is left to it; sent INIT again */
	SMP_START_ICR_BUSY,	/* our LAPIC would not send the IPIs */
};

/* The trampoline installed at tramp (virtual) / tramp_pa (hv/cpu/ap_tramp.h);
 * p carved and its tables built (cpu_tables_build). Returns when the AP
 * has checked in or the wait is over. Needs the TSC's rate (tsc_calibrate). */
enum smp_start smp_start_ap(void *tramp, uint64_t tramp_pa, struct percpu *p);
/* After SMP_START_UP: waits, bounded, for the AP to finish p->ap_work and
 * park. 0, or -1 if it is still busy at the end. */
int smp_wait_parked(struct percpu *p);
const char *smp_start_name(enum smp_start s);

/* The C entry the trampoline calls on the AP's own stack. */
void smp_ap_entry(struct percpu *p) __attribute__((noreturn));

#endif
