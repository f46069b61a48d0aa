/* DymGPU's placement manager (gpu/dymgpu/dymgpu_trigger.c): the paper's
 * create / destroy / idle / periodic triggers over the existing placement
 * algorithms, the moves they report, pinned (stock) guests, bad input, and
 * random event sequences. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/hw/gpu_hw.h"
#include "gpu/dymgpu/dymgpu_trigger.h"

#define S 1000000000ull
#define SE 16384u

static struct dym *new_dym(uint8_t mode, uint32_t m)
{
	struct dym *d = calloc(1, sizeof(*d));
	struct dym_params p = { .mode = mode, .m = m, .slot_entries = SE };

	assert_non_null(d);
	assert_int_equal(dym_init(d, &p, 0), 0);
	return d;
}

/* Figure 5 built one creation at a time: M = 5, vGPUs of 4, 4, 3, 2 end at
 * P = 0, 1, 1, 1 and nobody had to move (the last two land on the shared
 * band L = 3). */
static void test_size_creates_figure5(void **state)
{
	struct dym *d = new_dym(DYM_BY_SIZE, 5);
	struct dym_result *r = malloc(sizeof(*r));
	static const uint32_t sz[] = { 4, 4, 3, 2 }, want[] = { 0, 1, 1, 1 };

	(void)state;
	for (uint32_t i = 0; i < 4; i++) {
		assert_int_equal(dym_create(d, i, sz[i], i * S, r), 0);
		assert_int_equal(r->nr, 0);
	}
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(dym_layout(d)->p[i], want[i]);
	assert_int_equal(d->band_start, 1);
	assert_int_equal(d->band_len, 3);
	assert_int_equal(slots_shared(dym_layout(d)), 3);
	free(r);
	free(d);
}

/* Creation order that gScale's spot-by-spot placement handles badly: a
 * re-placement of everybody wins and the moves are reported with the
 * moved vGPUs' own entries only. */
static void test_size_create_replaces_when_fewer_shared(void **state)
{
	struct dym *d = new_dym(DYM_BY_SIZE, 10);
	struct dym_result *r = malloc(sizeof(*r));

	(void)state;
	/* 3 at 0..2, then 2 at 3..4: all unshared, no band. */
	assert_int_equal(dym_create(d, 0, 3, 0, r), 0);
	assert_int_equal(dym_create(d, 1, 2, 0, r), 0);
	dym_set_used(d, 1, 1000);
	/* A 6 cannot go unshared after them (5 free) but fits if the 6 goes
	 * first: 6 + 3 = 9, and the 2 over the band: 1 shared slot instead
	 * of the 1 of "alone at the best spot"? Alone: 6 at 4..9 covers
	 * slot 4 of vGPU 1 - 1 shared. Re-placed: 6 at 0, 3 at 6..8, 2 at
	 * 8..9 - 1 shared. A tie: nobody moves. */
	assert_int_equal(dym_create(d, 2, 6, 0, r), 0);
	assert_int_equal(r->nr, 0);
	assert_int_equal(slots_shared(dym_layout(d)), 1);
	/* Destroying vGPU 0 (it held slots of its own) re-places: 6 at 0,
	 * 2 at 6: vGPU 2 and vGPU 1 move. */
	assert_int_equal(dym_destroy(d, 0, 0, r), 0);
	assert_true(r->replaced);
	assert_int_equal(r->shared_after, 0);
	assert_int_equal(r->nr, 2);
	for (uint32_t i = 0; i < r->nr; i++) {
		if (r->mv[i].vgpu == 1)
			assert_int_equal(r->mv[i].entries, 1000);
		else
			assert_int_equal(r->mv[i].entries, 6 * SE);
	}
	assert_int_equal(r->entries, 1000 + 6 * SE);
	assert_int_equal(d->st.moves, 2);
	free(r);
	free(d);
}

/* Destroying a vGPU that had no slot of its own changes nothing. */
static void test_size_destroy_without_own_slot(void **state)
{
	struct dym *d = new_dym(DYM_BY_SIZE, 5);
	struct dym_result *r = malloc(sizeof(*r));
	static const uint32_t sz[] = { 4, 4, 3, 2 };

	(void)state;
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(dym_create(d, i, sz[i], 0, r), 0);
	assert_int_equal(dym_destroy(d, 3, 0, r), 0); /* inside the band */
	assert_false(r->replaced);
	assert_int_equal(r->nr, 0);
	assert_int_equal(dym_destroy(d, 3, 0, r), -GPU_EINVAL); /* gone */
	free(r);
	free(d);
}

/* Idle vGPUs are placed as if terminated: parked on the rightmost slots,
 * the active ones re-placed; back to active, re-placed again. */
