/* hv.cfg gpu_smoke=yes: the hardware smoke test (gpu/hw/pgpu_smoke.c) run
 * on the GPU the hypervisor took over (the iGPU, or the model behind
 * MMIO), with the hypervisor's pages, TSC and console. */
#ifndef HV_GPU_GPU_SMOKE_H
#define HV_GPU_GPU_SMOKE_H

#include <stdint.h>

struct pgpu;

/* Runs it; irqs (may be NULL) counts the GPU's MSIs taken so far.
 * Returns the number of failed steps. */
unsigned int gpu_smoke_run(struct pgpu *p, uint64_t (*irqs)(void));
/* For test_exit=boot: 0 when the smoke test did not run or passed, 1 when
 * any step failed. */
int gpu_smoke_status(void);

#endif
