/* The policy monitor (gpu/policy/monitor.c): idle detection, utilization
 * windows, utilization relative to the fair share, R_copy (gBalloon equation 1) and W (equation 2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/hw/gpu_hw.h"
#include "gpu/policy/monitor.h"

#define S 1000000000ull
#define MS 1000000ull

static struct mon *new_mon(const struct mon_params *p, uint64_t now)
{
	struct mon *m = malloc(sizeof(*m));

	assert_non_null(m);
	assert_int_equal(mon_init(m, p, now), 0);
	return m;
}

static void test_init_checks_window(void **state)
{
	struct mon *m = malloc(sizeof(*m));
	struct mon_params p = { .window_ns = 1500 * MS, .bucket_ns = S };

	(void)state;
	assert_int_equal(mon_init(m, &p, 0), -GPU_EINVAL); /* not whole */
	p.window_ns = 33 * S;
	assert_int_equal(mon_init(m, &p, 0), -GPU_EINVAL); /* > 32 buckets */
	assert_int_equal(mon_init(m, NULL, 0), 0);         /* defaults */
	assert_int_equal(m->p.idle_ns, 20 * S);
	assert_int_equal(m->nr_buckets, 20);
	assert_int_equal(mon_add(m, 3, 0), 0);
	assert_int_equal(mon_add(m, 3, 0), -GPU_EINVAL); /* twice */
	assert_int_equal(mon_add(m, MON_MAX_VGPUS, 0), -GPU_EINVAL);
	/* Absent ids are ignored, not crashes. */
	mon_submit(m, 7, 5);
	mon_gpu_busy(m, 7, 0, S);
	mon_gm(m, 200, 1, 1, 1);
	assert_int_equal(mon_util(m, 7, 10 * S), 0);
	assert_false(mon_is_idle(m, 7, 100 * S));
	free(m);
}

/* DymGPU: idle after 20 s without a submission; transitions reported once
 * each, and at most max per poll. */
static void test_idle_threshold_and_transitions(void **state)
{
	struct mon *m = new_mon(NULL, 0);
	struct mon_event ev[4];

	(void)state;
	assert_int_equal(mon_add(m, 0, 0), 0);
	assert_int_equal(mon_add(m, 1, 0), 0);
	mon_submit(m, 0, 1 * S);
	assert_false(mon_is_idle(m, 0, 21 * S - 1));
	assert_true(mon_is_idle(m, 0, 21 * S));
	assert_true(mon_is_idle(m, 1, 20 * S));
	assert_int_equal(mon_poll(m, 20 * S, ev, 4), 1);
	assert_int_equal(ev[0].vgpu, 1);
	assert_int_equal(ev[0].kind, MON_BECAME_IDLE);
	assert_int_equal(mon_poll(m, 21 * S, ev, 4), 1);
	assert_int_equal(ev[0].vgpu, 0);
	assert_int_equal(mon_poll(m, 22 * S, ev, 4), 0); /* reported once */
	/* Work (a submission or GPU time) makes it active again. */
	mon_submit(m, 1, 30 * S);
	mon_gpu_busy(m, 0, 30 * S, 31 * S);
	assert_int_equal(mon_poll(m, 31 * S, ev, 1), 1); /* max 1 ... */
	assert_int_equal(ev[0].kind, MON_BECAME_ACTIVE);
	assert_int_equal(mon_poll(m, 31 * S, ev, 4), 1); /* ... rest later */
	assert_int_equal(ev[0].kind, MON_BECAME_ACTIVE);
	assert_int_not_equal(ev[0].vgpu, 2);
	/* A custom threshold. */
	{
		struct mon_params p = { .idle_ns = 2 * S };
		struct mon *m2 = new_mon(&p, 0);

		assert_int_equal(mon_add(m2, 0, 0), 0);
		assert_false(mon_is_idle(m2, 0, 2 * S - 1));
		assert_true(mon_is_idle(m2, 0, 2 * S));
		free(m2);
	}
	free(m);
}

/* Utilization: busy time per 1 s bucket, averaged over the last 20
 * complete buckets (fewer while the vGPU is younger). */
