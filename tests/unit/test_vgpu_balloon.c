/* Ballooning a running vGPU (gpu/gballoon/gballoon_live.c over
 * gpu/gscale/gscale_resize.c) on the software Gen9 model, driven by the
 * i915-like guest: Algorithm 1 picks the sides, entries both ranges share
 * stay where they are and keep working for the GPU, dropped ones leave the
 * hardware and can no longer be written, PVINFO follows, and a vGPU with
 * work in flight is not touched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "gpu/gballoon/gballoon.h"
#include "gpu/gscale/gscale.h"
#include "gpu/hw/gen9_cmds.h"
#include "gpu/model/gen9_model.h"
#include "gpu/gballoon/gballoon_adjust.h"
#include "gpu/policy/slots.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define N 3
#define VM_RAM (8 * MiB)
#define PV 0x78000u

/* One 64 MiB slot of high GM each. */
static const struct vgpu_type type = { "balloon", 16 * MiB, 64 * MiB, 2, 1 };

struct world {
	struct model_world mw;
	struct vgpu *v[N];
	struct guest_i915 g[N];
};

static struct world *world_new(bool gscale)
{
	struct world *w = calloc(1, sizeof(*w));
	struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { NULL, gscale ? &gscale_on : NULL } };
	struct mw_config c = { .pool_mib = 64, .ram_mib = 8 * N, .params = &p };

	assert_int_equal(mw_init(&w->mw, &c), 0);
	for (int i = 0; i < N; i++) {
		assert_int_equal(mw_add_vgpu(&w->mw, &type, i + 1, VM_RAM,
					     &w->v[i]), 0);
		assert_int_equal(gi_probe(&w->g[i], &w->mw.hv, w->v[i], i + 1,
					  w->mw.gvt), 0);
		w->g[i].poll = mw_poll;
		w->g[i].poll_arg = &w->mw;
	}
	return w;
}

static void world_free(struct world *w)
{
	mw_stop(&w->mw);
	assert_int_equal(w->mw.hv.pages_in_use, 0);
	mw_fini(&w->mw);
	free(w);
}

static uint32_t slot_of(struct world *w, int i)
{
	uint32_t first, n;

	assert_int_equal(vgpu_slots(w->v[i], &first, &n), 0);
	return first;
}

static uint64_t guest_entry(struct world *w, int i, uint32_t index)
{
	uint64_t g = 0, h = 0;

	assert_int_equal(vgpu_ggtt_entry(w->v[i], index, &g, &h), 0);
	return g;
}

/* A seqno through the GGTT on the blitter: the vGPU's GM works. */
static void seqno_works(struct world *w, int i, uint32_t val)
{
	struct guest_i915 *g = &w->g[i];
	uint64_t seq_gpa = gi_alloc_pages(g, 1);
	uint32_t seq_gm = gi_gm_alloc(g, 4096, false);
	int c;

	if (!g->pml4_gpa)
		assert_int_equal(gi_ppgtt_create(g), 0);
	if (!g->eng[GEN9_BCS0].up)
		assert_int_equal(gi_engine_init(g, GEN9_BCS0), 0);
	c = gi_ctx_create(g, GEN9_BCS0);
	assert_true(c >= 0 && seq_gm);
	gi_ggtt_bind(g, seq_gm, seq_gpa, 1);
	gi_emit_breadcrumb(g, c, seq_gm, val);
	gi_submit(g, c, -1);
	assert_int_equal(gi_wait_idle(g, GEN9_BCS0, 20000), 0);
	assert_int_equal(gi_read32(g, seq_gpa), val);
}

