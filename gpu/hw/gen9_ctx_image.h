/* The Gen9 logical ring context image: which registers a context owns and
 * where its image holds them. The software model saves and restores
 * exactly these (gpu/model/ctx_image.c); tests enumerate them to prove no
 * register value crosses from one context to another.
 *
 * Register-state page (LRC_STATE_PN): MI_LOAD_REGISTER_IMM blocks of
 * (offset, value) pairs at fixed dwords, as i915's Gen9 image lays them out
 * (the same template gpu/vgpu/exec/vgpu_workload.c fills for its shadow
 * contexts): the ring context (block 0), timestamp and PDPs (block 1),
 * R_PWR_CLK_STATE on RCS (block 2) and the engine state - EXCC, MI_MODE,
 * INSTPM, the 16 64-bit CS_GPRs and the rest (block 3). Only values are
 * read and written; headers and offsets are the driver's.
 *
 * Render state (RCS only): real Gen9 saves the render pipeline's registers
 * in the pages after the state page, in a format of its own. The model
 * keeps there, in the order of gen9_rcs_render_state below, every render
 * register a batch may load (the command allow-list, gpu/vgpu/
 * vgpu_cmd_tables.c, and the registers a non-privileged batch reaches,
 * gen9_nonpriv_fixed_reg and FORCE_TO_NONPRIV): predicates, indirect draw
 * and dispatch parameters, pipeline statistics, stream-out state, the
 * workaround registers i915 programs per context (its context workaround
 * list writes them with LRI in the context, so they are context state),
 * and RING_NOPID, which i915 puts in unused FORCE_TO_NONPRIV slots and the
 * scanner writes instead of a register it refuses in a user batch. */
#ifndef GPU_HW_GEN9_CTX_IMAGE_H
#define GPU_HW_GEN9_CTX_IMAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/hw/gen9_regs.h"

struct gen9_ctx_block {
	uint16_t at; /* dword of the LRI header in the state page */
	uint8_t n; /* registers */
	const uint16_t *regs; /* engine-relative offsets, value at at+2+2i */
};

/* Ring context: CONTEXT_CONTROL, RING_HEAD/TAIL/START/CTL, BB_ADDR_UDW,
 * BB_ADDR, BB_STATE, SBB_ADDR_UDW, SBB_ADDR, SBB_STATE, then on RCS only
 * BB_PER_CTX_PTR, INDIRECT_CTX, INDIRECT_CTX_OFFSET. */
static const uint16_t gen9_ctx_blk0[] = { 0x244, 0x034, 0x030, 0x038, 0x03c,
					  0x168, 0x140, 0x110, 0x11c, 0x114,
					  0x118, 0x1c0, 0x1c4, 0x1c8 };
/* CTX_TIMESTAMP, PDP3 UDW/LDW .. PDP0 UDW/LDW */
static const uint16_t gen9_ctx_blk1[] = { 0x3a8, 0x28c, 0x288, 0x284, 0x280,
					  0x27c, 0x278, 0x274, 0x270 };
static const uint16_t gen9_ctx_blk2_rcs[] = { 0x0c8 }; /* R_PWR_CLK_STATE */
static const uint16_t gen9_ctx_blk2_xcs[] = { 0x200 };
/* Engine state: EXCC, MI_MODE, INSTPM, ..., RING_TIMESTAMP, ..., the CS
 * GPRs 0x600-0x67c, ... */
static const uint16_t gen9_ctx_blk3[] = {
	0x028, 0x09c, 0x0c0, 0x178, 0x17c, 0x358, 0x170, 0x150, 0x154, 0x158,
	0x41c, 0x600, 0x604, 0x608, 0x60c, 0x610, 0x614, 0x618, 0x61c, 0x620,
	0x624, 0x628, 0x62c, 0x630, 0x634, 0x638, 0x63c, 0x640, 0x644, 0x648,
	0x64c, 0x650, 0x654, 0x658, 0x65c, 0x660, 0x664, 0x668, 0x66c, 0x670,
	0x674, 0x678, 0x67c, 0x068,
};

#define GEN9_CTX_BLOCKS 4
#define GEN9_CTX_ENGINE_STATE_BLOCK 2 /* blocks from here: engine state */

