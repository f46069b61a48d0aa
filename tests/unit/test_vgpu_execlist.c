/* Execlist submission end to end against the fake gpu_hw (which completes
 * contexts without executing them): ELSP -> workload -> physical ELSP in
 * the shadow context -> completion -> virtual CSB in the guest's status
 * page -> virtual interrupts; plus lite restore, element switch, rejected
 * and hung workloads, the scheduler and MMIO switching. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_ctx_image.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };

struct env {
	struct model_world mw;
	struct vgpu *v[2];
	struct guest_i915 g[2];
	uint32_t seq_gm[2];
	uint64_t seq_gpa[2];
};

static void guest_up(struct env *e, int i)
{
	struct guest_i915 *g = &e->g[i];

	assert_int_equal(mw_add_vgpu(&e->mw, &small, i + 1, 8 * MiB, &e->v[i]), 0);
	assert_int_equal(gi_probe(g, &e->mw.hv, e->v[i], i + 1, e->mw.gvt), 0);
	assert_int_equal(gi_ppgtt_create(g), 0);
	assert_int_equal(gi_engine_init(g, GEN9_RCS0), 0);
	assert_int_equal(gi_engine_init(g, GEN9_BCS0), 0);
	e->seq_gpa[i] = gi_alloc_pages(g, 1);
	e->seq_gm[i] = gi_gm_alloc(g, 4096, true);
	gi_ggtt_bind(g, e->seq_gm[i], e->seq_gpa[i], 1);
}

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct mw_config c = { .pool_mib = 64, .ram_mib = 32, .fake_gpu = true };

	assert_int_equal(mw_init(&e->mw, &c), 0);
	guest_up(e, 0);
	guest_up(e, 1);
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

static void test_submit_csb_irq(void **state)
{
	struct env *e = *state;
	struct guest_i915 *g = &e->g[0];
	struct vgpu *v = e->v[0];
	int c = gi_ctx_create(g, GEN9_RCS0);
	uint32_t *st;
	uint64_t desc;

	assert_true(c >= 0);
	gi_emit_breadcrumb(g, c, e->seq_gm[0], 1);
	gi_submit(g, c, -1);
	assert_int_equal(gi_wait_idle(g, GEN9_RCS0, 10), 0);
	/* Guest view: idle->active, then complete+active->idle. */
	assert_int_equal(g->eng[GEN9_RCS0].idle_to_active, 1);
	assert_int_equal(g->eng[GEN9_RCS0].completes, 1);
	assert_int_equal(g->eng[GEN9_RCS0].csb_events, 2);
	/* Registers mirror the HWSP. */
	assert_int_equal(gi_mmio_read(g, RING_CONTEXT_STATUS_PTR(0x2000), 4) & 7, 1);
	assert_int_equal(gi_mmio_read(g, RING_CONTEXT_STATUS_BUF_LO(0x2000, 1), 4),
			 GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_ACTIVE_IDLE);
	assert_int_equal(gi_mmio_read(g, RING_CONTEXT_STATUS_BUF_HI(0x2000, 1), 4),
			 g->ctx[c].hw_id);
	/* Interrupts: context switch and the user interrupt from the ring. */
	assert_true(g->irqs_handled >= 1);
	assert_int_equal(g->iir_seen[0] & (GT_CONTEXT_SWITCH_INTERRUPT |
					   GT_RENDER_USER_INTERRUPT),
			 GT_CONTEXT_SWITCH_INTERRUPT | GT_RENDER_USER_INTERRUPT);
	/* The hardware ran the shadow context, not the guest's. */
	desc = e->mw.gpu.submitted[GEN9_RCS0];
	assert_true((desc & GEN8_CTX_LRCA_MASK) == v->eng[GEN9_RCS0].sctx.gm);
	assert_true((uint32_t)desc != (uint32_t)(g->ctx[c].lrca | 0));
	st = (uint32_t *)(v->eng[GEN9_RCS0].sctx.va + 4096);
	assert_int_equal(st[CTX_RING_START], v->eng[GEN9_RCS0].sring.gm);
	assert_true(((uint64_t)st[CTX_PDP0_UDW] << 32 | st[CTX_PDP0_LDW]) ==
		    SPT(v, MM(v, 0).root).shadow_hpa);
	assert_int_equal(st[CTX_LRI_HEADER_0], GEN9_CTX_LRI_HEADER_0_VAL);
	assert_int_equal(st[CTX_BB_PER_CTX_PTR], 0);
	/* The guest's image: head caught up with tail, no host address. */
	assert_int_equal(gi_read32(g, g->ctx[c].lrca_gpa + 4096 + CTX_RING_HEAD * 4),
			 g->ctx[c].tail);
	assert_int_equal(gi_read32(g, g->ctx[c].lrca_gpa + 4096 + CTX_RING_START * 4),
			 g->ctx[c].ring_gm);
	assert_int_equal(v->stats.workloads_done, 1);
	assert_true(v->stats.cmds_scanned >= 3);
	/* A second submission of the same context continues at the tail. */
	gi_emit_breadcrumb(g, c, e->seq_gm[0], 2);
	gi_submit(g, c, -1);
	assert_int_equal(gi_wait_idle(g, GEN9_RCS0, 10), 0);
	assert_int_equal(g->eng[GEN9_RCS0].completes, 2);
	assert_int_equal(st[CTX_RING_TAIL] - st[CTX_RING_HEAD], 32);
}

