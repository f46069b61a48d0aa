/* What Linux 6.1's i915 puts in its rings and batches on Skylake (Gen9,
 * execlists, GVT-g guest), transcribed as facts into our own emitters,
 * one per i915 function (names given), so host tests can replay the real
 * driver's request shapes through the mediator and the model.
 *
 * GVT-g guest specifics (i915-guest §5, intel_execlists_submission.c): no
 * preemption and no semaphores on a vGPU, so batches start with
 * gen8_emit_bb_start_noarb and the fini breadcrumb has no preempt
 * busywait (MI_SEMAPHORE_WAIT). */
#ifndef TESTS_HARNESS_I915_SHAPES_H
#define TESTS_HARNESS_I915_SHAPES_H

#include <stddef.h>
#include <stdint.h>

/* intel_engine_types.h / i915_request.h: emit_flush modes */
#define I915_EMIT_INVALIDATE (1u << 0)
#define I915_EMIT_FLUSH (1u << 1)
#define I915_EMIT_BARRIER (I915_EMIT_INVALIDATE | I915_EMIT_FLUSH)

/* intel_lrc.h: LRC_PPHWSP_SCRATCH (dword 0x34 of the per-process HWSP) */
#define I915_LRC_PPHWSP_SCRATCH 0x34u
#define I915_LRC_PPHWSP_SCRATCH_ADDR (I915_LRC_PPHWSP_SCRATCH * 4u)

#define I915_CS_MAX 256

/* A ring segment being built, as intel_ring_begin/advance would. */
struct i915_cs {
	uint32_t dw[I915_CS_MAX];
	uint32_t n;
	uint32_t cmds; /* commands emitted (for scan counts) */
};

void i915_cs_reset(struct i915_cs *cs);

/* gen8_engine_cs.c */
void i915_gen8_emit_flush_rcs(struct i915_cs *cs, unsigned int mode);
void i915_gen8_emit_flush_xcs(struct i915_cs *cs, unsigned int mode,
			      int engine);
void i915_gen8_emit_init_breadcrumb(struct i915_cs *cs, uint32_t hwsp,
				    uint32_t seqno);
void i915_gen8_emit_bb_start_noarb(struct i915_cs *cs, uint64_t offset,
				   int secure);
void i915_gen8_emit_bb_start(struct i915_cs *cs, uint64_t offset, int secure);
void i915_gen8_emit_fini_breadcrumb_rcs(struct i915_cs *cs, uint32_t hwsp,
					uint32_t seqno);
void i915_gen8_emit_fini_breadcrumb_xcs(struct i915_cs *cs, uint32_t hwsp,
					uint32_t seqno);

/* intel_workarounds.c: the SKL context workaround list (gen9 + skl, GT2
 * without a 7-EU subslice, so no IZ hashing entry), sorted by register
 * as _wa_add keeps it, entries on one register merged. */
struct i915_wa {
	uint32_t reg, set;
	const char *name;
};
extern const struct i915_wa i915_skl_ctx_wa[];
extern const size_t i915_skl_ctx_wa_count;

/* intel_engine_emit_ctx_wa: barrier flush, one LRI of the list, MI_NOOP,
 * barrier flush (RCS). */
void i915_intel_engine_emit_ctx_wa(struct i915_cs *cs);

/* intel_lrc.c gen9_init_indirectctx_bb on SKL (no pooled EU): the
 * indirect context batch i915 points every render context image at -
 * arbitration off, WaFlushCoherentL3CacheLinesAtContextSwitch (L3SQCREG4
 * saved to the GT scratch + 256 by GGTT, set, flushed, loaded back),
 * WaClearSlmSpaceAtContextSwitch (PIPE_CONTROL index store to the
 * PPHWSP scratch), LRI(3) of COMMON_SLICE_CHICKEN2 / FF_SLICE_CHICKEN /
 * _3D_CHICKEN3, MI_NOOP, arbitration on - padded with MI_NOOPs to a
 * cacheline, no MI_BATCH_BUFFER_END (48 dwords: size 3 in
 * INDIRECT_CTX). scratch: the GT scratch page's GGTT address. */
void i915_gen9_indirectctx_bb(struct i915_cs *cs, uint32_t scratch);
#define I915_GEN9_INDIRECT_CTX_OFFSET_DEFAULT 0x26u /* << 6 in the image */
#define I915_FF_SLICE_CHICKEN 0x2088u
#define I915_3D_CHICKEN3 0x2090u
#define I915_COMMON_SLICE_CHICKEN2 0x7014u
#define I915_GEN8_L3SQCREG4 0xb118u

/* gen9_renderstate.c + intel_renderstate.c render_state_setup: the null
 * render state batch relocated at GGTT address ggtt, padded with MI_NOOPs
 * to a cacheline and followed by the aux MI_BATCH_BUFFER_END. Returns
 * the dwords written (at most max); *cmds_end the dword index of the
 * batch's MI_BATCH_BUFFER_END, *cmds the number of commands before and
 * including it. */
#define I915_GEN9_NULL_STATE_CMDS_END 885u /* "cmds end" in the source */
#define I915_GEN9_NULL_STATE_STATE_START 896u /* COLOR_CALC_STATE at 0xe00 */
size_t i915_gen9_null_state(uint32_t *out, size_t max, uint32_t ggtt,
			    uint32_t *cmds);

#endif
