/* vGPU reset and teardown (issue 17 item 4), on the software Gen9 model
 * under the real mediator in gScale mode, with the hypervisor's fault
 * policy (gvt_recover, called after each gvt_poll as hv/gpu/gpu_host.c
 * does):
 *  - a hog's privileged (guest kernel) batch overruns its slice while
 *    others wait: the engine is reset, the vGPU reset, the guest sees
 *    RING_EIR and resets the engine as i915 does, and its next (short)
 *    batch completes; the victims never fail;
 *  - the vgpu_faults-th such fault within the window fails it for good,
 *    and so does a wait that never ends in the guest kernel's ring;
 *  - the same hang in a user (PPGTT) batch, thirty times within the
 *    window: thirty engine resets, none counted as a fault, the VM never
 *    stopped, the victims unaffected (issue 26);
 *  - after a reset the guest-visible state equals a fresh vGPU's (the
 *    registers, the execlist state; no shadow PPGTT left) and its GGTT
 *    is as the guest wrote it;
 *  - after teardown no entry of the shared GGTT maps the dead VM's pages,
 *    and a vGPU created afterwards takes its slot and runs. */
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
#define NV 3
#define VM_RAM (8 * MiB)
#define BATCH_VA 0x7e0000000000ull
#define HOG_PAGES 8
#define HOG_VA 0x7d0000000000ull
#define MS 1000000ull
#define WINDOW (10000 * MS)

struct world {
	struct model_world mw;
	struct vgpu *v[NV + 1];
	struct guest_i915 g[NV + 1];
	int ctx[NV + 1];
	uint32_t seq_gm[NV + 1], seq[NV + 1];
	uint64_t seq_gpa[NV + 1], batch_gpa[NV + 1];
	bool feed; /* victims 1 .. NV-1 resubmit as soon as their seqno lands */
	bool hog_user; /* the hog's batch a user (PPGTT) one, not privileged */
	uint32_t hog_gm, sem_gm;
};

static void guest_setup(struct world *w, int i)
{
	struct guest_i915 *g = &w->g[i];

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
}

static void hog_setup(struct world *w)
{
	static uint32_t bb[HOG_PAGES * 1024];
	struct guest_i915 *g = &w->g[0];
	uint64_t gpa = gi_alloc_pages(g, HOG_PAGES);

	memset(bb, 0, sizeof(bb)); /* MI_NOOP */
	bb[HOG_PAGES * 1024 - 2] = MI_BATCH_BUFFER_END;
	fake_hv_guest_write(&w->mw.hv, 1, gpa, bb, sizeof(bb));
	gi_ppgtt_map(g, HOG_VA, gpa, HOG_PAGES);
	w->hog_gm = gi_gm_alloc(g, HOG_PAGES * 4096, false);
	gi_ggtt_bind(g, w->hog_gm, gpa, HOG_PAGES);
	w->sem_gm = gi_gm_alloc(g, 4096, false); /* never written: 0 */
	gi_ggtt_bind(g, w->sem_gm, gi_alloc_pages(g, 1), 1);
}

static void world_init(struct world *w)
{
	static struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { NULL, &gscale_on } };
	struct mw_config c = { .pool_mib = 64, .ram_mib = 8 * (NV + 1),
			       .params = &p };
	int i;

	memset(w, 0, sizeof(*w));
	assert_int_equal(mw_init(&w->mw, &c), 0);
	for (i = 0; i < NV; i++) {
		assert_int_equal(mw_add_vgpu(&w->mw, &vgpu_type_v5_8, i + 1,
					     VM_RAM, &w->v[i]), 0);
		guest_setup(w, i);
	}
	hog_setup(w);
	w->mw.m.cfg.cmd_budget = 1; /* one command per engine per poll */
}

static void world_fini(struct world *w)
{
	mw_stop(&w->mw);
	assert_int_equal(w->mw.hv.pages_in_use, 0);
	mw_fini(&w->mw);
}

