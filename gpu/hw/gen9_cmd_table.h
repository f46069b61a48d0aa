/* One truth for Gen9 command semantics: how long a command is, whether it
 * is privileged, and which memory it touches (address dwords, address
 * space selector, alignment, access size). The mediator's scanner
 * (gpu/vgpu/cmd/vgpu_cmd_scan.c) and the model's command streamer
 * (gpu/model/cmd_exec.c, engine.c through gen9_cmd_length_engine) both
 * decode commands only through this file, so they cannot disagree about
 * where a command ends or which bytes it writes (issue 13: the scanner
 * checked a PIPE_CONTROL qword at addr & ~7 while the model wrote it at
 * addr & ~3).
 *
 * Facts: Mesa's genxml gen9.xml (DWord Length field widths and fixed
 * lengths), Linux gvt/cmd_parser.c (the same, per engine), i915
 * i915_cmd_parser.c and gt/gen8_engine_cs.c (what i915 emits), gen9-facts §6.
 * Header-only so every build that decodes commands gets it without a
 * makefile change. */
#ifndef GPU_HW_GEN9_CMD_TABLE_H
#define GPU_HW_GEN9_CMD_TABLE_H

#include "gpu/hw/gen9_cmds.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where a command says which address space its address is in. */
enum gen9_asi {
	GEN9_ASI_NONE = 0, /* no selector: always the context's PPGTT */
	GEN9_ASI_DW0_B22,  /* DW0 bit 22 = GGTT (SDI, SRM, LRM, ATOMIC, SEM_WAIT, COND_BB_END) */
	GEN9_ASI_DW1_B2,   /* MI_FLUSH_DW: DW1 bit 2 = GGTT */
	GEN9_ASI_DW1_B24,  /* PIPE_CONTROL: DW1 bit 24 = GGTT */
	GEN9_ASI_BB,       /* MI_BATCH_BUFFER_START: DW0 bit 8 = PPGTT */
};

/* Flags of a table entry. */
#define GEN9_CMD_PRIV 0x01 /* privileged: no-op in a non-privileged batch */
#define GEN9_CMD_REG 0x02  /* register command (LRI/LRM/LRR/SRM) */

struct gen9_cmd_info {
	uint32_t mask, match; /* dw0 & mask == match (MI: indexed by opcode) */
	const char *name;
	uint8_t len_bits; /* width of the DWord Length field (bias 2); 0 = fixed */
	uint8_t len_fixed; /* dwords, when len_bits == 0 */
	uint8_t flags;
	uint8_t asi; /* enum gen9_asi */
};

#define RC_M 0xffff0000u /* client, subtype, opcode, sub-opcode */
#define RC_E(st, op, sub) ((3u << 29) | ((uint32_t)(st) << 27) | \
			   ((uint32_t)(op) << 24) | ((uint32_t)(sub) << 16))

/* Commands whose length or semantics differ from their client's default
 * rule. MI opcodes below 0x10 are one dword (no length field); the others
 * use 7:0 unless listed; 2D uses 7:0; 3D (subtype 3, and 0) uses 7:0;
 * media (subtype 2) on RCS uses 15:0; MFX / VEBOX (VCS / VECS) use 11:0.
 * MI entries are indexed by opcode (one lookup per command: the model
 * decodes every command through here). */
