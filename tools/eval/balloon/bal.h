/* The ballooning / placement study (tools/eval/balloon/README.md): every
 * GM policy of issue 7 on the same traces, over the real gpu/policy code
 * and the real gpu/gscale copy path on the Gen9 model's GGTT. */
#ifndef TOOLS_EVAL_BALLOON_BAL_H
#define TOOLS_EVAL_BALLOON_BAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpu/gscale/gscale.h"
#include "gpu/model/gen9_model.h"
#include "gpu/gballoon/balloon_policy.h"
#include "gpu/dymgpu/dymgpu_trigger.h"
#include "gpu/policy/monitor.h"
#include "gpu/policy/ncslots.h"
#include "tools/eval/common/evcommon.h"

/* ---- the platform (gBalloon Table 1 / §4, DymGPU Table I) ------------- */
#define MIB(n) ((uint32_t)((n) * 256u))	/* MiB of GM -> GGTT entries */
#define GGTT_ENTRIES MIB(4096)
#define APERTURE_BYTES (256ull << 20)
#define SLOT_MIB 64
#define SE MIB(SLOT_MIB)		/* entries per slot */
#define M_SLOTS 54			/* 3456 MiB of guest high GM */
#define LOW_MIB 64			/* every guest's low GM (overlapping) */
#define LOW_E MIB(LOW_MIB)
#define SLICE_NS 16000000ull		/* gVirt's 16 ms time slice */
#define HOST_CPUS 8			/* i7-6700: N of equation 1 */
#define VCPUS_PER_VM 2
#define MAX_VMS 16
#define MAX_PHASES 3
/* Cost of one GGTT entry copied on the paper's hardware: gScale-basic
 * copies 64 + 384 MiB = 114688 entries per switch and measured it as
 * 21.8% of the 16 ms a vGPU then owns the engine (gScale paper §5.4):
 * 3.49 ms / 114688 = 30.4 ns, an MMIO write to the GGTT. */
#define HW_NS_PER_ENTRY 30.4
#define HW_CYCLES_PER_US 3400		/* 3.4 GHz: R_copy in cycles */

/* ---- workloads (workload.c) -------------------------------------------- */
enum bench {
	B_NONE, B_VALLEY, B_LIGHTSMARK, B_OPENARENA, B_NEXUIZ, B_URBANTERROR,
	B_GNOME, B_MIDORI, B_FFAST, B_FFSCR, B_COUNT
};
enum bench_class { C_IDLE, C_VALLEY, C_3D, C_2D };

struct bench_info {
	const char *name;
	enum bench_class cls;
	uint32_t busy_permille;	/* share of 16 ms slices with GPU work */
	uint32_t gm_mib;	/* working set in high GM (Valley: scenes) */
	uint32_t cpu_millis;	/* CPU demand of the VM, thousandths */
};
extern const struct bench_info benches[B_COUNT];

struct phase {
	enum bench b;
	double start_s, len_s;
};

struct vm_spec {
	int nphases;
	struct phase ph[MAX_PHASES];
	double valley_scene_s;	/* Valley: seconds per scene */
	uint32_t cpu_millis;	/* CPU demand while it runs a benchmark,
				 * thousandths; 0: the benchmark's */
};

struct scenario {
	const char *name, *title;
	int n;
	struct vm_spec vm[MAX_VMS];
	double end_s;
};

/* What VM i runs at time t (B_NONE when idle), the GM its guest needs
 * (MiB), whether it has GPU work in the 16 ms slice containing t, and its
 * CPU demand (thousandths of a CPU). Deterministic: every policy replays
 * exactly this. */
enum bench wl_bench(const struct vm_spec *v, double t, int *phase);
uint32_t wl_demand_mib(const struct vm_spec *v, double t);
bool wl_busy(const struct vm_spec *v, int vm, double t);
uint32_t wl_cpu(const struct vm_spec *v, double t);

void scen_table2(struct scenario *s);		/* gBalloon Table 2 */
void scen_dym_set(struct scenario *s, int set);	/* DymGPU Table II */
void scen_valley_growth(struct scenario *s);	/* gBalloon figure 9 */
void scen_valley_n(struct scenario *s, int n);	/* gBalloon figure 5 */
/* alpha/beta, see sim.c: the copy worst case (15 x Valley at its
 * largest) and the CPU worst case (15 x Urbanterror). */
void scen_calibrate(struct scenario *s, bool cpu);

/* ---- the real gScale copy path (gsdrive.c) ----------------------------- */
/* One guest's high GM as one gScale vGPU per run of slots (the first also
 * holds its low GM); a switch copies through gscale_switch_to. */
