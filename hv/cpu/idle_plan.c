/* When an idle CPU sleeps; see idle_plan.h. */
#include "hv/cpu/idle_plan.h"

static uint64_t earliest(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t idle_plan_until(const struct idle_in *in)
{
	uint64_t until;

	if (!in->can_sleep || in->mail)
		return 0;
	until = in->cap > UINT64_MAX - in->now ? UINT64_MAX
					       : in->now + in->cap;
	until = earliest(until, earliest(in->vm_next, in->dev_next));
	if (until <= in->now || until - in->now < in->min)
		return 0;
	return until;
}