static inline const struct gen9_cmd_info *gen9_cmd_special(uint32_t dw0)
{
	static const struct gen9_cmd_info mi[64] = {
		/* Every Gen9 MI command (gen9.xml, plus MI_FLUSH and
		 * MI_SET_APPID from GVT's table), so each has a name for
		 * logs; privileged ones and non-default length fields are
		 * the entries that change decoding. */
		[0x00] = { 0, 0, "MI_NOOP", 0, 1, 0, 0 },
		[0x01] = { 0, 0, "MI_SET_PREDICATE", 0, 1, 0, 0 },
		[0x02] = { 0, 0, "MI_USER_INTERRUPT", 0, 1, 0, 0 },
		[0x03] = { 0, 0, "MI_WAIT_FOR_EVENT", 0, 1, 0, 0 },
		[0x04] = { 0, 0, "MI_FLUSH", 0, 1, 0, 0 },
		[0x05] = { 0, 0, "MI_ARB_CHECK", 0, 1, 0, 0 },
		[0x06] = { 0, 0, "MI_RS_CONTROL", 0, 1, 0, 0 },
		[0x07] = { 0, 0, "MI_REPORT_HEAD", 0, 1, 0, 0 },
		[0x08] = { 0, 0, "MI_ARB_ON_OFF", 0, 1, GEN9_CMD_PRIV, 0 },
		[0x09] = { 0, 0, "MI_URB_ATOMIC_ALLOC", 0, 1, 0, 0 },
		[0x0a] = { 0, 0, "MI_BATCH_BUFFER_END", 0, 1, 0, 0 },
		[0x0b] = { 0, 0, "MI_SUSPEND_FLUSH", 0, 1, 0, 0 },
		[0x0c] = { 0, 0, "MI_PREDICATE", 0, 1, 0, 0 },
		[0x0d] = { 0, 0, "MI_TOPOLOGY_FILTER", 0, 1, 0, 0 },
		[0x0e] = { 0, 0, "MI_SET_APPID", 0, 1, 0, 0 },
		[0x0f] = { 0, 0, "MI_RS_CONTEXT", 0, 1, 0, 0 },
		[0x12] = { 0, 0, "MI_LOAD_SCAN_LINES_INCL", 6, 0, GEN9_CMD_PRIV, 0 },
		[0x13] = { 0, 0, "MI_LOAD_SCAN_LINES_EXCL", 6, 0, GEN9_CMD_PRIV, 0 },
		[0x14] = { 0, 0, "MI_DISPLAY_FLIP", 8, 0, GEN9_CMD_PRIV, 0 },
		[0x18] = { 0, 0, "MI_SET_CONTEXT", 8, 0, GEN9_CMD_PRIV, 0 },
		[0x19] = { 0, 0, "MI_URB_CLEAR", 8, 0, 0, 0 },
		[0x1a] = { 0, 0, "MI_MATH", 8, 0, 0, 0 },
		[0x1b] = { 0, 0, "MI_SEMAPHORE_SIGNAL", 8, 0, 0, 0 },
		[0x1c] = { 0, 0, "MI_SEMAPHORE_WAIT", 8, 0, 0, GEN9_ASI_DW0_B22 },
		[0x1d] = { 0, 0, "MI_FORCE_WAKEUP", 8, 0, 0, 0 },
		[0x20] = { 0, 0, "MI_STORE_DATA_IMM", 10, 0, 0, GEN9_ASI_DW0_B22 },
		[0x21] = { 0, 0, "MI_STORE_DATA_INDEX", 8, 0, GEN9_CMD_PRIV, 0 },
		[0x22] = { 0, 0, "MI_LOAD_REGISTER_IMM", 8, 0, GEN9_CMD_REG, 0 },
		[0x23] = { 0, 0, "MI_UPDATE_GTT", 10, 0, GEN9_CMD_PRIV, 0 },
		[0x24] = { 0, 0, "MI_STORE_REGISTER_MEM", 8, 0, GEN9_CMD_REG, GEN9_ASI_DW0_B22 },
		[0x26] = { 0, 0, "MI_FLUSH_DW", 6, 0, 0, GEN9_ASI_DW1_B2 },
		[0x27] = { 0, 0, "MI_CLFLUSH", 10, 0, 0, GEN9_ASI_DW0_B22 },
		[0x28] = { 0, 0, "MI_REPORT_PERF_COUNT", 6, 0, 0, 0 },
		[0x29] = { 0, 0, "MI_LOAD_REGISTER_MEM", 8, 0, GEN9_CMD_REG, GEN9_ASI_DW0_B22 },
		[0x2a] = { 0, 0, "MI_LOAD_REGISTER_REG", 8, 0, GEN9_CMD_REG, 0 },
		[0x2b] = { 0, 0, "MI_RS_STORE_DATA_IMM", 8, 0, 0, 0 },
		[0x2c] = { 0, 0, "MI_LOAD_URB_MEM", 8, 0, 0, 0 },
		[0x2d] = { 0, 0, "MI_STORE_URB_MEM", 8, 0, 0, 0 },
		[0x2e] = { 0, 0, "MI_COPY_MEM_MEM", 8, 0, 0, GEN9_ASI_DW0_B22 },
		[0x2f] = { 0, 0, "MI_ATOMIC", 8, 0, 0, GEN9_ASI_DW0_B22 },
		[0x31] = { 0, 0, "MI_BATCH_BUFFER_START", 8, 0, 0, GEN9_ASI_BB },
		[0x36] = { 0, 0, "MI_CONDITIONAL_BATCH_BUFFER_END", 8, 0, 0, GEN9_ASI_DW0_B22 },
	};
	static const struct gen9_cmd_info rc[] = {
		/* 3D, single dword (gen9.xml: no DWord Length field). */
		{ RC_M, RC_E(1, 1, 4), "PIPELINE_SELECT", 0, 1, 0, 0 },
		{ RC_M, RC_E(1, 0, 0x0b), "3DSTATE_VF_STATISTICS", 0, 1, 0, 0 },
		/* 3D with a 9-bit length field (gen9.xml "DWord Length" 0..8). */
		{ RC_M, RC_E(3, 1, 0x17), "3DSTATE_SO_DECL_LIST", 9, 0, 0, 0 },
		{ RC_M, RC_E(3, 0, 0x43), "3DSTATE_BINDING_TABLE_EDIT_VS", 9, 0, 0, 0 },
		{ RC_M, RC_E(3, 0, 0x44), "3DSTATE_BINDING_TABLE_EDIT_GS", 9, 0, 0, 0 },
		{ RC_M, RC_E(3, 0, 0x45), "3DSTATE_BINDING_TABLE_EDIT_HS", 9, 0, 0, 0 },
		{ RC_M, RC_E(3, 0, 0x46), "3DSTATE_BINDING_TABLE_EDIT_DS", 9, 0, 0, 0 },
		{ RC_M, RC_E(3, 0, 0x47), "3DSTATE_BINDING_TABLE_EDIT_PS", 9, 0, 0, 0 },
		/* PIPE_CONTROL: 7:0, post-sync address in DW2-3. */
		{ RC_M, RC_E(3, 2, 0), "PIPE_CONTROL", 8, 0, 0, GEN9_ASI_DW1_B24 },
		/* Media: GPGPU_WALKER keeps an 8-bit length (bit 10 is Indirect
		 * Parameter Enable, bit 8 Predicate Enable). */
		{ RC_M, RC_E(2, 1, 5), "GPGPU_WALKER", 8, 0, 0, 0 },
	};
	size_t i;

	switch (instr_client(dw0)) {
	case INSTR_MI_CLIENT:
		return mi[MI_OPCODE(dw0)].name ? &mi[MI_OPCODE(dw0)] : NULL;
	case INSTR_RC_CLIENT:
		for (i = 0; i < sizeof(rc) / sizeof(rc[0]); i++)
			if ((dw0 & rc[i].mask) == rc[i].match)
				return &rc[i];
		return NULL;
	default:
		return NULL;
	}
}

