/* IGT's gem_busy benchmark (igt-gpu-tools 1.27.1, benchmarks/gem_busy.c)
 * on the mediator and the software Gen9 model: a 4 KiB batch whose only
 * command is MI_BATCH_BUFFER_START (Gen8 form, PPGTT) to its own start,
 * submitted on every engine; the CPU ends it by writing
 * MI_BATCH_BUFFER_END over batch[0]. The loop has no conditional end, so
 * the mediator watches the batch's guest page while the request is on
 * the GPU (gpu/vgpu/ppgtt/vgpu_bb_watch.c, docs/gpu-spinner.md "Busy
 * batches"): that store is mirrored into the copy, any other changes
 * nothing the GPU runs, and the watch ends with the request. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_world.h"

#define BATCH_VA 0x7e0000000000ull
#define DATA_VA 0x7f0000000000ull
#define BATCH_PAGES 40
#define NR_VMS 2

static const int engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VECS0 };
#define NR_ENG (sizeof(engines) / sizeof(engines[0]))

/* Two guests (tests/harness/i915_world.h), each with its batch pages. */
struct env {
	struct model_world mw; /* first: iw_state_new */
	struct iw_guest gu[NR_VMS];
};

static int setup(void **state)
{
	struct env *e = iw_state_new(sizeof(*e), 96, 32);
	uint32_t k;

	for (k = 0; k < NR_VMS; k++) {
		struct iw_guest *q = &e->gu[k];

		iw_guest_up(&e->mw, q, k + 1);
		q->batch_gpa = iw_map(q, BATCH_VA, BATCH_PAGES);
		iw_map(q, DATA_VA, 1);
	}
	*state = e;
	return 0;
}

static uint64_t gpu_batches(struct env *e, int eng)
{
	return e->mw.m.engine[eng].stats.batches;
}

/* Every guest's i915 handles its interrupts; the GPU runs. */
static void service(struct env *e, int polls)
{
	for (int k = 0; k < polls; k++)
		for (uint32_t i = 0; i < NR_VMS; i++)
			gi_service(&e->gu[i].g);
}

/* gem_busy's batch, as its loop() writes it through the device-coherent
 * mapping before each round: the Gen8 batch start (DW0 bit 8 PPGTT, DWord
 * Length 1) to the batch's own offset; the relocation of the other
 * object at byte 1024 is data after it. The rest of the page is zero. */
static void emit_gem_busy(struct iw_guest *q)
{
	uint32_t bb[1024] = { 0 };

	bb[0] = MI_BATCH_BUFFER_START_GEN8 | 1u << 8 | 1;
	bb[1] = (uint32_t)BATCH_VA;
	bb[2] = (uint32_t)(BATCH_VA >> 32);
	bb[256] = (uint32_t)DATA_VA;
	assert_int_equal(bb[0], 0x18800101);
	fake_hv_guest_write(q->g.hv, q->vm, q->batch_gpa, bb, sizeof(bb));
}

/* The request has started and not finished (it is spinning, or queued
 * behind a spinning vGPU). */
static void still_busy(struct iw_guest *q, int eng)
{
	assert_false(vgpu_failed(q->v));
	assert_int_equal(iw_seqno_now(q, eng), q->seqno[eng] - 1);
}

/* The CPU's store through the guest's mapping: into guest memory, and
 * reported to the mediator if the page is write-protected. */
static void cpu_store(struct env *e, struct iw_guest *q, uint64_t off,
		      const void *data, size_t len)
{
	fake_hv_guest_store(&e->mw.hv, q->vm, q->batch_gpa + off, data, len);
}

static void cpu_store32(struct env *e, struct iw_guest *q, uint64_t off,
			uint32_t val)
{
	cpu_store(e, q, off, &val, 4);
}

static void wait_done(struct env *e, struct iw_guest *q, int eng)
{
	for (int k = 0; k < 200 && iw_seqno_now(q, eng) != q->seqno[eng]; k++)
		service(e, 1);
	assert_int_equal(iw_seqno_now(q, eng), q->seqno[eng]);
}

/* gem_busy -e all: the same batch on RCS, BCS, VCS and VECS at once. All
 * four loop (the engines keep starting the copy) and the batch page is
 * protected; the CPU's MI_BATCH_BUFFER_END over batch[0] ends every copy
 * (four mirrored), every request completes, no fault. Afterwards the
 * page is no longer protected: a later store is not even reported. */
