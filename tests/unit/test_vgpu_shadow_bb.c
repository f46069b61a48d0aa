/* What the GPU runs is the checked copy: the mediator on the software
 * Gen9 model, driven by the i915-like guest. The guest rewrites its
 * batches (first level, chained, second level) after submitting them and
 * before the GPU runs them; the GPU must run the bytes that were scanned.
 * Copies of non-privileged batches keep the hardware's meaning (GGTT
 * selectors ignored, privileged commands no-ops); stock i915's index-mode
 * flushes are accepted and land in the vGPU's shadow context. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define DATA_VA 0x7f0000000000ull
#define BATCH_VA 0x7e0000000000ull
#define VM 1
/* i915: LRC_PPHWSP_SCRATCH 0x34 dwords into the per-process HWSP */
#define I915_PPHWSP_SCRATCH_ADDR (0x34 * 4)

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };

struct env {
	struct model_world mw;
	struct vgpu *v;
	struct guest_i915 g;
	int rcs, bcs;
	uint64_t data_gpa, batch_gpa;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct mw_config c = { .pool_mib = 48, .ram_mib = 8 };
	struct guest_i915 *g = &e->g;

	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &small, VM, 8 * MiB, &e->v), 0);
	assert_int_equal(gi_probe(g, &e->mw.hv, e->v, VM, e->mw.gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = &e->mw;
	assert_int_equal(gi_ppgtt_create(g), 0);
	assert_int_equal(gi_engine_init(g, GEN9_RCS0), 0);
	assert_int_equal(gi_engine_init(g, GEN9_BCS0), 0);
	e->rcs = gi_ctx_create(g, GEN9_RCS0);
	e->bcs = gi_ctx_create(g, GEN9_BCS0);
	e->data_gpa = gi_alloc_pages(g, 1);
	gi_ppgtt_map(g, DATA_VA, e->data_gpa, 1);
	e->batch_gpa = gi_alloc_pages(g, 4);
	gi_ppgtt_map(g, BATCH_VA, e->batch_gpa, 4);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	mw_stop(&e->mw);
	assert_int_equal(e->mw.hv.pages_in_use, 0);
	mw_fini(&e->mw);
	free(e);
	return 0;
}

static void put_batch(struct env *e, int page, const uint32_t *dw, size_t bytes)
{
	fake_hv_guest_write(&e->mw.hv, VM, e->batch_gpa + 4096ull * page, dw, bytes);
}

/* The copy the engine's oldest queued workload runs first (the first
 * page its scan took from the shadow batch pool, from its start). */
static uint32_t *first_copy(struct env *e, int engine)
{
	struct vgpu_engine *ve = &e->v->eng[engine];
	const struct workload *w = &ve->wl[ve->wl_head];

	assert_int_equal(w->sbb_n, 1);
	return (uint32_t *)vgpu_sbb_va(e->v, w->sbb_first);
}

static uint32_t data(struct env *e, int i)
{
	return gi_read32(&e->g, e->data_gpa + 4ull * i);
}

/* Submit a ring that calls the PPGTT batch at page 0; nothing has run
 * yet when this returns (the model runs when the guest polls). */
static void submit_batch(struct env *e)
{
	uint64_t rej = e->v->stats.workloads_rejected;

	gi_emit_bb_start(&e->g, e->rcs, BATCH_VA, true);
	gi_submit(&e->g, e->rcs, -1);
	assert_int_equal(e->v->stats.workloads_rejected, rej);
}

static void run_idle(struct env *e, int ctx_engine)
{
	assert_int_equal(gi_wait_idle(&e->g, ctx_engine, 20), 0);
	assert_false(vgpu_failed(e->v));
}

#define SDI(i, val) MI_STORE_DWORD_IMM_GEN4, (uint32_t)(DATA_VA + 4 * (i)), \
	(uint32_t)(DATA_VA >> 32), (val)

/* The guest rewrites its batch between submission and execution. */
static void test_toctou_first_level(void **state)
{
	struct env *e = *state;
	uint32_t good[] = { SDI(0, 0xa), MI_BATCH_BUFFER_END };
	uint32_t evil[] = { SDI(0, 0xb), MI_LOAD_REGISTER_IMM(1), 0x2230, 0,
			    MI_BATCH_BUFFER_END };
	uint64_t copied = e->v->stats.bb_bytes_copied;

	put_batch(e, 0, good, sizeof(good));
	submit_batch(e);
	assert_int_equal(data(e, 0), 0); /* not run yet */
	put_batch(e, 0, evil, sizeof(evil));
	run_idle(e, GEN9_RCS0);
	assert_int_equal(data(e, 0), 0xa);
	/* what the copy costs: the batch, rounded up to one copy step */
	assert_true(e->v->stats.bb_bytes_copied - copied >= sizeof(good));
	assert_true(e->v->stats.bb_bytes_copied - copied <= 256);
	assert_true(e->v->stats.ring_bytes_copied > 0);
}

/* Chain at level 1 into a batch that calls a second-level batch: all
 * three are copies; rewriting all three after submission changes
 * nothing. */
static void test_toctou_chain_and_second_level(void **state)
{
	struct env *e = *state;
	uint32_t b0[] = { SDI(0, 0x10), MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
			  (uint32_t)(BATCH_VA + 4096), (uint32_t)(BATCH_VA >> 32) };
	uint32_t b1[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT | MI_BATCH_SECOND_LEVEL,
			  (uint32_t)(BATCH_VA + 8192), (uint32_t)(BATCH_VA >> 32),
			  SDI(1, 0x11), MI_BATCH_BUFFER_END };
	uint32_t b2[] = { SDI(2, 0x12), MI_BATCH_BUFFER_END };
	uint32_t bad[] = { SDI(3, 0xbad), MI_BATCH_BUFFER_END };

	put_batch(e, 0, b0, sizeof(b0));
	put_batch(e, 1, b1, sizeof(b1));
	put_batch(e, 2, b2, sizeof(b2));
	submit_batch(e);
	put_batch(e, 0, bad, sizeof(bad));
	put_batch(e, 1, bad, sizeof(bad));
	put_batch(e, 2, bad, sizeof(bad));
	run_idle(e, GEN9_RCS0);
	assert_int_equal(data(e, 0), 0x10);
	assert_int_equal(data(e, 1), 0x11);
	assert_int_equal(data(e, 2), 0x12);
	assert_int_equal(data(e, 3), 0);
}

/* The copy is in hypervisor GM: outside every range the guest's GGTT
 * can name, and the batch start the GPU runs points at it. */
static void test_copy_unreachable_and_patched(void **state)
{
	struct env *e = *state;
	struct vgpu_engine *ve = &e->v->eng[GEN9_RCS0];
	uint32_t good[] = { SDI(0, 0x5), MI_BATCH_BUFFER_END };
	uint32_t *ring;
	uint32_t s_head;

	assert_false(vgpu_gm_valid(e->v, e->v->sbb.gm, 4));
	assert_false(vgpu_gm_valid(e->v, e->v->sbb.gm + e->v->sbb.budget * VGPU_PAGE - 4, 4));
	assert_false(vgpu_gm_valid(e->v, ve->sring.gm, 4));
	put_batch(e, 0, good, sizeof(good));
	submit_batch(e);
	s_head = ve->wl[ve->wl_head].s_head;
	ring = (uint32_t *)(ve->sring.va + s_head);
	while (MI_OPCODE(*ring) != MI_OP_BATCH_BUFFER_START) /* after ARB_ON */
		ring++;
	assert_int_equal(ring[0], MI_BATCH_BUFFER_START_GEN8); /* GGTT now */
	assert_int_equal(ring[1], vgpu_sbb_gm(e->v, ve->wl[ve->wl_head].sbb_first));
	assert_int_equal(ring[2], 0);
	assert_memory_equal(first_copy(e, GEN9_RCS0), good, sizeof(good));
	run_idle(e, GEN9_RCS0);
	assert_int_equal(data(e, 0), 0x5);
}

/* A non-privileged batch's GGTT store goes through the PPGTT on Gen9; its
 * privileged copy must do the same, so the scanner clears the bit. */
static void test_nonpriv_copy_ggtt_bit_cleared(void **state)
{
	struct env *e = *state;
	uint32_t gm = gi_gm_alloc(&e->g, 4096, true);
	uint64_t gpa = gi_alloc_pages(&e->g, 1), alias = gi_alloc_pages(&e->g, 1);
	uint32_t bb[] = { MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, gm, 0, 0x77,
			  MI_BATCH_BUFFER_END };

	gi_ggtt_bind(&e->g, gm, gpa, 1);
	gi_ppgtt_map(&e->g, gm, alias, 1);
	put_batch(e, 0, bb, sizeof(bb));
	submit_batch(e);
	run_idle(e, GEN9_RCS0);
	assert_int_equal(gi_read32(&e->g, gpa), 0);
	assert_int_equal(gi_read32(&e->g, alias), 0x77);
	assert_int_equal(e->v->stats.scan_ggtt_cleared, 1);
}

/* A privileged command in a non-privileged batch is a no-op on Gen9: the
 * copy holds MI_NOOPs in its place and the rest runs. */
static void test_nonpriv_copy_privileged_nooped(void **state)
{
	struct env *e = *state;
	struct vgpu_engine *ve = &e->v->eng[GEN9_RCS0];
	uint32_t bb[] = { MI_STORE_DATA_INDEX, 0x40 * 4, 0x1234, SDI(0, 0x9),
			  MI_BATCH_BUFFER_END };
	uint32_t *pphwsp = (uint32_t *)ve->sctx.va;

	pphwsp[0x40] = 0;
	put_batch(e, 0, bb, sizeof(bb));
	submit_batch(e);
	assert_int_equal(first_copy(e, GEN9_RCS0)[0], MI_NOOP);
	run_idle(e, GEN9_RCS0);
	assert_int_equal(pphwsp[0x40], 0);
	assert_int_equal(data(e, 0), 0x9);
	assert_int_equal(e->v->stats.scan_priv_nooped, 1);
}

/* Mesa's MI_COPY_MEM_MEM (query results) in a non-privileged batch: the
 * hardware ignores its GGTT selectors there, so the copy runs with them
 * cleared and both addresses go through the PPGTT. */
static void test_nonpriv_copy_mem_mem(void **state)
{
	struct env *e = *state;
	uint32_t bb[] = { MI_INSTR(0x2e, 3) | MI_COPY_MEM_SRC_GGTT | MI_COPY_MEM_DST_GGTT,
			  (uint32_t)(DATA_VA + 8), (uint32_t)(DATA_VA >> 32),
			  (uint32_t)DATA_VA, (uint32_t)(DATA_VA >> 32),
			  MI_BATCH_BUFFER_END };
	uint32_t seed = 0x5eed;
	uint64_t cleared = e->v->stats.scan_ggtt_cleared;

	fake_hv_guest_write(&e->mw.hv, VM, e->data_gpa, &seed, 4);
	put_batch(e, 0, bb, sizeof(bb));
	submit_batch(e);
	run_idle(e, GEN9_RCS0);
	assert_int_equal(data(e, 2), 0x5eed);
	assert_int_equal(e->v->stats.scan_ggtt_cleared, cleared + 1);
}

/* CVE-2019-0155: real Gen9 blitters honour GGTT selectors and privileged
 * registers in non-privileged batches. Every BCS batch is scanned and runs
 * as the copy: a register outside the allow-list is refused, and a GGTT
 * write is turned into the PPGTT write the PRM specifies. */
static void test_blitter_batches_covered(void **state)
{
	struct env *e = *state;
	uint32_t gm = gi_gm_alloc(&e->g, 4096, true);
	uint64_t gpa = gi_alloc_pages(&e->g, 1), alias = gi_alloc_pages(&e->g, 1);
	uint32_t flush[] = { (MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW,
			     gm | MI_FLUSH_DW_USE_GTT, 0, 0x42, MI_BATCH_BUFFER_END };
	uint32_t lri[] = { MI_LOAD_REGISTER_IMM(1), RING_HWS_PGA(BLT_RING_BASE), 0,
			   MI_BATCH_BUFFER_END };
	uint64_t rej;
	uint32_t hws;

	gi_ggtt_bind(&e->g, gm, gpa, 1);
	gi_ppgtt_map(&e->g, gm, alias, 1);
	put_batch(e, 0, flush, sizeof(flush));
	gi_emit_bb_start(&e->g, e->bcs, BATCH_VA, true);
	gi_submit(&e->g, e->bcs, -1);
	assert_int_equal(first_copy(e, GEN9_BCS0)[1], gm); /* selector cleared */
	run_idle(e, GEN9_BCS0);
	assert_int_equal(gi_read32(&e->g, gpa), 0);
	assert_int_equal(gi_read32(&e->g, alias), 0x42);

	/* An LRI to the engine's status-page address from a user batch: Gen9
	 * drops it (the blitter would not: CVE-2019-0155), so the copy names
	 * RING_NOPID, the batch completes and the register is untouched. */
	hws = gen9_model_read32(&e->mw.m, RING_HWS_PGA(BLT_RING_BASE));
	rej = e->v->stats.workloads_rejected;
	put_batch(e, 0, lri, sizeof(lri));
	gi_emit_bb_start(&e->g, e->bcs, BATCH_VA, true);
	gi_submit(&e->g, e->bcs, -1);
	assert_int_equal(e->v->stats.workloads_rejected, rej);
	assert_int_equal(first_copy(e, GEN9_BCS0)[1], RING_NOPID(BLT_RING_BASE));
	assert_int_equal(e->v->stats.scan_regs_neutralized, 1);
	run_idle(e, GEN9_BCS0);
	assert_int_equal(gen9_model_read32(&e->mw.m, RING_HWS_PGA(BLT_RING_BASE)), hws);
}

/* i915 6.1 starts every request with gen8_emit_flush_rcs (RCS: a null
 * PIPE_CONTROL for the gen9 VF-invalidate workaround, then PIPE_CONTROL
 * with QW_WRITE | STORE_DATA_INDEX to LRC_PPHWSP_SCRATCH_ADDR) or
 * gen8_emit_flush_xcs (MI_FLUSH_DW with STORE_INDEX). Accepted; the
 * store lands in the vGPU's shadow context, never in guest memory. */
static void test_i915_request_start_shapes(void **state)
{
	struct env *e = *state;
	static const uint32_t rcs[] = {
		GFX_OP_PIPE_CONTROL(6), 0, 0, 0, 0, 0,
		GFX_OP_PIPE_CONTROL(6),
		PIPE_CONTROL_CS_STALL | PIPE_CONTROL_TLB_INVALIDATE |
			PIPE_CONTROL_INSTRUCTION_CACHE_INVALIDATE |
			PIPE_CONTROL_TEXTURE_CACHE_INVALIDATE |
			PIPE_CONTROL_VF_CACHE_INVALIDATE |
			PIPE_CONTROL_CONST_CACHE_INVALIDATE |
			PIPE_CONTROL_STATE_CACHE_INVALIDATE |
			PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_STORE_DATA_INDEX,
		I915_PPHWSP_SCRATCH_ADDR, 0, 0, 0,
	};
	static const uint32_t xcs[] = {
		(MI_FLUSH_DW + 1) | MI_FLUSH_DW_STORE_INDEX |
			MI_FLUSH_DW_OP_STOREDW | MI_INVALIDATE_TLB,
		I915_PPHWSP_SCRATCH_ADDR, 0, 0,
	};
	uint32_t *r_hwsp = (uint32_t *)e->v->eng[GEN9_RCS0].sctx.va;
	uint32_t *b_hwsp = (uint32_t *)e->v->eng[GEN9_BCS0].sctx.va;

	r_hwsp[0x34] = r_hwsp[0x35] = 0xffffffff;
	b_hwsp[0x34] = 0xffffffff;
	gi_ring_emit(&e->g, e->rcs, rcs, 12);
	gi_submit(&e->g, e->rcs, -1);
	gi_ring_emit(&e->g, e->bcs, xcs, 4);
	gi_submit(&e->g, e->bcs, -1);
	run_idle(e, GEN9_RCS0);
	run_idle(e, GEN9_BCS0);
	assert_int_equal(e->v->stats.workloads_rejected, 0);
	assert_int_equal(r_hwsp[0x34], 0);
	assert_int_equal(r_hwsp[0x35], 0);
	assert_int_equal(b_hwsp[0x34], 0);
}

/* PIPE_CONTROL's qword write at the last 4 bytes of the vGPU's GM: the
 * scanner and the model align it the same way (one table), so the 8
 * bytes land in the vGPU's own last page, not in its neighbour's. */
static void test_pipe_control_qword_at_range_end(void **state)
{
	struct env *e = *state;
	uint64_t end = e->v->low_base + e->v->low_size;
	uint64_t gpa = gi_alloc_pages(&e->g, 1);
	uint32_t pc[] = { GFX_OP_PIPE_CONTROL(6),
			  PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_GLOBAL_GTT_IVB |
				  PIPE_CONTROL_CS_STALL,
			  (uint32_t)(end - 4), 0, 0x11111111, 0x22222222 };

	gi_ggtt_bind(&e->g, (uint32_t)(end - 4096), gpa, 1);
	gi_ring_emit(&e->g, e->rcs, pc, 6);
	gi_submit(&e->g, e->rcs, -1);
	run_idle(e, GEN9_RCS0);
	assert_int_equal(e->v->stats.workloads_rejected, 0);
	assert_int_equal(gi_read32(&e->g, gpa + 4088), 0x11111111);
	assert_int_equal(gi_read32(&e->g, gpa + 4092), 0x22222222);
}

/* A busy guest keeps its queue full: copies that do not fit the shadow
 * batch pool behind earlier work wait for it to complete instead of
 * failing the vGPU (a stock i915 under load never drains its queue). */
static void test_full_area_waits_not_fails(void **state)
{
	struct env *e = *state;
	enum { BIG = 4 * 1024 - 1, N = 8 };
	static uint32_t big[BIG + 1];
	int k;

	for (k = 0; k < BIG; k++)
		big[k] = MI_NOOP;
	big[BIG] = MI_BATCH_BUFFER_END;
	put_batch(e, 0, big, sizeof(big));
	/* N requests of 3 x 16 KiB cannot all fit a 256 KiB pool. */
	assert_int_equal(vgpu_set_batch_budget(e->v, 256), 0);
	for (k = 0; k < N; k++) {
		uint32_t sdi[] = { SDI(k, 0x100 + k) };

		gi_emit_bb_start(&e->g, e->rcs, BATCH_VA, true);
		gi_emit_bb_start(&e->g, e->rcs, BATCH_VA, true);
		gi_emit_bb_start(&e->g, e->rcs, BATCH_VA, true);
		gi_ring_emit(&e->g, e->rcs, sdi, 4);
		gi_submit(&e->g, e->rcs, -1);
		assert_false(vgpu_failed(e->v));
	}
	assert_true(e->v->stats.elsp_deferred > 0);
	assert_true(e->v->stats.sbb_waits > 0);
	assert_true(e->v->stats.sbb_pages_peak <= 64);
	for (k = 0; k < 2000 && data(e, N - 1) != 0x100 + N - 1; k++)
		gi_service(&e->g);
	assert_false(vgpu_failed(e->v));
	for (k = 0; k < N; k++)
		assert_int_equal(data(e, k), 0x100 + k);
	assert_int_equal(e->v->stats.workloads_rejected, 0);
	/* idle again: the pool is back to its resting size */
	assert_int_equal(e->v->sbb.used, 0);
	assert_true(e->v->stats.sbb_pages <= VGPU_SBB_REST_PAGES);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_toctou_first_level),
		T(test_full_area_waits_not_fails),
		T(test_toctou_chain_and_second_level),
		T(test_copy_unreachable_and_patched),
		T(test_nonpriv_copy_ggtt_bit_cleared),
		T(test_nonpriv_copy_privileged_nooped),
		T(test_nonpriv_copy_mem_mem),
		T(test_blitter_batches_covered),
		T(test_i915_request_start_shapes),
		T(test_pipe_control_qword_at_range_end),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
