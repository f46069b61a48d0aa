/* Host replay of the stock i915 (Linux 6.1) on Skylake: its exact request
 * shapes (tests/harness/i915_shapes.c, by i915 function name) go through
 * the real mediator (scanner, shadow ring/batches/context) and the
 * software Gen9 model, submitted by the i915-like guest through ELSP, on
 * RCS, BCS, VCS and VECS. Checked: accepted, every command audited (scan
 * counts), the seqno where i915 reads it (its timeline HWSP, by GGTT),
 * index-mode stores in the shadow context's per-process HWSP and nowhere
 * in guest memory, CSB completion events, the context workaround values
 * in the registers, the null render state batch walked to its own
 * MI_BATCH_BUFFER_END (a wrong length anywhere in the table would end the
 * walk elsewhere). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmd_table.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_world.h"

#define DATA_VA 0x7f0000000000ull
#define BATCH_VA 0x7e0000000000ull
#define VM 1
#define MARK 0xa5a5a5a5u
#define POISON 0xffffffffu

static const int engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VECS0 };
#define NR_ENG (sizeof(engines) / sizeof(engines[0]))

struct env {
	struct model_world mw; /* first: iw_state_new */
	struct iw_guest q;
	uint64_t data_gpa;
};

static int setup(void **state)
{
	struct env *e = iw_state_new(sizeof(*e), 64, 16);

	iw_guest_up(&e->mw, &e->q, VM);
	e->data_gpa = iw_map(&e->q, DATA_VA, 1);
	e->q.batch_gpa = iw_map(&e->q, BATCH_VA, 4);
	*state = e;
	return 0;
}

static uint32_t *pphwsp(struct env *e, int engine)
{
	return (uint32_t *)e->q.v->eng[engine].sctx.va;
}

static uint64_t guest_pphwsp(struct env *e, int engine)
{
	return e->q.g.ctx[e->q.ctx[engine]].lrca_gpa; /* LRC_PPHWSP_PN = 0 */
}

/* Markers where an index store must not land: the guest's own context
 * page 0 and its engine status page (guest memory); poison in the
 * shadow context's PPHWSP, where it must land. */
static void mark(struct env *e, int engine)
{
	uint32_t i = I915_LRC_PPHWSP_SCRATCH;

	gi_write32(&e->q.g, guest_pphwsp(e, engine) + 4 * i, MARK);
	gi_write32(&e->q.g, guest_pphwsp(e, engine) + 4 * (i + 1), MARK);
	gi_write32(&e->q.g, e->q.g.eng[engine].hwsp_gpa + 4 * i, MARK);
	pphwsp(e, engine)[i] = pphwsp(e, engine)[i + 1] = POISON;
}

static void check_index_store(struct env *e, int engine)
{
	uint32_t i = I915_LRC_PPHWSP_SCRATCH;

	/* RCS: PIPE_CONTROL QW write of 0; others: MI_FLUSH_DW dword 0 */
	assert_int_equal(pphwsp(e, engine)[i], 0);
	assert_int_equal(pphwsp(e, engine)[i + 1],
			 engine == GEN9_RCS0 ? 0 : POISON);
	assert_int_equal(gi_read32(&e->q.g, guest_pphwsp(e, engine) + 4 * i), MARK);
	assert_int_equal(gi_read32(&e->q.g, guest_pphwsp(e, engine) + 4 * (i + 1)), MARK);
	assert_int_equal(gi_read32(&e->q.g, e->q.g.eng[engine].hwsp_gpa + 4 * i), MARK);
}

/* Submit the segment, run to idle; returns the commands the scanner
 * audited for it. */
static uint64_t run(struct env *e, int engine, const struct i915_cs *cs)
{
	uint64_t before = e->q.v->stats.cmds_scanned;
	uint32_t done = e->q.g.eng[engine].completes;
	uint32_t in = e->q.g.eng[engine].idle_to_active;
	int ctx = e->q.ctx[engine];
	const struct gi_ctx *c = &e->q.g.ctx[ctx];

	gi_ring_emit(&e->q.g, ctx, cs->dw, cs->n);
	gi_submit(&e->q.g, ctx, -1);
	assert_int_equal(e->q.v->stats.workloads_rejected, 0);
	assert_int_equal(gi_wait_idle(&e->q.g, engine, 50), 0);
	assert_false(vgpu_failed(e->q.v));
	/* the CSB in the guest's status page reported the schedule-in and
	 * the completion */
	assert_true(e->q.g.eng[engine].idle_to_active > in);
	assert_true(e->q.g.eng[engine].completes > done);
	/* the context image copied back: RING_HEAD where the request ended,
	 * in the guest's ring (what i915 reads on reset / unwind) */
	assert_int_equal(gi_read32(&e->q.g, c->lrca_gpa + LRC_STATE_OFFSET + CTX_RING_HEAD * 4),
			 c->tail);
	return e->q.v->stats.cmds_scanned - before;
}

