/* The end of a VM's vGPU (hv/gpu/gpu_teardown.c): torn down when its VM
 * stops, its counters kept as a summary. (A VM restarted in place gets its
 * vGPU reset instead: the reset hook in hv/gpu/vgpu_dev.c.) */
#ifndef HV_GPU_TEARDOWN_H
#define HV_GPU_TEARDOWN_H

#include <stdbool.h>

struct vgpu;

/* VM vm_id stopped (its registry's teardown hook, hv/gpu/vgpu_dev.c, its
 * BARs off already): print the vGPU's summary, keep it, and destroy the
 * vGPU (slots, fences, shadows, ladder mappings released, its GGTT
 * entries cleared). From the main loop, never inside an exit. */
void gpu_teardown_vgpu(unsigned vm_id, struct vgpu *v);
/* Prints VM vm_id's torn-down vGPU's summary (false: none). */
bool gpu_teardown_report(unsigned vm_id);

#endif
