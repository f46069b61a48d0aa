/* Deficit round robin with a slice floor; see sched_slice.h. */
#include "hv/vm/sched_slice.h"

static int first(const struct sched_cand *c, unsigned n, unsigned cursor,
		 bool want_irq)
{
	for (unsigned k = 0; k < n; k++) {
		unsigned i = (cursor + k) % n;

		if (c[i].runnable && c[i].budget > 0 &&
		    (!want_irq || c[i].irq_due))
			return (int)i;
	}
	return -1;
}

int sched_pick(struct sched_cand *c, unsigned n, unsigned cursor,
	       int64_t slice)
{
	int i;

	if (!n)
		return -1;
	cursor %= n;
	i = first(c, n, cursor, true);
	if (i < 0)
		i = first(c, n, cursor, false);
	if (i >= 0)
		return i;
	for (unsigned k = 0; k < n; k++)
		if (c[k].runnable)
			break;
		else if (k == n - 1)
			return -1;
	/* Everyone runnable has used its slice: a new round. A VM that
	 * overran (exit handling is charged to it too) starts the round in
	 * debt and pays one slice of it per round (sched_charge). */
	for (unsigned k = 0; k < n; k++)
		c[k].budget = c[k].budget > 0 ? slice : c[k].budget + slice;
	i = first(c, n, cursor, true);
	return i >= 0 ? i : first(c, n, cursor, false);
}

int64_t sched_charge(int64_t budget, uint64_t ran)
{
	if (ran > (uint64_t)SCHED_DEBT_MAX)
		ran = (uint64_t)SCHED_DEBT_MAX;
	if (budget < -SCHED_DEBT_MAX + (int64_t)ran)
		return -SCHED_DEBT_MAX;
	return budget - (int64_t)ran;
}

uint64_t sched_lone_end(uint64_t start, int64_t budget, uint64_t lone)
{
	uint64_t b = budget > 0 ? (uint64_t)budget : 0;

	return start + (lone > b ? lone : b);
}

int64_t sched_charge_lone(int64_t budget, uint64_t ran, int64_t slice)
{
	int64_t left = sched_charge(budget, ran);

	if (left > 0 || slice <= 0)
		return left;
	/* -left <= SCHED_DEBT_MAX: the refills cannot overflow. */
	return left + ((-left) / slice + 1) * slice;
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t sched_deadline(uint64_t start, uint64_t end, uint64_t own_event,
			uint64_t other_event, uint64_t floor)
{
	uint64_t earliest_cut = start + floor;

	if (other_event < earliest_cut)
		other_event = earliest_cut;
	return min_u64(end, min_u64(own_event, other_event));
}

bool sched_slice_over(uint64_t now, uint64_t start, uint64_t end,
		      uint64_t other_event, uint64_t floor)
{
	if (now >= end)
		return true;
	return now >= other_event && now - start >= floor;
}
