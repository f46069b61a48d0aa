/* The GPU taken back by preemption (issue 26), on the software Gen9 model
 * under the real mediator in gScale mode, with the hypervisor's fault
 * policy after each pass. The model runs one command per engine per poll,
 * so a workload of many requests runs for several 16 ms slices of
 * hypervisor time, as gem_exec_create's stream did in two IGT VMs.
 *  - two vGPUs each streaming many short requests (one ELSP write of
 *    REQS requests, then the next when the last seqno lands): with
 *    preemption no overrun, no reset, both make progress and the GPU is
 *    shared (preemptions and switches counted); without (preempt off, the
 *    old scheduler) the same stream is cut as overruns - the numbers
 *    before and after;
 *  - a long batch with MI_ARB_CHECKs beside a neighbour's seqno stream is
 *    preempted and resumed, its start not run again, its end landing,
 *    the guest seeing one completion and nothing else;
 *  - alone on the GPU past the hang timeout: a batch with arbitration
 *    points proves progress when asked to yield and completes; one
 *    without is reset as a hang - of its user batch, not a fault. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/hw/gen9_cmds.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define NV 2
#define VM_RAM (8 * MiB)
#define BATCH_VA 0x7e0000000000ull
#define LONG_VA 0x7d0000000000ull
#define DATA_VA 0x7c0000000000ull
#define LONG_PAGES 4
#define REQS 128 /* requests per ELSP write */
#define MS 1000000ull
#define WINDOW (10000 * MS)

struct world {
	struct model_world mw;
	struct vgpu *v[NV];
	struct guest_i915 g[NV];
	int ctx[NV];
	uint32_t seq_gm[NV], seq[NV], done[NV], submits[NV];
	uint64_t seq_gpa[NV], batch_gpa[NV], data_gpa[NV];
	bool stream[NV]; /* resubmit REQS requests when the last lands */
	uint64_t pass_ns;
	uint32_t policy_resets;
};

