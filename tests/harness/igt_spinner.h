/* IGT's spinner as igt-gpu-tools 1.27 builds it for a Gen9 engine
 * (lib/igt_dummyload.c: emit_recursive_batch, igt_spin_end), transcribed
 * as facts into our own emitter so host tests can replay it through the
 * mediator and the model (docs/gpu-spinner.md lists the facts).
 *
 * The batch is one 4 KiB buffer object, softpinned or relocated at va:
 *   dword 0..3   only with IGT_SPIN_POLL_RUN: MI_STORE_DWORD_IMM of 1 to
 *                the poll page (PPGTT), IGT's "the spinner runs" flag;
 *                the rest of the first 64 bytes is zero (MI_NOOP);
 *   dword 16     the loop start (LOOP_START_OFFSET 64): MI_ARB_CHECK
 *                unless IGT_SPIN_NO_PREEMPTION, then 960 zero dwords
 *                unless IGT_SPIN_FAST;
 *   then         MI_CONDITIONAL_BATCH_BUFFER_END | Compare Semaphore
 *                (header 0x1b200002), compare data MI_BATCH_BUFFER_END,
 *                address va + 4088 through the PPGTT;
 *                MI_BATCH_BUFFER_START, PPGTT, first level, to va + 64;
 *   dword 1022-3 spin->condition: 0xffffffff, 0xffffffff.
 * igt_spin_end writes MI_BATCH_BUFFER_END (0x05000000) to dword 1022
 * from the CPU; igt_spin_reset writes 0xffffffff back. */
#ifndef TESTS_HARNESS_IGT_SPINNER_H
#define TESTS_HARNESS_IGT_SPINNER_H

#include <stdint.h>

#define IGT_SPIN_BATCH_DW 1024u
#define IGT_SPIN_LOOP_START 64u /* bytes */
#define IGT_SPIN_CONDITION_DW (IGT_SPIN_BATCH_DW - 2)
#define IGT_SPIN_PRECONDITION 0xffffffffu

/* igt_dummyload.h's flags this emitter follows (our own bit values) */
#define IGT_SPIN_POLL_RUN (1u << 2)
#define IGT_SPIN_FAST (1u << 3)
#define IGT_SPIN_NO_PREEMPTION (1u << 4)

struct igt_spin_layout {
	uint32_t cond_bbe_dw; /* MI_CONDITIONAL_BATCH_BUFFER_END */
	uint32_t bbs_dw;      /* the recursive MI_BATCH_BUFFER_START */
};

/* Fills batch (IGT_SPIN_BATCH_DW dwords) as IGT does for a batch at va
 * and its poll page at poll_va; returns where the loop's commands are. */
struct igt_spin_layout igt_spin_emit(uint32_t *batch, uint64_t va,
				     uint64_t poll_va, unsigned int flags);

/* What igt_spin_end writes at dword IGT_SPIN_CONDITION_DW. */
uint32_t igt_spin_end_value(void);

#endif