/* The guest's register-state page outside its LRI blocks' values is
 * never run: garbage in every gap, header and register offset (a forged
 * MI_LOAD_REGISTER_IMM of a register of the guest's choosing) comes out
 * as zero, our headers and our offsets in the shadow context, dword by
 * dword; the values stay the guest's (sanitize_state, which clears only
 * the gaps since issue 31). */
static void test_ctx_image_sanitized(void **state)
{
	struct env *e = *state;
	struct guest_i915 *g = &e->g[0];
	struct vgpu *v = e->v[0];
	int c = gi_ctx_create(g, GEN9_RCS0);
	struct gen9_ctx_block b[GEN9_CTX_BLOCKS];
	uint8_t role[1024] = { 0 }; /* 0 gap, 1 header, 2 offset, 3 value */
	uint64_t page;
	uint32_t *st, i, k;

	assert_true(c >= 0);
	page = g->ctx[c].lrca_gpa + 4096;
	gen9_ctx_blocks(GEN9_RCS0, b);
	for (k = 0; k < GEN9_CTX_BLOCKS; k++) {
		role[b[k].at] = 1;
		for (i = 0; i < b[k].n; i++) {
			role[b[k].at + 1 + 2 * i] = 2;
			role[b[k].at + 2 + 2 * i] = 3;
		}
	}
	for (i = 0; i < 1024; i++)
		if (role[i] != 3)
			gi_write32(g, page + 4 * i, i == 7 ? MI_LOAD_REGISTER_IMM(1)
							  : 0xdead0000u | i);
	gi_emit_breadcrumb(g, c, e->seq_gm[0], 1);
	gi_submit(g, c, -1);
	assert_int_equal(gi_wait_idle(g, GEN9_RCS0, 10), 0);
	st = (uint32_t *)(v->eng[GEN9_RCS0].sctx.va + 4096);
	for (k = 0; k < GEN9_CTX_BLOCKS; k++) {
		assert_int_equal(st[b[k].at] & ~MI_LRI_FORCE_POSTED,
				 MI_LOAD_REGISTER_IMM(b[k].n));
		for (i = 0; i < b[k].n; i++)
			assert_int_equal(st[b[k].at + 1 + 2 * i], 0x2000 + b[k].regs[i]);
	}
	assert_int_equal(st[CTX_LRI_HEADER_0], GEN9_CTX_LRI_HEADER_0_VAL);
	for (i = 0; i < 1024; i++) {
		if (role[i] == 0)
			assert_int_equal(st[i], i == GEN9_CTX_REG_STATE_DWORDS
					 ? MI_BATCH_BUFFER_END : 0);
	}
}

/* The guest's ELSP write only validates, queues and posts (issues 27 and
 * 31): the scheduler runs after the trap, from the hypervisor's step
 * before the next entry (gpu_host_after_exit; gi_mmio_write plays it).
 * Between the two nothing of the scheduler has run: no gvt_poll, nothing
 * on the GPU, no virtual CSB event; the workload is queued and posted. */
