/* The predictive gate (gpu/gscale/gscale_predict.c): predictive copy must
 * not add total work on patterns it cannot predict. Every pattern is run
 * twice on the same trace, without and with prediction, through the real
 * gScale code on the Gen9 model; the predictor is the eval's (the next
 * busy vGPU after the running one, tools/eval/gscale/robust.c). The bound
 * asserted is the one gpu/gscale/gscale.h states, from the run's counters:
 *   total with <= total without + 2 * 512 * sum over vGPUs
 *       (BUDGET + GRANT * min(grants, MAX_GRANTS) + hit / HIT_SHARE)
 * and its worst case from constants alone:
 *   total with <= total without + 2 * 512 * 64 * vGPUs + hit * 512 / 32.
 * A steady rotation (the paper's case, where prediction is right) must
 * still move copies off the switch path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/gscale/gscale.h"
#include "tests/harness/model_harness.h"

#define LOW_FIRST 16384u
#define LOW_COUNT 2048u /* 4 chunks */
#define HIGH_FIRST 32768u
#define HIGH_COUNT 32768u
#define SLOT 4096u
#define CH GSCALE_CHUNK_ENTRIES
#define N 12
#define SLICES 2000

static struct harness H;
static struct gscale GS;
static bool BUSY[SLICES][N];
static uint32_t rng;

