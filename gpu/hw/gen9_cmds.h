/* Gen9 command-streamer instruction encodings: header fields, opcodes and
 * lengths (gen9-facts §6; GVT cmd_parser.c, i915 intel_gpu_commands.h, Mesa
 * gen9.xml, igt). Shared by the model's command streamer and the mediator's
 * command scanner.
 *
 * This header is an API other code builds on: change it only by adding. */
#ifndef GPU_HW_GEN9_CMDS_H
#define GPU_HW_GEN9_CMDS_H

#include <stdint.h>

#include "gpu/hw/gen9_regs.h"

/* DW0 bits 31:29 select the client (gen9-facts §6.1). */
#define INSTR_CLIENT_SHIFT 29
#define INSTR_CLIENT_MASK 0x7u
#define   INSTR_MI_CLIENT 0x0
#define   INSTR_BC_CLIENT 0x2 /* 2D / blitter */
#define   INSTR_RC_CLIENT 0x3 /* 3D/media on RCS, MFX on VCS, VEBOX on VECS */

static inline uint32_t instr_client(uint32_t dw0)
{
	return (dw0 >> INSTR_CLIENT_SHIFT) & INSTR_CLIENT_MASK;
}

/* ---- MI commands: opcode 28:23 ---------------------------------------- */

#define MI_INSTR(opcode, flags) (((uint32_t)(opcode) << 23) | (flags))
#define MI_OPCODE(dw0) (((dw0) >> 23) & 0x3f)
/* Opcodes below 0x10 are one dword and have no length field. */
#define MI_ONE_DWORD_LIMIT 0x10

#define MI_NOOP MI_INSTR(0x00, 0)
#define MI_USER_INTERRUPT MI_INSTR(0x02, 0)
#define MI_WAIT_FOR_EVENT MI_INSTR(0x03, 0)
#define MI_ARB_CHECK MI_INSTR(0x05, 0)
#define MI_ARB_ON_OFF MI_INSTR(0x08, 0)
#define   MI_ARB_ENABLE 1
#define   MI_ARB_DISABLE 0
#define MI_BATCH_BUFFER_END MI_INSTR(0x0a, 0)
#define MI_LOAD_SCAN_LINES_INCL MI_INSTR(0x12, 0) /* GVT: fixed 2 dwords */
#define MI_SEMAPHORE_WAIT MI_INSTR(0x1c, 2)
#define   MI_SEMAPHORE_GLOBAL_GTT (1u << 22)
#define   MI_SEMAPHORE_POLL (1u << 15)
#define MI_STORE_DATA_IMM MI_INSTR(0x20, 0)
#define   MI_SDI_GGTT (1u << 22) /* "use global GTT" */
#define   MI_SDI_QWORD (1u << 21)
#define   MI_SDI_LEN_MASK 0x3ffu /* 9:0 */
#define MI_STORE_DWORD_IMM_GEN4 (MI_STORE_DATA_IMM | 2) /* 4 dwords */
#define MI_STORE_QWORD_IMM_GEN8 (MI_STORE_DATA_IMM | MI_SDI_QWORD | 3)
#define MI_STORE_DATA_INDEX MI_INSTR(0x21, 1)
#define MI_LOAD_REGISTER_IMM(n) MI_INSTR(0x22, 2 * (n) - 1)
#define   MI_LRI_FORCE_POSTED (1u << 12)
#define   MI_LRI_REG_MASK 0x007ffffcu /* register offset bits 22:2 */
#define MI_STORE_REGISTER_MEM_GEN8 MI_INSTR(0x24, 2)
#define   MI_SRM_LRM_GLOBAL_GTT (1u << 22)
#define MI_FLUSH_DW MI_INSTR(0x26, 1) /* + length - 1 for 4/5 dwords */
#define   MI_FLUSH_DW_LEN_MASK 0x3fu /* 5:0 */
#define   MI_INVALIDATE_BSD (1u << 7)
#define   MI_FLUSH_DW_NOTIFY (1u << 8)
#define   MI_FLUSH_DW_LLC (1u << 9)
#define   MI_FLUSH_DW_OP_SHIFT 14
#define   MI_FLUSH_DW_OP_MASK (3u << 14)
#define   MI_FLUSH_DW_OP_NONE (0u << 14)
#define   MI_FLUSH_DW_OP_STOREDW (1u << 14)
#define   MI_INVALIDATE_TLB (1u << 18)
#define   MI_FLUSH_DW_STORE_INDEX (1u << 21)
#define   MI_FLUSH_DW_USE_GTT (1u << 2) /* in DW1 */
#define MI_LOAD_REGISTER_MEM_GEN8 MI_INSTR(0x29, 2)
#define MI_LOAD_REGISTER_REG MI_INSTR(0x2a, 1)
#define MI_BATCH_BUFFER_START_GEN8 MI_INSTR(0x31, 1) /* 3 dwords */
#define   MI_BATCH_PPGTT (1u << 8) /* 0 = GGTT ("secure") */
#define   MI_BATCH_RESOURCE_STREAMER (1u << 10)
#define   MI_BATCH_PREDICATE (1u << 15)
#define   MI_BATCH_ADD_OFFSET (1u << 16)
#define   MI_BATCH_SECOND_LEVEL (1u << 22)
#define MI_CONDITIONAL_BATCH_BUFFER_END MI_INSTR(0x36, 2)
#define   MI_COND_BB_END_MASK_MODE (1u << 19) /* "Compare Mask Mode" */
#define   MI_COND_BB_END_COMPARE (1u << 21)   /* "Compare Semaphore" */
#define   MI_COND_BB_END_GGTT (1u << 22)      /* "Use Global GTT" */