static void test_utilization_window(void **state)
{
	struct mon *m = new_mon(NULL, 0);

	(void)state;
	assert_int_equal(mon_add(m, 0, 0), 0);
	assert_int_equal(mon_util(m, 0, 0), 0);
	/* Half of every second for 30 s. */
	for (uint64_t s = 0; s < 30; s++)
		mon_gpu_busy(m, 0, s * S, s * S + 500 * MS);
	assert_int_equal(mon_util(m, 0, 30 * S), 500);
	/* Young: two seconds, fully busy. */
	assert_int_equal(mon_add(m, 1, 0), 0);
	mon_gpu_busy(m, 1, 0, 2 * S);
	assert_int_equal(mon_util(m, 1, 2 * S), 1000);
	/* The partial current bucket does not count yet. */
	assert_int_equal(mon_util(m, 1, 2 * S + 900 * MS), 1000);
	assert_int_equal(mon_util(m, 1, 3 * S), 666);
	/* A span across bucket boundaries is split: 1.5 s busy from 40.75 s
	 * puts 250 ms in 40, 1000 in 41, 250 in 42; the window at 43 s is
	 * seconds 23..42, with 7 of the half-busy ones. */
	mon_gpu_busy(m, 0, 40 * S + 750 * MS, 42 * S + 250 * MS);
	assert_int_equal(mon_util(m, 0, 43 * S), (7 * 500 + 1500) / 20);
	assert_int_equal(mon_util(m, 0, 42 * S), (8 * 500 + 1250) / 20);
	/* 20 s later it has left the window. */
	assert_int_equal(mon_util(m, 0, 63 * S), 0);
	/* Writes older than the ring holds change nothing. */
	mon_gpu_busy(m, 0, 41 * S, 42 * S);
	assert_int_equal(mon_util(m, 0, 63 * S), 0);
	/* A very long span only fills the window. */
	mon_gpu_busy(m, 0, 0, 100 * S);
	assert_int_equal(mon_util(m, 0, 100 * S), 1000);
	free(m);
}

/* Utilization relative to the fair share (mon_share, DymGPU live's busy
 * rule): per second, 1/N of the GPU for the N vGPUs that used it. */
static void test_share_of_gpu(void **state)
{
	struct mon *m = new_mon(NULL, 0);

	(void)state;
	for (uint32_t id = 0; id < 6; id++)
		assert_int_equal(mon_add(m, id, 0), 0);
	/* 0-3 share every second equally (250 ms each): each has its whole
	 * share, though 25% of the GPU. */
	for (uint64_t s = 0; s < 20; s++)
		for (uint32_t id = 0; id < 4; id++)
			mon_gpu_busy(m, id, s * S + id * 250 * MS,
				     s * S + (id + 1) * 250 * MS);
	assert_int_equal(mon_util(m, 0, 20 * S), 250);
	assert_int_equal(mon_share(m, 0, 20 * S, 10), 1000);
	assert_int_equal(mon_share(m, 4, 20 * S, 10), 0);
	/* 4 and 5 take turns, 5 s each, alone on the GPU in seconds 20-39
	 * (0-3 stop): the same average utilization as a pair sharing every
	 * second (500), but each competes only half the time. */
	for (uint64_t s = 20; s < 40; s++)
		mon_gpu_busy(m, (s - 20) / 5 % 2 ? 5 : 4, s * S, (s + 1) * S);
	assert_int_equal(mon_util(m, 4, 40 * S), 500);
	assert_int_equal(mon_share(m, 4, 40 * S, 10), 500);
	assert_int_equal(mon_share(m, 0, 40 * S, 10), 0);
	/* Using less than its share counts in proportion; more is capped at
	 * its whole share; one under active_min does not count in N. */
	for (uint64_t s = 40; s < 60; s++) {
		mon_gpu_busy(m, 0, s * S, s * S + 800 * MS);
		mon_gpu_busy(m, 1, s * S + 800 * MS, s * S + 995 * MS);
		mon_gpu_busy(m, 2, s * S + 995 * MS, s * S + S);
	}
	assert_int_equal(mon_share(m, 0, 60 * S, 10), 1000);
	assert_int_equal(mon_share(m, 1, 60 * S, 10), 390); /* 195 x 2 */
	assert_int_equal(mon_share(m, 2, 60 * S, 10), 15);  /* 5 x 3 */
	assert_int_equal(mon_share(m, 1, 60 * S, 0), 585);  /* 195 x 3 */
	free(m);
}

