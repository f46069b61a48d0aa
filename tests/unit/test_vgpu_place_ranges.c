/* Non-contiguous slots in the mediator (issue 17): a running vGPU whose
 * high GM is several ranges, on the software Gen9 model, driven by the
 * i915-like guest. After every split, merge, move and balloon:
 *  - every GGTT entry the guest wrote is at the same high offset (a
 *    relocation) or the same GM address (a balloon), with the same page
 *    behind it, in the private shadow and - once it runs - in the
 *    physical GGTT;
 *  - every physical entry of high GM maps the VM of the vGPU owning its
 *    chunk, the neighbours' entries never change;
 *  - addresses between the ranges are not the vGPU's (GGTT writes,
 *    commands, fences), and the GPU really runs through a second range. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "gpu/gballoon/gballoon.h"
#include "gpu/gscale/gscale.h"
#include "gpu/hw/gen9_cmds.h"
#include "gpu/model/gen9_model.h"
#include "gpu/policy/ncslots.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define MS 1000000ull
#define N 3
#define VM_RAM (8 * MiB)
#define PV 0x78000u
#define HIGH_PAGES (128 * MiB >> 12)	/* two slots of 64 MiB */

static const struct vgpu_type type = { "ranges", 16 * MiB, 128 * MiB, 2, 1 };

struct world {
	struct model_world mw;
	struct vgpu *v[N];
	struct guest_i915 g[N];
	int ctx[N];
	uint32_t seq_gm[N];
	uint64_t seq_gpa[N];
	uint64_t want[HIGH_PAGES];	/* vGPU 0, by high offset */
	uint64_t *other[N];		/* the others' high entries, by offset */
};

static struct world *world_new(void)
{
	struct world *w = calloc(1, sizeof(*w));
	static const struct dymgpu_params dp = { .off = true };
	struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { &dp, &gscale_on } };
	struct mw_config c = { .pool_mib = 96, .ram_mib = 8 * N, .params = &p };

	assert_int_equal(mw_init(&w->mw, &c), 0);
	w->mw.hv.now_step = 0;
	for (int i = 0; i < N; i++) {
		struct guest_i915 *g = &w->g[i];

		assert_int_equal(mw_add_vgpu(&w->mw, &type, i + 1, VM_RAM,
					     &w->v[i]), 0);
		assert_int_equal(gi_probe(g, &w->mw.hv, w->v[i], i + 1,
					  w->mw.gvt), 0);
		g->poll = mw_poll;
		g->poll_arg = &w->mw;
		assert_int_equal(gi_ppgtt_create(g), 0);
		assert_int_equal(gi_engine_init(g, GEN9_BCS0), 0);
		w->ctx[i] = gi_ctx_create(g, GEN9_BCS0);
		w->seq_gpa[i] = gi_alloc_pages(g, 1);
		w->seq_gm[i] = gi_gm_alloc(g, 4096, false);
		gi_ggtt_bind(g, w->seq_gm[i], w->seq_gpa[i], 1);
		w->other[i] = calloc(HIGH_PAGES, sizeof(uint64_t));
	}
	vgpu_set_movable(w->v[0], true);
	vgpu_set_movable(w->v[1], true);
	return w;
}

static void world_free(struct world *w)
{
	for (int i = 0; i < N; i++)
		free(w->other[i]);
	mw_stop(&w->mw);
	assert_int_equal(w->mw.hv.pages_in_use, 0);
	mw_fini(&w->mw);
	free(w);
}

/* GM address of high offset k (pages) in v's layout now. */
static uint64_t gm_of(struct vgpu *v, uint32_t k)
{
	struct vgpu_gm_range r[VGPU_MAX_RANGES];
	uint32_t n = vgpu_high_ranges(v, r, VGPU_MAX_RANGES);
	uint64_t off = (uint64_t)k << 12;

	for (uint32_t i = 0; i < n; i++) {
		if (off < r[i].size)
			return r[i].base + off;
		off -= r[i].size;
	}
	fail_msg("offset %u beyond the high GM", k);
	return 0;
}