static void test_gem_busy_on_every_engine(void **state)
{
	struct env *e = *state;
	struct iw_guest *q = &e->gu[0];
	uint64_t b0[NR_ENG];
	size_t k;

	emit_gem_busy(q);
	for (k = 0; k < NR_ENG; k++) {
		b0[k] = gpu_batches(e, engines[k]);
		iw_submit(q, engines[k], BATCH_VA);
	}
	service(e, 300);
	for (k = 0; k < NR_ENG; k++) {
		still_busy(q, engines[k]);
		assert_true(gpu_batches(e, engines[k]) - b0[k] >= 100);
	}
	assert_int_equal(q->v->stats.loops_watched, NR_ENG);
	assert_true(fake_hv_is_wp(&e->mw.hv, q->vm, q->batch_gpa));
	assert_int_equal(q->v->stats.user_faults, 0);

	cpu_store32(e, q, 0, MI_BATCH_BUFFER_END);
	assert_int_equal(q->v->stats.batch_ends_mirrored, NR_ENG);
	assert_int_equal(q->v->stats.batch_writes_ignored, 0);
	for (k = 0; k < NR_ENG; k++)
		wait_done(e, q, engines[k]);
	assert_false(vgpu_failed(q->v));
	assert_int_equal(q->v->stats.faults, 0);
	assert_int_equal(q->v->stats.user_hangs, 0);
	assert_int_equal(q->v->bbw_used, 0);
	assert_false(fake_hv_is_wp(&e->mw.hv, q->vm, q->batch_gpa));

	/* released: gem_busy's next round rewrites the batch, unreported */
	emit_gem_busy(q);
	cpu_store32(e, q, 0, MI_BATCH_BUFFER_END);
	assert_int_equal(q->v->stats.batch_ends_mirrored, NR_ENG);
	assert_int_equal(q->v->stats.batch_writes_ignored, 0);
	/* ... and it runs again, watched again */
	emit_gem_busy(q);
	iw_submit(q, GEN9_RCS0, BATCH_VA);
	service(e, 20);
	still_busy(q, GEN9_RCS0);
	cpu_store32(e, q, 0, MI_BATCH_BUFFER_END);
	wait_done(e, q, GEN9_RCS0);
	assert_int_equal(q->v->stats.loops_watched, NR_ENG + 1);
}

/* Any other store to the watched page leaves the copy as scanned: a
 * register load of ELSP over the batch start, MI_BATCH_BUFFER_END over
 * the address dword (not a command), the data at byte 1024. The GPU
 * loops on over the scanned copy; each store is counted. Then the end
 * over the (new) header at batch[0] ends it. */
static void test_other_stores_change_nothing(void **state)
{
	struct env *e = *state;
	struct iw_guest *q = &e->gu[0];
	uint32_t elsp[] = { MI_LOAD_REGISTER_IMM(1), 0x2230, 0 };
	uint64_t b0;

	emit_gem_busy(q);
	iw_submit(q, GEN9_RCS0, BATCH_VA);
	service(e, 20);
	cpu_store(e, q, 0, elsp, sizeof(elsp));
	cpu_store32(e, q, 8, MI_BATCH_BUFFER_END);
	cpu_store32(e, q, 1024, 0xdeadbeef);
	assert_int_equal(q->v->stats.batch_writes_ignored, 3);
	assert_int_equal(q->v->stats.batch_ends_mirrored, 0);
	b0 = gpu_batches(e, GEN9_RCS0);
	service(e, 100);
	still_busy(q, GEN9_RCS0);
	assert_true(gpu_batches(e, GEN9_RCS0) - b0 >= 50);
	assert_int_equal(q->v->stats.scan_regs_neutralized, 0);

	cpu_store32(e, q, 0, MI_BATCH_BUFFER_END);
	assert_int_equal(q->v->stats.batch_ends_mirrored, 1);
	wait_done(e, q, GEN9_RCS0);
	assert_false(vgpu_failed(q->v));
}

/* A body over n pages: page i chains to page i + 1, the last back to
 * page 0. One watched run per page. */
static void emit_page_chain(struct iw_guest *q, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint64_t to = BATCH_VA + 4096ull * ((i + 1) % n);
		uint32_t bb[3] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
				   (uint32_t)to, (uint32_t)(to >> 32) };

		fake_hv_guest_write(q->g.hv, q->vm,
				    q->batch_gpa + 4096ull * i, bb, sizeof(bb));
	}
}

/* The cap: a vGPU watches at most VGPU_BBW_MAX runs. A 20-page loop on
 * RCS is watched; a second one on BCS would need 20 more: refused as
 * loops were before, counted, only its request fails (the engine reports
 * the error), the first spins on and ends on the CPU's store. */
static void test_watch_slots_are_capped(void **state)
{
	struct env *e = *state;
	struct iw_guest *q = &e->gu[0];
	uint32_t bcs = q->v->eng[GEN9_BCS0].base;
	int k;

	emit_page_chain(q, 20);
	iw_submit(q, GEN9_RCS0, BATCH_VA);
	service(e, 20);
	assert_int_equal(q->v->stats.loops_watched, 1);
	iw_submit(q, GEN9_BCS0, BATCH_VA);
	for (k = 0; k < 200 && !(gi_mmio_read(&q->g, RING_EIR(bcs), 4) &
				  I915_ERROR_INSTRUCTION); k++)
		service(e, 1);
	assert_true(gi_mmio_read(&q->g, RING_EIR(bcs), 4) & I915_ERROR_INSTRUCTION);
	assert_int_equal(q->v->stats.loops_watch_full, 1);
	assert_int_equal(q->v->stats.user_faults, 1);
	assert_int_equal(q->v->stats.loops_watched, 1);
	assert_int_equal(q->v->stats.faults, 0);
	still_busy(q, GEN9_RCS0);

	cpu_store32(e, q, 4096 * 7, MI_BATCH_BUFFER_END); /* page 7's start */
	assert_int_equal(q->v->stats.batch_ends_mirrored, 1);
	wait_done(e, q, GEN9_RCS0);
	assert_int_equal(q->v->bbw_used, 0);
	for (k = 0; k < 20; k++)
		assert_false(fake_hv_is_wp(&e->mw.hv, q->vm,
					   q->batch_gpa + 4096ull * (uint64_t)k));
}

