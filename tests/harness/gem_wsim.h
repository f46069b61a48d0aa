/* IGT's workload simulator batch as igt-gpu-tools 1.27.1 builds it on a
 * Gen9 engine (benchmarks/gem_wsim.c create_bb, the i915 path, and
 * update_bb_start), transcribed as facts into our own emitter so host
 * tests replay it through the mediator and the model.
 *
 * One 4 KiB buffer object at va, for an engine whose MMIO base is B
 * (CS_GPR(x) = B + 0x600 + 8x, TIMESTAMP = B + 0x3a8, CTX_TIMESTAMP):
 *   LRI(1) | MI_CS_MMIO_DST (bit 19): CS_GPR(0) + 4 <- 0
 *   LRR | MI_CS_MMIO_DST | MI_CS_MMIO_SRC (bits 19, 18): TIMESTAMP -> CS_GPR(0)
 *   a zero dword (MI_NOOP) if the next one is not 8-byte aligned  <- "jmp"
 *   MI_ARB_CHECK only when the step is preemptible (w->preempt_us)
 *   LRI(1): CS_GPR(1) + 4 <- 0; LRR: TIMESTAMP -> CS_GPR(1)
 *   MI_MATH(4): LOAD SRCA R1, LOAD SRCB R0, SUB, STOREINV R1 ACCU
 *   MI_STORE_REGISTER_MEM | (1 + use_64b) | MI_CS_MMIO_DST: CS_GPR(1) -> va + 4000
 *   8 x MI_STORE_DWORD_INDEX (MI_INSTR(0x21, 1)): offset 2048, value 0
 *   MI_CONDITIONAL_BATCH_BUFFER_END | MI_DO_COMPARE | (1 + use_64b):
 *       data = bb_duration, address va + 4000
 *   MI_BATCH_BUFFER_START | 1 << 8 | use_64b: to "jmp"
 * bb_duration is written by the CPU before each execbuf (update_bb_start):
 * ~ns_to_ctx_ticks(duration), or 0 for an unbound step. The batch thus
 * loops while ~delta > ~ticks, i.e. until CTX_TIMESTAMP has advanced by
 * at least ticks since the batch began. */
#ifndef TESTS_HARNESS_GEM_WSIM_H
#define TESTS_HARNESS_GEM_WSIM_H

#include <stdbool.h>
#include <stdint.h>

#define WSIM_BATCH_DW 1024u
#define WSIM_DELTA_OFF 4000u /* bytes: where the SRM puts ~delta */
#define WSIM_PPHWSP_OFF 2048u /* STORE_DWORD_INDEX's offset */

struct wsim_layout {
	uint32_t jmp_dw;      /* loop start */
	uint32_t math_dw;     /* MI_MATH header */
	uint32_t duration_dw; /* w->i915.bb_duration */
	uint32_t bbs_dw;      /* the back jump */
};

/* Fills batch (WSIM_BATCH_DW dwords) for an engine at mmio_base and a
 * batch at va, preemptible or not. */
struct wsim_layout wsim_emit(uint32_t *batch, uint64_t va, uint32_t mmio_base,
			     bool preempt);

/* update_bb_start: the step's duration in CS timestamp ticks (0: unbound). */
void wsim_set_duration(uint32_t *batch, const struct wsim_layout *l,
		       uint32_t ticks);

/* ns_to_ctx_ticks: ns at the frequency i915 reports, rounded up. */
uint64_t wsim_ns_to_ticks(uint64_t ns, uint64_t freq_hz);

#endif
