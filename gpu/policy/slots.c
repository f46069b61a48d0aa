/* Slot occupancy queries shared by the placement algorithms. */
#include "gpu/policy/slots.h"
#include "gpu/hw/gpu_hw.h"

uint32_t slots_users(const struct slot_layout *l, uint32_t slot)
{
	uint32_t users = 0;

	for (uint32_t i = 0; i < l->n; i++)
		users += slot >= l->p[i] && slot - l->p[i] < l->s[i];
	return users;
}

uint32_t slots_shared(const struct slot_layout *l)
{
	uint32_t shared = 0;

	for (uint32_t slot = 0; slot < l->m; slot++)
		shared += slots_users(l, slot) > 1;
	return shared;
}

int slots_check(const struct slot_layout *l)
{
	if (l->m > SLOTS_MAX || l->n > SLOTS_MAX_VGPUS)
		return -GPU_EINVAL;
	for (uint32_t i = 0; i < l->n; i++)
		if (l->s[i] > l->m || l->p[i] > l->m - l->s[i])
			return -GPU_EINVAL;
	return 0;
}

void slots_apply(struct slot_layout *lay, uint32_t k, int32_t l, int32_t r)
{
	lay->p[k] = (uint32_t)((int32_t)lay->p[k] - l);
	lay->s[k] = (uint32_t)((int32_t)lay->s[k] + l + r);
}