/* Two VMs, each with gem_busy on RCS, their batches at the same guest
 * address. VM 1's loop holds the GPU (it has no arbitration point; for
 * less than its slice and overrun here); VM 2's request waits, watched
 * while queued. Ending VM 2's ends only VM 2's copy: VM 1's loop runs on
 * until its own CPU ends it, then VM 2's copy runs and ends at once. */
static void test_two_vms_each_ended_alone(void **state)
{
	struct env *e = *state;
	struct iw_guest *a = &e->gu[0], *b = &e->gu[1];

	assert_int_equal(a->batch_gpa, b->batch_gpa);
	emit_gem_busy(a);
	emit_gem_busy(b);
	iw_submit(a, GEN9_RCS0, BATCH_VA);
	iw_submit(b, GEN9_RCS0, BATCH_VA);
	service(e, 50);
	still_busy(a, GEN9_RCS0);
	assert_int_equal(a->v->stats.loops_watched, 1);
	assert_int_equal(b->v->stats.loops_watched, 1);

	cpu_store32(e, b, 0, MI_BATCH_BUFFER_END);
	assert_int_equal(b->v->stats.batch_ends_mirrored, 1);
	assert_int_equal(a->v->stats.batch_ends_mirrored, 0);
	service(e, 50);
	still_busy(a, GEN9_RCS0);
	assert_true(fake_hv_is_wp(&e->mw.hv, a->vm, a->batch_gpa));

	cpu_store32(e, a, 0, MI_BATCH_BUFFER_END);
	assert_int_equal(a->v->stats.batch_ends_mirrored, 1);
	assert_int_equal(b->v->stats.batch_ends_mirrored, 1);
	wait_done(e, a, GEN9_RCS0);
	wait_done(e, b, GEN9_RCS0);
	assert_false(fake_hv_is_wp(&e->mw.hv, a->vm, a->batch_gpa));
	assert_false(fake_hv_is_wp(&e->mw.hv, b->vm, b->batch_gpa));
	assert_int_equal(a->v->stats.user_hangs + b->v->stats.user_hangs, 0);
	assert_false(vgpu_failed(a->v));
	assert_false(vgpu_failed(b->v));
	assert_int_equal(a->v->stats.faults + b->v->stats.faults, 0);
}

/* Nobody ends it: the loop spins until the hang timeout, which fails
 * only its request (a user hang, no fault) and drops the watch. */
static void test_unended_loop_fails_only_its_request(void **state)
{
	struct env *e = *state;
	struct iw_guest *q = &e->gu[0];
	uint32_t base = q->v->eng[GEN9_RCS0].base;
	int k;

	emit_gem_busy(q);
	iw_submit(q, GEN9_RCS0, BATCH_VA);
	service(e, 50);
	still_busy(q, GEN9_RCS0);
	e->mw.hv.now += 3000000000ull; /* past the 2 s hang timeout */
	for (k = 0; k < 200 && !(gi_mmio_read(&q->g, RING_EIR(base), 4) &
				  I915_ERROR_INSTRUCTION); k++)
		service(e, 1);
	assert_true(gi_mmio_read(&q->g, RING_EIR(base), 4) & I915_ERROR_INSTRUCTION);
	assert_int_equal(iw_seqno_now(q, GEN9_RCS0), q->seqno[GEN9_RCS0] - 1);
	assert_int_equal(q->v->stats.user_hangs, 1);
	assert_int_equal(q->v->stats.faults, 0);
	assert_int_equal(q->v->bbw_used, 0);
	assert_false(fake_hv_is_wp(&e->mw.hv, q->vm, q->batch_gpa));
}

/* The vGPU goes away with a watched loop still on the GPU (work it
 * abandons there keeps its pool pages until the pool goes): no page is
 * left protected. */
static void test_destroy_while_watched(void **state)
{
	struct env *e = *state;
	struct iw_guest *q = &e->gu[0];

	emit_gem_busy(q);
	iw_submit(q, GEN9_RCS0, BATCH_VA);
	service(e, 20);
	still_busy(q, GEN9_RCS0);
	assert_true(fake_hv_is_wp(&e->mw.hv, q->vm, q->batch_gpa));
	mw_stop(&e->mw);
	assert_false(fake_hv_is_wp(&e->mw.hv, q->vm, q->batch_gpa));
	assert_int_equal(fake_hv_nr_wp(&e->mw.hv, q->vm), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_gem_busy_on_every_engine, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_other_stores_change_nothing, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_watch_slots_are_capped, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_two_vms_each_ended_alone, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_unended_loop_fails_only_its_request, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_destroy_while_watched, setup, iw_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