/* Opcode values (MI_OPCODE of the header). */
#define MI_OP_NOOP 0x00
#define MI_OP_USER_INTERRUPT 0x02
#define MI_OP_WAIT_FOR_EVENT 0x03
#define MI_OP_ARB_CHECK 0x05
#define MI_OP_ARB_ON_OFF 0x08
#define MI_OP_BATCH_BUFFER_END 0x0a
#define MI_OP_LOAD_SCAN_LINES_INCL 0x12
#define MI_OP_DISPLAY_FLIP 0x14
#define MI_OP_SEMAPHORE_SIGNAL 0x1b
#define MI_OP_SEMAPHORE_WAIT 0x1c
#define MI_OP_STORE_DATA_IMM 0x20
#define MI_OP_STORE_DATA_INDEX 0x21
#define MI_OP_LOAD_REGISTER_IMM 0x22
#define MI_OP_UPDATE_GTT 0x23
#define MI_OP_STORE_REGISTER_MEM 0x24
#define MI_OP_FLUSH_DW 0x26
#define MI_OP_CLFLUSH 0x27
#define MI_OP_REPORT_PERF_COUNT 0x28
#define MI_OP_LOAD_REGISTER_MEM 0x29
#define MI_OP_LOAD_REGISTER_REG 0x2a
#define MI_OP_BATCH_BUFFER_START 0x31
#define MI_OP_URB_ATOMIC_ALLOC 0x09
#define MI_OP_SET_APPID 0x0e
#define MI_OP_URB_CLEAR 0x19
#define MI_OP_MATH 0x1a
#define MI_OP_COPY_MEM_MEM 0x2e
#define MI_OP_ATOMIC 0x2f
#define   MI_COPY_MEM_SRC_GGTT (1u << 22) /* "Use Global GTT Source" */
#define   MI_COPY_MEM_DST_GGTT (1u << 21) /* "Use Global GTT Destination" */
#define MI_OP_CONDITIONAL_BATCH_BUFFER_END 0x36

/* ---- 2D (blitter) commands: opcode 28:22, length 7:0 ------------------- */