static void test_elsp_only_queues(void **state)
{
	struct env *e = *state;
	struct guest_i915 *g = &e->g[0];
	struct vgpu *v = e->v[0];
	int c = gi_ctx_create(g, GEN9_RCS0);
	uint64_t polls = e->mw.gvt->poll_calls;
	uint64_t sub = e->mw.gpu.submitted[GEN9_RCS0];
	uint64_t ptr = gi_mmio_read(g, RING_CONTEXT_STATUS_PTR(0x2000), 4);

	assert_true(c >= 0);
	gi_emit_breadcrumb(g, c, e->seq_gm[0], 1);
	g->no_after_exit = true;
	gi_submit(g, c, -1);
	g->no_after_exit = false;
	assert_int_equal(v->stats.elsp_submits, 1);
	assert_int_equal(v->stats.workloads, 1);
	assert_int_equal(e->mw.gvt->poll_calls, polls);
	assert_int_equal(gvt_posted(e->mw.gvt), 1ull << (v->id - 1));
	assert_int_equal(e->mw.gpu.submitted[GEN9_RCS0], sub);
	assert_false(e->mw.gpu.pending[GEN9_RCS0]);
	assert_int_equal(v->stats.workloads_done, 0);
	assert_int_equal(gi_mmio_read(g, RING_CONTEXT_STATUS_PTR(0x2000), 4),
			 ptr);
	assert_int_equal(gvt_owner_id(e->mw.gvt), 0);
	/* The step after the exit: one poll takes the post and dispatches. */
	gvt_poll(e->mw.gvt);
	assert_int_equal(e->mw.gvt->poll_calls, polls + 1);
	assert_int_equal(gvt_posted(e->mw.gvt), 0);
	assert_int_equal(gvt_owner_id(e->mw.gvt), v->id);
	assert_true((e->mw.gpu.submitted[GEN9_RCS0] & GEN8_CTX_LRCA_MASK) ==
		    v->eng[GEN9_RCS0].sctx.gm);
	assert_true(gi_mmio_read(g, RING_CONTEXT_STATUS_PTR(0x2000), 4) !=
		    ptr);
	assert_int_equal(gi_wait_idle(g, GEN9_RCS0, 10), 0);
	assert_int_equal(g->eng[GEN9_RCS0].completes, 1);
	assert_int_equal(v->stats.workloads_done, 1);
}

/* Posts from two vGPUs add up and one poll takes both; an ELSP write
 * the mediator drops (element 0 not valid) posts nothing. */
static void test_elsp_posts_add_up(void **state)
{
	struct env *e = *state;
	int c0 = gi_ctx_create(&e->g[0], GEN9_RCS0);
	int c1 = gi_ctx_create(&e->g[1], GEN9_RCS0);
	uint64_t both = 1ull << (e->v[0]->id - 1) | 1ull << (e->v[1]->id - 1);
	int i;

	assert_true(c0 >= 0 && c1 >= 0);
	for (i = 0; i < 4; i++)
		vgpu_mmio_write(e->v[0], RING_ELSP(0x2000), 0, 4);
	assert_int_equal(e->v[0]->stats.elsp_dropped, 1);
	assert_int_equal(gvt_posted(e->mw.gvt), 0);
	gi_emit_breadcrumb(&e->g[0], c0, e->seq_gm[0], 1);
	gi_emit_breadcrumb(&e->g[1], c1, e->seq_gm[1], 1);
	e->g[0].no_after_exit = e->g[1].no_after_exit = true;
	gi_submit(&e->g[0], c0, -1);
	gi_submit(&e->g[1], c1, -1);
	assert_int_equal(gvt_posted(e->mw.gvt), both);
	gvt_poll(e->mw.gvt);
	assert_int_equal(gvt_posted(e->mw.gvt), 0);
	e->g[0].no_after_exit = e->g[1].no_after_exit = false;
	assert_int_equal(gi_wait_idle(&e->g[0], GEN9_RCS0, 10), 0);
	assert_int_equal(gi_wait_idle(&e->g[1], GEN9_RCS0, 100), 0);
	assert_int_equal(e->v[0]->stats.workloads_done, 1);
	assert_int_equal(e->v[1]->stats.workloads_done, 1);
}

static void test_two_elements(void **state)
{
	struct env *e = *state;
	struct guest_i915 *g = &e->g[0];
	int a = gi_ctx_create(g, GEN9_BCS0), b = gi_ctx_create(g, GEN9_BCS0);

	gi_emit_breadcrumb(g, a, e->seq_gm[0], 1);
	gi_emit_breadcrumb(g, b, e->seq_gm[0] + 8, 2);
	gi_submit(g, a, b);
	assert_int_equal(gi_wait_idle(g, GEN9_BCS0, 20), 0);
	assert_int_equal(g->eng[GEN9_BCS0].idle_to_active, 1);
	assert_int_equal(g->eng[GEN9_BCS0].completes, 2);
	assert_int_equal(g->eng[GEN9_BCS0].csb_events, 3);
	assert_int_equal(e->mw.gpu.submits[GEN9_BCS0], 2);
	assert_int_equal(g->iir_seen[0] >> 16 & GT_CONTEXT_SWITCH_INTERRUPT,
			 GT_CONTEXT_SWITCH_INTERRUPT);
}

