/* IGT 1.27.1 gem_wsim's Gen9 batch (gem_wsim.h has the layout and its
 * source). */
#include "tests/harness/gem_wsim.h"

#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/model/alu.h"

#define MI_CS_MMIO_DST (1u << 19)
#define MI_CS_MMIO_SRC (1u << 18)
#define WSIM_GPR(base, x) ((base) + 0x600 + 8 * (x))
#define WSIM_TIMESTAMP(base) ((base) + 0x3a8)

enum { START_TS, NOW_TS };

/* LRI(1) high dword <- 0, then LRR TIMESTAMP -> the GPR's low dword. */
static uint32_t *emit_read_ts(uint32_t *cs, uint32_t base, int gpr)
{
	*cs++ = MI_LOAD_REGISTER_IMM(1) | MI_CS_MMIO_DST;
	*cs++ = WSIM_GPR(base, gpr) + 4;
	*cs++ = 0;
	*cs++ = MI_LOAD_REGISTER_REG | MI_CS_MMIO_DST | MI_CS_MMIO_SRC;
	*cs++ = WSIM_TIMESTAMP(base);
	*cs++ = WSIM_GPR(base, gpr);
	return cs;
}

static uint32_t *emit_delta(uint32_t *cs, uint32_t base, uint64_t va)
{
	uint64_t at = va + WSIM_DELTA_OFF;
	int n;

	/* delta = now - start; inverted to match COND_BBE */
	*cs++ = MI_MATH(4);
	*cs++ = MI_MATH_LOAD(MI_MATH_REG_SRCA, MI_MATH_REG(NOW_TS));
	*cs++ = MI_MATH_LOAD(MI_MATH_REG_SRCB, MI_MATH_REG(START_TS));
	*cs++ = MI_MATH_SUB;
	*cs++ = MI_MATH_STOREINV(MI_MATH_REG(NOW_TS), MI_MATH_REG_ACCU);
	/* MI_STORE_REGISTER_MEM_CMD | (1 + use_64b) | MI_CS_MMIO_DST */
	*cs++ = MI_INSTR(0x24, 0) | 2 | MI_CS_MMIO_DST;
	*cs++ = WSIM_GPR(base, NOW_TS);
	*cs++ = (uint32_t)at;
	*cs++ = (uint32_t)(at >> 32);
	for (n = 0; n < 8; n++) {
		*cs++ = MI_STORE_DATA_INDEX; /* IGT's MI_STORE_DWORD_INDEX */
		*cs++ = WSIM_PPHWSP_OFF;
		*cs++ = 0;
	}
	return cs;
}

struct wsim_layout wsim_emit(uint32_t *batch, uint64_t va, uint32_t mmio_base,
			     bool preempt)
{
	uint64_t at = va + WSIM_DELTA_OFF, jmp;
	struct wsim_layout l;
	uint32_t *cs = batch;

	memset(batch, 0, 4 * WSIM_BATCH_DW);
	cs = emit_read_ts(cs, mmio_base, START_TS);
	if ((cs - batch) & 1) /* offset_in_page(cs) & 4 */
		*cs++ = 0;
	l.jmp_dw = (uint32_t)(cs - batch);
	jmp = va + 4ull * l.jmp_dw;
	if (preempt)
		*cs++ = MI_ARB_CHECK;
	cs = emit_read_ts(cs, mmio_base, NOW_TS);
	l.math_dw = (uint32_t)(cs - batch);
	cs = emit_delta(cs, mmio_base, va);
	*cs++ = MI_CONDITIONAL_BATCH_BUFFER_END | MI_COND_BB_END_COMPARE;
	l.duration_dw = (uint32_t)(cs - batch);
	*cs++ = 0;
	*cs++ = (uint32_t)at;
	*cs++ = (uint32_t)(at >> 32);
	l.bbs_dw = (uint32_t)(cs - batch);
	*cs++ = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT;
	*cs++ = (uint32_t)jmp;
	*cs++ = (uint32_t)(jmp >> 32);
	return l;
}

void wsim_set_duration(uint32_t *batch, const struct wsim_layout *l,
		       uint32_t ticks)
{
	/* "ticks is inverted for MI_DO_COMPARE (less-than comparison)" */
	batch[l->duration_dw] = ticks ? ~ticks : 0;
}

uint64_t wsim_ns_to_ticks(uint64_t ns, uint64_t freq_hz)
{
	return (ns * freq_hz + 1000000000ull - 1) / 1000000000ull;
}