/* A user execbuf on each engine, as eb_submit builds it: the request's
 * invalidate flush (execlists_request_alloc), the init breadcrumb, the
 * batch start (noarb: no preemption on a vGPU), the fini breadcrumb. The
 * batch stores a known value through the PPGTT. */
static void test_user_request_all_engines(void **state)
{
	struct env *e = *state;
	size_t k;

	for (k = 0; k < NR_ENG; k++) {
		int eng = engines[k];
		uint32_t val = 0xc0de0000u | (uint32_t)eng;
		uint64_t va = DATA_VA + 4ull * eng;
		uint32_t bb[] = { MI_STORE_DWORD_IMM_GEN4, (uint32_t)va,
				  (uint32_t)(va >> 32), val, MI_BATCH_BUFFER_END };
		uint64_t bva = BATCH_VA + 256ull * (uint64_t)eng;
		struct i915_cs cs;
		uint64_t scanned;

		fake_hv_guest_write(&e->mw.hv, VM, e->q.batch_gpa + 256ull * (uint64_t)eng,
				    bb, sizeof(bb));
		e->q.seqno[eng] = 2;
		i915_cs_reset(&cs);
		iw_emit_request(&e->q, &cs, eng, bva);
		mark(e, eng);
		scanned = run(e, eng, &cs);
		/* the ring's commands and the batch's two */
		assert_int_equal(scanned, cs.cmds + 2);
		assert_int_equal(gi_read32(&e->q.g, e->q.tl_gpa + iw_slot(eng)), 2);
		assert_int_equal(gi_read32(&e->q.g, e->data_gpa + 4ull * eng), val);
		check_index_store(e, eng);
	}
}

/* A second request on the same contexts after the first: the seqno
 * advances (init breadcrumb wrote seqno - 1 first), preemption-capable
 * batch start shape (gen8_emit_bb_start) accepted too. */
static void test_two_requests_seqno_advances(void **state)
{
	struct env *e = *state;
	size_t k, r;

	for (k = 0; k < NR_ENG; k++) {
		int eng = engines[k];
		uint32_t bb[] = { MI_BATCH_BUFFER_END, MI_NOOP };

		fake_hv_guest_write(&e->mw.hv, VM, e->q.batch_gpa, bb, sizeof(bb));
		for (r = 0; r < 2; r++) {
			struct i915_cs cs;

			e->q.seqno[eng] = 10 + (uint32_t)r;
			i915_cs_reset(&cs);
			iw_emit_flush(&cs, eng, I915_EMIT_INVALIDATE);
			i915_gen8_emit_init_breadcrumb(&cs, e->q.tl_gm + iw_slot(eng),
						       e->q.seqno[eng]);
			if (r)
				i915_gen8_emit_bb_start(&cs, BATCH_VA, 0);
			else
				i915_gen8_emit_bb_start_noarb(&cs, BATCH_VA, 0);
			iw_emit_fini(&e->q, &cs, eng);
			run(e, eng, &cs);
			assert_int_equal(gi_read32(&e->q.g, e->q.tl_gpa + iw_slot(eng)),
					 e->q.seqno[eng]);
		}
	}
}

/* The null render state batch as transcribed: its commands end at the
 * source's "cmds end" (dword 885) when walked with the shared table, the
 * relocations sit at the source's reloc offsets, and the state block
 * (COLOR_CALC_STATE at 0xe00) holds the blend constants. */