#undef RC_M
#undef RC_E

/* Default width of the length field for a header no entry names. */
static inline uint32_t gen9_cmd_default_len_bits(uint32_t dw0, int engine)
{
	switch (instr_client(dw0)) {
	case INSTR_MI_CLIENT:
		return MI_OPCODE(dw0) < MI_ONE_DWORD_LIMIT ? 0 : 8;
	case INSTR_BC_CLIENT:
		return 8;
	case INSTR_RC_CLIENT:
		/* Subtype 1 holds only single-dword commands: PIPELINE_SELECT,
		 * 3DSTATE_VF_STATISTICS on RCS, MFX_WAIT on VCS (gvt). */
		if (GFXPIPE_SUBTYPE(dw0) == 1)
			return 0;
		if (engine == GEN9_VCS0 || engine == GEN9_VCS1 ||
		    engine == GEN9_VECS0)
			return 12;
		if (engine == GEN9_RCS0 && GFXPIPE_SUBTYPE(dw0) == 2)
			return 16;
		return 8;
	default:
		return 0;
	}
}

/* Total length in dwords of the command starting with dw0 on engine; 0
 * for an undecodable header (clients 1, 4-7). */
static inline uint32_t gen9_cmd_len(uint32_t dw0, int engine)
{
	const struct gen9_cmd_info *ci;
	uint32_t bits;
	uint32_t client = instr_client(dw0);

	if (client != INSTR_MI_CLIENT && client != INSTR_BC_CLIENT &&
	    client != INSTR_RC_CLIENT)
		return 0;
	ci = gen9_cmd_special(dw0);
	/* On VCS/VECS the type-3 space is MFX/VEBOX: the 3D entries do not
	 * apply there. */
	if (ci && client == INSTR_RC_CLIENT && engine != GEN9_RCS0)
		ci = NULL;
	bits = ci ? ci->len_bits : gen9_cmd_default_len_bits(dw0, engine);
	if (!bits)
		return ci ? ci->len_fixed : 1;
	return (dw0 & ((1u << bits) - 1)) + 2;
}