/* The share by the definition, walking every vGPU in every bucket (what
 * mon_share did before it kept N per bucket). */
static uint32_t share_walk(const struct mon *m, uint32_t id, uint64_t now,
			   uint32_t active_min)
{
	uint64_t bn = m->p.bucket_ns, cur = now / bn, count, sum = 0;
	uint64_t min = bn * active_min / 1000;
	const struct mon_vgpu *v = &m->v[id];
	uint32_t ring = m->nr_buckets + 1;

	if (!v->present || cur <= v->first_bucket)
		return 0;
	count = cur - v->first_bucket;
	if (count > m->nr_buckets)
		count = m->nr_buckets;
	for (uint64_t b = cur - count; b < cur; b++) {
		uint64_t mine = v->tag[b % ring] == b ? v->busy[b % ring] : 0;
		uint64_t n = 0, sh;

		if (!mine)
			continue;
		for (uint32_t j = 0; j < MON_MAX_VGPUS; j++) {
			const struct mon_vgpu *c = &m->v[j];
			uint64_t t = c->present && c->tag[b % ring] == b
					     ? c->busy[b % ring] : 0;

			n += t && t >= min;
		}
		n += mine < min;
		sh = mine * n * 1000 / bn;
		sum += sh > 1000 ? 1000 : sh;
	}
	return (uint32_t)(sum / m->nr_buckets);
}

/* issue 31: DymGPU live asks every vGPU's share every second. The work
 * (struct mon's share_visits) must follow what changed: per second, the
 * buckets read (vGPUs x window) plus one count of the competitors for
 * the one new bucket, not vGPUs x window x MON_MAX_VGPUS. Random busy
 * times, late writes into old buckets, removals and re-adds (seeded);
 * every share equal to the definition's walk. */
static void test_share_work_follows_changes(void **state)
{
	struct mon *m = new_mon(NULL, 0);
	uint32_t st = 7, nv = 40;
	uint64_t asks = 0, refills = 0;

	(void)state;
	/* vGPUs 0..nv-1 busy at random; vGPU nv only ever writes late. */
	for (uint32_t id = 0; id <= nv; id++)
		assert_int_equal(mon_add(m, id, 0), 0);
	for (uint64_t sec = 0; sec < 120; sec++) {
		uint64_t before;

		for (uint32_t id = 0; id < nv; id++) {
			uint64_t a;

			st = st * 1103515245u + 12345u;
			if ((st >> 8) % 3)
				continue;
			a = (st >> 12) % 900;
			mon_gpu_busy(m, id, sec * S + a * MS,
				     sec * S + (a + 1 + (st >> 4) % 99) * MS);
		}
		if (sec % 17 == 5) { /* a late write into an older bucket */
			mon_gpu_busy(m, nv, (sec - 3) * S, (sec - 3) * S + 50 * MS);
			refills++;
		}
		if (sec % 29 == 11) { /* a vGPU goes and comes back */
			mon_remove(m, 9);
			assert_int_equal(mon_add(m, 9, sec * S), 0);
			refills += m->nr_buckets;
		}
		before = m->share_visits;
		for (uint32_t id = 0; id <= nv; id++) {
			uint32_t a = mon_share(m, id, (sec + 1) * S, 10);

			assert_int_equal(a, share_walk(m, id, (sec + 1) * S, 10));
			asks++;
		}
		/* This second's work: every vGPU's window read once, and N
		 * counted for the new bucket (and any refilled ones). */
		assert_true(m->share_visits - before <=
			    (uint64_t)(nv + 1) * m->nr_buckets +
				    (1 + refills) * MON_MAX_VGPUS);
		refills = 0;
	}
	/* The old walk: nv x 20 x 128 per second; now about nv x 20. */
	assert_true(m->share_visits <
		    asks * m->nr_buckets + 130 * 4 * MON_MAX_VGPUS);
	/* A second threshold is its own count: still equal. */
	assert_int_equal(mon_share(m, 0, 120 * S, 0), share_walk(m, 0, 120 * S, 0));
	free(m);
}

