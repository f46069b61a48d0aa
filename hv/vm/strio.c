/* String I/O register arithmetic; see strio.h. */
#include "hv/vm/strio.h"

uint64_t strio_left(const struct strio *s)
{
	return s->rep ? s->rcx & s->amask : 1;
}

uint64_t strio_chunk(const struct strio *s)
{
	uint64_t left = strio_left(s);

	return left < STRIO_CHUNK ? left : STRIO_CHUNK;
}

static uint64_t wrap(uint64_t old, uint64_t val, uint64_t amask)
{
	return (old & ~amask) | (val & amask);
}

void strio_advance(struct strio *s)
{
	s->idx = wrap(s->idx, s->idx + (uint64_t)s->step, s->amask);
	if (s->rep)
		s->rcx = wrap(s->rcx, s->rcx - 1, s->amask);
}