#define GSD_MAX_RUNS 16
struct gsd {
	struct ev_model em;
	struct gscale gs;
	int n;
	int piece[MAX_VMS][GSD_MAX_RUNS];
	int npieces[MAX_VMS];
	uint64_t high_copied, all_copied, ticks;
};
int gsd_init(struct gsd *d);
void gsd_fini(struct gsd *d);
/* Creates VM vm's vGPU with `slots` slots where gScale's own placement
 * puts it; returns its first slot or a negative error. */
int gsd_add_auto(struct gsd *d, int vm, uint32_t slots);
/* Gives VM vm exactly this set (created if new). */
int gsd_set(struct gsd *d, int vm, const struct ncs_set *set);
/* The GGTT part of a switch to vm: returns high-GM entries copied (the
 * measured cycles and all entries accumulate in d). */
uint64_t gsd_switch(struct gsd *d, int vm);

/* ---- policies and runs (sim.c) ----------------------------------------- */
enum policy {
	POL_GVIRT384, POL_GVIRT1024, POL_GSCALE, POL_DYM_SIZE, POL_DYM_UTIL,
	POL_GBALLOON, POL_OURS, POL_COUNT
};
extern const char *const policy_names[POL_COUNT];

struct calib {
	uint64_t w_max, rcopy_max;	/* 1/alpha, 1/beta (0: defaults) */
	uint64_t guarantee_entries;	/* bpol_params' (0: default) */
};

struct vm_result {
	uint64_t slices, busy_slices;
	double useful_ms;		/* rendering time x efficiency */
	double phase_useful_ms[MAX_PHASES];
	uint64_t evictions;		/* busy slices short of GM */
	double evicted_mib;
	uint64_t requests, granted, taken;
	uint32_t final_slots, max_slots;
	/* What the run cost this VM-phase, in ms of its rendering (the
	 * stand-in's unit), for the check against gVirt-1024 (robust.c):
	 * short_ms: its slices lacked GM gVirt-1024 would have given
	 * (min(demand, 1024 MiB)), the ramp; copy_ms: wall time the GGTT
	 * copies took from it (each copy's time split over the VMs with
	 * work then) plus the CPU share the copies took from it. */
	double phase_short_ms[MAX_PHASES];
	double phase_copy_ms[MAX_PHASES];
};

struct run_result {
	enum policy pol;
	bool fits_unshared;		/* all VMs without sharing a slot */
	int fit_unshared;		/* how many would */
	uint64_t switches;
	uint64_t high_copied, low_copied;	/* entries at switches */
	uint64_t resize_copied;		/* entries copied at once because the
					 * vGPU on the engine was resized */
	uint64_t real_high_copied;	/* entries, counted in gpu/gscale */
	double measured_ticks;		/* rdtsc in gscale's switch copy */
	double resize_ticks;		/* ... and in copies after resizes */
	double hw_copy_ms;		/* modeled on hardware: x 30.4 ns */
	double wall_s;
	double shared_avg;		/* slots shared, time average */
	uint32_t shared_max;
	uint64_t evictions;
	double evicted_mib;
	uint64_t decisions, band[BPOL_BANDS], approved, rejected, shrunk;
	uint64_t replacements, moves, moved_entries;
	uint64_t max_runs;		/* ours: ranges one guest sees */
	uint64_t w_seen, r_seen;	/* largest W, R_copy of a period */
	struct vm_result vm[MAX_VMS];
};

/* Time series written while running (NULL: none). */
struct series {
	FILE *slots;		/* t vm slots demand_slots */
	FILE *decisions;	/* t f band approved shrunk */
	FILE *shared;		/* t shared */
	FILE *moves;		/* t vm from to slots entries (re-placements) */
};

int run_policy(const struct scenario *s, enum policy pol,
	       const struct calib *cal, struct series *ser,
	       struct run_result *out);
/* The paper's procedure for alpha and beta: the largest W and R_copy
 * this platform shows in its worst case (scen_calibrate, gVirt-1024). */
void calibrate(struct calib *cal);
/* The calibrated alpha/beta every run uses (main.c). */
extern struct calib cal_point;

/* ---- the score (main.c) and the adversarial set (robust.c) ------------ */
/* Mean over every VM-phase (of class cls, or all if cls < 0) of r's
 * performance stand-in relative to base's. */
double mean_norm(const struct scenario *s, const struct run_result *r,
		 const struct run_result *base, int cls);
/* gBalloon vs gVirt-384 (and gVirt-1024, ours) over many adversarial
 * mixes, and the alpha/beta sweep; r_t2 / r_t2_theory: Table 2's runs
 * (the paper's case). Claim rows to cl. */
void balloon_robust(FILE *md, FILE *cl, const struct scenario *t2,
		    const struct run_result *r_t2,
		    const struct run_result *r_t2_theory);


#endif
