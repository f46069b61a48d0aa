/* DymGPU live on the running hypervisor (hv/gpu/gpu_place.c): once per
 * main-loop round, mark the vGPUs whose guests negotiated the guest channel
 * as movable, run DymGPU's placement period (gpu/dymgpu/dymgpu_move.c)
 * and tell each moved guest its new ranges; the shell's `place` and the
 * placement part of `vgpus`. */
#ifndef HV_GPU_PLACE_H
#define HV_GPU_PLACE_H

#include <stdbool.h>
#include <stdint.h>

void gpu_place_tick(void);
struct vgpu;
struct vgpu_slot_run;
/* The operator moves vm's vGPU to the runs (one run: a move or a merge;
 * several: a split), entries carried; vgpu_relocate_high's code. The
 * guest is told through its channel. */
int gpu_place_apply(unsigned vm_id, const struct vgpu_slot_run *runs,
		    uint32_t n, uint64_t *carried);
/* Prints v's runs of slots ("0-1,5-5"); returns how many. */
uint32_t gpu_place_print_runs(const struct vgpu *v);
/* The monitor figures and the last placement decision of vm's vGPU;
 * false when it has none. */
bool gpu_place_report(unsigned vm_id);
/* The policy's totals (one line), for `vgpus`. */
void gpu_place_summary(void);

#endif
