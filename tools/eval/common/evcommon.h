/* What every evaluation study under tools/eval/ needs the same way: the
 * TSC rate, output files, round-robin over busy VMs, heap memory for
 * gscale, and the Gen9 model as the platform (a GGTT and an aperture, no
 * command execution). */
#ifndef TOOLS_EVAL_COMMON_EVCOMMON_H
#define TOOLS_EVAL_COMMON_EVCOMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu/gscale/gscale.h"
#include "gpu/model/gen9_model.h"

/* TSC ticks per second, against CLOCK_MONOTONIC over 200 ms (once). */
double tsc_hz(void);
/* The TSC, as gscale_mem's clock. */
uint64_t rdtsc_now(void *ctx);
/* gscale_mem over the C heap, clocked by the TSC. */
extern const struct gscale_mem ev_heap_mem;

/* dir/name opened for writing; exits with a message if it cannot be. */
FILE *ev_open_out(const char *dir, const char *name);

/* The first busy[id] after `from` in round-robin order over n, or -1. */
int ev_next_busy(const bool *busy, int n, int from);

/* A distribution over runs: median, 5th and 95th percentiles (nearest
 * rank) and the worst value, "worst" being the largest when higher is
 * worse and the smallest otherwise. v is sorted in place. */
struct ev_dist {
	int n;
	double med, p5, p95, worst, best;
};
struct ev_dist ev_dist_of(double *v, int n, bool higher_is_worse);

/* One row of a study's claims.csv, which `make eval` gathers into the
 * claims table (tools/eval/claims.sh). fmt formats one value ("%.1f%%",
 * "%.2fx"); paper_case and d are ours; verdict: "pass", "FAIL" or "-"
 * (a figure, not a comparison with a baseline). Fields must not hold
 * a '|'. */
void ev_claim(FILE *f, const char *study, const char *claim,
	      const char *paper, const char *fmt, double paper_case,
	      const struct ev_dist *d, const char *baseline,
	      const char *verdict);
/* The baseline rule of issue 18: our default is not worse than the
 * baseline in the median, and at most `slack` worse in the worst case.
 * Values are "higher is better": a ratio baseline/ours (worse below 1)
 * when ratio, else percent less than the baseline (worse below 0). */
const char *ev_verdict(const struct ev_dist *d, bool ratio);
#define EV_SLACK_RATIO 0.97 /* "a few percent": 3% */
#define EV_SLACK_PCT (-3.0)

/* The Gen9 model on heap memory (evmodel.c): ggtt_entries GGTT entries,
 * an aperture of aperture_bytes, no DMA (nothing here runs commands). */
struct ev_model {
	struct gen9_model model;
	struct gpu_hw hw;
	uint32_t *regs;
	uint64_t *ggtt;
};
int ev_model_init(struct ev_model *em, uint32_t ggtt_entries,
		  uint64_t aperture_bytes);
void ev_model_fini(struct ev_model *em);

#endif