static void test_null_state_walk(void **state)
{
	static uint32_t b[1024];
	uint32_t cmds, n = 0, i = 0;
	size_t len;

	(void)state;
	len = i915_gen9_null_state(b, 1024, 0x100000, &cmds);
	assert_true(len > I915_GEN9_NULL_STATE_STATE_START + 6);
	assert_int_equal(len % 16, 1); /* cacheline of NOOPs + aux BB_END */
	while (i < I915_GEN9_NULL_STATE_CMDS_END) {
		uint32_t l = gen9_cmd_length_engine(b[i], GEN9_RCS0);

		assert_true(l > 0);
		i += l;
		n++;
	}
	assert_int_equal(i, I915_GEN9_NULL_STATE_CMDS_END);
	assert_int_equal(b[i], MI_BATCH_BUFFER_END);
	assert_int_equal(n + 1, cmds);
	assert_int_equal(b[0x7a4 / 4], 0x61010011); /* STATE_BASE_ADDRESS */
	assert_int_equal(b[0x7a8 / 4], 0x100001);
	assert_int_equal(b[0x7b4 / 4], 0x100001);
	assert_int_equal(b[0x7bc / 4], 0x100001);
	assert_int_equal(b[0x7cc / 4], 0x100001);
	assert_int_equal(b[0x7c4 / 4], 1); /* not relocated */
	assert_int_equal(b[I915_GEN9_NULL_STATE_STATE_START + 2], 0x3f800000);
	assert_int_equal(b[I915_GEN9_NULL_STATE_STATE_START + 5], 0x3f800000);
}

/* __engines_record_defaults on RCS: the request carries the context
 * workarounds (intel_engine_emit_ctx_wa) and the null render state batch
 * (intel_renderstate_emit: a secure, i.e. GGTT, batch), then the fini
 * breadcrumb. Accepted, every command of ring and batch audited, the
 * workaround values in the registers (masked: the enable bits set, the
 * disable bits clear), the seqno written. */
static void test_record_defaults_rcs(void **state)
{
	struct env *e = *state;
	static uint32_t b[1024];
	uint32_t gm = gi_gm_alloc(&e->q.g, 4 * 4096, false);
	uint64_t gpa = gi_alloc_pages(&e->q.g, 4);
	uint32_t bcmds;
	size_t len, i;
	struct i915_cs cs;
	uint64_t scanned;

	gi_ggtt_bind(&e->q.g, gm, gpa, 4);
	len = i915_gen9_null_state(b, 1024, gm, &bcmds);
	fake_hv_guest_write(&e->mw.hv, VM, gpa, b, len * 4);
	e->q.seqno[GEN9_RCS0] = 1;
	i915_cs_reset(&cs);
	i915_gen8_emit_flush_rcs(&cs, I915_EMIT_INVALIDATE);
	i915_intel_engine_emit_ctx_wa(&cs);
	i915_gen8_emit_bb_start_noarb(&cs, gm, 1);
	iw_emit_fini(&e->q, &cs, GEN9_RCS0);
	mark(e, GEN9_RCS0);
	scanned = run(e, GEN9_RCS0, &cs);
	assert_int_equal(scanned, cs.cmds + bcmds);
	assert_int_equal(gi_read32(&e->q.g, e->q.tl_gpa + iw_slot(GEN9_RCS0)), 1);
	check_index_store(e, GEN9_RCS0);
	for (i = 0; i < i915_skl_ctx_wa_count; i++) {
		const struct i915_wa *w = &i915_skl_ctx_wa[i];
		uint32_t got = gen9_model_read32(&e->mw.m, w->reg);
		uint32_t mask = w->set >> 16, on = w->set & 0xffff;

		if ((got & mask) != on)
			fail_msg("%s (0x%x) = 0x%x, want bits 0x%x of 0x%x",
				 w->name, w->reg, got, on, mask);
	}
}

/* GVT refuses MI_STORE_DATA_INDEX (cmd_handler_mi_store_data_index:
 * unexpected_cmd) and so do we; i915 6.1 does not emit it on Gen8+
 * execlists. The refusal fails this vGPU's request with the reason. */
static void test_store_data_index_refused_as_gvt(void **state)
{
	struct env *e = *state;
	uint32_t sdi[] = { MI_STORE_DATA_INDEX, I915_LRC_PPHWSP_SCRATCH_ADDR, 1, MI_NOOP };

	gi_ring_emit(&e->q.g, e->q.ctx[GEN9_BCS0], sdi, 4);
	gi_submit(&e->q.g, e->q.ctx[GEN9_BCS0], -1);
	assert_int_equal(e->q.v->stats.workloads_rejected, 1);
	assert_true(vgpu_failed(e->q.v));
}

/* ---- a user batch the scanner refuses (issue 15 item 4) ----------------- */

