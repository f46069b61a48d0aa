/* gBalloon over workloads we did not choose (issue 18): gBalloon and
 * gVirt-384 (the baseline it replaces), gVirt-1024 and ours on the same
 * traces, many seeds of adversarial mixes: Table 2's benchmarks shuffled
 * over the VMs and in time (random creation order), random mixes of 8-16
 * VMs, many Valleys, CPU-heavy games, Pareto on/off phases, 2D only.
 * Then alpha/beta swept around the calibrated point on Table 2, and the
 * theoretical maxima over the whole set. Every score is the stand-in of
 * sim.c (GM share x CPU share per 16 ms slice, copies take wall time),
 * relative to gVirt-384. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/eval/balloon/bal.h"

#define SEEDS 4
/* Seeds are seed_base .. seed_base + SEEDS - 1 per kind (env
 * EVAL_SEED_BASE, else 0): another base is a held-out run of the same
 * generators. */
static int seed_base;
#define MAX_END_S 240.0

enum kind { K_T2_SHUFFLED, K_RANDOM_MIX, K_VALLEYS, K_CPU_HEAVY, K_ONOFF,
	    K_2D_ONLY, K_CPU09, K_COUNT };
static const char *const kind_names[K_COUNT] = {
	"Table 2 shuffled (VMs, order in time)", "random mixes, 8-16 VMs",
	"3-15 Valleys, staggered", "CPU-heavy games, 15 VMs",
	"Pareto on/off phases, 10-16 VMs", "2D only, 15 VMs",
	"random mixes at 0.9 CPU per VM, 8-16 VMs (held-out style)",
};

static uint64_t rs;

static uint32_t rnd(uint32_t n)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return (uint32_t)(rs % n);
}

static double frand(void)
{
	return (rnd(1u << 30) + 0.5) / (double)(1u << 30);
}

static double pareto(double xm, double alpha, double cap)
{
	double x = xm / pow(frand(), 1.0 / alpha);

	return x > cap ? cap : x;
}

static double class_len(enum bench b)
{
	switch (benches[b].cls) {
	case C_VALLEY:
		return 60;
	case C_3D:
		return 45;
	default:
		return 30;
	}
}

static enum bench any_bench(void)
{
	return (enum bench)(B_VALLEY + rnd(B_COUNT - B_VALLEY));
}

/* Appends a phase of b at t (clipped to the end), returns its end. */
static double add_phase(struct vm_spec *v, enum bench b, double t, double len)
{
	if (v->nphases >= MAX_PHASES || t >= MAX_END_S)
		return t;
	if (t + len > MAX_END_S)
		len = MAX_END_S - t;
	v->ph[v->nphases++] = (struct phase){ b, t, len };
	if (b == B_VALLEY)
		v->valley_scene_s = len / 18;
	return t + len;
}

static void shuffle_vms(struct scenario *s)
{
	for (int i = s->n - 1; i > 0; i--) {
		int j = (int)rnd((uint32_t)i + 1);
		struct vm_spec x = s->vm[i];

		s->vm[i] = s->vm[j];
		s->vm[j] = x;
	}
}

