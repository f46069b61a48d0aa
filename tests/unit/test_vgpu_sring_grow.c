/* Shadow rings that grow (issue 26, gpu/vgpu/exec/vgpu_workload.c queue_ring):
 * stock i915 request shapes (tests/harness/i915_shapes.c) through the
 * real mediator and the software Gen9 model, as in test_vgpu_batch_pool.c.
 *
 * A resource the hypervisor sized is never the guest's fault: i915 lets
 * user space raise a context's ring to 512 KiB
 * (I915_CONTEXT_PARAM_RINGSIZE) and RING_CTL allows 2 MiB, so a legitimate
 * ring segment can be larger than the 64 KiB shadow ring at rest. Such a
 * segment, arriving while the engine's shadow ring is empty, gets a ring of
 * its size from the VM's shadow batch pool; behind earlier work it waits;
 * when the engine's queue empties the ring is 64 KiB again and the pool's
 * pages go back; another VM sees none of it. One larger than the VM's
 * whole budget is refused (the kernel's ring: docs/limits.md). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/exec/exec.h"
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_shapes.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define KiB 1024u
#define DATA_VA 0x7f0000000000ull
#define BATCH_VA 0x7e0000000000ull
#define RCS GEN9_RCS0
#define BIG_RING (512 * KiB) /* i915's largest I915_CONTEXT_PARAM_RINGSIZE */
#define BATCH_PAGES 96

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };

struct guest {
	struct vgpu *v;
	struct guest_i915 g;
	uint32_t vm;
	int ctx;
	uint32_t seqno;
	uint32_t tl_gm; /* timeline HWSP page (GGTT): the seqno at 0 */
	uint64_t tl_gpa, data_gpa, batch_gpa;
};

struct env {
	struct model_world mw;
	struct guest a, b;
};