static void guest_setup(struct world *w, int i)
{
	struct guest_i915 *g = &w->g[i];
	uint32_t bb[2] = { MI_BATCH_BUFFER_END, MI_NOOP };

	assert_int_equal(gi_probe(g, &w->mw.hv, w->v[i], i + 1, w->mw.gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = &w->mw;
	assert_int_equal(gi_ppgtt_create(g), 0);
	assert_int_equal(gi_engine_init(g, GEN9_RCS0), 0);
	w->ctx[i] = gi_ctx_create(g, GEN9_RCS0);
	assert_true(w->ctx[i] >= 0);
	w->seq_gpa[i] = gi_alloc_pages(g, 1);
	w->seq_gm[i] = gi_gm_alloc(g, 4096, true);
	gi_ggtt_bind(g, w->seq_gm[i], w->seq_gpa[i], 1);
	w->batch_gpa[i] = gi_alloc_pages(g, 1);
	gi_ppgtt_map(g, BATCH_VA, w->batch_gpa[i], 1);
	fake_hv_guest_write(&w->mw.hv, (uint32_t)i + 1, w->batch_gpa[i], bb,
			    sizeof(bb));
	w->data_gpa[i] = gi_alloc_pages(g, 1);
	gi_ppgtt_map(g, DATA_VA, w->data_gpa[i], 1);
}

static void world_init(struct world *w, bool no_preempt, uint64_t pass_ns)
{
	static struct gvt_params p;
	struct mw_config c = { .pool_mib = 64, .ram_mib = 8 * NV,
			       .params = &p };
	int i;

	memset(&p, 0, sizeof(p));
	p.ext[0] = &dymgpu_ext_ops; /* as the hypervisor */
	p.ext[1] = &gscale_ext_ops;
	p.ext_params[1] = &gscale_on;
	p.preempt = !no_preempt;
	memset(w, 0, sizeof(*w));
	assert_int_equal(mw_init(&w->mw, &c), 0);
	for (i = 0; i < NV; i++) {
		assert_int_equal(mw_add_vgpu(&w->mw, &vgpu_type_v5_8, i + 1,
					     VM_RAM, &w->v[i]), 0);
		guest_setup(w, i);
	}
	w->mw.m.cfg.cmd_budget = 1; /* one command per engine per poll */
	w->pass_ns = pass_ns;
}

static void world_fini(struct world *w)
{
	mw_stop(&w->mw);
	assert_int_equal(w->mw.hv.pages_in_use, 0);
	mw_fini(&w->mw);
}

/* REQS requests in one ELSP write, each as i915 emits it: the batch
 * between arbitration on and off, then the seqno breadcrumb. */
static void stream_submit(struct world *w, int i)
{
	struct guest_i915 *g = &w->g[i];
	int r;

	for (r = 0; r < REQS; r++) {
		gi_emit_bb_start(g, w->ctx[i], BATCH_VA, true);
		gi_emit_breadcrumb(g, w->ctx[i], w->seq_gm[i], ++w->seq[i]);
	}
	gi_submit(g, w->ctx[i], -1);
	w->submits[i]++;
}

static uint32_t seq_now(struct world *w, int i)
{
	return gi_read32(&w->g[i], w->seq_gpa[i]);
}

static void pass(struct world *w)
{
	int i;

	for (i = 0; i < NV; i++)
		gi_service(&w->g[i]);
	w->policy_resets += gvt_recover(w->mw.gvt, 3, WINDOW);
	for (i = 0; i < NV; i++) {
		if (!w->stream[i] || seq_now(w, i) != w->seq[i])
			continue;
		w->done[i] = w->seq[i];
		stream_submit(w, i);
	}
	w->mw.hv.now += w->pass_ns;
}

struct stream_result {
	uint64_t overruns, resets, user_hangs, preemptions, requests,
		switches, seqnos[NV];
};

static void stream_run(struct stream_result *res, bool no_preempt)
{
	static struct world w;
	uint64_t end;
	int i;

	world_init(&w, no_preempt, MS / 10);
	for (i = 0; i < NV; i++) {
		w.stream[i] = true;
		stream_submit(&w, i);
	}
	end = w.mw.hv.now + 400 * MS; /* 25 slices */
	while (w.mw.hv.now < end)
		pass(&w);
	memset(res, 0, sizeof(*res));
	for (i = 0; i < NV; i++) {
		const struct vgpu_stats *s = vgpu_get_stats(w.v[i]);

		res->overruns += s->overruns;
		res->resets += s->resets;
		res->user_hangs += s->user_hangs;
		res->preemptions += s->preemptions;
		res->requests += s->preempt_requests;
		res->switches += s->vgpu_switches;
		res->seqnos[i] = seq_now(&w, i);
		if (!no_preempt) {
			/* The guest saw each ELSP write start once and
			 * complete once: nothing of the preemptions. */
			const struct gi_engine *e = &w.g[i].eng[GEN9_RCS0];

			assert_true(e->completes <= w.submits[i]);
			assert_int_equal(e->csb_events, e->idle_to_active +
							e->completes +
							e->lite_restores);
		}
	}
	print_message("%s: overruns %llu, vGPU resets %llu, user hangs %llu, "
		      "preemptions %llu of %llu asked, vGPU switches %llu, "
		      "seqnos %llu + %llu\n",
		      no_preempt ? "no preemption" : "preemption",
		      (unsigned long long)res->overruns,
		      (unsigned long long)res->resets,
		      (unsigned long long)res->user_hangs,
		      (unsigned long long)res->preemptions,
		      (unsigned long long)res->requests,
		      (unsigned long long)res->switches,
		      (unsigned long long)res->seqnos[0],
		      (unsigned long long)res->seqnos[1]);
	world_fini(&w);
}

/* gem_exec_create's shape in two VMs: many ordinary requests, each one
 * ELSP write longer than a slice plus its overrun. */
static void test_streams_share_by_preemption(void **state)
{
	struct stream_result on, off;

	(void)state;
	stream_run(&off, true);
	stream_run(&on, false);
	/* Before: the old scheduler cut the honest stream. */
	assert_true(off.overruns > 0);
	/* After: no cut, no reset, no hang, both progress, shared. */
	assert_int_equal(on.overruns, 0);
	assert_int_equal(on.resets, 0);
	assert_int_equal(on.user_hangs, 0);
	assert_true(on.preemptions >= 10);
	assert_true(on.switches >= 20);
	/* Both progress, neither starved: each gets at least a third of
	 * what the two did, and together no less than without preemption
	 * (the preemptions cost no GPU time of note). */
	for (int i = 0; i < NV; i++)
		assert_true(3 * on.seqnos[i] > on.seqnos[0] + on.seqnos[1]);
	assert_true(10 * (on.seqnos[0] + on.seqnos[1]) >=
		    9 * (off.seqnos[0] + off.seqnos[1]));
}

/* A's batch: a start marker, n arbitration points (each MI_ARB_CHECK
 * followed by 7 MI_NOOPs) or none (arb false), then its end store. */
static void long_batch(struct world *w, bool arb)
{
	static uint32_t bb[LONG_PAGES * 1024];
	struct guest_i915 *g = &w->g[0];
	uint64_t gpa = gi_alloc_pages(g, LONG_PAGES);
	uint32_t *p = bb, n = LONG_PAGES * 1024 - 16;

	memset(bb, 0, sizeof(bb)); /* MI_NOOP */
	*p++ = MI_STORE_DWORD_IMM_GEN4;
	*p++ = (uint32_t)DATA_VA;
	*p++ = (uint32_t)(DATA_VA >> 32);
	*p++ = 1; /* start marker */
	for (uint32_t k = 0; arb && k < n; k += 8)
		p[k] = MI_ARB_CHECK;
	p += n;
	*p++ = MI_STORE_DWORD_IMM_GEN4;
	*p++ = (uint32_t)(DATA_VA + 4);
	*p++ = (uint32_t)((DATA_VA + 4) >> 32);
	*p++ = 0xe4d; /* its end */
	*p++ = MI_BATCH_BUFFER_END;
	fake_hv_guest_write(&w->mw.hv, 1, gpa, bb, sizeof(bb));
	gi_ppgtt_map(g, LONG_VA, gpa, LONG_PAGES);
	gi_emit_bb_start(g, w->ctx[0], LONG_VA, true);
	gi_emit_breadcrumb(g, w->ctx[0], w->seq_gm[0], ++w->seq[0]);
	gi_submit(g, w->ctx[0], -1);
}

static uint32_t data(struct world *w, int i, uint32_t off)
{
	return gi_read32(&w->g[i], w->data_gpa[i] + off);
}

/* A long batch with arbitration points beside a neighbour's stream: it
 * is preempted and resumed where it stopped, its result right. */
static void test_long_batch_preempted_and_resumed(void **state)
{
	static struct world w;
	const struct vgpu_stats *a;
	const struct gi_engine *ge;
	uint32_t k, passes, b_before = 0;
	bool cleared = false;

	(void)state;
	world_init(&w, false, MS / 10);
	long_batch(&w, true);
	w.stream[1] = true;
	stream_submit(&w, 1);
	a = vgpu_get_stats(w.v[0]);
	for (k = 0; k < 20000 && seq_now(&w, 0) != w.seq[0]; k++) {
		assert_int_equal(w.g[0].eng[GEN9_RCS0].completes, 0);
		pass(&w);
		if (!cleared && a->preemptions) {
			/* Off the GPU after its start: a restart would set
			 * the marker again. */
			assert_int_equal(data(&w, 0, 0), 1);
			assert_true(w.v[0]->eng[GEN9_RCS0].wl[w.v[0]->eng[GEN9_RCS0].wl_head].preempted);
			gi_write32(&w.g[0], w.data_gpa[0], 0);
			b_before = seq_now(&w, 1);
			cleared = true;
		}
	}
	passes = k;
	for (k = 0; k < 20; k++) /* the completion reaches the guest */
		pass(&w);
	ge = &w.g[0].eng[GEN9_RCS0];
	print_message("long batch: done after %u passes, %llu preemptions, "
		      "neighbour seqnos %u (%u after its first preemption)\n",
		      passes,
		      (unsigned long long)a->preemptions, seq_now(&w, 1),
		      seq_now(&w, 1) - b_before);
	assert_int_equal(seq_now(&w, 0), w.seq[0]);
	assert_true(a->preemptions >= 2);
	assert_int_equal(data(&w, 0, 0), 0); /* its start ran once */
	assert_int_equal(data(&w, 0, 4), 0xe4d); /* its end landed */
	assert_int_equal(a->overruns, 0);
	assert_int_equal(a->user_hangs, 0);
	assert_int_equal(a->resets, 0);
	assert_int_equal(a->workloads_done, 1);
	/* The guest saw one start and one completion, nothing else. */
	assert_int_equal(ge->idle_to_active, 1);
	assert_int_equal(ge->completes, 1);
	assert_int_equal(ge->csb_events, 2);
	assert_int_equal(w.g[0].iir_seen[0] & GT_CS_MASTER_ERROR_INTERRUPT, 0);
	/* The neighbour ran meanwhile. */
	assert_true(seq_now(&w, 1) > b_before + REQS);
	assert_int_equal(vgpu_get_stats(w.v[1])->overruns, 0);
	world_fini(&w);
}

/* Alone for longer than the hang timeout (4096 commands at one per ms):
 * with arbitration points it yields when asked, goes straight back on
 * and completes; without, it is reset at the hang timeout - a hang of
 * its user batch: the request fails, no fault is counted. */
static void alone_run(bool arb)
{
	static struct world w;
	const struct vgpu_stats *a;
	uint64_t t0, ms;
	uint32_t k;

	world_init(&w, false, MS);
	t0 = w.mw.hv.now;
	long_batch(&w, arb);
	a = vgpu_get_stats(w.v[0]);
	for (k = 0; k < 5000 && seq_now(&w, 0) != w.seq[0] && !a->user_hangs; k++)
		pass(&w);
	ms = (w.mw.hv.now - t0) / MS;
	print_message("alone %s arbitration points: %llu ms, %llu asked to "
		      "yield, %llu preempted, %llu user hangs, %llu faults\n",
		      arb ? "with" : "without", (unsigned long long)ms,
		      (unsigned long long)a->preempt_requests,
		      (unsigned long long)a->preemptions,
		      (unsigned long long)a->user_hangs,
		      (unsigned long long)a->faults);
	if (arb) {
		assert_true(ms > 2000); /* past the hang timeout */
		assert_int_equal(seq_now(&w, 0), w.seq[0]);
		assert_int_equal(data(&w, 0, 4), 0xe4d);
		assert_true(a->preemptions >= 2);
		assert_int_equal(a->user_hangs, 0);
		assert_int_equal(a->resets, 0);
	} else {
		assert_int_equal(a->user_hangs, 1);
		assert_int_equal(a->preemptions, 0);
		assert_int_not_equal(seq_now(&w, 0), w.seq[0]);
		assert_int_equal(data(&w, 0, 4), 0);
		assert_true(ms >= 2000 && ms <= 2010);
		pass(&w);
		assert_int_equal(w.policy_resets, 1);
		assert_int_equal(a->faults, 0);
		assert_false(vgpu_dead(w.v[0]));
	}
	world_fini(&w);
}

static void test_alone_with_arbitration_points_not_reset(void **state)
{
	(void)state;
	alone_run(true);
}

static void test_alone_without_arbitration_point_is_a_hang(void **state)
{
	(void)state;
	alone_run(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_streams_share_by_preemption),
		cmocka_unit_test(test_long_batch_preempted_and_resumed),
		cmocka_unit_test(test_alone_with_arbitration_points_not_reset),
		cmocka_unit_test(test_alone_without_arbitration_point_is_a_hang),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