static uint64_t guest_entry(struct vgpu *v, uint64_t gm)
{
	uint64_t g = 0, h = 0;

	assert_int_equal(vgpu_ggtt_entry(v, (uint32_t)(gm >> 12), &g, &h), 0);
	return g;
}

/* Every vGPU's high entries now, by high offset. */
static void record(struct world *w)
{
	for (int i = 0; i < N; i++)
		for (uint32_t k = 0; k < HIGH_PAGES; k++) {
			uint64_t e = guest_entry(w->v[i], gm_of(w->v[i], k));

			if (i)
				w->other[i][k] = e;
			else
				w->want[k] = e;
		}
}

/* vGPU 0's guest binds a sparse pattern over all its high GM (its own
 * objects in the first pages are kept), then everything is recorded. */
static void fill(struct world *w)
{
	struct guest_i915 *g = &w->g[0];
	uint64_t pages = gi_alloc_pages(g, 512);

	for (uint32_t k = 64; k < HIGH_PAGES; k++)
		if (k % 5 == 0 || k % 16384 == 0 || k % 16384 == 16383)
			gi_ggtt_bind(g, (uint32_t)gm_of(w->v[0], k),
				     pages + (k % 512) * 4096ull, 1);
	record(w);
}

/* Every physical entry of guest GM names the VM of its chunk's owner. */
static void check_physical(struct world *w)
{
	const struct gscale *gs = gvt_gscale(w->mw.gvt);

	for (uint32_t c = 0; c < gs->nr_chunks; c++) {
		uint32_t first = (gs->first_chunk + c) * GSCALE_CHUNK_ENTRIES;
		int vm = -1;

		if (first - gs->p.high.first >= gs->p.high.count)
			continue;
		for (int i = 0; i < N; i++)
			if (gs->owner[c] == w->v[i]->gs_id)
				vm = i + 1;
		for (uint32_t k = 0; k < GSCALE_CHUNK_ENTRIES; k++) {
			uint64_t pte = w->mw.ggtt[first + k];

			if (pte & 1)
				assert_int_equal(fake_hv_hpa_owner(
					&w->mw.hv, gen8_pte_addr(pte)), vm);
		}
	}
}

/* vGPU 0's entries are where the layout says (by high offset), in its
 * shadow and, once switched in, in the hardware; the others' unchanged. */
static void check_all(struct world *w)
{
	struct gscale *gs = gvt_gscale(w->mw.gvt);

	for (uint32_t k = 0; k < HIGH_PAGES; k++) {
		uint64_t gm = gm_of(w->v[0], k), g, h;

		assert_int_equal(vgpu_ggtt_entry(w->v[0], (uint32_t)(gm >> 12),
						 &g, &h), 0);
		if (g != w->want[k])
			fail_msg("high offset %u (GM %llx): 0x%llx, wrote 0x%llx",
				 k, (unsigned long long)gm,
				 (unsigned long long)g,
				 (unsigned long long)w->want[k]);
		assert_int_equal(gscale_shadow_read(gs, w->v[0]->gs_id,
						    (uint32_t)(gm >> 12)), h);
		if (h)
			assert_int_equal(fake_hv_hpa_owner(&w->mw.hv,
							   gen8_pte_addr(h)), 1);
	}
	for (int i = 1; i < N; i++)
		for (uint32_t k = 0; k < HIGH_PAGES; k++)
			assert_int_equal(guest_entry(w->v[i], gm_of(w->v[i], k)),
					 w->other[i][k]);
	check_physical(w);
	gscale_switch_to(gs, w->v[0]->gs_id);
	for (uint32_t k = 0; k < HIGH_PAGES; k += 7) {
		uint64_t gm = gm_of(w->v[0], k), g, h;

		vgpu_ggtt_entry(w->v[0], (uint32_t)(gm >> 12), &g, &h);
		assert_int_equal(w->mw.ggtt[gm >> 12], h);
	}
	check_physical(w);
	for (int i = 1; i < N; i++) {
		gscale_switch_to(gs, w->v[i]->gs_id);
		check_physical(w);
	}
}

