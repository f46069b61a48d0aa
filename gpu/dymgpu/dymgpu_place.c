/* DymGPU's two greedy placements of vGPUs on high-GM slots
 * (DymGPU paper, "Memory allocator", figures 5 and 6). */
#include "gpu/dymgpu/dymgpu_place.h"
#include "gpu/hw/gpu_hw.h"

/* Indices of the vGPUs by non-increasing key, ties by index (insertion
 * sort: n is small, and stability makes placements reproducible). */
static void order_by(const struct slot_layout *lay, const uint32_t *key,
		     uint32_t *order)
{
	for (uint32_t i = 0; i < lay->n; i++) {
		uint32_t j = i;

		while (j > 0 && key[order[j - 1]] < key[i]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
}

static int check_sizes(const struct slot_layout *lay)
{
	if (lay->m > SLOTS_MAX || lay->n > SLOTS_MAX_VGPUS)
		return -GPU_EINVAL;
	for (uint32_t i = 0; i < lay->n; i++)
		if (!lay->s[i] || lay->s[i] > lay->m)
			return -GPU_EINVAL;
	return 0;
}

/* Left to right without sharing, in `order`; returns how many fit. */
static uint32_t place_unshared(struct slot_layout *lay, const uint32_t *order,
			       uint32_t *end)
{
	uint32_t pos = 0, placed = 0;

	while (placed < lay->n && pos + lay->s[order[placed]] <= lay->m) {
		lay->p[order[placed]] = pos;
		pos += lay->s[order[placed]];
		placed++;
	}
	*end = pos;
	return placed;
}

int dymgpu_place_by_size(struct slot_layout *lay)
{
	uint32_t order[SLOTS_MAX_VGPUS], end, k, pk;

	if (check_sizes(lay))
		return -GPU_EINVAL;
	order_by(lay, lay->s, order);
	k = place_unshared(lay, order, &end);
	if (k == lay->n)
		return 0;
	/* V_K at the right end; it overlaps V_{K-1} by L slots, and every
	 * later (smaller) vGPU starts where V_K starts, on top of that band. */
	pk = lay->m - lay->s[order[k]];
	for (uint32_t i = k; i < lay->n; i++)
		lay->p[order[i]] = pk;
	return (int)(end - pk);
}

int dymgpu_place_by_util(struct slot_layout *lay, const uint32_t *util)
{
	uint32_t order[SLOTS_MAX_VGPUS], end, k;

	if (check_sizes(lay))
		return -GPU_EINVAL;
	order_by(lay, util, order);
	k = place_unshared(lay, order, &end);
	for (uint32_t i = k; i < lay->n; i++)
		lay->p[order[i]] = lay->m - lay->s[order[i]];
	return (int)k;
}
