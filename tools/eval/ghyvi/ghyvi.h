/* gHyvi study: what ghyvi_eval.c (traces, the world, one replay) shares
 * with ghyvi_dist.c (the claims over many seeds and adversarial traces). */
#ifndef TOOLS_EVAL_GHYVI_GHYVI_H
#define TOOLS_EVAL_GHYVI_GHYVI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu/vgpu/vgpu_priv.h"

#define MiB (1ull << 20)
#define NPT 512          /* page-table pages (the paper's 512, Fig. 6) */
#define POOL 1024        /* data pages the entries point at */
#define REPS 3
/* Exit costs measured in Bochs by `make bench` (README.md, "Measured: the
 * VM-exit path and the vGPU paths"; build/bench/exits.md). Bochs advances
 * the TSC per instruction, so these are instructions of our code paths. */
#define BOCHS_PTE_TRAP_TICKS 3470.0   /* strict PTE store, whole round trip */
#define BOCHS_DECODED_EXIT_TICKS 2021.0 /* decoded MMIO exit, no mediator work */
/* The mediator's share of a PTE trap, the part the host also runs. */
#define BOCHS_MEDIATOR_TICKS (BOCHS_PTE_TRAP_TICKS - BOCHS_DECODED_EXIT_TICKS)
#define C_EPT_NS 1000.0  /* per EPT permission change (+ INVEPT): assumed */
/* ns per trapped store besides the mediator's own work: the Bochs exit
 * path converted to host time with the ratio host ns / Bochs ticks of
 * the mediator's PTE-trap handling (set by calibrate_exit_cost). */


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
#define NVAR 11

struct result {
	uint64_t traps, wp, relaxed, recon_pages, recon_entries, compared;
	uint64_t ns_host[REPS], ns_med;
	uint64_t verify_runs, verify_bad;
	double model_ns;
};

extern double c_exit_ns, ns_per_bochs_tick;
void calibrate_exit_cost(const struct result *strict_heavy);

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

/* ghyvi_dist.c: the claims over seeds and adversarial traces. */
/* heavy: the paper's case (gmedia-heavy) results of every variant. */
void ghyvi_dist(const char *dir, FILE *md, const struct result *heavy);

#endif