static void test_expand_keeps_entries(void **state)
{
	struct world *w = world_new(true);
	uint64_t hb0, hs0, lb, ls, hb, hs, before;
	uint32_t l, r, first0, idx;

	(void)state;
	seqno_works(w, 0, 0x11);
	vgpu_gm_ranges(w->v[0], &lb, &ls, &hb0, &hs0);
	first0 = slot_of(w, 0);
	idx = (uint32_t)(hb0 >> 12) + 3;
	gi_ggtt_bind(&w->g[0], (uint32_t)(idx << 12), 0x300000, 1);
	before = guest_entry(w, 0, idx);
	assert_true(vgpu_high_used(w->v[0]) > 0);
	assert_int_equal(vgpu_high_used(w->v[0]), vgpu_high_used_walk(w->v[0]));
	assert_int_equal(vgpu_balloon(w->v[0], 2, &l, &r), 0);
	/* gBalloon's kept count moved with the entries. */
	assert_int_equal(vgpu_high_used(w->v[0]), vgpu_high_used_walk(w->v[0]));
	assert_int_equal(l + r, 2);
	vgpu_gm_ranges(w->v[0], &lb, &ls, &hb, &hs);
	assert_int_equal(hs, hs0 + 2 * 64 * MiB);
	assert_int_equal(hb, hb0 - l * 64 * MiB);
	assert_int_equal(slot_of(w, 0), first0 - l);
	/* Kept where it was; PVINFO follows; the GPU still works. */
	assert_int_equal(guest_entry(w, 0, idx), before);
	assert_int_equal(gi_mmio_read(&w->g[0], PV + 0x48, 4), (uint32_t)hb);
	assert_int_equal(gi_mmio_read(&w->g[0], PV + 0x4c, 4), (uint32_t)hs);
	assert_int_equal(vgpu_get_stats(w->v[0])->balloons, 1);
	seqno_works(w, 0, 0x22);
	world_free(w);
}

/* Algorithm 1 is what decides: the same layout through the pure function
 * gives the same L and R. */
static void test_sides_follow_algorithm1(void **state)
{
	struct world *w = world_new(true);
	struct slot_layout lay = { 0 };
	uint32_t l, r, el, er;

	(void)state;
	lay.m = gvt_gscale(w->mw.gvt)->nr_slots;
	lay.n = N;
	for (int i = 0; i < N; i++) {
		lay.p[i] = slot_of(w, i);
		lay.s[i] = 1;
	}
	assert_int_equal(gballoon_expand(&lay, 1, 3, &el, &er), 0);
	assert_int_equal(vgpu_balloon(w->v[1], 3, &l, &r), 0);
	assert_int_equal(l, el);
	assert_int_equal(r, er);
	world_free(w);
}

static void test_reduce_drops_entries(void **state)
{
	struct world *w = world_new(true);
	uint64_t lb, ls, hb, hs, hb2, hs2;
	uint32_t l, r, drop_idx, keep_idx, s0;
	const struct vgpu_stats *st = vgpu_get_stats(w->v[0]);
	uint64_t oor;

	(void)state;
	assert_int_equal(vgpu_balloon(w->v[0], 2, &l, &r), 0);
	vgpu_gm_ranges(w->v[0], &lb, &ls, &hb, &hs);
	s0 = slot_of(w, 0);
	/* One entry in each slot it now has. */
	for (uint32_t k = 0; k < 3; k++)
		gi_ggtt_bind(&w->g[0], (uint32_t)(hb + k * 64 * MiB),
			     0x200000 + k * 4096ull, 1);
	gscale_switch_to(gvt_gscale(w->mw.gvt), w->v[0]->gs_id); /* make them resident */
	assert_int_equal(vgpu_balloon(w->v[0], -1, &l, &r), 0);
	vgpu_gm_ranges(w->v[0], &lb, &ls, &hb2, &hs2);
	assert_int_equal(hs2, hs - 64 * MiB);
	drop_idx = (uint32_t)((l ? hb : hb + 2 * 64 * MiB) >> 12);
	keep_idx = (uint32_t)((hb + 64 * MiB) >> 12);
	assert_int_equal(slot_of(w, 0), s0 + l);
	uint64_t g, h;
	assert_int_equal(vgpu_ggtt_entry(w->v[0], drop_idx, &g, &h), -GPU_EINVAL);
	assert_true(guest_entry(w, 0, keep_idx) & 1);
	/* The hardware no longer holds the dropped page of VM 1. */
	assert_true(w->mw.ggtt[drop_idx] == 0 ||
		    fake_hv_hpa_owner(&w->mw.hv, gen8_pte_addr(w->mw.ggtt[drop_idx])) != 1);
	/* ...and the guest cannot write there any more. */
	oor = st->ggtt_out_of_range;
	gi_ggtt_bind(&w->g[0], drop_idx << 12, 0x200000, 1);
	assert_int_equal(st->ggtt_out_of_range, oor + 1);
	world_free(w);
}