/* Submit a user request whose batch is bb (written at BATCH_VA + off) and
 * let the GPU run until the engine reports an error or n rounds pass. */
static void submit_user(struct env *e, int eng, const uint32_t *bb, size_t n,
			uint64_t off, struct i915_cs *cs)
{
	fake_hv_guest_write(&e->mw.hv, VM, e->q.batch_gpa + off, bb, n * 4);
	iw_emit_request(&e->q, cs, eng, BATCH_VA + off);
}

static uint32_t eir(struct env *e, int eng)
{
	return (uint32_t)gi_mmio_read(&e->q.g, RING_EIR(e->q.v->eng[eng].base), 4);
}

static void run_until_error(struct env *e, int eng)
{
	for (int k = 0; k < 200 && !(eir(e, eng) & I915_ERROR_INSTRUCTION); k++)
		gi_service(&e->q.g);
	assert_true(eir(e, eng) & I915_ERROR_INSTRUCTION);
}

/* What i915 does on the CS error (execlists_reset): reads the context
 * the engine reports running, resets the engine through GDRST, acks
 * RING_EIR, and resumes the context after the guilty request (its
 * payload skipped). Returns the context ID read before the reset. */
static uint32_t i915_engine_reset(struct env *e, int eng)
{
	const struct gi_ctx *c = &e->q.g.ctx[e->q.ctx[eng]];
	uint32_t base = e->q.v->eng[eng].base;
	uint32_t ccid = (uint32_t)gi_mmio_read(&e->q.g, RING_EXECLIST_STATUS_HI(base), 4);

	gi_mmio_write(&e->q.g, GEN6_GDRST,
		      gen9_engine_reset_domain((enum gen9_engine_id)eng), 4);
	gi_mmio_write(&e->q.g, RING_EIR(base), I915_ERROR_INSTRUCTION, 4);
	assert_int_equal(gi_engine_init(&e->q.g, eng), 0);
	gi_write32(&e->q.g, c->lrca_gpa + LRC_STATE_OFFSET + CTX_RING_HEAD * 4,
		   c->tail);
	return ccid;
}

/* A second-level batch that starts itself (the scanner stops following
 * it: "too many batch starts"; a first-level one is watched for the
 * CPU's end, test_vgpu_busy_loop.c) fails just its request, as a hang would: the ring runs up
 * to the batch start, so the request has started (its init breadcrumb
 * wrote seqno - 1: i915 blames only started requests), the engine reports
 * the error with the context still running (i915 finds the request by
 * it), no completion event; the vGPU is not failed, no fault is counted
 * toward failing it for good, and after i915's engine reset the same
 * context runs its next request. */
static void test_user_batch_loop_fails_only_its_request(void **state)
{
	struct env *e = *state;
	size_t k;

	for (k = 0; k < NR_ENG; k++) {
		int eng = engines[k];
		uint64_t off = 256ull * (uint64_t)eng, va = BATCH_VA + off;
		uint32_t loop[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT |
					    MI_BATCH_SECOND_LEVEL,
				    (uint32_t)(va + 16), (uint32_t)(va >> 32), MI_BATCH_BUFFER_END,
				    MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
				    (uint32_t)(va + 16), (uint32_t)(va >> 32), MI_NOOP };
		uint32_t done = e->q.g.eng[eng].completes;
		struct i915_cs cs;

		e->q.seqno[eng] = 20;
		gi_write32(&e->q.g, e->q.tl_gpa + iw_slot(eng), 0);
		i915_cs_reset(&cs);
		submit_user(e, eng, loop, 8, off, &cs);
		gi_ring_emit(&e->q.g, e->q.ctx[eng], cs.dw, cs.n);
		gi_submit(&e->q.g, e->q.ctx[eng], -1);
		run_until_error(e, eng);
		assert_int_equal(gi_read32(&e->q.g, e->q.tl_gpa + iw_slot(eng)), 19);
		assert_int_equal(e->q.g.eng[eng].completes, done);
		assert_int_equal(e->q.v->stats.user_faults, k + 1);
		assert_int_equal(e->q.v->stats.workloads_rejected, 0);
		assert_false(vgpu_failed(e->q.v));
		assert_int_equal(i915_engine_reset(e, eng),
				 e->q.g.ctx[e->q.ctx[eng]].hw_id);
		assert_int_equal(gi_mmio_read(&e->q.g, RING_EXECLIST_STATUS_HI(
							     e->q.v->eng[eng].base), 4), 0);
		/* the next request of the same context runs */
		e->q.seqno[eng] = 21;
		i915_cs_reset(&cs);
		submit_user(e, eng, (const uint32_t[]){ MI_BATCH_BUFFER_END, MI_NOOP },
			    2, off + 128, &cs);
		run(e, eng, &cs);
		assert_int_equal(gi_read32(&e->q.g, e->q.tl_gpa + iw_slot(eng)), 21);
	}
	assert_int_equal(e->q.v->stats.faults, 0);
	assert_int_equal(e->q.v->stats.resets, 0);
	assert_false(vgpu_dead(e->q.v));
}

