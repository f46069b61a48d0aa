/* gHyvi study: what ghyvi_eval.c (traces, the world, one replay) shares
 * with ghyvi_dist.c (the claims over many seeds and adversarial traces). */
#ifndef TOOLS_EVAL_GHYVI_GHYVI_H
#define TOOLS_EVAL_GHYVI_GHYVI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu/ghyvi/ghyvi_priv.h"

#define MiB (1ull << 20)
#define NPT 512          /* page-table pages (the paper's 512, Fig. 6) */
#define POOL 1024        /* data pages the entries point at */
#define REPS 3           /* host-time repetitions (medians, spread) */

/* The cost model: every count of a replay times a unit cost, in Bochs
 * instructions (make bench, build/bench/exits.md: Bochs advances the TSC
 * per instruction). The same costs drive the ADAPTIVE policy. Loaded from
 * exits.md when given, else the policy's defaults (recorded from it). */
extern struct vgpu_ghyvi_costs unit;
extern char unit_source[256];
/* What ADAPTIVE's decision adds to each trap, Bochs instructions: from
 * exits.md's blit rounds (strict vs adaptive, BLIT_PTES trapped stores a
 * round, none relaxed), else the value recorded from it. */
extern uint32_t adapt_overhead;
#define BLIT_PTES 4
#define ADAPT_OVERHEAD 10u
void load_costs(const char *exits_md);

static const struct vgpu_type vtype = { "eval", 16 * MiB, 64 * MiB, 2, 1 };

/* ---- traces ------------------------------------------------------------ */

struct ev {
	uint64_t t; /* ns */
	uint16_t page, entry, len; /* len 0: a submission */
	uint32_t seed;
};

struct trace {
	const char *name, *desc;
	struct ev *ev;
	size_t n, cap;
	uint64_t updates, submits;
	uint32_t per_page[NPT];
};

struct variant {
	const char *name;
	enum vgpu_ppgtt_policy pol;
	uint32_t static_pages, relax_traps, cool_rounds;
	bool no_backoff;
};
extern const struct variant variants[];
#define NVAR 12
#define V_STRICT 0
#define V_FIRST 7    /* dyn-seg, paper: relax at the 1st trap */
#define V_OLD 10     /* dyn-seg with back-off: the default until issue 18 */
#define V_ADAPTIVE 11 /* per table, by cost: gHyvi's default */

struct result {
	uint64_t traps, wp, relaxed, snapshots, recon_pages, recon_entries,
		compared;
	uint64_t ns_host[REPS], ns_med;
	uint64_t verify_runs, verify_bad;
	bool adaptive; /* its traps carry adapt_overhead */
	double cost; /* the model: Bochs instructions */
};

/* Counts x unit costs c. */
double model_cost(const struct result *r, const struct vgpu_ghyvi_costs *c);

void trace_push(struct trace *t, struct ev e);
int trace_cmp_ev(const void *a, const void *b);
void gen(struct trace *t, const char *name, const char *desc,
	 uint64_t dur_ns, uint64_t target_updates, int lo, int hi,
	 int short_max, int long_min, int long_max, double long_frac,
	 uint64_t submit_ns);
/* One replay of t under var into r (r->ns_host[rep] when rep >= 0); only
 * events up to limit_ns; verify: the test-mode verifier at every
 * submission. */
void replay(const struct trace *t, const struct variant *var,
	    struct result *r, int rep, uint64_t limit_ns, bool verify);
/* The same, the ADAPTIVE policy deciding with costs c. */
void replay_costs(const struct trace *t, const struct variant *var,
		  const struct vgpu_ghyvi_costs *c, struct result *r);

/* ghyvi_dist.c: the claims over seeds and adversarial traces. */
/* heavy: the paper's case (gmedia-heavy) results of every variant. */
void ghyvi_dist(const char *dir, FILE *md, const struct result *heavy);

#endif