static void guest_init(struct env *e, struct guest *q, uint32_t vm,
		       uint32_t ring_size)
{
	struct guest_i915 *g = &q->g;

	q->vm = vm;
	assert_int_equal(mw_add_vgpu(&e->mw, &small, vm, 16 * MiB, &q->v), 0);
	assert_int_equal(gi_probe(g, &e->mw.hv, q->v, vm, e->mw.gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = &e->mw;
	assert_int_equal(gi_ppgtt_create(g), 0);
	assert_int_equal(gi_engine_init(g, RCS), 0);
	q->ctx = gi_ctx_create_ring(g, RCS, ring_size);
	assert_true(q->ctx >= 0);
	q->tl_gpa = gi_alloc_pages(g, 1);
	q->tl_gm = gi_gm_alloc(g, 4096, false);
	gi_ggtt_bind(g, q->tl_gm, q->tl_gpa, 1);
	q->data_gpa = gi_alloc_pages(g, 1);
	gi_ppgtt_map(g, DATA_VA, q->data_gpa, 1);
	q->batch_gpa = gi_alloc_pages(g, BATCH_PAGES);
	gi_ppgtt_map(g, BATCH_VA, q->batch_gpa, BATCH_PAGES);
}

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct mw_config c = { .pool_mib = 96, .ram_mib = 40, .nr_vms = 3 };

	assert_int_equal(mw_init(&e->mw, &c), 0);
	guest_init(e, &e->a, 1, BIG_RING);
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

/* ---- guest side ------------------------------------------------------------ */

static uint32_t seqno_now(struct guest *q)
{
	return gi_read32(&q->g, q->tl_gpa);
}

/* The seqno lands before the context completes: then also the engine's
 * queue empties (the CSB's completion reaches the mediator). */
static void wait_seqno(struct guest *q, uint32_t want)
{
	for (int k = 0; k < 100000 && (seqno_now(q) != want ||
				       q->v->eng[RCS].wl_count); k++)
		gi_service(&q->g);
	if (seqno_now(q) != want)
		printf("    not reached: seqno %u of %u, rejected %llu, failed %d\n",
		       seqno_now(q), want,
		       (unsigned long long)q->v->stats.workloads_rejected,
		       vgpu_failed(q->v));
	assert_int_equal(seqno_now(q), want);
}

/* n MI_NOOPs into the context's ring (as a guest's memset of its ring). */
static void emit_noops(struct guest *q, int ctx, uint32_t n)
{
	struct gi_ctx *c = &q->g.ctx[ctx];
	static const uint32_t zero[1024];

	while (n) {
		uint32_t k = n < 1024 ? n : 1024;

		if (k > (c->ring_size - c->tail) / 4)
			k = (c->ring_size - c->tail) / 4;
		fake_hv_guest_write(q->g.hv, q->vm, c->ring_gpa + c->tail, zero,
				    k * 4);
		c->tail = (c->tail + 4 * k) % c->ring_size;
		n -= k;
	}
}

/* One request of about `bytes` in the ring: the init breadcrumb, MI_NOOPs,
 * the fini breadcrumb (the seqno store). The NOOPs end 8 bytes before a
 * page of the segment ends, so the fini breadcrumb's PIPE_CONTROL
 * straddles two pages of the shadow ring (a grown ring's pages are not
 * contiguous in hypervisor memory). seqno++. */
static uint32_t big_request_on(struct guest *q, int ctx, uint32_t tl,
				uint32_t seqno, uint32_t bytes)
{
	struct gi_ctx *c = &q->g.ctx[ctx];
	uint32_t start = c->tail, at, noops;
	struct i915_cs cs;

	i915_cs_reset(&cs);
	i915_gen8_emit_init_breadcrumb(&cs, tl, seqno);
	gi_ring_emit(&q->g, ctx, cs.dw, cs.n);
	at = (c->tail - start + c->ring_size) % c->ring_size;
	noops = (bytes - at) / 4;
	noops += ((4096 - 8) - (at + 4 * noops) % 4096) % 4096 / 4;
	emit_noops(q, ctx, noops);
	i915_cs_reset(&cs);
	i915_gen8_emit_fini_breadcrumb_rcs(&cs, tl, seqno);
	gi_ring_emit(&q->g, ctx, cs.dw, cs.n);
	return (c->tail - start + c->ring_size) % c->ring_size;
}

static uint32_t big_request(struct guest *q, uint32_t bytes)
{
	return big_request_on(q, q->ctx, q->tl_gm, ++q->seqno, bytes);
}

/* Pages of a shadow ring for a segment of len bytes: a qword stays free. */
static uint64_t ring_pages(uint32_t len)
{
	return (len + 8 + 4095) / 4096;
}

static void small_request_on(struct guest *q, int ctx, uint32_t tl,
			     uint32_t seqno)
{
	struct i915_cs cs;

	i915_cs_reset(&cs);
	i915_gen8_emit_flush_rcs(&cs, I915_EMIT_INVALIDATE);
	i915_gen8_emit_init_breadcrumb(&cs, tl, seqno);
	i915_gen8_emit_fini_breadcrumb_rcs(&cs, tl, seqno);
	gi_ring_emit(&q->g, ctx, cs.dw, cs.n);
}

static void small_request(struct guest *q)
{
	small_request_on(q, q->ctx, q->tl_gm, ++q->seqno);
}

static void submit(struct guest *q)
{
	gi_submit(&q->g, q->ctx, -1);
}

static void print_ring(const char *what, const struct vgpu *v)
{
	printf("    %s: shadow ring grown %llu times, peak %llu pages, waits "
	       "%llu; pool pages now %llu, peak %llu (budget %u KiB)\n", what,
	       (unsigned long long)v->stats.sring_grows,
	       (unsigned long long)v->stats.sring_pages_peak,
	       (unsigned long long)v->stats.sring_waits,
	       (unsigned long long)v->stats.sbb_pages,
	       (unsigned long long)v->stats.sbb_pages_peak, vgpu_batch_budget(v));
}

/* The engine's ring is the 64 KiB one in the mediator's slot again, and
 * the pool holds nothing and keeps at most its pages at rest. */
static void assert_at_rest(struct vgpu *v)
{
	struct vgpu_engine *ve = &v->eng[RCS];

	assert_int_equal(ve->sr_first, -1);
	assert_int_equal(vgpu_sring_size(ve), 64 * KiB);
	assert_int_equal(ve->sr_gm, ve->sring.gm);
	assert_int_equal(ve->sring_used, 0);
	assert_int_equal(v->sbb.used, 0);
	assert_true(v->stats.sbb_pages <= VGPU_SBB_REST_PAGES);
}

/* The shadow context of the workload on the engine describes the ring the
 * engine runs: RING_START the grown ring, RING_CTL its length. */
static void check_ring_regs(struct guest *q)
{
	struct vgpu_engine *ve = &q->v->eng[RCS];
	const uint32_t *st = (const uint32_t *)(ve->sctx.va + LRC_STATE_OFFSET);

	for (int k = 0; k < 10 && !ve->wl[ve->wl_head].dispatched; k++)
		gi_service(&q->g);
	assert_true(ve->wl_count > 0);
	assert_true(ve->wl[ve->wl_head].dispatched);
	assert_true(ve->sr_first >= 0);
	assert_int_equal(st[CTX_RING_START], ve->sr_gm);
	assert_int_equal(st[CTX_RING_START],
			 q->v->sbb.gm + (uint64_t)ve->sr_first * 4096);
	assert_int_equal(st[CTX_RING_CTL],
			 RING_CTL_SIZE(vgpu_sring_size(ve)) | RING_VALID);
	assert_true(vgpu_sring_size(ve) > 64 * KiB);
}

static void assert_no_fault(struct guest *q)
{
	assert_false(vgpu_failed(q->v));
	assert_int_equal(q->v->stats.workloads_rejected, 0);
	assert_int_equal(q->v->stats.user_faults, 0);
	assert_int_equal(q->v->stats.faults, 0);
}

/* ---- tests ----------------------------------------------------------------- */

/* (1) A 512 KiB ring, one segment of 300 KiB of MI_NOOPs and a store:
 * refused before shadow rings grew ("can never fit"); now it runs from a
 * ring of its size and completes with no fault. (3) Then the ring is back
 * at 64 KiB and the pool's pages are returned. */
static void test_300k_segment_completes(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	uint32_t len = big_request(q, 300 * KiB);

	assert_true(len > 300 * KiB && len < 305 * KiB);
	submit(q);
	check_ring_regs(q);
	wait_seqno(q, q->seqno);
	assert_no_fault(q);
	print_ring("one 300 KiB segment", q->v);
	assert_int_equal(q->v->stats.sring_grows, 1);
	assert_int_equal(q->v->stats.sring_pages_peak, ring_pages(len));
	assert_true(q->v->stats.sbb_pages_peak >= ring_pages(len));
	assert_int_equal(q->v->stats.sring_waits, 0);
	assert_at_rest(q->v);
	/* and the ring at rest runs the next request */
	small_request(q);
	submit(q);
	wait_seqno(q, q->seqno);
	assert_no_fault(q);
	assert_int_equal(q->v->stats.sring_grows, 1);
	assert_at_rest(q->v);
}

/* (2) Two large segments back to back: the second arrives while the first
 * is queued on a ring grown to the first's size, so it waits (nothing
 * live moves); when the first completes the engine's ring is empty and
 * grows for the second. Both complete. (3) At rest afterwards. */
static void test_two_segments_second_waits(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	uint32_t first, len;

	len = big_request(q, 300 * KiB);
	submit(q);
	first = q->seqno;
	assert_int_equal(q->v->eng[RCS].wl_count, 1);
	big_request(q, 180 * KiB);
	submit(q);
	assert_true(q->v->stats.sring_waits >= 1);
	assert_int_equal(q->v->stats.sring_grows, 1);
	wait_seqno(q, q->seqno);
	assert_true(first < q->seqno);
	assert_no_fault(q);
	print_ring("300 KiB then 180 KiB", q->v);
	assert_int_equal(q->v->stats.sring_grows, 2);
	assert_int_equal(q->v->stats.sring_pages_peak, ring_pages(len));
	assert_at_rest(q->v);
}

/* Small segments behind a grown ring fit in it and do not wait. */
static void test_small_behind_grown_ring(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	int k;

	big_request(q, 200 * KiB);
	submit(q);
	for (k = 0; k < 4; k++) {
		small_request(q);
		submit(q);
	}
	wait_seqno(q, q->seqno);
	assert_no_fault(q);
	assert_int_equal(q->v->stats.sring_grows, 1);
	assert_at_rest(q->v);
}

/* (4) Another VM's requests are unaffected: B (a 16 KiB ring) submits and
 * completes small requests while A's large segments are queued and
 * waiting; B never grows, waits or loses a page of its pool to A. */
static void test_other_vm_unaffected(void **state)
{
	struct env *e = *state;
	struct guest *a = &e->a, *b = &e->b;
	int k;

	guest_init(e, b, 2, GI_RING_SIZE);
	big_request(a, 300 * KiB);
	submit(a);
	big_request(a, 180 * KiB);
	submit(a);
	assert_true(a->v->sbb.used >= 76);
	for (k = 0; k < 6; k++) {
		small_request(b);
		submit(b);
		wait_seqno(b, b->seqno);
	}
	assert_no_fault(b);
	assert_int_equal(b->v->stats.sring_grows, 0);
	assert_int_equal(b->v->stats.sring_waits, 0);
	assert_int_equal(b->v->stats.sbb_waits, 0);
	assert_int_equal(b->v->sbb.used, 0);
	wait_seqno(a, a->seqno);
	assert_no_fault(a);
	print_ring("A (large segments)", a->v);
	print_ring("B (passing)", b->v);
	assert_at_rest(a->v);
	assert_at_rest(b->v);
}

/* An ELSP pair of two contexts whose segments together need a grown ring
 * (i915 pairs two contexts of an engine): the pair is queued whole or not
 * at all, so the ring grows for both at once. A ring grown for element 0
 * alone would make element 1 wait for element 0, which is then taken back
 * with it: nothing in flight, the pair would wait for ever. Both orders. */
static void pair_completes(struct guest *q, bool big_first)
{
	int c2 = gi_ctx_create_ring(&q->g, RCS, BIG_RING);
	uint32_t tl2 = q->tl_gm + 64, s2 = 0x100;

	assert_true(c2 >= 0);
	if (big_first) {
		big_request(q, 300 * KiB);
		small_request_on(q, c2, tl2, s2);
	} else {
		small_request(q);
		big_request_on(q, c2, tl2, s2, 300 * KiB);
	}
	gi_submit(&q->g, q->ctx, c2);
	for (int k = 0; k < 100000 && gi_read32(&q->g, q->tl_gpa + 64) != s2; k++)
		gi_service(&q->g);
	assert_int_equal(gi_read32(&q->g, q->tl_gpa + 64), s2);
	wait_seqno(q, q->seqno);
	assert_no_fault(q);
	assert_int_equal(q->v->stats.sring_grows, 1);
	assert_int_equal(q->v->stats.sring_waits, 0);
	assert_at_rest(q->v);
}

static void test_pair_big_then_small(void **state)
{
	pair_completes(&((struct env *)*state)->a, true);
}

static void test_pair_small_then_big(void **state)
{
	pair_completes(&((struct env *)*state)->a, false);
}

/* A grown ring's pages count against the budget with the batches of the
 * workload that grew it: a 300 KiB segment (77 pages) whose user batch
 * needs 300 KiB more does not fit a 512 KiB budget. That request fails
 * alone, as after a hang of its batch (vgpu_user_fault.c): the ring runs
 * up to its batch start, the guest resets the engine, the vGPU is not
 * failed, and the next request runs from the ring at rest. */
static void test_ring_and_batch_over_budget_fail_alone(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	struct gi_ctx *c = &q->g.ctx[q->ctx];
	uint32_t n = 300 * KiB / 4, *dw = calloc(n, 4);
	struct i915_cs cs;

	assert_int_equal(vgpu_set_batch_budget(q->v, 512), 0);
	dw[n - 2] = MI_BATCH_BUFFER_END;
	fake_hv_guest_write(q->g.hv, q->vm, q->batch_gpa, dw, n * 4);
	free(dw);
	q->seqno++;
	i915_cs_reset(&cs);
	i915_gen8_emit_init_breadcrumb(&cs, q->tl_gm, q->seqno);
	gi_ring_emit(&q->g, q->ctx, cs.dw, cs.n);
	emit_noops(q, q->ctx, 300 * KiB / 4);
	i915_cs_reset(&cs);
	i915_gen8_emit_bb_start_noarb(&cs, BATCH_VA, 0);
	i915_gen8_emit_fini_breadcrumb_rcs(&cs, q->tl_gm, q->seqno);
	gi_ring_emit(&q->g, q->ctx, cs.dw, cs.n);
	submit(q);
	for (int k = 0; k < 400 && !(gi_mmio_read(&q->g, RING_EIR(q->v->eng[RCS].base), 4) &
				      I915_ERROR_INSTRUCTION); k++)
		gi_service(&q->g);
	assert_true(gi_mmio_read(&q->g, RING_EIR(q->v->eng[RCS].base), 4) &
		    I915_ERROR_INSTRUCTION);
	assert_int_equal(seqno_now(q), q->seqno - 1); /* started, not done */
	assert_int_equal(q->v->stats.user_faults, 1);
	assert_int_equal(q->v->stats.sbb_too_big, 1);
	assert_int_equal(q->v->stats.sring_grows, 1);
	assert_int_equal(q->v->stats.workloads_rejected, 0);
	assert_int_equal(q->v->stats.faults, 0);
	assert_false(vgpu_failed(q->v));
	assert_at_rest(q->v);
	/* i915's engine reset (execlists_reset), then the next request */
	gi_mmio_write(&q->g, GEN6_GDRST, gen9_engine_reset_domain(GEN9_RCS0), 4);
	gi_mmio_write(&q->g, RING_EIR(q->v->eng[RCS].base), I915_ERROR_INSTRUCTION, 4);
	assert_int_equal(gi_engine_init(&q->g, RCS), 0);
	gi_write32(&q->g, c->lrca_gpa + LRC_STATE_OFFSET + CTX_RING_HEAD * 4, c->tail);
	small_request(q);
	submit(q);
	wait_seqno(q, q->seqno);
	assert_false(vgpu_failed(q->v));
	assert_at_rest(q->v);
}

/* A segment larger than the VM's whole budget (256 KiB here) can never
 * fit: refused with nothing leaked, counted; the ring stays at rest. The
 * ring is the guest kernel's, so this is a fault of the vGPU as any bad
 * kernel command (docs/limits.md: raise vgpu_batch_kib= for rings this
 * large). */
static void test_segment_over_budget_refused(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;

	assert_int_equal(vgpu_set_batch_budget(q->v, 256), 0);
	big_request(q, 300 * KiB);
	submit(q);
	for (int k = 0; k < 50; k++)
		gi_service(&q->g);
	assert_int_equal(q->v->stats.sring_too_big, 1);
	assert_int_equal(q->v->stats.sring_grows, 0);
	assert_true(q->v->stats.workloads_rejected >= 1);
	assert_true(seqno_now(q) != q->seqno);
	assert_at_rest(q->v);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_300k_segment_completes),
		T(test_two_segments_second_waits),
		T(test_small_behind_grown_ring),
		T(test_other_vm_unaffected),
		T(test_pair_big_then_small),
		T(test_pair_small_then_big),
		T(test_ring_and_batch_over_budget_fail_alone),
		T(test_segment_over_budget_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