static void place(struct world *w, int i, const struct vgpu_slot_run *r,
		  uint32_t n)
{
	uint64_t carried = 0;

	record(w);	/* what the guests have now, by high offset */
	assert_int_equal(vgpu_place_runs(w->v[i], r, n, &carried), 0);
	assert_true(carried > 0);
}

/* What the cooperating guest does on an R_RANGES reply: every GM address
 * it keeps in high GM goes to the same high offset of the new ranges (its
 * status page, seqno page, allocator), and a new context (the old image
 * names the old ring). old: its ranges before. */
static uint32_t rebase(struct vgpu *v, const struct vgpu_gm_range *old,
		       uint32_t n, uint32_t gm)
{
	uint64_t off = 0;

	for (uint32_t i = 0; i < n; i++) {
		if (gm >= old[i].base && gm - old[i].base < old[i].size)
			return (uint32_t)gm_of(v, (uint32_t)((off + gm -
							      old[i].base) >> 12)) |
			       (gm & 0xfff);
		off += old[i].size;
	}
	return gm;	/* low GM never moves */
}

static void guest_rebase(struct world *w, int i,
			 const struct vgpu_gm_range *old, uint32_t n)
{
	struct guest_i915 *g = &w->g[i];
	struct gi_engine *e = &g->eng[GEN9_BCS0];

	g->high_base = (uint32_t)gm_of(w->v[i], 0);
	g->high_next = rebase(w->v[i], old, n, (uint32_t)g->high_next);
	e->hwsp_gm = rebase(w->v[i], old, n, e->hwsp_gm);
	gi_mmio_write(g, RING_HWS_PGA(e->base), e->hwsp_gm, 4);
	w->seq_gm[i] = rebase(w->v[i], old, n, w->seq_gm[i]);
	g->ctx[w->ctx[i]].used = false;
	w->ctx[i] = gi_ctx_create(g, GEN9_BCS0);
	assert_true(w->ctx[i] >= 0);
}

/* Guest i makes the GPU write val at GM gm (a page at gpa). */
static void gpu_write(struct world *w, int i, uint32_t gm, uint64_t gpa,
		      uint32_t val)
{
	struct guest_i915 *g = &w->g[i];

	gi_write32(g, gpa, 0);
	gi_emit_breadcrumb(g, w->ctx[i], gm, val);
	gi_submit(g, w->ctx[i], -1);
	w->mw.hv.now += MS;
	assert_int_equal(gi_wait_idle(g, GEN9_BCS0, 20000), 0);
	assert_false(vgpu_failed(w->v[i]));
	assert_int_equal(gi_read32(g, gpa), val);
}