static void make(struct scenario *s, enum kind k, int seed)
{
	static const enum bench games[] = { B_URBANTERROR, B_NEXUIZ,
					    B_OPENARENA, B_VALLEY };
	static const enum bench twod[] = { B_GNOME, B_MIDORI, B_FFAST,
					   B_FFSCR };
	double end = 0;

	rs = 0x9e3779b97f4a7c15ull * (uint64_t)(seed_base + seed + 1) +
	     (uint64_t)k * 7919;
	if (k == K_T2_SHUFFLED) {
		scen_table2(s);
		for (int i = 0; i < s->n; i++) {
			struct vm_spec *v = &s->vm[i];
			enum bench b[MAX_PHASES];
			double t = rnd(10);

			for (int p = 0; p < v->nphases; p++)
				b[p] = v->ph[p].b;
			for (int p = v->nphases - 1; p > 0; p--) {
				int j = (int)rnd((uint32_t)p + 1);
				enum bench x = b[p];

				b[p] = b[j];
				b[j] = x;
			}
			v->nphases = 0;
			for (int p = 0; p < 3; p++)
				t = add_phase(v, b[p], t, class_len(b[p]));
		}
	} else {
		memset(s, 0, sizeof(*s));
		s->n = k == K_RANDOM_MIX || k == K_CPU09 ? 8 + (int)rnd(9)
		       : k == K_VALLEYS  ? 3 + (int)rnd(13)
		       : k == K_ONOFF	 ? 10 + (int)rnd(7)
					 : 15;
		for (int i = 0; i < s->n; i++) {
			struct vm_spec *v = &s->vm[i];
			int nph = 1 + (int)rnd(MAX_PHASES);
			double t = rnd(20);

			switch (k) {
			case K_CPU09:
				v->cpu_millis = 900;
				__attribute__((fallthrough)); /* the same mixes */
			case K_RANDOM_MIX:
				for (int p = 0; p < nph; p++) {
					enum bench b = any_bench();

					t = add_phase(v, b, t, class_len(b) * (0.5 + frand())) +
					    rnd(10);
				}
				break;
			case K_VALLEYS:
				add_phase(v, B_VALLEY, rnd(30), 40 + rnd(41));
				break;
			case K_CPU_HEAVY:
				for (int p = 0; p < nph; p++) {
					enum bench b = games[rnd(4)];

					t = add_phase(v, b, t, class_len(b));
				}
				break;
			case K_ONOFF:
				for (int p = 0; p < MAX_PHASES; p++) {
					t += pareto(2, 1.2, 60);
					t = add_phase(v, any_bench(), t,
						      pareto(10, 1.5, 90));
				}
				break;
			default: /* K_2D_ONLY */
				for (int p = 0; p < nph; p++)
					t = add_phase(v, twod[rnd(4)], t, 30);
				break;
			}
		}
	}
	shuffle_vms(s);
	for (int i = 0; i < s->n; i++)
		for (int p = 0; p < s->vm[i].nphases; p++)
			if (s->vm[i].ph[p].start_s + s->vm[i].ph[p].len_s > end)
				end = s->vm[i].ph[p].start_s + s->vm[i].ph[p].len_s;
	s->name = kind_names[k];
	s->title = kind_names[k];
	s->end_s = end + 10;
}

static void run_or_die(const struct scenario *s, enum policy p,
		       const struct calib *cal, struct run_result *r)
{
	if (run_policy(s, p, cal, NULL, r)) {
		fprintf(stderr, "balloon robust: %s %s failed\n", s->name,
			policy_names[p]);
		exit(1);
	}
}

enum claim { C_GBALLOON, C_GB_THEORY, C_GB_1024, C_GB_1024_COST,
	     C_TH_1024_COST, C_PAPER, C_PAPER_1024, C_OURS, C_COUNT };
static const struct {
	const char *what, *paper, *baseline;
	bool compare;
} claims[C_COUNT] = {
	[C_GBALLOON] = { "gBalloon vs gVirt-384: performance stand-in "
			 "(modelled), mean over VM-benchmarks",
			 "+8% (Table 2)", "gVirt-384", true },
	[C_GB_THEORY] = { "gBalloon, alpha/beta at the theoretical maxima "
			  "(the hypervisor's default without hv.cfg values), "
			  "vs gVirt-384", "-", "gVirt-384", true },
	[C_GB_1024] = { "gBalloon vs gVirt-1024 (modelled; the guarantee: "
			"behind only by its ramp and copies)", "+32% (Table 2)",
			"-", false },
	[C_GB_1024_COST] = { "gBalloon vs gVirt-1024 with the run's own "
			     "measured cost credited back (rendering summed "
			     "over the VMs; cost: slices short of gVirt-1024's "
			     "GM, i.e. the ramp, and copy wait and CPU beyond "
			     "gVirt-1024's; modelled); verdict: every run >= "
			     "1.000x, never worse by more than its cost",
			     "- (issue 31)", "gVirt-1024", true },
	[C_TH_1024_COST] = { "the same check with alpha/beta at the "
			     "theoretical maxima (the hypervisor's default "
			     "without hv.cfg values)", "- (issue 31)",
			     "gVirt-1024", true },
	[C_PAPER] = { "gBalloon as published (no guarantee) vs gVirt-384 "
		      "(modelled)", "+8% (Table 2)", "-", false },
	[C_PAPER_1024] = { "gBalloon as published (no guarantee) vs "
			   "gVirt-1024 (modelled)", "+32% (Table 2)", "-",
			   false },
	[C_OURS] = { "ours (non-contiguous slots) vs gVirt-384 (modelled)",
		     "-", "-", false },
};

/* gBalloon's guarantee against gVirt-1024 (issue 31: "never worse than
 * gVirt-1024 by more than its measured cost"), per run, in ms of
 * rendering summed over the run's VMs: gBalloon's rendering plus what
 * the run measured it cost (slices short of the GM gVirt-1024 would have
 * given: the ramp; copy wait and the copies' CPU share beyond
 * gVirt-1024's own), over gVirt-1024's rendering. >= 1: behind by no
 * more than that cost. Summed, not per VM-benchmark: a copy's wait is
 * exact for the round robin as a whole, while which VM it displaced
 * depends on the busy slices its shift lands on (the trace is hashed
 * by wall-clock slice, sim.c), which can move a slice or two from one
 * VM to another. */
