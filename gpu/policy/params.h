/* Shared by the policies' parameter blocks: a zero field means "the
 * paper's default", so callers fill in only what they change. */
#ifndef GPU_POLICY_PARAMS_H
#define GPU_POLICY_PARAMS_H

#include <stdint.h>

/* v, or d when v is 0 (unset). */
static inline uint64_t or_default(uint64_t v, uint64_t d)
{
	return v ? v : d;
}

#endif