static void test_split_merge_move_keep_entries(void **state)
{
	struct world *w = world_new();
	struct vgpu_gm_range old[VGPU_MAX_RANGES], r[VGPU_MAX_RANGES];
	const struct vgpu_slot_run split[2] = { { 10, 1 }, { 20, 1 } };
	const struct vgpu_slot_run merged[1] = { { 30, 2 } };
	const struct vgpu_slot_run apart[2] = { { 12, 1 }, { 40, 1 } };
	uint32_t n, gm2, k2 = 16384 + 5;
	uint64_t gpa2;

	(void)state;
	gpu_write(w, 0, w->seq_gm[0], w->seq_gpa[0], 0x10);
	fill(w);
	check_all(w);
	/* Split while it runs: two ranges, 64 MiB each, 10 slots apart. */
	n = vgpu_high_ranges(w->v[0], old, VGPU_MAX_RANGES);
	place(w, 0, split, 2);
	assert_int_equal(vgpu_high_ranges(w->v[0], r, VGPU_MAX_RANGES), 2);
	assert_int_equal(r[0].size, 64 * MiB);
	assert_int_equal(r[1].base - r[0].base, 10 * 64 * MiB);
	/* PVINFO names the first range only: what a stock guest sees. */
	assert_int_equal(gi_mmio_read(&w->g[0], PV + 0x48, 4), (uint32_t)r[0].base);
	assert_int_equal(gi_mmio_read(&w->g[0], PV + 0x4c, 4), (uint32_t)r[0].size);
	check_all(w);
	/* The old second slot and the gap are not its GM any more. */
	assert_false(vgpu_gm_valid(w->v[0], old[0].base + 64 * MiB, 4));
	assert_false(vgpu_gm_valid(w->v[0], r[0].base + 64 * MiB, 4));
	assert_false(vgpu_gm_valid(w->v[0], r[0].base + 64 * MiB - 4, 8));
	assert_true(vgpu_gm_valid(w->v[0], r[1].base, 4));
	/* The guest re-bases; the GPU writes through the second range. */
	guest_rebase(w, 0, old, n);
	gpu_write(w, 0, w->seq_gm[0], w->seq_gpa[0], 0x11);
	gpa2 = gi_alloc_pages(&w->g[0], 1);
	gm2 = (uint32_t)gm_of(w->v[0], k2);
	gi_ggtt_bind(&w->g[0], gm2, gpa2, 1);
	gpu_write(w, 0, gm2, gpa2, 0x22);
	gpu_write(w, 1, w->seq_gm[1], w->seq_gpa[1], 0x23);
	/* Merge into one run elsewhere. */
	n = vgpu_high_ranges(w->v[0], old, VGPU_MAX_RANGES);
	place(w, 0, merged, 1);
	assert_int_equal(vgpu_high_ranges(w->v[0], r, VGPU_MAX_RANGES), 1);
	check_all(w);
	guest_rebase(w, 0, old, n);
	gpu_write(w, 0, (uint32_t)gm_of(w->v[0], k2), gpa2, 0x33);
	/* Move apart again, onto slots the others do not use. */
	n = vgpu_high_ranges(w->v[0], old, VGPU_MAX_RANGES);
	place(w, 0, apart, 2);
	check_all(w);
	guest_rebase(w, 0, old, n);
	gpu_write(w, 0, (uint32_t)gm_of(w->v[0], k2), gpa2, 0x44);
	gpu_write(w, 2, w->seq_gm[2], w->seq_gpa[2], 0x45);
	assert_int_equal(vgpu_get_stats(w->v[0])->moves, 3);
	world_free(w);
}

static void test_bad_layouts_change_nothing(void **state)
{
	struct world *w = world_new();
	const struct vgpu_slot_run adjacent[2] = { { 10, 1 }, { 11, 1 } };
	const struct vgpu_slot_run unsorted[2] = { { 20, 1 }, { 10, 1 } };
	const struct vgpu_slot_run small[1] = { { 10, 1 } };
	const struct vgpu_slot_run big[2] = { { 10, 1 }, { 20, 2 } };
	struct vgpu_slot_run far = { gvt_gscale(w->mw.gvt)->nr_slots - 1, 2 };
	uint64_t carried;

	(void)state;
	fill(w);
	assert_int_equal(vgpu_relocate_high(w->v[0], adjacent, 2, &carried),
			 -GPU_EINVAL);
	assert_int_equal(vgpu_relocate_high(w->v[0], unsorted, 2, &carried),
			 -GPU_EINVAL);
	assert_int_equal(vgpu_relocate_high(w->v[0], small, 1, &carried),
			 -GPU_EINVAL);
	assert_int_equal(vgpu_relocate_high(w->v[0], big, 2, &carried),
			 -GPU_EINVAL);
	assert_int_equal(vgpu_relocate_high(w->v[0], &far, 1, &carried),
			 -GPU_EINVAL);
	assert_int_equal(vgpu_relocate_high(w->v[0], small, 0, &carried),
			 -GPU_EINVAL);
	/* Pinned: never moved. */
	assert_int_equal(vgpu_relocate_high(w->v[2], small, 1, &carried),
			 -GPU_EPERM);
	assert_int_equal(vgpu_get_stats(w->v[0])->moves, 0);
	check_all(w);
	world_free(w);
}

