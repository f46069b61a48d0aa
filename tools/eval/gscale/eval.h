/* gScale evaluation harness: trace-driven runs of the real gpu/gscale code
 * over the Gen9 model's GGTT (see tools/eval/gscale/README.md). */
#ifndef TOOLS_EVAL_GSCALE_EVAL_H
#define TOOLS_EVAL_GSCALE_EVAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu/gscale/gscale.h"
#include "gpu/model/gen9_model.h"
#include "tools/eval/common/evcommon.h"

#define MIB(n) ((uint32_t)((n) * 256u)) /* MiB of GM -> GGTT entries */
#define GGTT_ENTRIES MIB(4096)
#define APERTURE_BYTES (256ull << 20)
#define SLOT_MIB 64
#define VGPU_LOW_MIB 64
#define VGPU_HIGH_MIB 384
#define SLICE_MS 16
#define SIM_SECONDS 10

struct gscale_params layout(bool sharing, bool predictive);

/* Workload profiles (per VM). */
enum profile { P_3D, P_VALLEY, P_2D, P_IDLE, P_CPU, P_COUNT };
extern const char *const profile_names[P_COUNT];
/* Busy in this slice? (deterministic in vm and slice). */
bool profile_busy(enum profile p, int vm, int slice);
/* GGTT entries the guest (re)writes in this slice, as a fraction of its
 * GM in per-mille, and how much of its GM is in use (per-mille). */
uint32_t profile_writes_permille(enum profile p, int slice);

enum policy { POL_GVIRT, POL_BASIC, POL_GSCALE, POL_PREDICT, POL_COUNT };
extern const char *const policy_names[POL_COUNT];

struct run_result {
	bool fits;           /* all vGPUs could be created */
	int vgpus;
	uint64_t switches;
	uint64_t copied;     /* entries on the switch path */
	uint64_t prefetched; /* entries copied ahead */
	uint64_t copy_ticks; /* TSC ticks in gscale_switch_to's copying */
	uint64_t guest_writes;
};

/* Runs SIM_SECONDS of scheduling for n VMs with the given profiles under
 * one policy; profiles[i] for VM i. */
int run_policy(enum policy pol, int n, const enum profile *profiles,
	       struct run_result *out);

/* The same replay through the whole mediator (mediator.c). */
struct med_result {
	bool fits;              /* all n vGPUs created */
	int supported;          /* vGPUs of this type the mediator allows */
	uint64_t switches, copied, prefetched;
	uint64_t switch_ticks;  /* TSC ticks in the whole switch */
	uint64_t copy_ticks;    /* ... of which copying GGTT entries */
	uint64_t med_switch_ticks, med_copy_ticks, med_entries; /* medians */
	uint64_t guest_writes, ladder_updates, foreign_maps;
};
/* When set: med_run writes "switch copy%-of-slice entries" per switch,
 * then two blank lines (a gnuplot data block). */
extern FILE *med_series;
int med_run(enum policy pol, int n, const enum profile *profiles,
	    struct med_result *out);

/* copybench.c: the copy path against memcpy, a Markdown section and its
 * claim rows (cl may be NULL). */
void copy_bench(FILE *md, FILE *cl);
/* robust.c: every claim over many seeds and adversarial workloads; the
 * claim rows go to cl (evcommon.h ev_claim). */
void robust_study(const char *dir, FILE *md, FILE *cl);

#endif
