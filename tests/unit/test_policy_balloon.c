/* gBalloon's policy loop (gpu/gballoon/balloon_policy.c): equation 3, the
 * three bands' actions, the request queue's bounds and errors, and both
 * appliers (Algorithm 1 on contiguous slots, sets). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/hw/gpu_hw.h"
#include "gpu/gballoon/balloon_policy.h"
#include "gpu/gballoon/gballoon_adjust.h"

#define MS 1000000ull
#define SE 16384u /* entries per 64 MiB slot */

struct fx {
	struct bpol bp;
	struct bpol_view view;
	struct bpol_decision d;
	struct slot_layout lay;
	uint32_t floor[SLOTS_MAX_VGPUS];
	uint64_t used[SLOTS_MAX_VGPUS];
};

static struct fx *fx_new(uint32_t m, uint32_t n, const uint32_t *s,
			 const uint32_t *p, const struct bpol_params *par)
{
	struct fx *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->lay.m = m;
	f->lay.n = n;
	for (uint32_t i = 0; i < n; i++) {
		f->lay.s[i] = s[i];
		f->lay.p[i] = p[i];
		f->floor[i] = 1;
		f->used[i] = (uint64_t)s[i] * SE; /* fully used */
	}
	assert_int_equal(bpol_init(&f->bp, par, 0), 0);
	bpol_view_contig(&f->view, &f->lay, f->floor, f->used, SE);
	return f;
}

static void refresh(struct fx *f)
{
	bpol_view_contig(&f->view, &f->lay, f->floor, f->used, SE);
}

/* f = W / W_max + R_copy / R_max, each capped at 1. Defaults: W_max =
 * 100% per vCPU, R_max = 100% / N. */
static void test_f_and_bands(void **state)
{
	struct bpol_params p = { .vcpus = 4, .nr_cpus = 8 };
	struct bpol bp;

	(void)state;
	assert_int_equal(bpol_init(&bp, &p, 0), 0);
	assert_int_equal(bp.p.w_max, 4000);
	assert_int_equal(bp.p.rcopy_max, 125);
	assert_int_equal(bpol_f(&bp, 0, 0), 0);
	assert_int_equal(bpol_f(&bp, 2000, 0), 500);
	assert_int_equal(bpol_f(&bp, 0, 62), 496);
	assert_int_equal(bpol_f(&bp, 2000, 125), 1500);
	assert_int_equal(bpol_f(&bp, 1ull << 60, 1ull << 60), 2000);
	assert_int_equal(bpol_band_of(&bp, 499), BPOL_CALM);
	assert_int_equal(bpol_band_of(&bp, 500), BPOL_BUSY);
	assert_int_equal(bpol_band_of(&bp, 999), BPOL_BUSY);
	assert_int_equal(bpol_band_of(&bp, 1000), BPOL_OVERLOADED);
	/* Measured maxima and thresholds are parameters. */
	p = (struct bpol_params){ .w_max = 100, .rcopy_max = 10, .low = 200,
				  .high = 300 };
	assert_int_equal(bpol_init(&bp, &p, 0), 0);
	assert_int_equal(bpol_f(&bp, 50, 5), 1000);
	assert_int_equal(bpol_band_of(&bp, 250), BPOL_BUSY);
	p.low = 300;
	assert_int_equal(bpol_init(&bp, &p, 0), -GPU_EINVAL); /* low >= high */
}