static inline void gen9_ctx_blocks(int engine, struct gen9_ctx_block b[GEN9_CTX_BLOCKS])
{
	bool rcs = engine == GEN9_RCS0;

	b[0] = (struct gen9_ctx_block){ CTX_LRI_HEADER_0, rcs ? 14 : 11, gen9_ctx_blk0 };
	b[1] = (struct gen9_ctx_block){ CTX_LRI_HEADER_1, 9, gen9_ctx_blk1 };
	b[2] = (struct gen9_ctx_block){ CTX_LRI_HEADER_2, 1,
					rcs ? gen9_ctx_blk2_rcs : gen9_ctx_blk2_xcs };
	b[3] = (struct gen9_ctx_block){ CTX_LRI_HEADER_3, 44, gen9_ctx_blk3 };
}

struct gen9_reg_span {
	uint32_t first, last; /* absolute, inclusive, dword step */
};

/* RCS render state the model keeps in the image (see above). */
static const struct gen9_reg_span gen9_rcs_render_state[] = {
	{ 0x02088, 0x02088 }, /* FF_SLICE_CHICKEN (indirect ctx batch) */
	{ 0x02090, 0x02090 }, /* _3D_CHICKEN3 (indirect ctx batch) */
	{ 0x02094, 0x02094 }, /* RING_NOPID */
	{ 0x020d4, 0x020d4 }, /* CSFE chicken 1 */
	{ 0x020d8, 0x020d8 }, /* CS_DEBUG_MODE2 (Mesa) */
	{ 0x020e0, 0x020e4 }, /* FF slice chicken, FF slice CS chicken 2 */
	{ 0x020ec, 0x020ec }, /* CS debug mode 1 */
	{ 0x02214, 0x02214 }, /* MI_PREDICATE_RESULT_2 */
	{ 0x02248, 0x02248 }, /* CTX_PREEMPT */
	{ 0x02300, 0x02354 }, /* pipeline statistics */
	{ 0x02400, 0x02440 }, /* MI_PREDICATE_*, 3DPRIM_* */
	{ 0x02500, 0x02508 }, /* GPGPU_DISPATCHDIM X/Y/Z */
	{ 0x02580, 0x02580 }, /* CS chicken 1 */
	{ 0x05200, 0x052fc }, /* stream-out counters and offsets */
	{ 0x07000, 0x0701c }, /* cache mode, GT mode, slice chicken */
	{ 0x07034, 0x07034 }, /* GEN8_L3CNTLREG */
	{ 0x07300, 0x07304 }, /* HDC chicken */
	{ 0x0b118, 0x0b118 }, /* L3SQCREG4 */
	{ 0x0e100, 0x0e1fc }, /* half slice chicken */
	{ 0x0e4f0, 0x0e4f4 }, /* row chicken */
};

#define GEN9_RCS_RENDER_SPANS                                                  \
	(sizeof(gen9_rcs_render_state) / sizeof(gen9_rcs_render_state[0]))
/* Where the render state starts: the first page after the state page. */
#define GEN9_CTX_RENDER_STATE_OFFSET ((LRC_STATE_PN + 1) * 4096)
#define GEN9_CTX_RENDER_STATE_MAX 256 /* dwords the model reserves */

static inline uint32_t gen9_rcs_render_state_dwords(void)
{
	uint32_t k, n = 0;

	for (k = 0; k < GEN9_RCS_RENDER_SPANS; k++)
		n += (gen9_rcs_render_state[k].last - gen9_rcs_render_state[k].first) / 4 + 1;
	return n;
}

/* Does engine's context image hold register reg (absolute)? */
static inline bool gen9_ctx_image_holds(int engine, uint32_t reg)
{
	uint32_t base = gen9_engine_mmio_base((enum gen9_engine_id)engine);
	struct gen9_ctx_block b[GEN9_CTX_BLOCKS];
	unsigned int k, i;

	gen9_ctx_blocks(engine, b);
	for (k = 0; k < GEN9_CTX_BLOCKS; k++)
		for (i = 0; i < b[k].n; i++)
			if (reg == base + b[k].regs[i])
				return true;
	if (engine != GEN9_RCS0)
		return false;
	for (k = 0; k < GEN9_RCS_RENDER_SPANS; k++)
		if (reg >= gen9_rcs_render_state[k].first &&
		    reg <= gen9_rcs_render_state[k].last && !(reg & 3))
			return true;
	return false;
}

#endif
