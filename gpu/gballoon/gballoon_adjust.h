/* gBalloon's GPU memory adjustment (gBalloon paper, Algorithm 1) on
 * contiguous slots (gpu/policy/slots.h): where a vGPU that grows or
 * shrinks by Q slots takes them, split between its two ends. Pure. */
#ifndef GPU_GBALLOON_GBALLOON_ADJUST_H
#define GPU_GBALLOON_GBALLOON_ADJUST_H

#include <stdint.h>

#include "gpu/policy/slots.h"

/* gBalloon Algorithm 1, Expansion: vGPU k grows by q slots, l to the left
 * and r to the right (l + r = q), chosen to add the fewest occupied slots.
 * -GPU_EINVAL when k is not a vGPU or the result cannot fit in m slots
 * (the paper's ERROR: S_K + Q > M). Does not change the layout. */
int gballoon_expand(const struct slot_layout *lay, uint32_t k, uint32_t q,
		    uint32_t *l, uint32_t *r);
/* Algorithm 1, Reduction: vGPU k shrinks by q slots, l from its left end
 * and r from its right, chosen to give up the most shared slots. ERROR
 * when S_K < Q. */
int gballoon_reduce(const struct slot_layout *lay, uint32_t k, uint32_t q,
		    uint32_t *l, uint32_t *r);

#endif