/* Two requests in one submission, the second's batch starting a batch
 * that starts a third level (deeper than Gen9 nests: refused). The first
 * request completes (its store lands, its completion interrupt is
 * raised), the second stops at its batch start; another engine of the
 * same vGPU keeps running meanwhile. */
static void test_refused_second_request_keeps_the_first(void **state)
{
	struct env *e = *state;
	uint64_t va2 = BATCH_VA + 0x200, va3 = BATCH_VA + 0x300;
	uint32_t good[] = { MI_STORE_DWORD_IMM_GEN4, (uint32_t)DATA_VA,
			    (uint32_t)(DATA_VA >> 32), 0x600d, MI_BATCH_BUFFER_END };
	uint32_t l1[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT | MI_BATCH_SECOND_LEVEL,
			  (uint32_t)va2, (uint32_t)(va2 >> 32), MI_BATCH_BUFFER_END };
	uint32_t l2[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT | MI_BATCH_SECOND_LEVEL,
			  (uint32_t)va3, (uint32_t)(va3 >> 32), MI_BATCH_BUFFER_END };
	uint32_t l3[] = { MI_STORE_DWORD_IMM_GEN4, (uint32_t)DATA_VA + 4,
			  (uint32_t)(DATA_VA >> 32), 0xbad, MI_BATCH_BUFFER_END };
	struct i915_cs cs;
	uint64_t cfg_reads = e->q.v->stats.cfg_reads;

	fake_hv_guest_write(&e->mw.hv, VM, e->q.batch_gpa + 0x200, l2, sizeof(l2));
	fake_hv_guest_write(&e->mw.hv, VM, e->q.batch_gpa + 0x300, l3, sizeof(l3));
	e->q.seqno[GEN9_RCS0] = 30;
	i915_cs_reset(&cs);
	submit_user(e, GEN9_RCS0, good, 5, 0, &cs);
	e->q.seqno[GEN9_RCS0] = 31;
	submit_user(e, GEN9_RCS0, l1, 4, 0x100, &cs);
	gi_ring_emit(&e->q.g, e->q.ctx[GEN9_RCS0], cs.dw, cs.n);
	gi_submit(&e->q.g, e->q.ctx[GEN9_RCS0], -1);
	run_until_error(e, GEN9_RCS0);
	assert_int_equal(gi_read32(&e->q.g, e->data_gpa), 0x600d);
	assert_int_equal(gi_read32(&e->q.g, e->data_gpa + 4), 0);
	assert_int_equal(gi_read32(&e->q.g, e->q.tl_gpa + iw_slot(GEN9_RCS0)), 30);
	assert_true(e->q.v->stats.irqs_injected > 0);
	/* Delivering those MSIs reads the capability the guest programmed but
	 * is no guest config read: the count stays where the guest left it. */
	assert_int_equal(e->q.v->stats.cfg_reads, cfg_reads);
	assert_int_equal(e->q.v->stats.user_faults, 1);
	/* the blitter of the same vGPU is not held up by the render fault */
	e->q.seqno[GEN9_BCS0] = 5;
	i915_cs_reset(&cs);
	submit_user(e, GEN9_BCS0, (const uint32_t[]){ MI_BATCH_BUFFER_END, MI_NOOP },
		    2, 0x400, &cs);
	run(e, GEN9_BCS0, &cs);
	assert_int_equal(gi_read32(&e->q.g, e->q.tl_gpa + iw_slot(GEN9_BCS0)), 5);
	assert_int_equal(i915_engine_reset(e, GEN9_RCS0),
			 e->q.g.ctx[e->q.ctx[GEN9_RCS0]].hw_id);
	assert_false(vgpu_failed(e->q.v));
}