static void test_lite_restore(void **state)
{
	struct env *e = *state;
	struct guest_i915 *g = &e->g[0];
	int c = gi_ctx_create(g, GEN9_RCS0);

	e->mw.gpu.auto_complete = false;
	gi_emit_breadcrumb(g, c, e->seq_gm[0], 1);
	gi_submit(g, c, -1);
	gi_service(g);
	assert_true(g->eng[GEN9_RCS0].active);
	/* New tail for the running context: i915's lite restore. */
	gi_emit_breadcrumb(g, c, e->seq_gm[0], 2);
	gi_submit(g, c, -1);
	fake_gpu_complete(&e->mw.gpu, GEN9_RCS0);
	gi_service(g);
	fake_gpu_complete(&e->mw.gpu, GEN9_RCS0);
	assert_int_equal(gi_wait_idle(g, GEN9_RCS0, 10), 0);
	assert_int_equal(g->eng[GEN9_RCS0].idle_to_active, 1);
	assert_int_equal(g->eng[GEN9_RCS0].lite_restores, 1);
	assert_int_equal(g->eng[GEN9_RCS0].completes, 1);
	assert_int_equal(e->v[0]->stats.workloads_done, 2);
}

static void test_rejected_fails_only_that_vgpu(void **state)
{
	struct env *e = *state;
	struct guest_i915 *g0 = &e->g[0], *g1 = &e->g[1];
	int c0 = gi_ctx_create(g0, GEN9_RCS0), c1 = gi_ctx_create(g1, GEN9_RCS0);
	uint32_t bad[4] = { MI_LOAD_REGISTER_IMM(1), RING_ELSP(0x2000), 0, MI_NOOP };

	gi_ring_emit(g0, c0, bad, 4);
	gi_submit(g0, c0, -1);
	assert_true(vgpu_failed(e->v[0]));
	assert_int_equal(e->v[0]->stats.workloads_rejected, 1);
	gi_service(g0);
	assert_true(g0->iir_seen[0] & GT_CS_MASTER_ERROR_INTERRUPT);
	assert_int_equal(gi_mmio_read(g0, RING_EIR(0x2000), 4), I915_ERROR_INSTRUCTION);
	assert_int_equal(e->mw.gpu.submits[GEN9_RCS0], 0);
	/* Further submissions are dropped until reset. */
	gi_emit_breadcrumb(g0, c0, e->seq_gm[0], 1);
	gi_submit(g0, c0, -1);
	assert_int_equal(e->v[0]->stats.elsp_dropped, 1);
	/* The other vGPU is unaffected. */
	gi_emit_breadcrumb(g1, c1, e->seq_gm[1], 1);
	gi_submit(g1, c1, -1);
	assert_int_equal(gi_wait_idle(g1, GEN9_RCS0, 10), 0);
	assert_false(vgpu_failed(e->v[1]));
	/* The guest's reset (i915 hang recovery) brings it back. */
	gi_mmio_write(g0, GEN6_GDRST, GEN6_GRDOM_RENDER, 4);
	assert_false(vgpu_failed(e->v[0]));
}

static void test_hang_resets_engine(void **state)
{
	struct env *e = *state;
	struct guest_i915 *g = &e->g[0];
	int c = gi_ctx_create(g, GEN9_BCS0);

	e->mw.gpu.auto_complete = false;
	gi_emit_breadcrumb(g, c, e->seq_gm[0], 1);
	gi_submit(g, c, -1);
	gi_service(g);
	assert_non_null(e->mw.gvt->pe[GEN9_BCS0].inflight);
	e->mw.hv.now += 3000000000ull; /* past the 2 s hang timeout */
	gi_service(g);
	assert_null(e->mw.gvt->pe[GEN9_BCS0].inflight);
	assert_int_equal(e->mw.gvt->pe[GEN9_BCS0].resets, 1);
	assert_true(vgpu_failed(e->v[0]));
	assert_int_equal(e->v[0]->stats.workloads_failed, 1);
}