static void test_idle_transitions(void **state)
{
	struct dym *d = new_dym(DYM_BY_SIZE, 12);
	struct dym_result *r = malloc(sizeof(*r));

	(void)state;
	assert_int_equal(dym_create(d, 0, 4, 0, r), 0); /* 0..3 */
	assert_int_equal(dym_create(d, 1, 4, 0, r), 0); /* 4..7 */
	assert_int_equal(dym_create(d, 2, 4, 0, r), 0); /* 8..11 */
	assert_int_equal(slots_shared(dym_layout(d)), 0);
	assert_int_equal(dym_create(d, 3, 6, 0, r), 0); /* must share */
	assert_true(slots_shared(dym_layout(d)) > 0);
	/* vGPU 0 goes idle: the active 6, 4, 4 fit 12 exactly: 3 at 0..5,
	 * 1 at 6..9? 6 + 4 = 10, 4 more do not fit - 2 at the right end.
	 * Idle 0 parks at 8..11. */
	assert_int_equal(dym_set_idle(d, 0, true, 25 * S, r), 0);
	assert_int_equal(r->why, DYM_IDLE);
	assert_true(r->replaced);
	assert_int_equal(dym_layout(d)->p[3], 0);
	assert_int_equal(dym_layout(d)->p[0], 8);
	for (uint32_t i = 0; i < r->nr; i++)
		assert_int_equal(r->mv[i].entries,
				 (uint64_t)r->mv[i].slots * SE);
	/* Same state again: nothing. */
	assert_int_equal(dym_set_idle(d, 0, true, 26 * S, r), 0);
	assert_int_equal(r->nr, 0);
	assert_int_equal(dym_set_idle(d, 0, false, 30 * S, r), 0);
	assert_int_equal(r->why, DYM_ACTIVE);
	assert_int_equal(slots_check(dym_layout(d)), 0);
	assert_int_equal(dym_set_idle(d, 9, true, 0, r), -GPU_EINVAL);
	free(r);
	free(d);
}

/* Utilization mode: every 20 s the busiest get slots of their own. */
static void test_util_periodic(void **state)
{
	struct dym *d = new_dym(DYM_BY_UTIL, 6);
	struct dym_result *r = malloc(sizeof(*r));

	(void)state;
	for (uint32_t i = 0; i < 4; i++)
		assert_int_equal(dym_create(d, i, 2, 0, r), 0);
	dym_set_util(d, 0, 100);
	dym_set_util(d, 1, 500);
	dym_set_util(d, 2, 300);
	dym_set_util(d, 3, 50);
	assert_int_equal(dym_tick(d, 20 * S - 1, r), 0); /* not yet */
	assert_int_equal(dym_tick(d, 20 * S, r), 1);
	assert_int_equal(r->why, DYM_PERIODIC);
	assert_int_equal(dym_layout(d)->p[1], 0);
	assert_int_equal(dym_layout(d)->p[2], 2);
	assert_int_equal(dym_layout(d)->p[0], 4);
	assert_int_equal(dym_layout(d)->p[3], 4);
	/* Utilization unchanged: the next period moves nobody. */
	assert_int_equal(dym_tick(d, 40 * S, r), 1);
	assert_int_equal(r->nr, 0);
	/* vGPU 3 becomes the busiest: it moves to slot 0. */
	dym_set_util(d, 3, 900);
	assert_int_equal(dym_tick(d, 60 * S, r), 1);
	assert_int_equal(dym_layout(d)->p[3], 0);
	assert_true(r->nr >= 1);
	assert_int_equal(d->st.events[DYM_PERIODIC], 3);
	free(r);
	free(d);
}

/* A pinned vGPU (a stock guest: its GM addresses cannot change) never
 * moves; a re-placement that would need it to is vetoed when keeping it
 * makes the layout worse. */
static void test_pinned_never_moves(void **state)
{
	struct dym *d = new_dym(DYM_BY_UTIL, 6);
	struct dym_result *r = malloc(sizeof(*r));

	(void)state;
	for (uint32_t i = 0; i < 3; i++)
		assert_int_equal(dym_create(d, i, 2, 0, r), 0);
	/* util 0 each: placed 0, 2, 4. */
	assert_int_equal(dym_layout(d)->p[0], 0);
	dym_pin(d, 0, true);
	dym_set_util(d, 2, 900);
	assert_int_equal(dym_tick(d, 20 * S, r), 1);
	/* Util order 2, 0, 1 puts 2 at 0 and moves 0 to 2. Keeping 0 at 0
	 * under 2 would add two shared slots: vetoed, nothing moves. */
	assert_true(r->vetoed);
	assert_int_equal(r->nr, 0);
	assert_int_equal(dym_layout(d)->p[0], 0);
	assert_int_equal(dym_layout(d)->p[2], 4);
	assert_int_equal(d->st.vetoes, 1);
	/* Unpinned, the same tick moves it. */
	dym_pin(d, 0, false);
	assert_int_equal(dym_tick(d, 40 * S, r), 1);
	assert_false(r->vetoed);
	assert_int_equal(dym_layout(d)->p[2], 0);
	assert_int_equal(dym_layout(d)->p[0], 2);
	free(r);
	free(d);
}