static double credited_vs_1024(const struct scenario *s,
			       const struct run_result *gb,
			       const struct run_result *g1024)
{
	double u = 0, u1024 = 0, cost = 0, copy = 0, copy1024 = 0;

	for (int vm = 0; vm < s->n; vm++)
		for (int ph = 0; ph < s->vm[vm].nphases; ph++) {
			u += gb->vm[vm].phase_useful_ms[ph];
			u1024 += g1024->vm[vm].phase_useful_ms[ph];
			cost += gb->vm[vm].phase_short_ms[ph];
			copy += gb->vm[vm].phase_copy_ms[ph];
			copy1024 += g1024->vm[vm].phase_copy_ms[ph];
		}
	cost += copy > copy1024 ? copy - copy1024 : 0;
	return u1024 > 0 ? (u + cost) / u1024 : 0;
}

/* gBalloon on Table 2 with alpha and beta scaled around the calibrated
 * point: the paper gives no values, so how much do they matter? */
static void sweep(FILE *md, const struct scenario *t2,
		  const struct run_result *base)
{
	static const double f[] = { 0.25, 0.5, 1, 2, 4 };
	static struct run_result r;

	fprintf(md, "\n### alpha/beta sweep (gBalloon, Table 2)\n\n"
		    "alpha = 1/W_max, beta = 1/R_copy_max. Rows scale W_max, "
		    "columns R_copy_max, around the calibrated point (W_max "
		    "%llu, R_copy max %llu permille); each cell: perf vs "
		    "gVirt-384 / high-GM entries per switch / evictions.\n\n"
		    "| W_max \\ R_copy max |", (unsigned long long)cal_point.w_max,
		(unsigned long long)cal_point.rcopy_max);
	for (unsigned j = 0; j < 5; j++)
		fprintf(md, " x%.2g |", f[j]);
	fprintf(md, "\n|---|---:|---:|---:|---:|---:|\n");
	for (unsigned i = 0; i < 5; i++) {
		fprintf(md, "| x%.2g |", f[i]);
		for (unsigned j = 0; j < 5; j++) {
			struct calib c = {
				.w_max = (uint64_t)(cal_point.w_max * f[i]),
				.rcopy_max = (uint64_t)(cal_point.rcopy_max * f[j]),
			};

			c.w_max += !c.w_max;
			c.rcopy_max += !c.rcopy_max;
			run_or_die(t2, POL_GBALLOON, &c, &r);
			fprintf(md, " %.3f / %.0f / %llu |",
				mean_norm(t2, &r, base, -1),
				r.switches ? (double)r.high_copied / r.switches : 0,
				(unsigned long long)r.evictions);
		}
		fprintf(md, "\n");
	}
}