static void test_scheduler_switches_and_mmio(void **state)
{
	struct env *e = *state;
	struct guest_i915 *g0 = &e->g[0], *g1 = &e->g[1];
	int c0 = gi_ctx_create(g0, GEN9_RCS0), c1 = gi_ctx_create(g1, GEN9_RCS0);
	int i;

	/* Each guest programs its own PPAT (switched state). */
	gi_mmio_write(g0, GEN8_PRIVATE_PAT_LO, 0x11111111, 4);
	gi_mmio_write(g1, GEN8_PRIVATE_PAT_LO, 0x22222222, 4);
	e->mw.gpu.auto_complete = false;
	/* vGPU 1 queues all its work before vGPU 2 asks: a vGPU with
	 * nothing queued beyond what runs yields at once (the switch, once
	 * decided, stands, as in GVT). */
	for (i = 0; i < 3; i++) {
		gi_emit_breadcrumb(g0, c0, e->seq_gm[0], i);
		gi_submit(g0, c0, -1);
	}
	for (i = 0; i < 3; i++) {
		gi_emit_breadcrumb(g1, c1, e->seq_gm[1], i);
		gi_submit(g1, c1, -1);
	}
	/* vGPU 1 got the GPU first and keeps it for its slice. */
	gvt_poll(e->mw.gvt);
	assert_ptr_equal(e->mw.gvt->owner, e->v[0]);
	assert_int_equal(e->mw.gpu.regs[GEN8_PRIVATE_PAT_LO / 4], 0x11111111);
	fake_gpu_complete(&e->mw.gpu, GEN9_RCS0);
	gvt_poll(e->mw.gvt);
	assert_ptr_equal(e->mw.gvt->owner, e->v[0]);
	/* Slice over: switch once the engine drained. */
	e->mw.hv.now += 17000000;
	fake_gpu_complete(&e->mw.gpu, GEN9_RCS0);
	gvt_poll(e->mw.gvt);
	assert_ptr_equal(e->mw.gvt->owner, e->v[1]);
	assert_int_equal(e->mw.gpu.regs[GEN8_PRIVATE_PAT_LO / 4], 0x22222222);
	/* vGPU 1's writes while not owning stay virtual. */
	gi_mmio_write(g0, GEN8_PRIVATE_PAT_LO, 0x33333333, 4);
	assert_int_equal(e->mw.gpu.regs[GEN8_PRIVATE_PAT_LO / 4], 0x22222222);
	/* Drain everything. */
	for (i = 0; i < 200 && !gvt_idle(e->mw.gvt); i++) {
		e->mw.hv.now += 1000000;
		fake_gpu_complete(&e->mw.gpu, GEN9_RCS0);
		gvt_poll(e->mw.gvt);
	}
	fake_gpu_complete(&e->mw.gpu, GEN9_RCS0);
	gvt_poll(e->mw.gvt);
	assert_true(gvt_idle(e->mw.gvt));
	assert_int_equal(e->v[0]->stats.workloads_done, 3);
	assert_int_equal(e->v[1]->stats.workloads_done, 3);
	assert_true(e->v[0]->stats.vgpu_switches >= 2);
	assert_true(e->v[1]->stats.vgpu_switches >= 1);
}

static void test_idle_vgpu_skipped(void **state)
{
	struct env *e = *state;
	struct guest_i915 *g1 = &e->g[1];
	int c1 = gi_ctx_create(g1, GEN9_RCS0);

	/* Only vGPU 2 has work: it gets the GPU at once. */
	gi_emit_breadcrumb(g1, c1, e->seq_gm[1], 1);
	gi_submit(g1, c1, -1);
	assert_ptr_equal(e->mw.gvt->owner, e->v[1]);
	assert_int_equal(gi_wait_idle(g1, GEN9_RCS0, 5), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_submit_csb_irq, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ctx_image_sanitized, setup, teardown),
		cmocka_unit_test_setup_teardown(test_elsp_only_queues, setup, teardown),
		cmocka_unit_test_setup_teardown(test_elsp_posts_add_up, setup, teardown),
		cmocka_unit_test_setup_teardown(test_two_elements, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lite_restore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rejected_fails_only_that_vgpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hang_resets_engine, setup, teardown),
		cmocka_unit_test_setup_teardown(test_scheduler_switches_and_mmio, setup, teardown),
		cmocka_unit_test_setup_teardown(test_idle_vgpu_skipped, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