static inline uint32_t gen9_cmd_flags(uint32_t dw0)
{
	const struct gen9_cmd_info *ci = gen9_cmd_special(dw0);

	return ci ? ci->flags : 0;
}

/* The command's name for logs, NULL when the table has none (3D, media,
 * MFX and 2D commands are decoded by their client's rule, unnamed). */
static inline const char *gen9_cmd_name(uint32_t dw0)
{
	const struct gen9_cmd_info *ci = gen9_cmd_special(dw0);

	return ci ? ci->name : NULL;
}

/* ---- memory operands ------------------------------------------------- */

/* The memory access a command makes, decoded from its first dwords. */
struct gen9_mem_ref {
	uint64_t addr; /* address field, aligned as the hardware does */
	uint32_t size; /* bytes accessed */
	bool ggtt; /* the command selects the GGTT (before privilege) */
	bool write;
	bool index; /* "store data index": the write goes to index_off in the
		     * running context's per-process status page (LRCA page 0)
		     * instead of addr */
	uint32_t index_off;
	uint8_t addr_dw; /* dword holding address bits 31:0 (47:32 next) */
	uint8_t asi_dw; /* dword holding the address-space selector */
	uint32_t asi_bit; /* its bit (set = GGTT) */
};

#define GEN9_CMD_MAX_DECODE 6 /* dwords a memory operand decode reads */

static inline uint64_t gen9_addr48(uint32_t lo, uint32_t hi)
{
	return (((uint64_t)hi << 32) | lo) & 0xffffffffffffull;
}

/* Naturally aligned: a qword access ignores address bits 2:0, a dword
 * access bits 1:0 (the rule both sides use; gen9.xml gives the address
 * fields as 47:2, and 47:3 for MI_FLUSH_DW). */
static inline uint64_t gen9_align(uint64_t addr, uint32_t size)
{
	return addr & ~(uint64_t)((size >= 8 ? 8 : 4) - 1);
}

static inline bool gen9_ref_sdi(const uint32_t *dw, uint32_t len,
				struct gen9_mem_ref *r)
{
	if (len < 4)
		return false;
	r->size = 4 * (len - 3);
	r->addr = gen9_addr48(dw[1], dw[2]) &
		  ~(uint64_t)((dw[0] & MI_SDI_QWORD) ? 7 : 3);
	r->ggtt = dw[0] & MI_SDI_GGTT;
	r->addr_dw = 1;
	r->write = true;
	r->asi_bit = MI_SDI_GGTT;
	return true;
}

static inline bool gen9_ref_flush_dw(const uint32_t *dw, uint32_t len,
				     struct gen9_mem_ref *r)
{
	uint32_t op = (dw[0] & MI_FLUSH_DW_OP_MASK) >> MI_FLUSH_DW_OP_SHIFT;

	if (!op || len < 4)
		return false;
	r->size = op == 1 && len < 5 ? 4 : 8;
	r->addr = gen9_addr48(dw[1], dw[2]) & ~7ull; /* 47:3 */
	r->ggtt = dw[1] & MI_FLUSH_DW_USE_GTT;
	r->addr_dw = 1;
	r->index = dw[0] & MI_FLUSH_DW_STORE_INDEX;
	r->index_off = dw[1] & 0xff8;
	r->write = true;
	r->asi_dw = 1;
	r->asi_bit = MI_FLUSH_DW_USE_GTT;
	return true;
}

static inline bool gen9_ref_pipe_control(const uint32_t *dw, uint32_t len,
					 struct gen9_mem_ref *r)
{
	uint32_t op = (dw[1] & PIPE_CONTROL_WRITE_MASK) >> 14;