static void hog_submit(struct world *w)
{
	struct guest_i915 *g = &w->g[0];

	gi_emit_bb_start(g, w->ctx[0], w->hog_user ? HOG_VA : w->hog_gm,
			 w->hog_user);
	gi_emit_breadcrumb(g, w->ctx[0], w->seq_gm[0], 0xdead);
	gi_submit(g, w->ctx[0], -1);
}

/* The guest kernel's own ring waits for a semaphore nobody signals. */
static void ring_hang_submit(struct world *w)
{
	struct guest_i915 *g = &w->g[0];
	uint32_t cs[4] = { MI_SEMAPHORE_WAIT | MI_SEMAPHORE_GLOBAL_GTT |
				   MI_SEMAPHORE_POLL | 4u << 12, /* == 1 */
			   1, w->sem_gm, 0 };

	gi_ring_emit(g, w->ctx[0], cs, 4);
	gi_emit_breadcrumb(g, w->ctx[0], w->seq_gm[0], 0xdead);
	gi_submit(g, w->ctx[0], -1);
}

/* A short PPGTT batch, then the seqno breadcrumb. */
static void short_submit(struct world *w, int i)
{
	uint32_t bb[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	struct guest_i915 *g = &w->g[i];

	fake_hv_guest_write(&w->mw.hv, (uint32_t)i + 1, w->batch_gpa[i], bb,
			    sizeof(bb));
	w->seq[i]++;
	gi_emit_bb_start(g, w->ctx[i], BATCH_VA, true);
	gi_emit_breadcrumb(g, w->ctx[i], w->seq_gm[i], w->seq[i]);
	gi_submit(g, w->ctx[i], -1);
}

static bool seq_landed(struct world *w, int i)
{
	return gi_read32(&w->g[i], w->seq_gpa[i]) == w->seq[i];
}

/* One pass of the hypervisor's main loop: guests, mediator, policy. */
static uint32_t pass(struct world *w, uint32_t max_faults)
{
	uint32_t n;
	int i;

	for (i = 0; i < NV; i++)
		gi_service(&w->g[i]);
	n = gvt_recover(w->mw.gvt, max_faults, WINDOW);
	for (i = 1; i < NV && w->feed; i++)
		if (seq_landed(w, i))
			short_submit(w, i);
	w->mw.hv.now += MS / 10;
	return n;
}

/* What i915 does on a CS error interrupt: EIR says the engine erred, it
 * resets the engine (GDRST) and sets it up again. */
static bool guest_sees_error_and_resets(struct world *w, int i)
{
	struct guest_i915 *g = &w->g[i];
	uint32_t base = gen9_engine_mmio_base(GEN9_RCS0);

	if (!(gi_mmio_read(g, RING_EIR(base), 4) & I915_ERROR_INSTRUCTION))
		return false;
	gi_mmio_write(g, GEN6_GDRST, gen9_engine_reset_domain(GEN9_RCS0), 4);
	gi_mmio_write(g, RING_EIR(base), I915_ERROR_INSTRUCTION, 4);
	assert_int_equal(gi_engine_init(g, GEN9_RCS0), 0);
	/* i915's reset_rewind: the guilty request is skipped, the context
	 * resumes after it (its ring head at the tail). */
	gi_write32(g, g->ctx[w->ctx[i]].lrca_gpa + LRC_STATE_OFFSET +
			      CTX_RING_HEAD * 4, g->ctx[w->ctx[i]].tail);
	return true;
}

static void victims_healthy(struct world *w)
{
	for (int i = 1; i < NV; i++) {
		const struct vgpu_stats *s = vgpu_get_stats(w->v[i]);

		assert_false(vgpu_failed(w->v[i]));
		assert_int_equal(s->faults, 0);
		assert_int_equal(s->resets, 0);
		assert_int_equal(s->workloads_failed, 0);
		assert_true(w->seq[i] > 10);
	}
}

/* The hog's privileged batch overruns once: reset, told, resets its
 * engine, runs again. */
static void test_hang_reset_then_next_round_passes(void **state)
{
	static struct world w;
	const struct vgpu_stats *hs;
	uint32_t resets = 0, k;
	bool told = false;

	(void)state;
	world_init(&w);
	hog_submit(&w);
	w.feed = true;
	for (int i = 1; i < NV; i++)
		short_submit(&w, i);
	for (k = 0; k < 4000 && !resets; k++)
		resets += pass(&w, 3);
	assert_int_equal(resets, 1);
	hs = vgpu_get_stats(w.v[0]);
	assert_int_equal(hs->faults, 1);
	assert_int_equal(hs->resets, 1);
	assert_false(vgpu_failed(w.v[0]));
	assert_false(vgpu_dead(w.v[0]));
	/* Nothing of the hog left anywhere: not on the GPU, not queued. */
	for (int id = 0; id < GEN9_NUM_ENGINES; id++) {
		assert_true(w.mw.gvt->pe[id].owner_vgpu != w.v[0]);
		assert_int_equal(w.v[0]->eng[id].wl_count, 0);
	}
	assert_non_null(strstr(w.mw.hv.last_log, "vGPU reset (engine: rcs0"));
	/* The guest is told as i915 expects and resets the engine. */
	told = guest_sees_error_and_resets(&w, 0);
	assert_true(told);
	/* Its next round passes. */
	w.seq[0] = 0x100;
	short_submit(&w, 0);
	for (k = 0; k < 4000 && !seq_landed(&w, 0); k++)
		pass(&w, 3);
	assert_true(seq_landed(&w, 0));
	assert_int_equal(hs->resets, 1);
	assert_true(hs->ns_reset_to_run > 0);
	print_message("reset: %llu us from the overrun to the hog's next "
		      "workload on the GPU (model time)\n",
		      (unsigned long long)(hs->ns_reset_to_run / 1000));
	/* The hog's batch never got to its breadcrumb. */
	assert_int_not_equal(gi_read32(&w.g[0], w.seq_gpa[0]), 0xdead);
	for (k = 0; k < 2000; k++)
		pass(&w, 3);
	victims_healthy(&w);
	world_fini(&w);
}

/* A hog whose privileged batch keeps hanging: reset, reset, then failed
 * for good at the third fault within the window. */
static void test_faults_in_window_fail_for_good(void **state)
{
	static struct world w;
	uint32_t resets = 0, k;

	(void)state;
	world_init(&w);
	hog_submit(&w);
	w.feed = true;
	for (int i = 1; i < NV; i++)
		short_submit(&w, i);
	for (k = 0; k < 20000 && !vgpu_dead(w.v[0]); k++) {
		resets += pass(&w, 3);
		if (guest_sees_error_and_resets(&w, 0))
			hog_submit(&w); /* and hangs again */
	}
	print_message("hog: %llu faults, %u resets by the policy; %s\n",
		      (unsigned long long)vgpu_get_stats(w.v[0])->faults,
		      resets, w.mw.hv.last_log);
	assert_true(vgpu_dead(w.v[0]));
	assert_true(vgpu_failed(w.v[0]));
	assert_int_equal(resets, 2);
	assert_int_equal(vgpu_get_stats(w.v[0])->faults, 3);
	assert_non_null(strstr(w.mw.hv.last_log, "failed for good: 3 faults"));
	/* Dead stays dead: neither the guest nor the operator revives it. */
	assert_int_equal(vgpu_reset(w.v[0], ~0u, "test"), -GPU_EINVAL);
	for (k = 0; k < 200; k++)
		pass(&w, 3);
	victims_healthy(&w);
	world_fini(&w);
}

/* Faults further apart than the window never add up. */
static void test_faults_outside_window_do_not_add_up(void **state)
{
	static struct world w;
	uint32_t resets = 0, k;

	(void)state;
	world_init(&w);
	hog_submit(&w);
	w.feed = true;
	for (int i = 1; i < NV; i++)
		short_submit(&w, i);
	for (k = 0; k < 40000 && resets < 4; k++) {
		uint32_t n = pass(&w, 2);

		resets += n;
		if (n)
			w.mw.hv.now += WINDOW + MS; /* quiet for a window */
		if (guest_sees_error_and_resets(&w, 0))
			hog_submit(&w);
	}
	assert_int_equal(resets, 4);
	assert_false(vgpu_dead(w.v[0]));
	world_fini(&w);
}

/* One user process hanging its batch again and again (the hostile
 * f-loop, or an honest bug): each hang resets the engine and fails that
 * request, the guest recovers as i915 does, and its vGPU and VM go on -
 * thirty times within one window. Each reset holds it off the GPU as
 * long as its hang held the engine; the victims never notice more than a
 * bounded wait. */
static void test_user_hangs_do_not_stop_the_vm(void **state)
{
	static struct world w;
	const struct vgpu_stats *hs;
	uint32_t resets = 0, k, engine_resets;
	uint64_t t0;

	(void)state;
	world_init(&w);
	w.hog_user = true;
	hog_submit(&w);
	w.feed = true;
	for (int i = 1; i < NV; i++)
		short_submit(&w, i);
	hs = vgpu_get_stats(w.v[0]);
	t0 = w.mw.hv.now;
	for (k = 0; k < 40000 && hs->user_hangs < 30; k++) {
		resets += pass(&w, 3);
		if (guest_sees_error_and_resets(&w, 0) && hs->user_hangs < 30)
			hog_submit(&w); /* and hangs again */
	}
	engine_resets = w.mw.gvt->pe[GEN9_RCS0].resets;
	print_message("user hangs: %llu in %.0f ms (window %llu ms): %u engine "
		      "resets, %u vGPU resets, %llu faults, held %.0f ms\n",
		      (unsigned long long)hs->user_hangs,
		      (double)(w.mw.hv.now - t0) / MS,
		      (unsigned long long)(WINDOW / MS), engine_resets, resets,
		      (unsigned long long)hs->faults, (double)hs->ns_held / MS);
	assert_int_equal(hs->user_hangs, 30);
	assert_true(w.mw.hv.now - t0 < WINDOW);
	assert_int_equal(engine_resets, 30);
	assert_int_equal(resets, 30);
	assert_int_equal(hs->faults, 0);
	assert_int_equal(hs->overruns, 0);
	assert_false(vgpu_dead(w.v[0]));
	/* The rate bound: each spell on the engine is paid for off it. */
	assert_true(hs->ns_held * 2 <= w.mw.hv.now - t0 + 40 * MS);
	/* After its guest's reset, its next ordinary request runs. */
	w.seq[0] = 0x100;
	short_submit(&w, 0);
	for (k = 0; k < 4000 && !seq_landed(&w, 0); k++)
		pass(&w, 3);
	assert_true(seq_landed(&w, 0));
	assert_int_equal(hs->user_hangs, 30);
	for (k = 0; k < 200; k++)
		pass(&w, 3);
	victims_healthy(&w);
	world_fini(&w);
}

/* A wait that never ends in the guest kernel's own ring is the kernel's
 * fault: it counts, and the third within the window fails the vGPU. */
static void test_kernel_ring_hang_counts(void **state)
{
	static struct world w;
	uint32_t resets = 0, k;

	(void)state;
	world_init(&w);
	ring_hang_submit(&w);
	w.feed = true;
	for (int i = 1; i < NV; i++)
		short_submit(&w, i);
	for (k = 0; k < 20000 && !vgpu_dead(w.v[0]); k++) {
		resets += pass(&w, 3);
		if (guest_sees_error_and_resets(&w, 0))
			ring_hang_submit(&w);
	}
	assert_true(vgpu_dead(w.v[0]));
	assert_int_equal(resets, 2);
	assert_int_equal(vgpu_get_stats(w.v[0])->faults, 3);
	assert_int_equal(vgpu_get_stats(w.v[0])->user_hangs, 0);
	for (k = 0; k < 200; k++)
		pass(&w, 3);
	victims_healthy(&w);
	world_fini(&w);
}

/* Registers of [start, end) equal between two vGPUs, except EIR of each
 * engine (the notification). */
static void regs_equal(struct vgpu *a, struct vgpu *b, uint32_t start,
		       uint32_t end)
{
	for (uint32_t off = start; off < end; off += 4) {
		bool eir = false;

		for (int id = 0; id < GEN9_NUM_ENGINES; id++)
			eir |= off == RING_EIR(gen9_engine_mmio_base(
					      (enum gen9_engine_id)id));
		if (eir)
			continue;
		if (vreg(a, off) != vreg(b, off))
			fail_msg("register %x: %08x after reset, %08x fresh",
				 off, vreg(a, off), vreg(b, off));
	}
}

static uint32_t vreg_read_for_test(struct vgpu *v, uint32_t off)
{
	uint64_t val = 0;

	assert_int_equal(vgpu_mmio_read(v, off, &val, 4), 0);
	return (uint32_t)val;
}

static void execlists_idle(struct vgpu *v)
{
	for (int id = 0; id < GEN9_NUM_ENGINES; id++) {
		struct vgpu_engine *e = &v->eng[id];

		if (!e->present)
			continue;
		assert_int_equal(e->elsp_n, 0);
		assert_int_equal(e->running, -1);
		assert_int_equal(e->csb_wptr, GEN8_CSB_PTR_NONE);
		assert_int_equal(e->wl_count, 0);
	}
	assert_int_equal(v->spt_count, 0); /* shadows dropped */
}

/* After a full reset the guest-visible registers and execlist state are
 * a fresh vGPU's; the GGTT is as the guest wrote it. After an engine
 * reset, that engine's block is. */
static void test_reset_state_equals_fresh(void **state)
{
	static struct world w;
	struct vgpu *fresh;
	uint32_t idx, base = gen9_engine_mmio_base(GEN9_RCS0);
	uint64_t g_before, h_before, g_after, h_after;

	(void)state;
	world_init(&w);
	short_submit(&w, 1);
	for (int k = 0; k < 2000 && !seq_landed(&w, 1); k++)
		pass(&w, 3);
	assert_true(seq_landed(&w, 1));
	assert_true(w.v[1]->spt_count > 0);
	idx = w.seq_gm[1] >> 12;
	assert_int_equal(vgpu_ggtt_entry(w.v[1], idx, &g_before, &h_before), 0);
	assert_true(g_before & GEN8_PAGE_PRESENT);
	assert_int_equal(mw_add_vgpu(&w.mw, &vgpu_type_v5_8, NV + 1, VM_RAM,
				     &fresh), 0);

	/* Engine reset: its register block back to the fresh values; the
	 * context shown running stays until the guest's own GDRST (i915
	 * reads it to find the request to blame). */
	{
		struct vgpu_engine *e = &w.v[1]->eng[GEN9_RCS0];
		int running = e->running;
		uint32_t hi = vreg_read_for_test(w.v[1], RING_EXECLIST_STATUS_HI(base));

		assert_int_equal(vgpu_reset(w.v[1], BIT(GEN9_RCS0), "test"), 0);
		regs_equal(w.v[1], fresh, base, base + 0x800);
		assert_int_equal(e->running, running);
		assert_int_equal(vreg_read_for_test(w.v[1], RING_EXECLIST_STATUS_HI(base)), hi);
		assert_true(vreg(w.v[1], RING_EIR(base)) & I915_ERROR_INSTRUCTION);
		gi_mmio_write(&w.g[1], GEN6_GDRST, gen9_engine_reset_domain(GEN9_RCS0), 4);
		execlists_idle(w.v[1]);
		assert_int_equal(vreg_read_for_test(w.v[1], RING_EXECLIST_STATUS_HI(base)), 0);
	}

	/* Full reset: every register below the interrupt block. */
	short_submit(&w, 1);
	for (int k = 0; k < 2000 && !seq_landed(&w, 1); k++)
		pass(&w, 3);
	assert_true(seq_landed(&w, 1));
	assert_int_equal(vgpu_reset(w.v[1], ~0u, "test"), 0);
	regs_equal(w.v[1], fresh, 0, GEN8_MASTER_IRQ);
	execlists_idle(w.v[1]);
	assert_int_equal(vgpu_ggtt_entry(w.v[1], idx, &g_after, &h_after), 0);
	assert_int_equal(g_after, g_before);
	assert_int_equal(h_after, h_before);
	assert_int_equal(vgpu_get_stats(w.v[1])->resets, 2);
	/* The guest sets up again and runs. */
	guest_sees_error_and_resets(&w, 1);
	short_submit(&w, 1);
	for (int k = 0; k < 2000 && !seq_landed(&w, 1); k++)
		pass(&w, 3);
	assert_true(seq_landed(&w, 1));
	world_fini(&w);
}

/* Present entries of the physical GGTT naming a page of VM vm. */
static uint32_t ggtt_entries_of(struct world *w, uint32_t vm)
{
	uint32_t n = 0;

	for (uint64_t i = 0; i < GEN9_MODEL_GGTT_MAX_ENTRIES; i++) {
		uint64_t pte = w->mw.ggtt[i];

		if ((pte & GEN8_PAGE_PRESENT) &&
		    fake_hv_hpa_owner(&w->mw.hv, gen8_pte_addr(pte)) == (int)vm)
			n++;
	}
	return n;
}

/* Teardown: no GGTT entry left on the dead VM's memory, its slot taken
 * by a vGPU created afterwards, which runs. */
static void test_teardown_scrubs_and_slots_reused(void **state)
{
	static struct world w;
	uint32_t first, count, first2, count2, users;

	(void)state;
	world_init(&w);
	for (int i = 1; i < NV; i++) {
		short_submit(&w, i);
		for (int k = 0; k < 2000 && !seq_landed(&w, i); k++)
			pass(&w, 3);
		assert_true(seq_landed(&w, i));
	}
	/* VM 3 (vGPU index 2) has entries in the shared table now (it was
	 * the last on the GPU). */
	assert_true(ggtt_entries_of(&w, 3) > 0);
	assert_int_equal(vgpu_slots(w.v[2], &first, &count), 0);
	vgpu_destroy(w.v[2]);
	w.v[2] = NULL;
	assert_int_equal(ggtt_entries_of(&w, 3), 0);
	assert_int_equal(gvt_slot_users(w.mw.gvt, first, &users), 0);
	assert_int_equal(users, 0);
	/* A VM created afterwards gets the free slot and runs. */
	assert_int_equal(mw_add_vgpu(&w.mw, &vgpu_type_v5_8, NV + 1, VM_RAM,
				     &w.v[NV]), 0);
	assert_int_equal(vgpu_slots(w.v[NV], &first2, &count2), 0);
	assert_int_equal(first2, first);
	assert_int_equal(count2, count);
	guest_setup(&w, NV);
	w.g[NV].poll = mw_poll;
	short_submit(&w, NV);
	for (int k = 0; k < 4000 && !seq_landed(&w, NV); k++) {
		gi_service(&w.g[NV]);
		w.mw.hv.now += MS / 10;
	}
	assert_true(seq_landed(&w, NV));
	assert_int_equal(ggtt_entries_of(&w, 3), 0);
	world_fini(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hang_reset_then_next_round_passes),
		cmocka_unit_test(test_faults_in_window_fail_for_good),
		cmocka_unit_test(test_faults_outside_window_do_not_add_up),
		cmocka_unit_test(test_user_hangs_do_not_stop_the_vm),
		cmocka_unit_test(test_kernel_ring_hang_counts),
		cmocka_unit_test(test_reset_state_equals_fresh),
		cmocka_unit_test(test_teardown_scrubs_and_slots_reused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
