/* See evcommon.h. */
#include "tools/eval/common/evcommon.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

static double elapsed_ns(const struct timespec *a, const struct timespec *b)
{
	return (b->tv_sec - a->tv_sec) * 1e9 + (b->tv_nsec - a->tv_nsec);
}

double tsc_hz(void)
{
	static double hz;
	struct timespec a, b;
	uint64_t t0, t1;

	if (hz)
		return hz;
	clock_gettime(CLOCK_MONOTONIC, &a);
	t0 = __rdtsc();
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while (elapsed_ns(&a, &b) < 2e8);
	t1 = __rdtsc();
	hz = (t1 - t0) / (elapsed_ns(&a, &b) / 1e9);
	return hz;
}

uint64_t rdtsc_now(void *ctx)
{
	(void)ctx;
	return __rdtsc();
}

static void *heap_alloc(void *ctx, size_t n)
{
	(void)ctx;
	return calloc(1, n);
}

static void heap_free(void *ctx, void *p, size_t n)
{
	(void)ctx;
	(void)n;
	free(p);
}

const struct gscale_mem ev_heap_mem = { heap_alloc, heap_free, rdtsc_now,
					NULL };

FILE *ev_open_out(const char *dir, const char *name)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(1);
	}
	return f;
}

int ev_next_busy(const bool *busy, int n, int from)
{
	for (int k = 1; k <= n; k++) {
		int id = (from + k + n) % n;

		if (busy[id])
			return id;
	}
	return -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double rank(const double *v, int n, double q)
{
	int i = (int)(q * (n - 1) + 0.5);

	return v[i < 0 ? 0 : i >= n ? n - 1 : i];
}

struct ev_dist ev_dist_of(double *v, int n, bool higher_is_worse)
{
	struct ev_dist d = { .n = n };

	if (n <= 0)
		return d;
	qsort(v, n, sizeof(*v), cmp_double);
	d.med = rank(v, n, 0.5);
	d.p5 = rank(v, n, 0.05);
	d.p95 = rank(v, n, 0.95);
	d.worst = higher_is_worse ? v[n - 1] : v[0];
	d.best = higher_is_worse ? v[0] : v[n - 1];
	return d;
}

static void field(FILE *f, const char *fmt, double x)
{
	fprintf(f, "|");
	if (isnan(x))
		fprintf(f, "-");
	else
		fprintf(f, fmt, x);
}

void ev_claim(FILE *f, const char *study, const char *claim,
	      const char *paper, const char *fmt, double paper_case,
	      const struct ev_dist *d, const char *baseline,
	      const char *verdict)
{
	fprintf(f, "%s|%s|%s", study, claim, paper);
	field(f, fmt, paper_case);
	if (d && d->n) {
		field(f, fmt, d->med);
		field(f, fmt, d->p5);
		field(f, fmt, d->p95);
		field(f, fmt, d->worst);
		fprintf(f, "|%d", d->n);
	} else {
		fprintf(f, "|-|-|-|-|0");
	}
	fprintf(f, "|%s|%s\n", baseline, verdict);
}

const char *ev_verdict(const struct ev_dist *d, bool ratio)
{
	if (ratio)
		return d->med >= 1.0 - 1e-9 && d->worst >= EV_SLACK_RATIO
			       ? "pass" : "FAIL";
	return d->med >= -1e-9 && d->worst >= EV_SLACK_PCT ? "pass" : "FAIL";
}