	if (!op || (dw[1] & PIPE_CONTROL_MMIO_WRITE) || len < 5)
		return false;
	r->size = op == 1 && len < 6 ? 4 : 8;
	r->addr = gen9_align(gen9_addr48(dw[2], dw[3]), r->size);
	r->ggtt = dw[1] & PIPE_CONTROL_GLOBAL_GTT_IVB;
	r->addr_dw = 2;
	r->index = dw[1] & PIPE_CONTROL_STORE_DATA_INDEX;
	r->index_off = (uint32_t)gen9_align(dw[2] & 0xffc, r->size);
	r->write = true;
	r->asi_dw = 1;
	r->asi_bit = PIPE_CONTROL_GLOBAL_GTT_IVB;
	return true;
}

/* SRM / LRM: register in DW1, dword in memory at DW2-3. */
static inline bool gen9_ref_reg_mem(const uint32_t *dw, uint32_t len,
				    bool write, struct gen9_mem_ref *r)
{
	if (len < 4)
		return false;
	r->size = 4;
	r->addr = gen9_addr48(dw[2], dw[3]) & ~3ull;
	r->ggtt = dw[0] & MI_SRM_LRM_GLOBAL_GTT;
	r->addr_dw = 2;
	r->write = write;
	r->asi_bit = MI_SRM_LRM_GLOBAL_GTT;
	return true;
}

/* MI_SEMAPHORE_WAIT (data DW1, address DW2-3) and MI_ATOMIC (address
 * DW1-2; up to a qword, 16 bytes with inline data - the scanner audits
 * the widest). */
static inline bool gen9_ref_sem_atomic(const uint32_t *dw, uint32_t len,
				       struct gen9_mem_ref *r)
{
	bool atomic = MI_OPCODE(dw[0]) == 0x2f;

	if (len < (atomic ? 3u : 4u))
		return false;
	r->size = atomic ? 16 : 4;
	r->addr = atomic ? gen9_addr48(dw[1], dw[2]) & ~3ull
			 : gen9_addr48(dw[2], dw[3]) & ~3ull;
	r->ggtt = dw[0] & (1u << 22);
	r->addr_dw = atomic ? 1 : 2;
	r->write = atomic;
	r->asi_bit = 1u << 22;
	return true;
}

/* MI_CONDITIONAL_BATCH_BUFFER_END: compare data DW1, address DW2-3 with
 * bits 2:0 ignored (gen9.xml "Compare Address" 47:3). The dword compared
 * is at the address; in compare mask mode it is a qword (mask, data).
 * A read, whatever the outcome. */
static inline bool gen9_ref_cond_bb_end(const uint32_t *dw, uint32_t len,
					struct gen9_mem_ref *r)
{
	if (len < 4)
		return false;
	r->size = (dw[0] & MI_COND_BB_END_MASK_MODE) ? 8 : 4;
	r->addr = gen9_addr48(dw[2], dw[3]) & ~7ull;
	r->ggtt = dw[0] & MI_COND_BB_END_GGTT;
	r->addr_dw = 2;
	r->asi_bit = MI_COND_BB_END_GGTT;
	return true;
}

/* Decode the memory operand of a command from its first
 * min(len, GEN9_CMD_MAX_DECODE) dwords. False: the command makes no
 * memory access this table describes (batch starts are decoded by the
 * callers: they change the position, not memory). */