static uint32_t rnd(uint32_t n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

static void *t_alloc(void *ctx, size_t n)
{
	(void)ctx;
	return calloc(1, n);
}

static void t_free(void *ctx, void *p, size_t n)
{
	(void)ctx;
	(void)n;
	free(p);
}

static const struct gscale_mem MEM = { t_alloc, t_free, NULL, NULL };

struct res {
	uint64_t copied, ahead, bound_extra, fixed_extra;
	uint64_t hits, wasted, paused, pending;
};

static int next_busy(const bool *busy, int cur)
{
	for (int k = 1; k <= N; k++) {
		int vm = (cur + k) % N;

		if (busy[vm])
			return vm;
	}
	return -1;
}

static void write_some(int id, int vm, int s)
{
	const struct gscale_vgpu *v = &GS.vgpus[id];
	uint32_t total = v->low.count + v->high_count;

	for (int i = 0; i < 4; i++) {
		uint32_t off = (uint32_t)(s * 7 + i * 131 + vm) % total;
		uint32_t idx = off < v->low.count ? v->low.first + off
						  : v->high.first + off -
							    v->low.count;

		gscale_guest_write(&GS, id, idx,
				   ((uint64_t)(vm + 1) << 32) | off << 12 | 1);
	}
}

static void run(bool sharing, bool predictive, struct res *r)
{
	struct gscale_params p = {
		.low = { LOW_FIRST, LOW_COUNT },
		.high = { HIGH_FIRST, HIGH_COUNT },
		.slot_entries = SLOT,
		.slot_sharing = sharing,
		.predictive = predictive,
	};
	int id[N], cur = -1;

	assert_int_equal(h_init(&H, NULL), 0);
	assert_int_equal(gscale_init(&GS, &H.hw, &p, &MEM), 0);
	for (int vm = 0; vm < N; vm++)
		assert_true((id[vm] = gscale_vgpu_add(&GS, LOW_COUNT / 2 +
							    (vm % 2) * CH,
						      SLOT)) >= 0);
	for (int s = 0; s < SLICES; s++) {
		int nx = next_busy(BUSY[s], cur < 0 ? N - 1 : cur), af;

		for (int vm = 0; vm < N; vm++)
			if (BUSY[s][vm])
				write_some(id[vm], vm, s);
		if (nx < 0)
			continue;
		gscale_switch_to(&GS, id[nx]);
		cur = nx;
		af = next_busy(BUSY[s], cur);
		if (af >= 0 && af != cur)
			gscale_prefetch(&GS, id[af]);
	}
	memset(r, 0, sizeof(*r));
	r->copied = GS.stats.entries_copied;
	r->ahead = GS.stats.entries_prefetched;
	r->hits = GS.stats.pf_hit_chunks;
	r->fixed_extra += r->hits * CH / 32;
	r->wasted = GS.stats.pf_wasted_chunks;
	r->paused = GS.stats.pf_paused;
	for (int vm = 0; vm < N; vm++) {
		const struct gscale_vgpu *v = &GS.vgpus[id[vm]];
		uint64_t g = v->pf.grants < GSCALE_PF_MAX_GRANTS
				     ? v->pf.grants
				     : GSCALE_PF_MAX_GRANTS;
		uint64_t allow = GSCALE_PF_BUDGET +
				 v->pf.hit / GSCALE_PF_HIT_SHARE +
				 g * GSCALE_PF_GRANT;

		assert_int_equal(allow, gscale_pf_bound(v));

		r->pending += v->pf.pending;
		/* The gate's invariant, per vGPU. */
		assert_true(v->pf.wasted + v->pf.pending <= allow);
		r->bound_extra += 2ull * CH * allow;
		r->fixed_extra += 2ull * CH * 64;
	}
	gscale_fini(&GS);
	h_fini(&H);
}

enum pattern { P_BURSTS, P_ROTATE, P_PARETO, P_WRONG, P_STEADY };
static const char *const names[] = { "random short bursts", "rotating hot set",
				     "pareto on/off", "always-wrong guess",
				     "steady 2 pairs" };

static void gen(enum pattern pat, uint32_t seed)
{
	uint32_t left[N] = { 0 };

	rng = seed;
	memset(BUSY, 0, sizeof(BUSY));
	for (int s = 0; s < SLICES; s++)
		for (int vm = 0; vm < N; vm++) {
			switch (pat) {
			case P_BURSTS: /* 1-3 slices, started at random */
				if (!left[vm] && rnd(5) == 0)
					left[vm] = 1 + rnd(3);
				break;
			case P_ROTATE: /* 3 of N hot, moving every 7 slices */
				BUSY[s][vm] = (uint32_t)(vm - s / 7 + 4 * N) %
						      N < 3;
				continue;
			case P_PARETO: /* heavy-tailed on and off periods */
				if (!left[vm] && rnd(2) == 0)
					left[vm] = 1 + 64 / (1 + rnd(64));
				break;
			case P_WRONG: /* the guess is never busy next slice */
				BUSY[s][vm] = vm == (2 * s) % N ||
					      vm == (2 * s + 5) % N;
				continue;
			case P_STEADY: /* pairs sharing slots 0 and 1 */
				BUSY[s][vm] = vm == 0 || vm == 1 || vm == 8 ||
					      vm == 9;
				continue;
			}
			if (left[vm]) {
				BUSY[s][vm] = true;
				left[vm]--;
			}
		}
}

static void check(enum pattern pat, uint32_t seed, bool sharing)
{
	struct res off, on;
	uint64_t t_off, t_on;

	gen(pat, seed);
	run(sharing, false, &off);
	run(sharing, true, &on);
	t_off = off.copied + off.ahead;
	t_on = on.copied + on.ahead;
	print_message("%-20s seed %u %s: without %llu, with %llu (%+.2f%%; "
		      "switch path %llu), hits %llu wasted %llu paused %llu\n",
		      names[pat], seed, sharing ? "sharing" : "basic",
		      (unsigned long long)t_off, (unsigned long long)t_on,
		      t_off ? 100.0 * ((double)t_on / (double)t_off - 1) : 0,
		      (unsigned long long)on.copied,
		      (unsigned long long)on.hits,
		      (unsigned long long)on.wasted,
		      (unsigned long long)on.paused);
	assert_int_equal(off.ahead, 0);
	assert_true(t_on <= t_off + on.bound_extra);
	assert_true(t_on <= t_off + on.fixed_extra);
}

static void test_adversarial_patterns(void **state)
{
	(void)state;
	for (uint32_t seed = 1; seed <= 4; seed++)
		for (int sh = 0; sh < 2; sh++) {
			check(P_BURSTS, seed, sh);
			check(P_PARETO, seed, sh);
		}
	check(P_ROTATE, 1, true);
	check(P_ROTATE, 1, false);
	check(P_WRONG, 1, true);
	check(P_WRONG, 1, false);
}

/* Where the guess is right, the gate stays open: the copies move off the
 * switch path and the total does not grow. */
static void test_steady_rotation_still_predicts(void **state)
{
	struct res off, on;

	(void)state;
	gen(P_STEADY, 1);
	run(true, false, &off);
	run(true, true, &on);
	check(P_STEADY, 1, true);
	assert_true(on.copied * 2 < off.copied);
	/* Nothing lost: the total grows only by what the last copy ahead
	 * left pending when the run stopped. */
	assert_int_equal(on.wasted, 0);
	assert_true(on.copied + on.ahead <=
		    off.copied + off.ahead + 2 * CH * on.pending);
	assert_int_equal(on.paused, 0);
}

/* Paused, a vGPU copies nothing; a run of correct guesses (no copying)
 * earns it a grant to try again. gScale-basic: b and c stack over a and
 * each other, b's second slot is not a's. */
static void test_paused_probe_resumes(void **state)
{
	struct gscale_params p = {
		.low = { LOW_FIRST, LOW_COUNT },
		.high = { HIGH_FIRST, HIGH_COUNT },
		.slot_entries = SLOT,
		.slot_sharing = false,
		.predictive = true,
	};
	int a, b, c;

	(void)state;
	assert_int_equal(h_init(&H, NULL), 0);
	assert_int_equal(gscale_init(&GS, &H.hw, &p, &MEM), 0);
	a = gscale_vgpu_add(&GS, CH, SLOT);
	b = gscale_vgpu_add(&GS, CH, 2 * SLOT);
	c = gscale_vgpu_add(&GS, CH, 2 * SLOT);
	GS.vgpus[b].pf.wasted = GSCALE_PF_BUDGET; /* used up */
	gscale_switch_to(&GS, a);
	for (uint32_t i = 0; i < GSCALE_PF_PROBE_STREAK; i++) {
		assert_int_equal(gscale_prefetch(&GS, b), 0);
		gscale_switch_to(&GS, b);
		gscale_switch_to(&GS, c); /* takes b's second slot back */
		gscale_switch_to(&GS, a);
	}
	assert_int_equal(GS.stats.pf_paused, GSCALE_PF_PROBE_STREAK);
	assert_int_equal(GS.vgpus[b].pf.grants, 1);
	/* The grant: exactly GSCALE_PF_GRANT chunks ahead, then paused. */
	assert_int_equal(gscale_prefetch(&GS, b), GSCALE_PF_GRANT * CH);
	assert_int_equal(gscale_prefetch(&GS, b), 0);
	/* A wrong guess resets the streak; the grant's chunks are lost to
	 * c's switch: wasted. */
	gscale_switch_to(&GS, c);
	assert_int_equal(GS.vgpus[b].pf.streak, 0);
	assert_int_equal(GS.vgpus[b].pf.wasted,
			 GSCALE_PF_BUDGET + GSCALE_PF_GRANT);
	assert_int_equal(GS.vgpus[b].pf.pending, 0);
	gscale_fini(&GS);
	h_fini(&H);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_adversarial_patterns),
		cmocka_unit_test(test_steady_rotation_still_predicts),
		cmocka_unit_test(test_paused_probe_resumes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