static void test_busy_and_bad_requests(void **state)
{
	struct world *w = world_new(true);
	struct guest_i915 *g = &w->g[2];
	uint32_t l, r, seq_gm;
	uint64_t hb, hs, lb, ls;
	int c;

	(void)state;
	assert_int_equal(vgpu_balloon(w->v[2], 0, &l, &r), -GPU_EINVAL);
	assert_int_equal(vgpu_balloon(w->v[2], 1000, &l, &r), -GPU_EINVAL);
	assert_int_equal(vgpu_balloon(w->v[2], -1, &l, &r), -GPU_EINVAL);
	assert_int_equal(vgpu_set_high_slots(w->v[2], gvt_gscale(w->mw.gvt)->nr_slots, 1),
			 -GPU_EINVAL);
	/* Work queued, not yet run: refused, nothing changes. */
	assert_int_equal(gi_ppgtt_create(g), 0);
	assert_int_equal(gi_engine_init(g, GEN9_BCS0), 0);
	c = gi_ctx_create(g, GEN9_BCS0);
	seq_gm = gi_gm_alloc(g, 4096, false);
	gi_ggtt_bind(g, seq_gm, gi_alloc_pages(g, 1), 1);
	gi_emit_breadcrumb(g, c, seq_gm, 5);
	gi_submit(g, c, -1);
	vgpu_gm_ranges(w->v[2], &lb, &ls, &hb, &hs);
	assert_int_equal(vgpu_balloon(w->v[2], 1, &l, &r), -GPU_EBUSY);
	assert_int_equal(gi_wait_idle(g, GEN9_BCS0, 20000), 0);
	assert_int_equal(vgpu_balloon(w->v[2], 1, &l, &r), 0);
	world_free(w);
}

static void test_gvirt_has_no_balloon(void **state)
{
	struct world *w = world_new(false);
	uint32_t l, r;

	(void)state;
	assert_int_equal(vgpu_balloon(w->v[0], 1, &l, &r), -GPU_ENOTSUP);
	world_free(w);
}

/* Two vGPUs moved onto the same slot: each still sees only its own
 * entries there, through gScale's switches. */
static void test_move_onto_shared_slot(void **state)
{
	struct world *w = world_new(true);
	uint32_t s1 = slot_of(w, 1);
	uint32_t idx;

	(void)state;
	assert_int_equal(vgpu_set_high_slots(w->v[0], s1, 1), 0);
	idx = (uint32_t)((gvt_gscale(w->mw.gvt)->p.high.first + s1 *
			  gvt_gscale(w->mw.gvt)->p.slot_entries) + 7);
	gi_ggtt_bind(&w->g[0], idx << 12, 0x210000, 1);
	gi_ggtt_bind(&w->g[1], idx << 12, 0x220000, 1);
	gscale_switch_to(gvt_gscale(w->mw.gvt), w->v[0]->gs_id);
	assert_int_equal(fake_hv_hpa_owner(&w->mw.hv, gen8_pte_addr(w->mw.ggtt[idx])), 1);
	gscale_switch_to(gvt_gscale(w->mw.gvt), w->v[1]->gs_id);
	assert_int_equal(fake_hv_hpa_owner(&w->mw.hv, gen8_pte_addr(w->mw.ggtt[idx])), 2);
	world_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand_keeps_entries),
		cmocka_unit_test(test_sides_follow_algorithm1),
		cmocka_unit_test(test_reduce_drops_entries),
		cmocka_unit_test(test_busy_and_bad_requests),
		cmocka_unit_test(test_gvirt_has_no_balloon),
		cmocka_unit_test(test_move_onto_shared_slot),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