static inline bool gen9_cmd_mem_ref(const uint32_t *dw, uint32_t len,
				    int engine, struct gen9_mem_ref *r)
{
	r->addr = 0;
	r->size = 0;
	r->ggtt = r->write = r->index = false;
	r->addr_dw = r->asi_dw = 0;
	r->index_off = 0;
	r->asi_bit = 0;
	switch (instr_client(dw[0])) {
	case INSTR_MI_CLIENT:
		switch (MI_OPCODE(dw[0])) {
		case MI_OP_STORE_DATA_IMM:
			return gen9_ref_sdi(dw, len, r);
		case MI_OP_STORE_REGISTER_MEM:
			return gen9_ref_reg_mem(dw, len, true, r);
		case MI_OP_LOAD_REGISTER_MEM:
			return gen9_ref_reg_mem(dw, len, false, r);
		case MI_OP_FLUSH_DW:
			return gen9_ref_flush_dw(dw, len, r);
		case MI_OP_SEMAPHORE_WAIT:
		case 0x2f: /* MI_ATOMIC */
			return gen9_ref_sem_atomic(dw, len, r);
		case MI_OP_CONDITIONAL_BATCH_BUFFER_END:
			return gen9_ref_cond_bb_end(dw, len, r);
		default:
			return false;
		}
	case INSTR_RC_CLIENT:
		if (engine == GEN9_RCS0 && GFXPIPE_SUBTYPE(dw[0]) == 3 &&
		    GFXPIPE_OPCODE(dw[0]) == 2 && GFXPIPE_SUBOPCODE(dw[0]) == 0)
			return gen9_ref_pipe_control(dw, len, r);
		return false;
	default:
		return false;
	}
}

/* ---- privilege --------------------------------------------------------- */

/* Registers a non-privileged batch may load on Gen9: the command
 * streamer's general-purpose registers (engine-relative 0x600-0x67c); on
 * the render engine the registers user space loads from its own batches
 * (i915 i915_cmd_parser.c gen7_render_regs, the list of what Mesa needs:
 * MI_PREDICATE_SRC0/1, DATA, RESULT/_1 0x2400-0x241c and RESULT_2 0x2214
 * for conditional rendering, 3DPRIM_* 0x2420-0x2440 for indirect draws,
 * GPGPU_DISPATCHDIM X/Y/Z 0x2500-0x2508 for indirect compute; GEN8_L3CNTLREG
 * 0x7034, which Mesa's Gen9 L3 setup loads; CS_DEBUG_MODE2 0x20d8, which
 * iris and ANV load from their first batch of a context, relying on the
 * kernel's context isolation: Mesa's genX_state.c / iris_state.c) - all
 * state of the running
 * context only; and the registers i915 whitelists through the engine's
 * FORCE_TO_NONPRIV slots (gt/intel_workarounds.c gen9_whitelist_build /
 * skl_whitelist_build: 0x2248 CTX_PREEMPT, 0x2580 CS_CHICKEN1, 0x7304
 * HDC_CHICKEN1, 0x7014 COMMON_SLICE_CHICKEN2, 0xb118 L3SQCREG4,
 * PS_INVOCATION_COUNT 0x2348 read), which the model reads from the slots
 * themselves. This is the fixed part. */
static inline bool gen9_nonpriv_fixed_reg(uint32_t engine_base, uint32_t reg)
{
	if (reg >= engine_base + 0x600 && reg <= engine_base + 0x67c)
		return true;
	if (engine_base != 0x2000) /* RENDER_RING_BASE */
		return false;
	return (reg >= 0x2400 && reg <= 0x2420) || reg == 0x2214 ||
	       (reg >= 0x2430 && reg <= 0x2440) ||
	       (reg >= 0x2500 && reg <= 0x2508) || reg == 0x7034 ||
	       reg == 0x20d8;
}

/* One FORCE_TO_NONPRIV slot's grant: register bits 25:2, access 29:28
 * (0 RW, 1 RD, 2 WR), range 1:0 (1, 4, 16, 64 registers) -
 * gt/intel_engine_regs.h. What the model and the scanner both read. */
static inline bool gen9_nonpriv_slot_allows(uint32_t slot, uint32_t reg,
					    bool write)
{
	static const uint32_t range[4] = { 1, 4, 16, 64 };
	uint32_t start = slot & 0x03fffffcu, access = (slot >> 28) & 3;

	if (!slot || access == 3 || (write && access == 1) ||
	    (!write && access == 2))
		return false;
	return reg >= start && reg < start + 4 * range[slot & 3];
}

/* Total length of a command in dwords on a given engine, for whoever
 * decodes commands (the scanner and the model alike). gen9_cmd_length() is
 * the engine-less form (RCS rules). */
static inline uint32_t gen9_cmd_length_engine(uint32_t dw0, int engine)
{
	return gen9_cmd_len(dw0, engine);
}

static inline uint32_t gen9_cmd_length(uint32_t dw0)
{
	return gen9_cmd_len(dw0, GEN9_RCS0);
}

#endif