/* Requests: validated, merged per vGPU, bounded per vGPU and in total. */
static void test_request_queue_bounds_and_errors(void **state)
{
	static const uint32_t s[] = { 2, 2 }, p[] = { 0, 2 };
	struct fx *f = fx_new(40, 2, s, p, NULL);
	struct bpol_view *big = calloc(1, sizeof(*big));

	(void)state;
	assert_int_equal(bpol_request(&f->bp, &f->view, 2, 1, 0), -GPU_EINVAL);
	assert_int_equal(bpol_request(&f->bp, &f->view, 9999, 1, 0),
			 -GPU_EINVAL);
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 0, 0), -GPU_EINVAL);
	/* More than high GM holds (2 + 39 > 40). */
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 39, 0), -GPU_EINVAL);
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, UINT32_MAX, 0),
			 -GPU_EINVAL);
	/* Merged: one queue entry per vGPU, up to 8 slots waiting. */
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 5, 0), 0);
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 3, 0), 0);
	assert_int_equal(bpol_pending(&f->bp, 0), 8);
	assert_int_equal(f->bp.len, 1);
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 1, 0), -GPU_ENOSPC);
	assert_int_equal(bpol_pending(&f->bp, 0), 8); /* unchanged */
	/* Pending counts toward "more than exists". */
	f->lay.s[1] = 30;
	f->lay.p[1] = 2;
	refresh(f);
	assert_int_equal(bpol_request(&f->bp, &f->view, 1, 8, 0), 0);
	assert_int_equal(bpol_request(&f->bp, &f->view, 1, 3, 0), -GPU_EINVAL);
	bpol_cancel(&f->bp, 0);
	assert_int_equal(bpol_pending(&f->bp, 0), 0);
	assert_int_equal(bpol_pending(&f->bp, 1), 8);
	/* The queue holds BPOL_QUEUE vGPUs; a flood from more is refused. */
	big->m = 200;
	big->n = 100;
	big->slot_entries = SE;
	for (uint32_t i = 0; i < 100; i++)
		big->v[i] = (struct bpol_vgpu){ .present = true, .slots = 1 };
	bpol_cancel(&f->bp, 1);
	for (uint32_t i = 0; i < BPOL_QUEUE; i++)
		assert_int_equal(bpol_request(&f->bp, big, i, 1, 0), 0);
	assert_int_equal(bpol_request(&f->bp, big, BPOL_QUEUE, 1, 0),
			 -GPU_ENOSPC);
	assert_int_equal(bpol_request(&f->bp, big, 3, 1, 0), 0); /* merges */
	assert_int_equal(f->bp.len, BPOL_QUEUE);
	assert_int_equal(f->bp.st.refused, 8);
	free(big);
	free(f);
}

/* gBalloon figure 4 through the loop: vGPU4 asks for two slots, the host
 * is calm, the request is approved and Algorithm 1 expands it left. */