#define BLT_OPCODE(dw0) (((dw0) >> 22) & 0x7f)
#define XY_COLOR_BLT_CMD ((2u << 29) | (0x50u << 22) | 5) /* 7 dwords */
#define XY_SRC_COPY_BLT_CMD ((2u << 29) | (0x53u << 22) | 8) /* 10 dwords */
#define XY_FAST_COPY_BLT_CMD ((2u << 29) | (0x42u << 22) | 8)
#define   BLT_WRITE_ALPHA (1u << 21)
#define   BLT_WRITE_RGB (1u << 20)
#define   BLT_WRITE_RGBA (BLT_WRITE_RGB | BLT_WRITE_ALPHA)
#define   BLT_SRC_TILED (1u << 15)
#define   BLT_DST_TILED (1u << 11)
#define BLT_OP_COLOR 0x50
#define BLT_OP_SRC_COPY 0x53
#define BLT_OP_FAST_COPY 0x42
/* BR13 (DW1): 25:24 depth, 23:16 ROP, 15:0 destination pitch. */
#define BR13_DEPTH_SHIFT 24
#define BR13_DEPTH_MASK (3u << 24)
#define   BR13_8BPP (0u << 24)
#define   BR13_565 (1u << 24)
#define   BR13_1555 (2u << 24)
#define   BR13_32BPP (3u << 24)
#define BR13_ROP_SHIFT 16
#define BR13_ROP_MASK (0xffu << 16)
#define   ROP_SRCCOPY 0xcc
#define   ROP_PATCOPY 0xf0
#define BR13_PITCH_MASK 0xffffu

/* ---- GFXPIPE (3D / media) on RCS: type 3 ------------------------------ */

#define GFXPIPE_SUBTYPE(dw0) (((dw0) >> 27) & 0x3)
#define GFXPIPE_OPCODE(dw0) (((dw0) >> 24) & 0x7)
#define GFXPIPE_SUBOPCODE(dw0) (((dw0) >> 16) & 0xff)
#define GFX_OP_PIPE_CONTROL(len) ((0x3u << 29) | (0x3u << 27) | (0x2u << 24) | ((len) - 2))
#define PIPE_CONTROL_DWORDS 6
#define   PIPE_CONTROL_DEPTH_CACHE_FLUSH (1u << 0)
#define   PIPE_CONTROL_STALL_AT_SCOREBOARD (1u << 1)
#define   PIPE_CONTROL_STATE_CACHE_INVALIDATE (1u << 2)
#define   PIPE_CONTROL_CONST_CACHE_INVALIDATE (1u << 3)
#define   PIPE_CONTROL_VF_CACHE_INVALIDATE (1u << 4)
#define   PIPE_CONTROL_DC_FLUSH_ENABLE (1u << 5)
#define   PIPE_CONTROL_FLUSH_ENABLE (1u << 7)
#define   PIPE_CONTROL_NOTIFY (1u << 8)
#define   PIPE_CONTROL_TEXTURE_CACHE_INVALIDATE (1u << 10)
#define   PIPE_CONTROL_INSTRUCTION_CACHE_INVALIDATE (1u << 11)
#define   PIPE_CONTROL_RENDER_TARGET_CACHE_FLUSH (1u << 12)
#define   PIPE_CONTROL_DEPTH_STALL (1u << 13)
#define   PIPE_CONTROL_WRITE_MASK (3u << 14)
#define   PIPE_CONTROL_WRITE_NONE (0u << 14)
#define   PIPE_CONTROL_QW_WRITE (1u << 14) /* write immediate */
#define   PIPE_CONTROL_WRITE_DEPTH_COUNT (2u << 14)
#define   PIPE_CONTROL_WRITE_TIMESTAMP (3u << 14)
#define   PIPE_CONTROL_MEDIA_STATE_CLEAR (1u << 16)
#define   PIPE_CONTROL_TLB_INVALIDATE (1u << 18)
#define   PIPE_CONTROL_CS_STALL (1u << 20)
#define   PIPE_CONTROL_STORE_DATA_INDEX (1u << 21)
#define   PIPE_CONTROL_MMIO_WRITE (1u << 23)
#define   PIPE_CONTROL_GLOBAL_GTT_IVB (1u << 24) /* dest GGTT (1) / PPGTT (0) */
#define   PIPE_CONTROL_FLUSH_L3 (1u << 26) /* "flush LLC" in gen9-facts §6.2 */

#endif
