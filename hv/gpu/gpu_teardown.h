/* The end of a VM's vGPU (hv/gpu/gpu_teardown.c): torn down when its VM
 * stops, its counters kept as a summary; reset in place when its VM is
 * restarted. */
#ifndef HV_GPU_TEARDOWN_H
#define HV_GPU_TEARDOWN_H

#include <stdbool.h>

struct vm;

/* Every stopped VM still holding a vGPU: print its summary, keep it, and
 * destroy the vGPU (slots, fences, shadows, ladder mappings released,
 * its GGTT entries cleared). Each main-loop round (gpu_host_poll). */
void gpu_teardown_stopped(void);
/* Prints VM vm_id's torn-down vGPU's summary (false: none). */
bool gpu_teardown_report(unsigned vm_id);
/* The VM is restarted in place (vm_restart): its vGPU is fully reset, as
 * a power cycle of the device would; its GGTT is cleared as at creation.
 * 0, or an error naming why not. */
int gpu_vgpu_restart(struct vm *vm);

#endif