void balloon_robust(FILE *md, FILE *cl, const struct scenario *t2,
		    const struct run_result *r_t2,
		    const struct run_result *r_t2_theory)
{
	static double vals[C_COUNT][K_COUNT * SEEDS];
	static double kv[K_COUNT][4][SEEDS];
	static struct scenario s;
	static struct run_result r[POL_COUNT], th, pub;
	struct calib cal_pub = cal_point;
	double paper[C_COUNT];
	int n = 0, loses = 0, flat = 0, flat_pub = 0;
	/* Runs with GM contention to relieve (a VM short of GM under
	 * gVirt-384), and among them those gBalloon gained nothing in. */
	int contended = 0, idle_c = 0, idle_c_pub = 0;
	/* Runs behind gVirt-1024 by more than their measured cost. */
	int over_cost = 0, over_cost_th = 0;
	/* The run furthest behind gVirt-1024 and what it paid there. */
	struct { double v; int k, seed, vms; uint64_t ev, ev1024;
		 double cps, cps1024, hw_ms, hw_ms1024, credited; } w1024 = { .v = 1e9 };

	cal_pub.guarantee_entries = BPOL_NO_GUARANTEE;
	seed_base = getenv("EVAL_SEED_BASE") ? atoi(getenv("EVAL_SEED_BASE")) : 0;

	paper[C_GBALLOON] = mean_norm(t2, &r_t2[POL_GBALLOON], &r_t2[POL_GVIRT384], -1);
	paper[C_GB_THEORY] = mean_norm(t2, r_t2_theory, &r_t2[POL_GVIRT384], -1);
	paper[C_GB_1024] = mean_norm(t2, &r_t2[POL_GBALLOON], &r_t2[POL_GVIRT1024], -1);
	paper[C_GB_1024_COST] = credited_vs_1024(t2, &r_t2[POL_GBALLOON],
						 &r_t2[POL_GVIRT1024]);
	paper[C_TH_1024_COST] = credited_vs_1024(t2, r_t2_theory,
						 &r_t2[POL_GVIRT1024]);
	paper[C_OURS] = mean_norm(t2, &r_t2[POL_OURS], &r_t2[POL_GVIRT384], -1);
	run_or_die(t2, POL_GBALLOON, &cal_pub, &pub);
	paper[C_PAPER] = mean_norm(t2, &pub, &r_t2[POL_GVIRT384], -1);
	paper[C_PAPER_1024] = mean_norm(t2, &pub, &r_t2[POL_GVIRT1024], -1);
	for (int k = 0; k < K_COUNT; k++)
		for (int seed = 0; seed < SEEDS; seed++) {
			make(&s, (enum kind)k, seed);
			run_or_die(&s, POL_GVIRT384, &cal_point, &r[POL_GVIRT384]);
			run_or_die(&s, POL_GVIRT1024, &cal_point, &r[POL_GVIRT1024]);
			run_or_die(&s, POL_GBALLOON, &cal_point, &r[POL_GBALLOON]);
			run_or_die(&s, POL_OURS, &cal_point, &r[POL_OURS]);
			run_or_die(&s, POL_GBALLOON, NULL, &th);
			run_or_die(&s, POL_GBALLOON, &cal_pub, &pub);
			vals[C_PAPER][n] = mean_norm(&s, &pub, &r[POL_GVIRT384], -1);
			vals[C_PAPER_1024][n] = mean_norm(&s, &pub, &r[POL_GVIRT1024], -1);
			vals[C_GBALLOON][n] = mean_norm(&s, &r[POL_GBALLOON], &r[POL_GVIRT384], -1);
			vals[C_GB_THEORY][n] = mean_norm(&s, &th, &r[POL_GVIRT384], -1);
			vals[C_GB_1024][n] = mean_norm(&s, &r[POL_GBALLOON], &r[POL_GVIRT1024], -1);
			vals[C_GB_1024_COST][n] = credited_vs_1024(&s, &r[POL_GBALLOON],
								   &r[POL_GVIRT1024]);
			vals[C_OURS][n] = mean_norm(&s, &r[POL_OURS], &r[POL_GVIRT384], -1);
			vals[C_TH_1024_COST][n] = credited_vs_1024(&s, &th,
								   &r[POL_GVIRT1024]);
			over_cost += vals[C_GB_1024_COST][n] < 1.0;
			over_cost_th += vals[C_TH_1024_COST][n] < 1.0;
			kv[k][0][seed] = vals[C_GBALLOON][n];
			kv[k][1][seed] = vals[C_OURS][n];
			kv[k][2][seed] = vals[C_GB_1024][n];
			if (vals[C_GB_1024][n] < w1024.v) {
				const struct run_result *a = &r[POL_GBALLOON];
				const struct run_result *b = &r[POL_GVIRT1024];

				w1024.v = vals[C_GB_1024][n];
				w1024.k = k;
				w1024.seed = seed_base + seed;
				w1024.credited = vals[C_GB_1024_COST][n];
				w1024.vms = s.n;
				w1024.ev = a->evictions;
				w1024.ev1024 = b->evictions;
				w1024.cps = a->switches ? (double)a->high_copied / a->switches : 0;
				w1024.cps1024 = b->switches ? (double)b->high_copied / b->switches : 0;
				w1024.hw_ms = a->hw_copy_ms;
				w1024.hw_ms1024 = b->hw_copy_ms;
			}
			kv[k][3][seed] = vals[C_PAPER][n];
			loses += vals[C_GBALLOON][n] < 1;
			/* "exactly 1.000x": no gain at all over gVirt-384 */
			flat += fabs(vals[C_GBALLOON][n] - 1) < 0.0005;
			flat_pub += fabs(vals[C_PAPER][n] - 1) < 0.0005;
			if (r[POL_GVIRT384].evictions) {
				contended++;
				idle_c += vals[C_GBALLOON][n] < 1.0005;
				idle_c_pub += vals[C_PAPER][n] < 1.0005;
			}
			fprintf(stderr, "  robust %-40s seed %d: %2d VMs, %.0f s, "
					"gBalloon %.3f (published %.3f) ours %.3f "
					"(vs gVirt-384), gBalloon vs gVirt-1024 %.3f "
					"(cost credited %.4f)\n",
				kind_names[k], seed_base + seed, s.n, s.end_s,
				vals[C_GBALLOON][n], vals[C_PAPER][n],
				vals[C_OURS][n], vals[C_GB_1024][n],
				vals[C_GB_1024_COST][n]);
			n++;
		}
	fprintf(md, "\n## Beyond the paper's case: %d adversarial runs\n\n", n);
	fprintf(md, "Kinds (%d seeds each, seeds %d..%d (EVAL_SEED_BASE=%d); "
		    "VMs in random creation order): ", SEEDS, seed_base,
		seed_base + SEEDS - 1, seed_base);
	for (int k = 0; k < K_COUNT; k++)
		fprintf(md, "%s%s", kind_names[k], k + 1 < K_COUNT ? "; " : ".\n");
	fprintf(md, "Every policy replays the same trace. Values: the modelled "
		    "performance stand-in relative to the row's baseline "
		    "(1.000 = equal; higher is better).\n\n");
	fprintf(md, "| claim | paper | ours, paper's case | median | p5 | p95 | "
		    "worst | baseline | verdict |\n|---|---|---:|---:|---:|---:|"
		    "---:|---|---|\n");
	for (int c = 0; c < C_COUNT; c++) {
		struct ev_dist d = ev_dist_of(vals[c], n, false);
		const char *v = claims[c].compare ? ev_verdict(&d, true) : "-";

		/* The guarantee has no slack: every run within its cost. */
		if (c == C_GB_1024_COST)
			v = over_cost ? "FAIL" : "pass";
		if (c == C_TH_1024_COST)
			v = over_cost_th ? "FAIL" : "pass";

		fprintf(md, "| %s | %s | %.3fx | %.3fx | %.3fx | %.3fx | %.3fx | "
			    "%s | %s |\n", claims[c].what, claims[c].paper,
			paper[c], d.med, d.p5, d.p95, d.worst,
			claims[c].baseline, v);
		ev_claim(cl, "gBalloon", claims[c].what, claims[c].paper,
			 "%.3fx", paper[c], &d, claims[c].baseline, v);
	}
	fprintf(md, "\ngBalloon below gVirt-384 in %d of %d runs; exactly "
		    "1.000x (no gain at all) in %d, the published policy in %d. "
		    "Runs with GM contention to relieve (a VM short of GM under "
		    "gVirt-384): %d; gBalloon gained nothing in %d of them, the "
		    "published policy in %d. Per kind (median of %d seeds, worst in brackets):\n\n| kind | "
		    "gBalloon vs gVirt-384 | published vs gVirt-384 | gBalloon "
		    "vs gVirt-1024 | ours vs gVirt-384 |\n|---|---:|---:|---:|---:|\n",
		loses, n, flat, flat_pub, contended, idle_c, idle_c_pub, SEEDS);
	for (int k = 0; k < K_COUNT; k++) {
		struct ev_dist a = ev_dist_of(kv[k][0], SEEDS, false);
		struct ev_dist b = ev_dist_of(kv[k][1], SEEDS, false);
		struct ev_dist c = ev_dist_of(kv[k][2], SEEDS, false);
		struct ev_dist p = ev_dist_of(kv[k][3], SEEDS, false);

		fprintf(md, "| %s | %.3fx (%.3fx) | %.3fx (%.3fx) | %.3fx "
			    "(%.3fx) | %.3fx (%.3fx) |\n", kind_names[k],
			a.med, a.worst, p.med, p.worst, c.med, c.worst,
			b.med, b.worst);
	}
	fprintf(md, "\nFurthest behind gVirt-1024: %s seed %d (%d VMs), %.3fx. "
		    "What gBalloon paid there: %llu busy slices short of GM "
		    "(gVirt-1024: %llu; its one-slot-per-period ramp from 384 "
		    "MiB), %.0f high-GM entries copied per switch (gVirt-1024: "
		    "%.0f), %.0f ms of modelled copying (gVirt-1024: %.0f); "
		    "with that cost credited back %.4fx. Runs behind "
		    "gVirt-1024 by more than their own measured cost: %d of "
		    "%d (%d with alpha/beta at the theoretical maxima).\n",
		kind_names[w1024.k], w1024.seed, w1024.vms, w1024.v,
		(unsigned long long)w1024.ev, (unsigned long long)w1024.ev1024,
		w1024.cps, w1024.cps1024, w1024.hw_ms, w1024.hw_ms1024,
		w1024.credited, over_cost, n, over_cost_th);
	sweep(md, t2, &r_t2[POL_GVIRT384]);
}
