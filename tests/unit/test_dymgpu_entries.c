/* DymGPU live placement against gScale's own placement, in GGTT entries:
 * the same trace run twice through the real gScale code on the Gen9 model,
 * once with gScale's placement only and once with the hypervisor's live
 * policy (gpu/dymgpu/dymgpu_live.c fed through dyml_feed by the monitor,
 * its moves made by gscale_vgpu_move_high, as tools/eval/gscale/robust.c
 * and gpu/dymgpu/dymgpu_move.c do). On adversarial rotations of the busy
 * set and random short bursts, live placement must never copy more:
 *   entries copied with live + entries its moves carried
 *       <= entries copied with gScale's placement.
 * Against a bait timed to end every collision as the policy moves, the
 * loss is at most two vGPUs' entries per move (carried, recopied). A
 * busy pair that persists on one slot must be separated and gain. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/dymgpu/dymgpu_live.h"
#include "gpu/gscale/gscale.h"
#include "gpu/policy/monitor.h"
#include "tests/harness/model_harness.h"

#define LOW_FIRST 16384u
#define LOW_COUNT 2048u
#define HIGH_FIRST 32768u
#define HIGH_COUNT 32768u
#define SLOT 4096u /* 8 slots */
#define CH GSCALE_CHUNK_ENTRIES
#define N 12
#define SECONDS 60
#define SLICE_NS 16000000ull
#define SLICES (int)(SECONDS * 1000000000ull / SLICE_NS)
#define PERIOD_NS 1000000000ull

static struct harness H;
static struct gscale GS;
static struct mon MON;
static struct dyml DL;
static bool BUSY[SLICES][N];
static uint64_t rng;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
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
	uint64_t copied, carried, moves;
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

/* Every vGPU binds its whole GM once: a move carries all of it. */
static void bind_all(int id, int vm)
{
	const struct gscale_vgpu *v = &GS.vgpus[id];

	for (uint32_t i = 0; i < v->low.count; i++)
		gscale_guest_write(&GS, id, v->low.first + i,
				   ((uint64_t)(vm + 1) << 32) | i << 12 | 1);
	for (uint32_t i = 0; i < v->high.count; i++)
		gscale_guest_write(&GS, id, v->high.first + i,
				   ((uint64_t)(vm + 1) << 32) | i << 12 | 1);
}

static void period(const int *id, uint64_t now, struct res *r)
{
	struct dyml_decision dec[DYML_MAX_MOVES];
	uint32_t nd;

	for (int vm = 0; vm < N; vm++) {
		const struct gscale_vgpu *v = &GS.vgpus[id[vm]];

		dyml_feed(&DL, &MON, (uint32_t)id[vm], now,
			  v->low.count + v->high_count, true);
	}
	nd = dyml_step(&DL, dec, DYML_MAX_MOVES);
	for (uint32_t i = 0; i < nd; i++) {
		uint64_t carried = 0;

		if (gscale_vgpu_move_high(&GS, dec[i].vgpu, dec[i].to,
					  &carried)) {
			dyml_undo(&DL, &dec[i]);
			continue;
		}
		dyml_moved(&DL, dec[i].vgpu, dec[i].to, dec[i].n,
			   DYML_COLLISION);
		r->moves++;
		r->carried += carried;
	}
}

static void run(bool live, const int *order, struct res *r)
{
	struct gscale_params p = {
		.low = { LOW_FIRST, LOW_COUNT },
		.high = { HIGH_FIRST, HIGH_COUNT },
		.slot_entries = SLOT,
		.slot_sharing = true,
	};
	struct mon_params mp = { 0 };
	int id[N], cur = -1;

	memset(r, 0, sizeof(*r));
	assert_int_equal(h_init(&H, NULL), 0);
	assert_int_equal(gscale_init(&GS, &H.hw, &p, &MEM), 0);
	for (int k = 0; k < N; k++)
		assert_true((id[order[k]] = gscale_vgpu_add(&GS, LOW_COUNT,
							    SLOT)) >= 0);
	for (int vm = 0; vm < N; vm++)
		bind_all(id[vm], vm);
	assert_int_equal(mon_init(&MON, &mp, 0), 0);
	assert_int_equal(dyml_init(&DL, NULL, GS.nr_slots), 0);
	for (int vm = 0; vm < N; vm++) {
		assert_int_equal(mon_add(&MON, (uint32_t)id[vm], 0), 0);
		assert_int_equal(dyml_add(&DL, (uint32_t)id[vm],
					  GS.vgpus[id[vm]].slot, 1, true), 0);
	}
	for (int s = 0; s < SLICES; s++) {
		uint64_t now = (uint64_t)s * SLICE_NS;
		int nx;

		if (live && s && now / PERIOD_NS != (now - SLICE_NS) / PERIOD_NS)
			period(id, now, r);
		for (int vm = 0; vm < N; vm++)
			if (BUSY[s][vm])
				mon_submit(&MON, (uint32_t)id[vm], now);
		nx = next_busy(BUSY[s], cur < 0 ? N - 1 : cur);
		if (nx < 0)
			continue;
		gscale_switch_to(&GS, id[nx]);
		mon_gpu_busy(&MON, (uint32_t)id[nx], now, now + SLICE_NS);
		cur = nx;
	}
	r->copied = GS.stats.entries_copied;
	gscale_fini(&GS);
	h_fini(&H);
}