static void test_window_is_a_parameter(void **state)
{
	struct mon_params p = { .window_ns = 4 * S, .bucket_ns = S };
	struct mon *m = new_mon(&p, 0);

	(void)state;
	assert_int_equal(mon_add(m, 0, 0), 0);
	mon_gpu_busy(m, 0, 0, 4 * S);
	mon_gpu_busy(m, 0, 4 * S, 4 * S + 100 * MS);
	assert_int_equal(mon_util(m, 0, 4 * S), 1000);
	assert_int_equal(mon_util(m, 0, 5 * S), (1000 * 3 + 100) / 4);
	free(m);
}

/* Equation 1: R_copy = C / (t x N); equation 2: W = sum w / (w + s). */
static void test_rcopy_and_w(void **state)
{
	struct mon_params p = { .nr_cpus = 8, .cycles_per_us = 1000 };
	struct mon *m = new_mon(&p, 10 * S);
	struct mon_period pe;

	(void)state;
	assert_int_equal(mon_add(m, 2, 10 * S), 0);
	/* 0.5 s at 1 GHz on 8 CPUs = 4e9 CPU cycles; 4e8 copying = 10%. */
	mon_copy(m, 2, 1000, 300000000);
	mon_copy(m, 2, 500, 100000000);
	mon_steal(m, 250 * MS, 750 * MS);
	mon_steal(m, 100 * MS, 100 * MS);
	mon_steal(m, 0, 0); /* counted, no share */
	mon_period(m, 10 * S + 500 * MS, &pe);
	assert_int_equal(pe.t_ns, 500 * MS);
	assert_int_equal(pe.copied, 1500);
	assert_int_equal(pe.copy_cycles, 400000000);
	assert_int_equal(pe.rcopy_permille, 100);
	assert_int_equal(pe.w_permille, 250 + 500);
	assert_int_equal(pe.vcpus, 3);
	assert_int_equal(m->v[2].copied, 1500);
	assert_int_equal(m->v[2].switches_in, 2);
	/* The next period starts empty. */
	mon_period(m, 11 * S, &pe);
	assert_int_equal(pe.copied, 0);
	assert_int_equal(pe.rcopy_permille, 0);
	assert_int_equal(pe.w_permille, 0);
	/* Saturated: capped at 100%; zero-length period: 0. */
	mon_copy(m, 2, 1, UINT32_MAX * 100ull);
	mon_period(m, 11 * S + 1, &pe);
	assert_int_equal(pe.rcopy_permille, 1000);
	mon_copy(m, 2, 1, 5);
	mon_period(m, 11 * S + 1, &pe);
	assert_int_equal(pe.rcopy_permille, 0);
	assert_int_equal(m->copied, 1502);
	free(m);
}

/* Without a clock rate the copy cycles are nanoseconds, one CPU. */
static void test_rcopy_in_ns(void **state)
{
	struct mon *m = new_mon(NULL, 0);
	struct mon_period pe;

	(void)state;
	mon_copy(m, 0, 10, 125 * MS); /* no such vGPU: host total only */
	mon_period(m, 500 * MS, &pe);
	assert_int_equal(pe.rcopy_permille, 250);
	free(m);
}

static void test_gm_and_evictions(void **state)
{
	struct mon *m = new_mon(NULL, 0);

	(void)state;
	assert_int_equal(mon_add(m, 5, 0), 0);
	mon_gm(m, 5, 300, 200, 256);
	mon_evicted(m, 5, 3);
	mon_evicted(m, 5, 2);
	assert_int_equal(m->v[5].gm_requested, 300);
	assert_int_equal(m->v[5].gm_used, 200);
	assert_int_equal(m->v[5].gm_size, 256);
	assert_int_equal(m->v[5].evictions, 5);
	mon_remove(m, 5);
	assert_false(m->v[5].present);
	assert_int_equal(mon_add(m, 5, 7 * S), 0); /* reusable, fresh */
	assert_int_equal(m->v[5].evictions, 0);
	free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_checks_window),
		cmocka_unit_test(test_idle_threshold_and_transitions),
		cmocka_unit_test(test_utilization_window),
		cmocka_unit_test(test_share_of_gpu),
		cmocka_unit_test(test_share_work_follows_changes),
		cmocka_unit_test(test_window_is_a_parameter),
		cmocka_unit_test(test_rcopy_and_w),
		cmocka_unit_test(test_rcopy_in_ns),
		cmocka_unit_test(test_gm_and_evictions),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
