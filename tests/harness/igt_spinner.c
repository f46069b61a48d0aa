/* IGT 1.27's Gen9 spinner (see igt_spinner.h for the layout and its
 * source). */
#include "tests/harness/igt_spinner.h"

#include <string.h>

#include "gpu/hw/gen9_cmds.h"

struct igt_spin_layout igt_spin_emit(uint32_t *batch, uint64_t va,
				     uint64_t poll_va, unsigned int flags)
{
	uint64_t cond = va + 4ull * IGT_SPIN_CONDITION_DW;
	uint64_t loop = va + IGT_SPIN_LOOP_START;
	struct igt_spin_layout l;
	uint32_t *cs = batch;

	memset(batch, 0, 4 * IGT_SPIN_BATCH_DW);
	if (flags & IGT_SPIN_POLL_RUN) {
		/* gen >= 8: address lo, hi, then the value */
		*cs++ = MI_STORE_DWORD_IMM_GEN4;
		*cs++ = (uint32_t)poll_va;
		*cs++ = (uint32_t)(poll_va >> 32);
		*cs++ = 1;
	}
	cs = batch + IGT_SPIN_LOOP_START / 4;
	if (!(flags & IGT_SPIN_NO_PREEMPTION))
		*cs++ = MI_ARB_CHECK;
	if (!(flags & IGT_SPIN_FAST))
		cs += 960; /* zero dwords: MI_NOOP */
	l.cond_bbe_dw = (uint32_t)(cs - batch);
	*cs++ = MI_CONDITIONAL_BATCH_BUFFER_END | MI_COND_BB_END_COMPARE;
	*cs++ = MI_BATCH_BUFFER_END;
	*cs++ = (uint32_t)cond;
	*cs++ = (uint32_t)(cond >> 32);
	l.bbs_dw = (uint32_t)(cs - batch);
	*cs++ = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT;
	*cs++ = (uint32_t)loop;
	*cs++ = (uint32_t)(loop >> 32);
	batch[IGT_SPIN_CONDITION_DW] = IGT_SPIN_PRECONDITION;
	batch[IGT_SPIN_CONDITION_DW + 1] = IGT_SPIN_PRECONDITION;
	return l;
}

uint32_t igt_spin_end_value(void)
{
	return MI_BATCH_BUFFER_END;
}