/* The context submitted again with nothing new in its ring: the render
 * engine runs no command, and the vGPU stays healthy. */
static void empty_submission_runs_nothing(struct env *e, int ctx)
{
	uint64_t cmds_before = e->mw.m.engine[GEN9_RCS0].stats.cmds;

	gi_submit(&e->q.g, ctx, -1);
	for (int k = 0; k < 20; k++)
		gi_service(&e->q.g);
	assert_int_equal(e->mw.m.engine[GEN9_RCS0].stats.cmds, cmds_before);
	assert_false(vgpu_failed(e->q.v));
}

/* A refused batch start at an odd dword of the ring: the run must still
 * end at a qword (RING_TAIL's unit), or the next submission's head lies
 * past the tail the engine reads and it runs round the whole ring over
 * bytes nobody scanned (found by fuzz_vgpu_diff). The context's next
 * submissions - an empty one, then a request - run as they should. */
static void test_cut_at_odd_dword_ends_on_a_qword(void **state)
{
	struct env *e = *state;
	struct vgpu_engine *ve = &e->q.v->eng[GEN9_RCS0];
	uint64_t va = BATCH_VA;
	/* a second-level loop: refused (a first-level one is watched) */
	uint32_t loop[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT |
				    MI_BATCH_SECOND_LEVEL,
			    (uint32_t)(va + 16), (uint32_t)(va >> 32), MI_BATCH_BUFFER_END,
			    MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
			    (uint32_t)(va + 16), (uint32_t)(va >> 32), MI_NOOP };
	uint32_t ring[] = { MI_NOOP, MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
			    (uint32_t)va, (uint32_t)(va >> 32), MI_NOOP, MI_NOOP };
	struct i915_cs cs;

	fake_hv_guest_write(&e->mw.hv, VM, e->q.batch_gpa, loop, sizeof(loop));
	gi_ring_emit(&e->q.g, e->q.ctx[GEN9_RCS0], ring, 6);
	gi_submit(&e->q.g, e->q.ctx[GEN9_RCS0], -1);
	run_until_error(e, GEN9_RCS0);
	assert_int_equal(e->q.v->stats.user_faults, 1);
	assert_int_equal(ve->sring_tail % 8, 0);
	i915_engine_reset(e, GEN9_RCS0);
	empty_submission_runs_nothing(e, e->q.ctx[GEN9_RCS0]);
	e->q.seqno[GEN9_RCS0] = 40;
	i915_cs_reset(&cs);
	submit_user(e, GEN9_RCS0, (const uint32_t[]){ MI_BATCH_BUFFER_END, MI_NOOP },
		    2, 0x800, &cs);
	run(e, GEN9_RCS0, &cs);
	assert_int_equal(gi_read32(&e->q.g, e->q.tl_gpa + iw_slot(GEN9_RCS0)), 40);
}

/* The same for a guest whose context image puts RING_HEAD at an odd
 * dword (a hostile guest can): the shadow ring stays in qwords, so the
 * next submission runs nothing it did not submit. */
static void test_odd_guest_head_keeps_the_shadow_ring_in_qwords(void **state)
{
	struct env *e = *state;
	int ctx = e->q.ctx[GEN9_RCS0];
	const struct gi_ctx *c = &e->q.g.ctx[ctx];
	uint32_t nops[] = { MI_NOOP, MI_NOOP, MI_NOOP, MI_NOOP };
	uint32_t head = c->tail + 4;

	gi_ring_emit(&e->q.g, ctx, nops, 4);
	gi_write32(&e->q.g, c->lrca_gpa + LRC_STATE_OFFSET + CTX_RING_HEAD * 4, head);
	gi_submit(&e->q.g, ctx, -1);
	assert_int_equal(gi_wait_idle(&e->q.g, GEN9_RCS0, 50), 0);
	assert_int_equal(e->q.v->eng[GEN9_RCS0].sring_tail % 8, 0);
	empty_submission_runs_nothing(e, ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_null_state_walk),
		cmocka_unit_test_setup_teardown(test_user_request_all_engines, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_two_requests_seqno_advances, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_record_defaults_rcs, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_store_data_index_refused_as_gvt, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_user_batch_loop_fails_only_its_request, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_refused_second_request_keeps_the_first, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_cut_at_odd_dword_ends_on_a_qword, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_odd_guest_head_keeps_the_shadow_ring_in_qwords, setup, iw_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