enum pattern { P_ROTATE, P_BURSTS, P_BAIT, P_PAIR };
static const char *const names[] = { "rotating hot set", "random 20% bursts",
				     "bait: shared pair for 17 s",
				     "persistent shared pair" };

/* Creation order: k-th created = order[k]. gScale's placement puts the
 * (8 + i)-th created on slot i, so order[i] and order[8 + i] share. */
static void gen(enum pattern pat, uint32_t arg, uint64_t seed, int *order)
{
	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	for (int i = 0; i < N; i++)
		order[i] = i;
	for (int i = N - 1; i > 0; i--) {
		int j = (int)rnd((uint32_t)i + 1), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	memset(BUSY, 0, sizeof(BUSY));
	for (int s = 0; s < SLICES; s++) {
		uint64_t t = (uint64_t)s * SLICE_NS / PERIOD_NS; /* second */

		for (int vm = 0; vm < N; vm++) {
			switch (pat) {
			case P_ROTATE: /* 3 hot, a new set every arg s */
				BUSY[s][vm] = (uint32_t)(vm + 5 * (t / arg)) % N < 3;
				break;
			case P_BURSTS: /* 1-3 slices, each vGPU ~20% busy */
				if (s && BUSY[s - 1][vm] && rnd(2))
					BUSY[s][vm] = true;
				else
					BUSY[s][vm] = rnd(8) == 0;
				break;
			case P_BAIT: { /* pair i busy 17 s, then the next */
				int pair = (int)(t / arg) % 4;

				BUSY[s][vm] = t % arg < 17 &&
					      (vm == order[pair] ||
					       vm == order[8 + pair]);
				break;
			}
			case P_PAIR:
				BUSY[s][vm] = vm == order[0] || vm == order[8];
				break;
			}
		}
	}
}

static void compare(enum pattern pat, uint32_t arg, uint64_t seed,
		    struct res *g, struct res *l)
{
	int order[N];

	gen(pat, arg, seed, order);
	run(false, order, g);
	run(true, order, l);
	print_message("%-28s arg %2u seed %llu: gScale %llu, live %llu + "
		      "%llu carried (%llu moves)\n", names[pat], arg,
		      (unsigned long long)seed, (unsigned long long)g->copied,
		      (unsigned long long)l->copied,
		      (unsigned long long)l->carried,
		      (unsigned long long)l->moves);
}

static void test_never_more_than_gscale(void **state)
{
	/* Sets held 17 s or 30 s are not here: a move made in the 16th
	 * second can land beside the next set (docs/dymgpu-live.md). */
	static const uint32_t every[] = { 1, 2, 5 };
	struct res g, l;

	(void)state;
	for (uint64_t seed = 1; seed <= 3; seed++) {
		for (unsigned i = 0; i < sizeof(every) / sizeof(every[0]); i++) {
			compare(P_ROTATE, every[i], seed, &g, &l);
			assert_true(l.copied + l.carried <= g.copied);
		}
		compare(P_BURSTS, 0, seed, &g, &l);
		assert_true(l.copied + l.carried <= g.copied);
		/* The bait ends each collision just as the policy moves
		 * (the 17th second of 20 with the pair at 80% of its share):
		 * no policy that moves can win here. The loss is at most
		 * one vGPU's entries carried and one recopy per move. */
		compare(P_BAIT, 18, seed, &g, &l);
		assert_true(l.copied + l.carried <=
			    g.copied + 2 * l.moves * (LOW_COUNT + SLOT));
	}
}

static void test_persistent_pair_separated(void **state)
{
	struct res g, l;

	(void)state;
	compare(P_PAIR, 0, 1, &g, &l);
	assert_true(l.moves >= 1);
	/* Separated after 16 s of 60; then only the shared low GM (a third
	 * of each switch's copy) is recopied. */
	assert_true(l.copied + l.carried < g.copied * 6 / 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_never_more_than_gscale),
		cmocka_unit_test(test_persistent_pair_separated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