/* gBalloon's grow and shrink as a set (the study's "ours"): the slot with
 * the fewest users joins, the most shared one leaves; entries stay at
 * their GM addresses; the choice is ncs_expand's / ncs_reduce's. */
static void test_balloon_as_set(void **state)
{
	struct world *w = world_new();
	const struct vgpu_slot_run apart[2] = { { 12, 1 }, { 40, 1 } };
	struct vgpu_gm_range r[VGPU_MAX_RANGES];
	struct vgpu_slot_run runs[VGPU_MAX_RANGES];
	uint64_t before[3][HIGH_PAGES / 2], carried;
	uint32_t nr = 0, users;

	(void)state;
	fill(w);
	place(w, 0, apart, 2);
	/* vGPU 1 onto slot 40: shared with vGPU 0's second range. */
	assert_int_equal(vgpu_place_at(w->v[1], 39, &carried), 0);
	vgpu_high_ranges(w->v[0], r, VGPU_MAX_RANGES);
	for (int i = 0; i < 2; i++)
		for (uint32_t k = 0; k < HIGH_PAGES / 2; k++)
			before[i][k] = guest_entry(w->v[0], r[i].base +
						   ((uint64_t)k << 12));
	/* Grow by one: a free slot, next to one of its own (ncs_expand's
	 * tie-break): 11 or 13 (41 too, but 12's neighbours come first). */
	assert_int_equal(vgpu_balloon_set(w->v[0], 1, &nr), 0);
	assert_int_equal(vgpu_slot_runs(w->v[0], runs, VGPU_MAX_RANGES), 2);
	assert_int_equal(nr, 2);
	assert_int_equal(runs[0].first, 11);
	assert_int_equal(runs[0].count, 2);
	assert_int_equal(gvt_slot_users(w->mw.gvt, 11, &users), 0);
	assert_int_equal(users, 1);
	for (int i = 0; i < 2; i++)
		for (uint32_t k = 0; k < HIGH_PAGES / 2; k++)
			assert_int_equal(guest_entry(w->v[0], r[i].base +
						     ((uint64_t)k << 12)),
					 before[i][k]);
	/* Shrink by one: slot 40 (shared with vGPU 1) leaves, its entries
	 * with it; slots 11-12 keep theirs. */
	assert_int_equal(vgpu_balloon_set(w->v[0], -1, &nr), 0);
	assert_int_equal(nr, 1);
	assert_int_equal(vgpu_slot_runs(w->v[0], runs, VGPU_MAX_RANGES), 1);
	assert_int_equal(runs[0].first, 11);
	assert_false(vgpu_gm_valid(w->v[0], r[1].base, 4));
	for (uint32_t k = 0; k < HIGH_PAGES / 2; k++)
		assert_int_equal(guest_entry(w->v[0], r[0].base +
					     ((uint64_t)k << 12)), before[0][k]);
	/* Algorithm 1 does not apply to a set; a set can shrink to empty
	 * no further than its last slot. */
	place(w, 0, apart, 2);
	assert_int_equal(vgpu_balloon(w->v[0], 1, &nr, &users), -GPU_ENOTSUP);
	assert_int_equal(vgpu_balloon_set(w->v[0], -2, &nr), -GPU_EINVAL);
	check_physical(w);
	world_free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_merge_move_keep_entries),
		cmocka_unit_test(test_bad_layouts_change_nothing),
		cmocka_unit_test(test_balloon_as_set),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
