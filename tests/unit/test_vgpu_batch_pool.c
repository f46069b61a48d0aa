/* The shadow batch pool (gpu/vgpu/exec/vgpu_own_gm.c, vgpu_cmd_scan.c): stock
 * i915 6.1 request shapes (tests/harness/i915_shapes.c) through the real
 * mediator and the software Gen9 model, as in test_i915_replay.c.
 *
 * A resource the hypervisor sized is never the guest's fault: batches an
 * honest guest submits all run, whatever their size or how many calls
 * they make, as long as one request fits the VM's budget; when the pool
 * is momentarily full the submission waits; a loop is a loop whatever
 * its body size (it fails only its request, as a hang would); a request
 * larger than the whole budget fails only itself; one VM filling its
 * pool takes nothing from another. Pages measured: stats.sbb_pages (now)
 * and sbb_pages_peak. */
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
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_shapes.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define KiB 1024u
#define DATA_VA 0x7f0000000000ull
#define BATCH_VA 0x7e0000000000ull
#define BATCH_PAGES 320 /* 1.25 MiB of guest batch memory */
#define RCS GEN9_RCS0

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

static void guest_init(struct env *e, struct guest *q, uint32_t vm)
{
	struct guest_i915 *g = &q->g;

	q->vm = vm;
	assert_int_equal(mw_add_vgpu(&e->mw, &small, vm, 16 * MiB, &q->v), 0);
	assert_int_equal(gi_probe(g, &e->mw.hv, q->v, vm, e->mw.gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = &e->mw;
	assert_int_equal(gi_ppgtt_create(g), 0);
	assert_int_equal(gi_engine_init(g, RCS), 0);
	q->ctx = gi_ctx_create(g, RCS);
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
	guest_init(e, &e->a, 1);
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

static void put(struct guest *q, uint64_t off, const uint32_t *dw, size_t n)
{
	fake_hv_guest_write(q->g.hv, q->vm, q->batch_gpa + off, dw, n * 4);
}

static uint32_t seqno_now(struct guest *q)
{
	return gi_read32(&q->g, q->tl_gpa);
}

static uint32_t data(struct guest *q, int i)
{
	return gi_read32(&q->g, q->data_gpa + 4ull * i);
}

/* One user request as eb_submit builds it (test_i915_replay.c): the
 * invalidate flush, the init breadcrumb, the batch start, the fini
 * breadcrumb; seqno++. */
static void request(struct guest *q, struct i915_cs *cs, uint64_t off)
{
	q->seqno++;
	i915_gen8_emit_flush_rcs(cs, I915_EMIT_INVALIDATE);
	i915_gen8_emit_init_breadcrumb(cs, q->tl_gm, q->seqno);
	i915_gen8_emit_bb_start_noarb(cs, BATCH_VA + off, 0);
	i915_gen8_emit_fini_breadcrumb_rcs(cs, q->tl_gm, q->seqno);
}

static void submit(struct guest *q, const struct i915_cs *cs)
{
	gi_ring_emit(&q->g, q->ctx, cs->dw, cs->n);
	gi_submit(&q->g, q->ctx, -1);
}

static uint32_t eir(struct guest *q);

static void wait_seqno(struct guest *q, uint32_t want)
{
	for (int k = 0; k < 100000 && seqno_now(q) != want; k++)
		gi_service(&q->g);
	if (seqno_now(q) != want) {
		const struct vgpu_stats *st = &q->v->stats;
		printf("    not reached: seqno %u of %u, uf %llu rej %llu faults %llu failed %d wl %llu done %llu cmds %llu eir %x ovr %llu\n", seqno_now(q), want,
		       (unsigned long long)st->user_faults, (unsigned long long)st->workloads_rejected,
		       (unsigned long long)st->faults, vgpu_failed(q->v), (unsigned long long)st->workloads,
		       (unsigned long long)st->workloads_done, (unsigned long long)st->cmds_scanned, eir(q), (unsigned long long)st->overruns);
	}
	assert_int_equal(seqno_now(q), want);
}

static uint32_t eir(struct guest *q)
{
	return (uint32_t)gi_mmio_read(&q->g, RING_EIR(q->v->eng[RCS].base), 4);
}

static void run_until_error(struct guest *q)
{
	for (int k = 0; k < 400 && !(eir(q) & I915_ERROR_INSTRUCTION); k++)
		gi_service(&q->g);
	assert_true(eir(q) & I915_ERROR_INSTRUCTION);
}

/* i915's answer to the CS error (execlists_reset): engine reset through
 * GDRST, RING_EIR acked, the context resumed after the guilty request. */
static void i915_engine_reset(struct guest *q)
{
	const struct gi_ctx *c = &q->g.ctx[q->ctx];

	gi_mmio_write(&q->g, GEN6_GDRST, gen9_engine_reset_domain(GEN9_RCS0), 4);
	gi_mmio_write(&q->g, RING_EIR(q->v->eng[RCS].base), I915_ERROR_INSTRUCTION, 4);
	assert_int_equal(gi_engine_init(&q->g, RCS), 0);
	gi_write32(&q->g, c->lrca_gpa + LRC_STATE_OFFSET + CTX_RING_HEAD * 4, c->tail);
}

/* A batch of about `bytes` at off: qword stores of tag + k to data slot
 * pair k % 512 (so what lands checks the whole copy; 20-byte commands keep
 * a 1 MiB batch under the scanner's SCAN_MAX_CMDS), then
 * MI_BATCH_BUFFER_END. */
static void store_batch(struct guest *q, uint64_t off, uint32_t bytes, uint32_t tag)
{
	uint32_t n = bytes / 20, *dw = calloc(n * 5 + 2, 4);
	uint32_t k;

	for (k = 0; k < n; k++) {
		uint64_t va = DATA_VA + 8ull * (k % 512);

		dw[5 * k] = MI_STORE_DWORD_IMM_GEN4 + 1; /* qword */
		dw[5 * k + 1] = (uint32_t)va;
		dw[5 * k + 2] = (uint32_t)(va >> 32);
		dw[5 * k + 3] = tag + k;
		dw[5 * k + 4] = ~(tag + k);
	}
	dw[5 * n] = MI_BATCH_BUFFER_END;
	dw[5 * n + 1] = MI_NOOP;
	put(q, off, dw, 5 * n + 2);
	free(dw);
}

/* Slot 0 after a store batch of n commands: the last k with k % 512 == 0. */
static uint32_t last_slot0(uint32_t bytes, uint32_t tag)
{
	uint32_t n = bytes / 20;

	return tag + ((n - 1) / 512) * 512;
}

/* A self-chaining batch of `bytes` at off: MI_NOOPs, then the start of
 * itself (a user batch that never ends). Run as a second-level batch
 * (call_at): a first-level one would be watched for the CPU's end
 * (test_vgpu_busy_loop.c), a second-level one is refused. */
static void loop_batch(struct guest *q, uint64_t off, uint32_t bytes, uint64_t to)
{
	uint32_t n = bytes / 4, *dw = calloc(n, 4);
	uint64_t va = BATCH_VA + to;

	dw[n - 4] = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT;
	dw[n - 3] = (uint32_t)va;
	dw[n - 2] = (uint32_t)(va >> 32);
	put(q, off, dw, n);
	free(dw);
}

static void print_pool(const char *what, const struct vgpu *v)
{
	printf("    pool %s: %llu pages backed now, peak %llu (budget %u KiB), "
	       "waits %llu\n", what, (unsigned long long)v->stats.sbb_pages,
	       (unsigned long long)v->stats.sbb_pages_peak, vgpu_batch_budget(v),
	       (unsigned long long)v->stats.sbb_waits);
}

static void assert_at_rest(const struct vgpu *v)
{
	assert_int_equal(v->sbb.used, 0);
	assert_true(v->stats.sbb_pages <= VGPU_SBB_REST_PAGES);
}

/* ---- tests ----------------------------------------------------------------- */

/* gem_ringfill@basic-all: one submission whose requests' batches add up
 * past what a fixed 64 KiB area held (3 x 0x4100 + 0x3d00 = 0x10000 was
 * refused with "cannot read command"). Eight requests of a 16.25 KiB
 * batch in one ring segment: all complete, no fault. */
static void test_ringfill_shape_all_done(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	struct i915_cs cs;
	int k;

	store_batch(q, 0, 0x4100 - 16, 0x1000);
	for (k = 0; k < 8; k++) { /* one ring segment, one ELSP write */
		i915_cs_reset(&cs);
		request(q, &cs, 0);
		gi_ring_emit(&q->g, q->ctx, cs.dw, cs.n);
	}
	gi_submit(&q->g, q->ctx, -1);
	wait_seqno(q, q->seqno);
	assert_false(vgpu_failed(q->v));
	assert_int_equal(q->v->stats.workloads_rejected, 0);
	assert_int_equal(q->v->stats.user_faults, 0);
	assert_int_equal(data(q, 0), last_slot0(0x4100 - 16, 0x1000));
	assert_int_equal(data(q, 1), ~last_slot0(0x4100 - 16, 0x1000));
	/* 8 copies of 16.25 KiB at once: more than 64 KiB */
	assert_true(q->v->stats.sbb_pages_peak * 4 > 8 * 16);
	print_pool("ringfill 8 x 16.25 KiB", q->v);
	assert_at_rest(q->v);
}

/* A user batch that chains to itself with a 400-byte body, and one with
 * an 8 KiB body: both end at the start limit (the chain loops), never
 * out of shadow space; only their request fails, as after a hang, and
 * the next request of the same context runs. */
/* The last 16 bytes of page 61: a call of the batch at `to` (second
 * level), then MI_BATCH_BUFFER_END. At a page's end its copy costs 16
 * bytes (copies read ahead at most to the page's end). */
#define CALL_OFF (62 * 4096 - 16)
static void call_at(struct guest *q, uint64_t to)
{
	uint64_t va = BATCH_VA + to;
	uint32_t dw[4] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT |
				   MI_BATCH_SECOND_LEVEL,
			   (uint32_t)va, (uint32_t)(va >> 32), MI_BATCH_BUFFER_END };

	put(q, CALL_OFF, dw, 4);
}

static void loop_fails_only_its_request(struct guest *q, uint32_t body)
{
	uint64_t copied = q->v->stats.bb_bytes_copied;
	uint64_t faults = q->v->stats.user_faults;
	struct i915_cs cs;

	loop_batch(q, 0, body, 0);
	call_at(q, 0);
	i915_cs_reset(&cs);
	request(q, &cs, CALL_OFF);
	submit(q, &cs);
	run_until_error(q);
	assert_int_equal(seqno_now(q), q->seqno - 1); /* started, not done */
	assert_int_equal(q->v->stats.loops_watched, 0);
	assert_int_equal(q->v->stats.user_faults, faults + 1);
	assert_int_equal(q->v->stats.sbb_too_big, 0);
	assert_int_equal(q->v->stats.workloads_rejected, 0);
	assert_int_equal(q->v->stats.faults, 0);
	assert_false(vgpu_failed(q->v));
	/* found at its second start: one body copied, not 256 */
	assert_true(q->v->stats.bb_bytes_copied - copied <= body + 16 + 256);
	i915_engine_reset(q);
	store_batch(q, 64 * 4096, 64, 0x77);
	i915_cs_reset(&cs);
	request(q, &cs, 64 * 4096);
	submit(q, &cs);
	wait_seqno(q, q->seqno);
	assert_int_equal(data(q, 0), 0x77);
}

static void test_self_loop_any_body_fails_only_its_request(void **state)
{
	struct env *e = *state;

	loop_fails_only_its_request(&e->a, 400);
	loop_fails_only_its_request(&e->a, 8 * KiB);
	assert_false(vgpu_dead(e->a.v));
	assert_int_equal(e->a.v->stats.resets, 0);
	assert_at_rest(e->a.v);
}

/* A loop through two batches (A chains to B, B back to A), 12 KiB each,
 * at the second level. */
static void test_two_batch_loop_fails_only_its_request(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	struct i915_cs cs;

	loop_batch(q, 0, 12 * KiB, 16 * KiB);
	loop_batch(q, 16 * KiB, 12 * KiB, 0);
	call_at(q, 0);
	i915_cs_reset(&cs);
	request(q, &cs, CALL_OFF);
	submit(q, &cs);
	run_until_error(q);
	assert_int_equal(q->v->stats.user_faults, 1);
	assert_int_equal(q->v->stats.sbb_too_big, 0);
	assert_false(vgpu_failed(q->v));
	assert_int_equal(q->v->stats.faults, 0);
}

/* 150 calls to a one-dword second-level batch (MI_BATCH_BUFFER_END):
 * each call costs 64 bytes of pool, the request completes. */
static void test_150_second_level_calls_done(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	enum { CALLS = 150 };
	uint32_t *dw = calloc(3 * CALLS + 8, 4), end = MI_BATCH_BUFFER_END;
	uint64_t l2 = BATCH_VA + 64 * 4096;
	struct i915_cs cs;
	uint32_t n = 0;
	int k;

	put(q, 64 * 4096, &end, 1);
	for (k = 0; k < CALLS; k++) {
		dw[n++] = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT |
			  MI_BATCH_SECOND_LEVEL;
		dw[n++] = (uint32_t)l2;
		dw[n++] = (uint32_t)(l2 >> 32);
	}
	dw[n++] = MI_STORE_DWORD_IMM_GEN4;
	dw[n++] = (uint32_t)DATA_VA;
	dw[n++] = (uint32_t)(DATA_VA >> 32);
	dw[n++] = 0x150;
	dw[n++] = MI_BATCH_BUFFER_END;
	put(q, 0, dw, n);
	free(dw);
	i915_cs_reset(&cs);
	request(q, &cs, 0);
	submit(q, &cs);
	wait_seqno(q, q->seqno);
	assert_int_equal(data(q, 0), 0x150);
	assert_int_equal(q->v->stats.user_faults, 0);
	assert_false(vgpu_failed(q->v));
	assert_true(q->v->stats.batches_scanned >= CALLS + 1);
	/* 150 one-dword copies share pages: far fewer than 150 */
	assert_true(q->v->stats.sbb_pages_peak <= 8);
	print_pool("150 second-level calls", q->v);
	assert_at_rest(q->v);
}

/* An honest guest submits 40 KiB batches back to back, each its own
 * submission: with the default budget all are queued at once; with the
 * smallest budget (256 KiB) eight of them wait for each other's pages,
 * and still all complete. */
static void test_40k_batches_back_to_back(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	struct i915_cs cs;
	int k;

	store_batch(q, 0, 40 * KiB, 0x4000);
	for (k = 0; k < 3; k++) {
		i915_cs_reset(&cs);
		request(q, &cs, 0);
		submit(q, &cs);
	}
	wait_seqno(q, q->seqno);
	assert_int_equal(q->v->stats.sbb_waits, 0);
	print_pool("3 x 40 KiB, default budget", q->v);
	assert_at_rest(q->v);

	assert_int_equal(vgpu_set_batch_budget(q->v, 256), 0);
	for (k = 0; k < 8; k++) {
		i915_cs_reset(&cs);
		request(q, &cs, 0);
		submit(q, &cs);
		assert_false(vgpu_failed(q->v));
	}
	wait_seqno(q, q->seqno);
	assert_true(q->v->stats.sbb_waits > 0);
	assert_true(q->v->stats.sbb_pages_peak <= 256 / 4);
	assert_int_equal(q->v->stats.user_faults, 0);
	assert_int_equal(q->v->stats.workloads_rejected, 0);
	assert_false(vgpu_failed(q->v));
	print_pool("8 x 40 KiB, 256 KiB budget", q->v);
	assert_at_rest(q->v);
}

/* A 1 MiB batch fits the default budget; with a 256 KiB budget the same
 * request can never fit: it alone fails (as after a hang), the vGPU and
 * the next request are fine. */
static void test_request_larger_than_budget_fails_alone(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	struct i915_cs cs;

	store_batch(q, 0, 1024 * KiB - 16, 0x9000);
	i915_cs_reset(&cs);
	request(q, &cs, 0);
	submit(q, &cs);
	wait_seqno(q, q->seqno);
	assert_int_equal(q->v->stats.user_faults, 0);
	assert_int_equal(data(q, 0), last_slot0(1024 * KiB - 16, 0x9000));
	assert_true(q->v->stats.sbb_pages_peak >= 256);
	print_pool("one 1 MiB batch, default budget", q->v);
	assert_at_rest(q->v);

	assert_int_equal(vgpu_set_batch_budget(q->v, 256), 0);
	i915_cs_reset(&cs);
	request(q, &cs, 0);
	submit(q, &cs);
	run_until_error(q);
	assert_int_equal(q->v->stats.user_faults, 1);
	assert_int_equal(q->v->stats.sbb_too_big, 1);
	assert_int_equal(q->v->stats.faults, 0);
	assert_false(vgpu_failed(q->v));
	i915_engine_reset(q);
	store_batch(q, 300 * 4096, 64, 0x55);
	i915_cs_reset(&cs);
	request(q, &cs, 300 * 4096);
	submit(q, &cs);
	wait_seqno(q, q->seqno);
	assert_int_equal(data(q, 0), 0x55);
	assert_at_rest(q->v);
}

/* One command longer than a pool page (media commands on RCS have a
 * 16-bit length: here 5,000 dwords): the copy cannot hold it in one page,
 * so its request fails alone, nothing is written past the page (the
 * fuzzer's crash), and the next request runs. */
static void test_command_longer_than_a_page_fails_alone(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	struct i915_cs cs;
	uint32_t n = 5000, *dw = calloc(n + 2, 4);

	dw[0] = 0x71000000u | (n - 2); /* MEDIA_OBJECT: 16-bit length */
	dw[n] = MI_BATCH_BUFFER_END;
	put(q, 0, dw, n + 2);
	free(dw);
	i915_cs_reset(&cs);
	request(q, &cs, 0);
	submit(q, &cs);
	run_until_error(q);
	assert_int_equal(q->v->stats.user_faults, 1);
	assert_int_equal(q->v->stats.faults, 0);
	assert_false(vgpu_failed(q->v));
	i915_engine_reset(q);
	store_batch(q, 64 * 4096, 64, 0x66);
	i915_cs_reset(&cs);
	request(q, &cs, 64 * 4096);
	submit(q, &cs);
	wait_seqno(q, q->seqno);
	assert_int_equal(data(q, 0), 0x66);
	assert_at_rest(q->v);
}

/* A command skipped by its length (the scanner reads only its header:
 * 1,021 dwords of MEDIA_OBJECT) leaves the copy behind the scan position;
 * the next command does not fit the page's end and moves to a new page.
 * The skipped bytes are copied into the old page before it chains on,
 * so the new page's bookkeeping starts where copying stands: before the
 * fix the next copy was written about 4 GiB before the new page
 * (fuzz_vgpu_diff's crash). */
static void test_skipped_command_then_page_move(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	struct i915_cs cs;
	uint32_t n = 1021, *dw = calloc(n + 2, 4);

	dw[0] = 0x71000000u | (n - 2); /* MEDIA_OBJECT: 16-bit length */
	for (uint32_t i = 1; i < n; i++)
		dw[i] = 0x5a5a0000u | i;
	dw[n] = MI_BATCH_BUFFER_END;
	put(q, 0, dw, n + 2);
	i915_cs_reset(&cs);
	request(q, &cs, 0);
	submit(q, &cs);
	free(dw);
	wait_seqno(q, q->seqno);
	assert_int_equal(q->v->stats.user_faults, 0);
	assert_int_equal(q->v->stats.faults, 0);
	assert_false(vgpu_failed(q->v));
	assert_at_rest(q->v);
}

/* An ELSP pair whose two requests' batches fit the budget one at a time
 * but not together (160 KiB each, 256 KiB budget), with nothing else in
 * flight: the hardware would run element 0, then element 1, and so does
 * the vGPU (element 1 waits for element 0's pages). Before, element 1's
 * wait undid element 0 and the pair waited for a completion that could
 * never come. The guest sees one pair: element switch, then idle. */
static void test_pair_over_budget_together_runs_in_turn(void **state)
{
	struct env *e = *state;
	struct guest *q = &e->a;
	int c2 = gi_ctx_create(&q->g, RCS);
	uint32_t tl2 = q->tl_gm + 64, s2 = 0x200;
	struct i915_cs cs;

	assert_true(c2 >= 0);
	assert_int_equal(vgpu_set_batch_budget(q->v, 256), 0);
	store_batch(q, 0, 160 * KiB, 0x1000);
	store_batch(q, 512 * KiB, 160 * KiB, 0x9000);
	i915_cs_reset(&cs);
	request(q, &cs, 0);
	gi_ring_emit(&q->g, q->ctx, cs.dw, cs.n);
	i915_cs_reset(&cs);
	i915_gen8_emit_flush_rcs(&cs, I915_EMIT_INVALIDATE);
	i915_gen8_emit_init_breadcrumb(&cs, tl2, s2);
	i915_gen8_emit_bb_start_noarb(&cs, BATCH_VA + 512 * KiB, 0);
	i915_gen8_emit_fini_breadcrumb_rcs(&cs, tl2, s2);
	gi_ring_emit(&q->g, c2, cs.dw, cs.n);
	gi_submit(&q->g, q->ctx, c2);
	for (int k = 0; k < 100000 && gi_read32(&q->g, q->tl_gpa + 64) != s2; k++)
		gi_service(&q->g);
	assert_int_equal(seqno_now(q), q->seqno);
	assert_int_equal(gi_read32(&q->g, q->tl_gpa + 64), s2);
	assert_int_equal(data(q, 0), last_slot0(160 * KiB, 0x9000));
	assert_int_equal(q->v->stats.user_faults + q->v->stats.faults, 0);
	assert_false(vgpu_failed(q->v));
	assert_true(q->v->stats.sbb_waits > 0);
	assert_at_rest(q->v);
}

/* Budgets are per VM: A, with the smallest budget, fills its pool with
 * queued 40 KiB requests (they wait for each other), while B's requests
 * pass without waiting, from its own pool. */
static void test_one_vm_full_other_passes(void **state)
{
	struct env *e = *state;
	struct guest *a = &e->a, *b = &e->b;
	struct i915_cs cs;
	int k;

	guest_init(e, b, 2);
	assert_int_equal(vgpu_set_batch_budget(a->v, 256), 0);
	store_batch(a, 0, 40 * KiB, 0xa000);
	store_batch(b, 0, 40 * KiB, 0xb000);
	for (k = 0; k < 8; k++) {
		i915_cs_reset(&cs);
		request(a, &cs, 0);
		submit(a, &cs);
	}
	assert_true(a->v->sbb.used > 0);
	assert_true(a->v->stats.sbb_waits > 0);
	for (k = 0; k < 4; k++) {
		i915_cs_reset(&cs);
		request(b, &cs, 0);
		submit(b, &cs);
		wait_seqno(b, b->seqno);
	}
	assert_int_equal(b->v->stats.sbb_waits, 0);
	assert_true(b->v->stats.sbb_pages_peak > 0);
	wait_seqno(a, a->seqno);
	assert_false(vgpu_failed(a->v));
	assert_false(vgpu_failed(b->v));
	assert_int_equal(a->v->stats.user_faults + b->v->stats.user_faults, 0);
	print_pool("A (full)", a->v);
	print_pool("B (passing)", b->v);
	assert_at_rest(a->v);
	assert_at_rest(b->v);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
	const struct CMUnitTest tests[] = {
		T(test_ringfill_shape_all_done),
		T(test_self_loop_any_body_fails_only_its_request),
		T(test_two_batch_loop_fails_only_its_request),
		T(test_150_second_level_calls_done),
		T(test_40k_batches_back_to_back),
		T(test_request_larger_than_budget_fails_alone),
		T(test_one_vm_full_other_passes),
		T(test_command_longer_than_a_page_fails_alone),
		T(test_skipped_command_then_page_move),
		T(test_pair_over_budget_together_runs_in_turn),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
