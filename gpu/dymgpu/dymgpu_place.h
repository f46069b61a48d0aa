/* DymGPU's two greedy placements of vGPUs on high-GM slots (DymGPU
 * paper, "Memory allocator", figures 5 and 6) over the shared slot model
 * (gpu/policy/slots.h). Pure. */
#ifndef GPU_DYMGPU_DYMGPU_PLACE_H
#define GPU_DYMGPU_DYMGPU_PLACE_H

#include <stdint.h>

#include "gpu/policy/slots.h"

/* DymGPU size-based allocation (figure 5): sort by required slots, place
 * left to right while nobody shares, the first vGPU that no longer fits at
 * the right end, the rest from that vGPU's start over the shared band.
 * Reads lay->m, n, s; writes lay->p. Returns L, the width of the shared
 * band (0 when everything fits unshared), or -GPU_EINVAL when a vGPU needs
 * more than m slots. */
int dymgpu_place_by_size(struct slot_layout *lay);
/* DymGPU utilization-based allocation (figure 6): busiest first, placed
 * left to right while unshared; the rest on the rightmost slots. util[i]
 * is vGPU i's GPU utilization (any unit, larger = busier). Returns the
 * number of vGPUs placed unshared, or -GPU_EINVAL. */
int dymgpu_place_by_util(struct slot_layout *lay, const uint32_t *util);

#endif