static void test_bad_input(void **state)
{
	struct dym *d = calloc(1, sizeof(*d));
	struct dym_params p = { .mode = DYM_BY_SIZE, .m = 0 };

	(void)state;
	assert_int_equal(dym_init(d, &p, 0), -GPU_EINVAL);
	p.m = SLOTS_MAX + 1;
	assert_int_equal(dym_init(d, &p, 0), -GPU_EINVAL);
	p.m = 8;
	p.mode = 7;
	assert_int_equal(dym_init(d, &p, 0), -GPU_EINVAL);
	p.mode = DYM_BY_SIZE;
	assert_int_equal(dym_init(d, &p, 0), 0);
	assert_int_equal(dym_create(d, 0, 0, 0, NULL), -GPU_EINVAL);
	assert_int_equal(dym_create(d, 0, 9, 0, NULL), -GPU_EINVAL);
	assert_int_equal(dym_create(d, SLOTS_MAX_VGPUS, 1, 0, NULL),
			 -GPU_EINVAL);
	assert_int_equal(dym_create(d, 0, 8, 0, NULL), 0);
	assert_int_equal(dym_create(d, 0, 1, 0, NULL), -GPU_EINVAL); /* twice */
	assert_int_equal(dym_destroy(d, 1, 0, NULL), -GPU_EINVAL);
	assert_int_equal(dym_set_slots(d, 0, 1, 8), -GPU_EINVAL);
	assert_int_equal(dym_set_slots(d, 0, 2, 5), 0);
	assert_int_equal(dym_layout(d)->p[0], 2);
	free(d);
}

static uint32_t rnd(uint32_t *st, uint32_t n)
{
	*st = *st * 1103515245u + 12345u;
	return (*st >> 8) % n;
}

/* Random event sequences in both modes: the layout stays inside high GM,
 * sizes are those asked for, every reported move is a present vGPU whose
 * first slot changed, and it re-copies at most its own entries. */
static void test_random_events(void **state)
{
	struct dym *d = calloc(1, sizeof(*d));
	struct dym_result *r = malloc(sizeof(*r));
	uint32_t st = 11;

	(void)state;
	for (int t = 0; t < 200; t++) {
		struct dym_params p = { .mode = (uint8_t)(t & 1),
					.m = 4 + rnd(&st, 60),
					.slot_entries = SE };
		uint32_t size[24] = { 0 };
		uint64_t now = 0;

		assert_int_equal(dym_init(d, &p, 0), 0);
		for (int e = 0; e < 60; e++) {
			uint32_t id = rnd(&st, 24), before[24];
			int err = 0;

			for (uint32_t i = 0; i < 24; i++)
				before[i] = dym_layout(d)->p[i];
			r->nr = 0;
			now += rnd(&st, 10) * S;
			switch (rnd(&st, 5)) {
			case 0:
			case 1:
				if (size[id])
					break;
				size[id] = 1 + rnd(&st, p.m);
				err = dym_create(d, id, size[id], now, r);
				break;
			case 2:
				if (!size[id])
					break;
				err = dym_destroy(d, id, now, r);
				size[id] = 0;
				break;
			case 3:
				if (!size[id])
					break;
				dym_set_util(d, id, rnd(&st, 1000));
				dym_set_used(d, id, rnd(&st, size[id] * SE * 2));
				err = dym_set_idle(d, id, rnd(&st, 2), now, r);
				break;
			default:
				if (dym_tick(d, now, r) == 0)
					continue;
				break;
			}
			assert_int_equal(err, 0);
			assert_int_equal(slots_check(dym_layout(d)), 0);
			for (uint32_t i = 0; i < 24; i++)
				assert_int_equal(dym_layout(d)->s[i], size[i]);
			for (uint32_t i = 0; i < r->nr; i++) {
				const struct dym_move *mv = &r->mv[i];

				assert_true(size[mv->vgpu] > 0);
				assert_int_equal(mv->from, before[mv->vgpu]);
				assert_int_equal(mv->to, dym_layout(d)->p[mv->vgpu]);
				assert_int_not_equal(mv->from, mv->to);
				assert_true(mv->entries <=
					    (uint64_t)size[mv->vgpu] * SE);
			}
		}
	}
	free(r);
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_creates_figure5),
		cmocka_unit_test(test_size_create_replaces_when_fewer_shared),
		cmocka_unit_test(test_size_destroy_without_own_slot),
		cmocka_unit_test(test_idle_transitions),
		cmocka_unit_test(test_util_periodic),
		cmocka_unit_test(test_pinned_never_moves),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_random_events),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