static void test_calm_approves_all_figure4(void **state)
{
	static const uint32_t s[] = { 2, 2, 2, 1 }, p[] = { 0, 2, 3, 2 };
	struct fx *f = fx_new(5, 4, s, p, NULL);

	(void)state;
	assert_int_equal(bpol_request(&f->bp, &f->view, 3, 2, 0), 0);
	/* Not before the period. */
	assert_int_equal(bpol_evaluate(&f->bp, 499 * MS, 0, 0, &f->view, &f->d),
			 0);
	assert_int_equal(bpol_evaluate(&f->bp, 500 * MS, 0, 0, &f->view, &f->d),
			 1);
	assert_int_equal(f->d.band, BPOL_CALM);
	assert_int_equal(f->d.nr, 1);
	assert_int_equal(f->d.act[0].kind, BPOL_APPROVE);
	assert_int_equal(bpol_apply_contig(&f->lay, &f->d), 1);
	assert_int_equal(f->d.act[0].l, 2);
	assert_int_equal(f->d.act[0].r, 0);
	assert_int_equal(f->lay.p[3], 0);
	assert_int_equal(f->lay.s[3], 3);
	assert_int_equal(bpol_pending(&f->bp, 3), 0);
	/* Next period: nothing pending, calm: nothing done, nobody shrunk. */
	refresh(f);
	assert_int_equal(bpol_evaluate(&f->bp, 1000 * MS, 0, 0, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.nr, 0);
	assert_int_equal(f->bp.st.evaluations, 2);
	/* A fixed grid: a late tick (1.52 s) does not push the next
	 * evaluation past 2.0 s; after a long gap it restarts from now. */
	assert_int_equal(bpol_evaluate(&f->bp, 1520 * MS, 0, 0, &f->view,
				       &f->d), 1);
	assert_int_equal(bpol_evaluate(&f->bp, 1999 * MS, 0, 0, &f->view,
				       &f->d), 0);
	assert_int_equal(bpol_evaluate(&f->bp, 2001 * MS, 0, 0, &f->view,
				       &f->d), 1);
	assert_int_equal(bpol_evaluate(&f->bp, 9000 * MS, 0, 0, &f->view,
				       &f->d), 1);
	assert_int_equal(bpol_evaluate(&f->bp, 9499 * MS, 0, 0, &f->view,
				       &f->d), 0);
	assert_int_equal(f->bp.st.evaluations, 5);
	free(f);
}

/* Between the thresholds: approve, and take one slot from the largest
 * vGPU with a slot's worth unused - not one that was just grown, not below
 * its floor. */
static void test_busy_approves_and_shrinks_largest_underused(void **state)
{
	static const uint32_t s[] = { 4, 6, 6, 2 }, p[] = { 0, 4, 10, 16 };
	struct bpol_params par = { .w_max = 1000, .rcopy_max = 1000 };
	struct fx *f = fx_new(20, 4, s, p, &par);

	(void)state;
	f->used[1] = 6 * SE;           /* largest, fully used */
	f->used[2] = 4 * SE;           /* largest, under-used */
	f->used[0] = SE;               /* smaller */
	refresh(f);
	assert_int_equal(bpol_request(&f->bp, &f->view, 3, 1, 0), 0);
	assert_int_equal(bpol_evaluate(&f->bp, 500 * MS, 600, 0, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.f, 600);
	assert_int_equal(f->d.band, BPOL_BUSY);
	assert_int_equal(f->d.nr, 2);
	assert_int_equal(f->d.act[0].kind, BPOL_APPROVE);
	assert_int_equal(f->d.act[0].vgpu, 3);
	assert_int_equal(f->d.act[1].kind, BPOL_SHRINK);
	assert_int_equal(f->d.act[1].vgpu, 2);
	assert_int_equal(f->d.act[1].slots, 1);
	assert_int_equal(bpol_apply_contig(&f->lay, &f->d), 2);
	assert_int_equal(f->lay.s[2], 5);
	assert_int_equal(f->lay.s[3], 3);
	assert_int_equal(slots_check(&f->lay), 0);
	/* Equal sizes: the less used one. */
	f->lay.s[2] = 6;
	f->used[1] = 4 * SE;
	f->used[2] = 5 * SE;
	refresh(f);
	assert_int_equal(bpol_evaluate(&f->bp, 1000 * MS, 600, 0, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.nr, 1);
	assert_int_equal(f->d.act[0].vgpu, 1);
	/* Nobody under-used: nothing taken. */
	for (uint32_t i = 0; i < 4; i++)
		f->used[i] = (uint64_t)f->lay.s[i] * SE;
	refresh(f);
	assert_int_equal(bpol_evaluate(&f->bp, 1500 * MS, 600, 0, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.nr, 0);
	/* Floors hold: everyone at its floor, nothing taken. */
	for (uint32_t i = 0; i < 4; i++) {
		f->used[i] = 0;
		f->floor[i] = f->lay.s[i];
	}
	refresh(f);
	assert_int_equal(bpol_evaluate(&f->bp, 2000 * MS, 600, 0, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.nr, 0);
	/* The vGPU just grown is not the one shrunk. */
	for (uint32_t i = 0; i < 4; i++)
		f->floor[i] = 1;
	f->used[1] = 0;
	refresh(f);
	assert_int_equal(bpol_request(&f->bp, &f->view, 1, 1, 0), 0);
	assert_int_equal(bpol_evaluate(&f->bp, 2500 * MS, 600, 0, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.nr, 2);
	assert_int_equal(f->d.act[1].kind, BPOL_SHRINK);
	assert_int_equal(f->d.act[1].vgpu, 2);
	free(f);
}

/* The paper's policy (no guarantee): above Threshold_high every request
 * rejected (-GPU_EBUSY), two slots taken back regardless of usage,
 * largest first, floors kept. */
static void test_overloaded_rejects_and_takes_two(void **state)
{
	static const uint32_t s[] = { 4, 6, 3 }, p[] = { 0, 4, 10 };
	struct bpol_params par = { .w_max = 1000, .rcopy_max = 1000,
				   .guarantee_entries = BPOL_NO_GUARANTEE };
	struct fx *f = fx_new(16, 3, s, p, &par);

	(void)state;
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 2, 0), 0);
	assert_int_equal(bpol_request(&f->bp, &f->view, 2, 1, 0), 0);
	assert_int_equal(bpol_evaluate(&f->bp, 500 * MS, 700, 400, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.band, BPOL_OVERLOADED);
	assert_int_equal(f->d.nr, 3);
	assert_int_equal(f->d.act[0].kind, BPOL_REJECT);
	assert_int_equal(f->d.act[0].err, -GPU_EBUSY);
	assert_int_equal(f->d.act[1].kind, BPOL_REJECT);
	/* Both slots from vGPU 1 (6 -> 5 -> still the largest): one
	 * reduction of two, Algorithm 1 picks the ends. */
	assert_int_equal(f->d.act[2].kind, BPOL_SHRINK);
	assert_int_equal(f->d.act[2].vgpu, 1);
	assert_int_equal(f->d.act[2].slots, 2);
	assert_int_equal(bpol_apply_contig(&f->lay, &f->d), 1);
	assert_int_equal(f->lay.s[1], 4);
	assert_int_equal(bpol_pending(&f->bp, 0), 0);
	assert_int_equal(f->bp.st.rejected, 2);
	/* Floor: vGPU 1 (4 slots, the least used of the two largest) may
	 * lose one more, then the next largest pays. */
	f->floor[1] = 3;
	f->used[1] = 0;
	refresh(f);
	assert_int_equal(bpol_evaluate(&f->bp, 1000 * MS, 2000, 2000, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.nr, 2);
	assert_int_equal(f->d.act[0].vgpu, 1);
	assert_int_equal(f->d.act[1].vgpu, 0);
	assert_int_equal(bpol_apply_contig(&f->lay, &f->d), 2);
	assert_int_equal(f->lay.s[1], 3);
	assert_int_equal(f->lay.s[0], 3);
	assert_int_equal(f->bp.st.shrunk_slots, 4);
	free(f);
}

/* A request that no longer fits at decision time is rejected -GPU_EINVAL;
 * a request from a vGPU gone meanwhile is dropped. */
static void test_stale_requests(void **state)
{
	static const uint32_t s[] = { 2, 2 }, p[] = { 0, 2 };
	struct fx *f = fx_new(6, 2, s, p, NULL);

	(void)state;
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 4, 0), 0);
	assert_int_equal(bpol_request(&f->bp, &f->view, 1, 1, 0), 0);
	f->lay.s[0] = 3; /* grown by someone else */
	refresh(f);
	f->view.v[1].present = false;
	assert_int_equal(bpol_evaluate(&f->bp, 500 * MS, 0, 0, &f->view, &f->d),
			 1);
	assert_int_equal(f->d.nr, 1);
	assert_int_equal(f->d.act[0].kind, BPOL_REJECT);
	assert_int_equal(f->d.act[0].err, -GPU_EINVAL);
	assert_int_equal(f->bp.len, 0);
	free(f);
}

/* The set applier: the same decisions on non-contiguous slots. */
static void test_apply_on_sets(void **state)
{
	static const uint32_t s[] = { 3, 3, 2 }, p[] = { 0, 3, 6 };
	struct fx *f = fx_new(10, 3, s, p, NULL);
	struct ncs_layout *nl = calloc(1, sizeof(*nl));

	(void)state;
	ncs_from_contig(nl, &f->lay);
	bpol_view_nc(&f->view, nl, f->floor, f->used, SE);
	assert_int_equal(f->view.v[0].slots, 3);
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 2, 0), 0);
	assert_int_equal(bpol_evaluate(&f->bp, 500 * MS, 0, 0, &f->view, &f->d),
			 1);
	assert_int_equal(bpol_apply_nc(nl, &f->d, NULL), 1);
	/* The two free slots (8, 9), though not next to it. */
	assert_int_equal(ncs_count(&nl->set[0]), 5);
	assert_true(ncs_has(&nl->set[0], 8));
	assert_true(ncs_has(&nl->set[0], 9));
	assert_int_equal(ncs_shared(nl), 0);
	/* Contiguous, vGPU 0 at 0..2 can only grow right over vGPU 1. */
	assert_int_equal(bpol_apply_contig(&f->lay, &f->d), 1);
	assert_int_equal(slots_shared(&f->lay), 2);
	free(nl);
	free(f);
}

static uint32_t rnd(uint32_t *st, uint32_t n)
{
	*st = *st * 1103515245u + 12345u;
	return (*st >> 8) % n;
}

/* Random layouts, requests and loads: after every decision the layout is
 * valid, nobody is below its floor, sizes move exactly by what was
 * approved and taken, and the queue never exceeds its bound. */
static void test_random_loop_properties(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	struct ncs_layout *nl = calloc(1, sizeof(*nl));
	uint32_t st = 3;

	(void)state;
	for (int t = 0; t < 300; t++) {
		uint32_t m = 8 + rnd(&st, 40), n = 1 + rnd(&st, 12);
		uint64_t now = 0;

		memset(f, 0, sizeof(*f));
		f->lay.m = m;
		f->lay.n = n;
		for (uint32_t i = 0; i < n; i++) {
			f->lay.s[i] = 1 + rnd(&st, m / 2);
			f->lay.p[i] = rnd(&st, m - f->lay.s[i] + 1);
			f->floor[i] = 1 + rnd(&st, f->lay.s[i]);
		}
		ncs_from_contig(nl, &f->lay);
		assert_int_equal(bpol_init(&f->bp, NULL, 0), 0);
		for (int step = 0; step < 30; step++) {
			uint32_t before[SLOTS_MAX_VGPUS], nbefore[SLOTS_MAX_VGPUS];
			struct bpol_decision dn;
			int64_t delta[SLOTS_MAX_VGPUS] = { 0 };

			for (uint32_t i = 0; i < n; i++) {
				f->used[i] = rnd(&st, f->lay.s[i] * SE + 1);
				before[i] = f->lay.s[i];
				nbefore[i] = ncs_count(&nl->set[i]);
			}
			refresh(f);
			for (int r = rnd(&st, 6); r > 0; r--) {
				int e = bpol_request(&f->bp, &f->view,
						     rnd(&st, n + 1),
						     rnd(&st, 6), now);

				assert_true(e == 0 || e == -GPU_EINVAL ||
					    e == -GPU_ENOSPC);
			}
			assert_true(f->bp.len <= n);
			now += 500 * MS;
			assert_int_equal(
				bpol_evaluate(&f->bp, now, rnd(&st, 1500),
					      rnd(&st, 1500), &f->view, &f->d),
				1);
			dn = f->d;
			bpol_apply_contig(&f->lay, &f->d);
			assert_int_equal(slots_check(&f->lay), 0);
			for (uint32_t a = 0; a < f->d.nr; a++) {
				const struct bpol_action *x = &f->d.act[a];

				if (x->kind == BPOL_REJECT || x->err)
					continue;
				delta[x->vgpu] += x->kind == BPOL_APPROVE
							  ? (int64_t)x->slots
							  : -(int64_t)x->slots;
				assert_int_equal(x->l + x->r, x->slots);
			}
			for (uint32_t i = 0; i < n; i++) {
				assert_int_equal((int64_t)f->lay.s[i],
						 (int64_t)before[i] + delta[i]);
				assert_true(f->lay.s[i] >= f->floor[i]);
			}
			/* Sets carry out the same decision on their own
			 * sizes: what succeeds moves the count exactly. */
			bpol_apply_nc(nl, &dn, NULL);
			assert_int_equal(ncs_check(nl), 0);
			memset(delta, 0, sizeof(delta));
			for (uint32_t a = 0; a < dn.nr; a++) {
				const struct bpol_action *x = &dn.act[a];

				if (x->kind == BPOL_REJECT || x->err)
					continue;
				delta[x->vgpu] += x->kind == BPOL_APPROVE
							  ? (int64_t)x->slots
							  : -(int64_t)x->slots;
			}
			for (uint32_t i = 0; i < n; i++)
				assert_int_equal((int64_t)ncs_count(&nl->set[i]),
						 (int64_t)nbefore[i] + delta[i]);
		}
	}
	free(nl);
	free(f);
}

/* The guarantee (balloon_policy.h): overloaded by the guests' own CPU
 * (W) but not by copying, a request that keeps its vGPU within
 * gVirt-1024's 1024 MiB (16 slots of 64 MiB) is approved; beyond it, or
 * with the copying CPU saturated, rejected. A full vGPU within the
 * guarantee is not shrunk; an under-used one and a full one above it are. */
static void test_guarantee_overloaded(void **state)
{
	static const uint32_t s[] = { 6, 16, 17, 8 }, p[] = { 0, 6, 22, 39 };
	struct bpol_params par = { .w_max = 1000, .rcopy_max = 1000 };
	struct fx *f = fx_new(54, 4, s, p, &par);

	(void)state;
	assert_int_equal(bpol_guarantee_slots(&f->bp, SE), 16);
	for (uint32_t i = 0; i < 4; i++)
		f->floor[i] = 6;
	f->used[3] = 2 * SE; /* vGPU 3: 6 of its 8 slots unused */
	refresh(f);
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 2, 0), 0);
	assert_int_equal(bpol_request(&f->bp, &f->view, 1, 1, 0), 0);
	/* W saturated, copying light: f = 1.1, overloaded. */
	assert_int_equal(bpol_evaluate(&f->bp, 500 * MS, 1000, 100, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.band, BPOL_OVERLOADED);
	assert_int_equal(f->d.act[0].kind, BPOL_APPROVE); /* 6 -> 8 <= 16 */
	assert_int_equal(f->d.act[1].kind, BPOL_REJECT);  /* 16 -> 17 */
	assert_int_equal(f->d.act[1].err, -GPU_EBUSY);
	/* Two slots back: vGPU 2 (17, above the guarantee) first, then it
	 * is at 16 and full: vGPU 3 (under-used) pays; vGPU 1 (16, full)
	 * is spared. */
	assert_int_equal(f->d.nr, 4);
	assert_int_equal(f->d.act[2].kind, BPOL_SHRINK);
	assert_int_equal(f->d.act[2].vgpu, 2);
	assert_int_equal(f->d.act[3].vgpu, 3);
	assert_int_equal(f->bp.st.guaranteed, 1);
	assert_int_equal(f->bp.st.spared, 1);
	/* The copying CPU saturated: no guarantee holds a request. */
	assert_int_equal(bpol_request(&f->bp, &f->view, 0, 1, 0), 0);
	assert_int_equal(bpol_evaluate(&f->bp, 1000 * MS, 0, 1000, &f->view,
				       &f->d), 1);
	assert_int_equal(f->d.act[0].kind, BPOL_REJECT);
	free(f);
}

/* Against gVirt-1024 over seeded random and adversarial runs: VMs whose
 * GM demand (slots) moves at random, guests that ask for one slot while
 * short (as tools/eval/balloon/sim.c's do), any W, copying below its
 * maximum. gVirt-1024 gives each VM min(demand, 16) slots; gBalloon's
 * shortfall below that shrinks by at least one slot every period unless
 * the demand rose in it: it trails a static 1024 MiB only by its
 * one-slot-per-period ramp (the cost the eval measures), never by a
 * shrink or a rejection. And under contention there is still relief: an
 * under-used grown vGPU is shrunk in the busy and overloaded bands. */
static uint32_t clampd(uint32_t d, uint32_t g)
{
	return d < g ? d : g;
}

static void test_guarantee_never_below_gvirt1024(void **state)
{
	struct fx *f = calloc(1, sizeof(*f));
	uint32_t st = 31, g = 1024 / 64; /* gVirt-1024's, not the policy's */
	uint64_t relieved = 0, periods = 0, short_periods = 0;
	struct bpol_params par = { .w_max = 1000, .rcopy_max = 1000 };

	(void)state;
	assert_non_null(f);
	for (int t = 0; t < 200; t++) {
		uint32_t n = 3 + rnd(&st, 13), demand[SLOTS_MAX_VGPUS];
		uint32_t shortfall[SLOTS_MAX_VGPUS];
		bool adversarial = t % 2;
		uint64_t now = 0;

		memset(f, 0, sizeof(*f));
		f->lay.m = 54;
		f->lay.n = n;
		for (uint32_t i = 0; i < n; i++) {
			f->lay.s[i] = 6; /* 384 MiB at creation */
			f->lay.p[i] = (i * 6) % 49;
			f->floor[i] = 6;
			demand[i] = 1 + rnd(&st, 20);
			shortfall[i] = demand[i] > 6 ? clampd(demand[i], 16) - 6
						     : 0;
		}
		assert_int_equal(bpol_init(&f->bp, &par, 0), 0);
		for (int step = 0; step < 60; step++) {
			uint32_t rise[SLOTS_MAX_VGPUS] = { 0 };
			/* Adversarial: W pinned at its maximum (every VM's
			 * CPU overcommitted), copying just under its own. */
			uint64_t w = adversarial ? 1000 : rnd(&st, 1500);
			uint64_t rc = adversarial ? 999 : rnd(&st, 1000);

			for (uint32_t i = 0; i < n; i++) {
				uint32_t was = clampd(demand[i], g);

				if (rnd(&st, 8) == 0)
					demand[i] = 1 + rnd(&st, 20);
				if (clampd(demand[i], g) > was)
					rise[i] = clampd(demand[i], g) - was;
				f->used[i] = (uint64_t)(demand[i] < f->lay.s[i]
								? demand[i]
								: f->lay.s[i]) *
					     SE;
			}
			refresh(f);
			for (uint32_t i = 0; i < n; i++)
				if (demand[i] > f->lay.s[i] &&
				    !bpol_pending(&f->bp, i))
					assert_int_equal(bpol_request(&f->bp,
								      &f->view,
								      i, 1, now),
							 0);
			now += 500 * MS;
			assert_int_equal(bpol_evaluate(&f->bp, now, w, rc,
						       &f->view, &f->d), 1);
			for (uint32_t a = 0; a < f->d.nr; a++)
				relieved += f->d.act[a].kind == BPOL_SHRINK &&
					    f->used[f->d.act[a].vgpu] <=
						    (uint64_t)(f->lay.s[f->d.act[a].vgpu] - 1) * SE;
			bpol_apply_contig(&f->lay, &f->d);
			assert_int_equal(slots_check(&f->lay), 0);
			for (uint32_t i = 0; i < n; i++) {
				uint32_t want = clampd(demand[i], g);
				uint32_t now_short =
					want > f->lay.s[i] ? want - f->lay.s[i] : 0;
				uint32_t bound = shortfall[i] + rise[i];

				bound = bound ? bound - 1 : 0;
				if (now_short > bound) {
					print_message("run %d period %d vm %u: demand %u slots %u short %u (was %u, rise %u) band %u\n",
						      t, step, i, demand[i], f->lay.s[i], now_short,
						      shortfall[i], rise[i], f->d.band);
				}
				assert_true(now_short <= bound);
				shortfall[i] = now_short;
				short_periods += now_short > 0;
				periods++;
			}
		}
	}
	/* Contention was still relieved: under-used vGPUs gave slots back. */
	assert_true(relieved > 0);
	assert_true(short_periods < periods);
	free(f);
}

/* The hypervisor (hv/gpu/gpu_balloon.c) sees its vGPUs as slots held and
 * slots granted at run time (bpol_view_granted) and applies each action
 * through vgpu_balloon (Algorithm 1 on its layout, one action at a time);
 * the study (tools/eval/balloon) sees a layout with floors
 * (bpol_view_contig) and applies with bpol_apply_contig. On the same
 * trace of W, R_copy, requests and GM use, every decision and every
 * placement must be the same. */
static void hv_apply(struct slot_layout *lay, uint32_t *granted,
		     struct bpol_decision *d)
{
	for (uint32_t i = 0; i < d->nr; i++) {
		struct bpol_action *a = &d->act[i];
		uint32_t l = 0, r = 0, k = a->vgpu;

		if (a->kind == BPOL_REJECT)
			continue;
		a->err = a->kind == BPOL_APPROVE
				 ? gballoon_expand(lay, k, a->slots, &l, &r)
				 : gballoon_reduce(lay, k, a->slots, &l, &r);
		if (a->err)
			continue;
		a->l = l;
		a->r = r;
		if (a->kind == BPOL_APPROVE) {
			slots_apply(lay, k, (int32_t)l, (int32_t)r);
			granted[k] += a->slots;
		} else {
			slots_apply(lay, k, -(int32_t)l, -(int32_t)r);
			granted[k] -= a->slots < granted[k] ? a->slots
							    : granted[k];
		}
	}
}

static void test_hv_decides_as_the_study(void **state)
{
	const uint32_t s[4] = { 6, 6, 4, 6 }, p[4] = { 0, 4, 8, 10 };
	struct bpol_params par = { .vcpus = 4, .nr_cpus = 1,
				   .period_ns = 500 * MS };
	struct fx *st = fx_new(16, 4, s, p, &par);	/* the study */
	struct fx *hv = fx_new(16, 4, s, p, &par);	/* the hypervisor */
	uint32_t granted[4] = { 0 }, count[4];
	unsigned seed = 17, decided = 0, bands[BPOL_BANDS] = { 0 };

	(void)state;
	for (uint32_t i = 0; i < 4; i++)
		st->floor[i] = s[i];
	for (uint64_t t = 1; t <= 400; t++) {
		uint64_t now = t * 100 * MS, w, r;
		uint32_t k = (uint32_t)rand_r(&seed) % 4;
		int e1, e2, d1, d2;

		for (uint32_t i = 0; i < 4; i++) {
			st->used[i] = hv->used[i] =
				(uint64_t)(rand_r(&seed) % (st->lay.s[i] + 1)) *
				SE;
			count[i] = hv->lay.s[i];
		}
		refresh(st);
		bpol_view_granted(&hv->view, hv->lay.m, 4, count, granted,
				  hv->used, SE);
		if (rand_r(&seed) % 3 == 0) {
			uint32_t q = 1 + (uint32_t)rand_r(&seed) % 3;

			e1 = bpol_request(&st->bp, &st->view, k, q, now);
			e2 = bpol_request(&hv->bp, &hv->view, k, q, now);
			assert_int_equal(e1, e2);
		}
		w = (uint64_t)(rand_r(&seed) % 4000);
		r = (uint64_t)(rand_r(&seed) % 1000);
		d1 = bpol_evaluate(&st->bp, now, w, r, &st->view, &st->d);
		d2 = bpol_evaluate(&hv->bp, now, w, r, &hv->view, &hv->d);
		assert_int_equal(d1, d2);
		if (d1 != 1)
			continue;
		decided++;
		bands[st->d.band]++;
		bpol_apply_contig(&st->lay, &st->d);
		hv_apply(&hv->lay, granted, &hv->d);
		assert_int_equal(st->d.nr, hv->d.nr);
		assert_memory_equal(st->d.act, hv->d.act,
				    st->d.nr * sizeof(st->d.act[0]));
		assert_memory_equal(st->lay.s, hv->lay.s, sizeof(s));
		assert_memory_equal(st->lay.p, hv->lay.p, sizeof(p));
	}
	/* The trace went through every band. */
	assert_int_equal(decided, 80);
	for (int b = 0; b < BPOL_BANDS; b++)
		assert_true(bands[b] > 0);
	free(st);
	free(hv);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_f_and_bands),
		cmocka_unit_test(test_request_queue_bounds_and_errors),
		cmocka_unit_test(test_calm_approves_all_figure4),
		cmocka_unit_test(test_busy_approves_and_shrinks_largest_underused),
		cmocka_unit_test(test_overloaded_rejects_and_takes_two),
		cmocka_unit_test(test_guarantee_overloaded),
		cmocka_unit_test(test_guarantee_never_below_gvirt1024),
		cmocka_unit_test(test_stale_requests),
		cmocka_unit_test(test_apply_on_sets),
		cmocka_unit_test(test_random_loop_properties),
		cmocka_unit_test(test_hv_decides_as_the_study),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
