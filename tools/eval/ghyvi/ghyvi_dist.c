/* gHyvi's claims over traces we did not choose (issue 18): strict, the
 * paper's first-trap policy, the old default and the adaptive default on
 * many seeds of the media shapes and on adversarial ones (uniform short
 * bursts, scattered single stores, Pareto burst lengths, a hot band that
 * moves, rare 3D/2D updates). For each claim: the paper's figure, ours on
 * the paper's case (gmedia-heavy, 10 s) and median / p5 / p95 / worst
 * over the set; the model is deterministic (counts x Bochs unit costs),
 * so one replay per trace and policy. Sensitivity: the same with the
 * EPT change 4x dearer and the trap 1,500 instructions dearer (what
 * Bochs does not count on hardware), the adaptive policy deciding with
 * those costs. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/eval/common/evcommon.h"
#include "tools/eval/ghyvi/ghyvi.h"

#define DUR 2000000000ull /* 2 s per trace */
#define SEEDS 5

enum kind { K_HEAVY, K_MODERATE, K_3D, K_2D, K_SHORT, K_SCATTER, K_PARETO,
	    K_ROTATE, K_COUNT };
static const char *const kind_names[K_COUNT] = {
	"media heavy", "media moderate", "3D sparse", "2D rare",
	"uniform short bursts (1-8 entries on any page)",
	"scattered single stores", "Pareto burst lengths",
	"hot band moving every 200 ms",
};

static uint64_t rs;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static double frand(void)
{
	return ((double)(rnd() >> 11) + 0.5) / (double)(1ull << 53);
}

/* Bursts whose length and page come from the kind; a submission every
 * 2 ms. */
static void gen_custom(struct trace *t, enum kind k, uint64_t updates)
{
	uint64_t done = 0;

	memset(t, 0, sizeof(*t));
	t->name = kind_names[k];
	t->desc = kind_names[k];
	for (uint64_t s = 2000000; s <= DUR; s += 2000000)
		trace_push(t, (struct ev){ s, 0, 0, 0, 0 });
	while (done < updates) {
		uint64_t at = rnd() % DUR;
		int page, len;

		if (k == K_PARETO) {
			double x = 1.0 / pow(frand(), 1.0 / 1.1);

			len = x > 512 ? 512 : (int)x;
			page = 100 + (int)(rnd() % 300);
		} else { /* K_ROTATE: 40 hot pages, moved every 200 ms */
			uint64_t phase = at / 200000000ull;

			len = 8 + (int)(rnd() % 57);
			page = (int)((phase * 97 + rnd() % 40) % NPT);
		}
		int first = (int)(rnd() % (uint64_t)(512 - len + 1));

		trace_push(t, (struct ev){ at, (uint16_t)page, (uint16_t)first,
					   (uint16_t)len, (uint32_t)rnd() });
		done += (uint64_t)len;
	}
	qsort(t->ev, t->n, sizeof(*t->ev), trace_cmp_ev);
}

static void make_trace(struct trace *t, enum kind k)
{
	const char *n = kind_names[k];

	switch (k) {
	case K_HEAVY:
		gen(t, n, n, DUR, 125000, 150, 320, 8, 32, 256, 0.5, 2000000);
		break;
	case K_MODERATE:
		gen(t, n, n, DUR, 12000, 150, 320, 8, 16, 64, 0.3, 4000000);
		break;
	case K_3D:
		gen(t, n, n, DUR, 400, 0, 100, 2, 2, 2, 0.0, 4000000);
		break;
	case K_2D:
		gen(t, n, n, DUR, 40, 0, 60, 1, 1, 1, 0.0, 16000000);
		break;
	case K_SHORT:
		gen(t, n, n, DUR, 20000, 0, NPT - 1, 8, 8, 8, 0.0, 2000000);
		break;
	case K_SCATTER:
		gen(t, n, n, DUR, 5000, 0, NPT - 1, 1, 1, 1, 0.0, 2000000);
		break;
	case K_PARETO:
		gen_custom(t, k, 50000);
		break;
	default:
		gen_custom(t, k, 60000);
		break;
	}
}

static const int vi[4] = { V_STRICT, V_FIRST, V_OLD, V_ADAPTIVE };
#define NV 4

enum claim { C_COST_DEF, C_TRAPS_DEF, C_COST_FIRST, C_COST_OLD,
	     C_DEF_VS_FIRST, C_SENS_EPT, C_SENS_EXIT, C_COUNT };
static const struct {
	const char *what, *paper, *fmt, *baseline;
	bool compare; /* a baseline comparison with a verdict */
} claims[C_COUNT] = {
	[C_COST_DEF] = { "gHyvi default (adaptive): modelled cost, strict / ours",
			 "up to 13x performance (GMedia)", "%.2fx", "strict (gVirt)", true },
	[C_TRAPS_DEF] = { "gHyvi default: fewer PTE traps than strict",
			  "up to 69% fewer VM exits (all exits)", "%.1f%%", "-", false },
	[C_COST_FIRST] = { "paper's first-trap dyn-seg: strict / it", "(the paper's policy)",
			   "%.2fx", "-", false },
	[C_COST_OLD] = { "old default (dyn-seg back-off): strict / it", "-", "%.2fx", "-", false },
	[C_DEF_VS_FIRST] = { "adaptive vs first-trap: first-trap's cost / ours",
			     "-", "%.2fx", "first-trap", true },
	[C_SENS_EPT] = { "sensitivity, EPT change x4: strict / adaptive", "-", "%.2fx",
			 "strict (gVirt)", true },
	[C_SENS_EXIT] = { "sensitivity, trap +1500 (VMX transition): strict / adaptive",
			  "-", "%.2fx", "strict (gVirt)", true },
};

static void claims_of(const struct result *r, const struct result *ept4,
		      const struct result *exit15, double *v)
{
	const struct result *st = &r[V_STRICT], *d = &r[V_ADAPTIVE],
			    *f = &r[V_FIRST], *o = &r[V_OLD];
	struct vgpu_ghyvi_costs ce = unit, cx = unit;

	ce.ept *= 4;
	cx.trap += 1500;
	v[C_COST_DEF] = st->cost / d->cost;
	v[C_TRAPS_DEF] = st->traps ? 100.0 * (1 - (double)d->traps / st->traps) : 0;
	v[C_COST_FIRST] = st->cost / f->cost;
	v[C_COST_OLD] = st->cost / o->cost;
	v[C_DEF_VS_FIRST] = f->cost / d->cost;
	v[C_SENS_EPT] = ept4 ? model_cost(st, &ce) / model_cost(ept4, &ce) : 0;
	v[C_SENS_EXIT] = exit15 ? model_cost(st, &cx) / model_cost(exit15, &cx) : 0;
}

void ghyvi_dist(const char *dir, FILE *md, const struct result *heavy)
{
	static double vals[C_COUNT][K_COUNT * SEEDS];
	static double kind_v[K_COUNT][3][SEEDS];
	struct vgpu_ghyvi_costs ce = unit, cx = unit;
	double paper[C_COUNT];
	int n = 0, def_loses = 0, def_loses1 = 0, first_loses = 0;
	FILE *csv = ev_open_out(dir, "ghyvi_dist.csv");
	FILE *cl = ev_open_out(dir, "claims.csv");
	int seed_base = getenv("EVAL_SEED_BASE") ? atoi(getenv("EVAL_SEED_BASE")) : 0;

	ce.ept *= 4;
	cx.trap += 1500;
	fprintf(csv, "kind,seed,updates,variant,traps,wp_changes,snapshots,pages_diffed,entries,cost_minstr\n");
	claims_of(heavy, NULL, NULL, paper);
	for (int k = 0; k < K_COUNT; k++) {
		for (int seed = 0; seed < SEEDS; seed++) {
			struct result r[NVAR], ept4 = { 0 }, exit15 = { 0 };
			struct trace t;
			double v[C_COUNT];

			memset(r, 0, sizeof(r));
			/* EVAL_SEED_BASE = 0: the seeds of earlier runs; any
			 * other base: a held-out set, none shared with 0's. */
			rs = 0x2545f4914f6cdd1dull *
			     (uint64_t)(k * SEEDS + seed + 1 +
					seed_base * K_COUNT * SEEDS);
			make_trace(&t, (enum kind)k);
			for (int i = 0; i < NV; i++) {
				const struct result *x = &r[vi[i]];

				replay(&t, &variants[vi[i]], &r[vi[i]], 0, ~0ull, false);
				fprintf(csv, "%s,%d,%llu,%s,%llu,%llu,%llu,%llu,%llu,%.3f\n",
					kind_names[k], seed_base + seed,
					(unsigned long long)t.updates,
					variants[vi[i]].name, (unsigned long long)x->traps,
					(unsigned long long)x->wp, (unsigned long long)x->snapshots,
					(unsigned long long)x->recon_pages,
					(unsigned long long)x->recon_entries, x->cost / 1e6);
			}
			replay_costs(&t, &variants[V_ADAPTIVE], &ce, &ept4);
			replay_costs(&t, &variants[V_ADAPTIVE], &cx, &exit15);
			free(t.ev);
			claims_of(r, &ept4, &exit15, v);
			def_loses += v[C_COST_DEF] < 1.0;
			def_loses1 += v[C_COST_DEF] < 0.99;
			first_loses += v[C_COST_FIRST] < 1.0;
			kind_v[k][0][seed] = v[C_COST_DEF];
			kind_v[k][1][seed] = v[C_COST_FIRST];
			kind_v[k][2][seed] = v[C_COST_OLD];
			for (int c = 0; c < C_COUNT; c++)
				vals[c][n] = v[c];
			n++;
		}
	}
	fclose(csv);
	fprintf(md, "\n## Distributions: %d traces beyond the paper's case\n\n", n);
	fprintf(md, "Kinds (%d seeds each, seeds %d..%d (EVAL_SEED_BASE=%d), "
		    "2 s per trace): ", SEEDS, seed_base, seed_base + SEEDS - 1,
		seed_base);
	for (int k = 0; k < K_COUNT; k++)
		fprintf(md, "%s%s", kind_names[k], k + 1 < K_COUNT ? "; " : ".\n");
	fprintf(md, "Modelled cost as above (counts x Bochs unit costs; deterministic). `worst` is the lowest\n"
		    "value. Per-run counts in `ghyvi_dist.csv`. The sensitivity rows re-run the adaptive\n"
		    "policy with the dearer costs (it decides with them) and charge strict the same.\n\n");
	fprintf(md, "| claim | paper | ours, paper's case | median | p5 | p95 | worst | baseline | verdict |\n"
		    "|---|---|---:|---:|---:|---:|---:|---|---|\n");
	for (int c = 0; c < C_COUNT; c++) {
		struct ev_dist d = ev_dist_of(vals[c], n, false);
		const char *verdict = claims[c].compare ? ev_verdict(&d, true) : "-";
		double pc = c == C_SENS_EPT || c == C_SENS_EXIT ? NAN : paper[c];

		fprintf(md, "| %s | %s | ", claims[c].what, claims[c].paper);
		if (isnan(pc))
			fprintf(md, "-");
		else
			fprintf(md, claims[c].fmt, pc);
		fprintf(md, " | ");
		fprintf(md, claims[c].fmt, d.med);
		fprintf(md, " | ");
		fprintf(md, claims[c].fmt, d.p5);
		fprintf(md, " | ");
		fprintf(md, claims[c].fmt, d.p95);
		fprintf(md, " | ");
		fprintf(md, claims[c].fmt, d.worst);
		fprintf(md, " | %s | %s |\n", claims[c].baseline, verdict);
		ev_claim(cl, "gHyvi", claims[c].what, claims[c].paper, claims[c].fmt,
			 pc, &d, claims[c].baseline, verdict);
	}
	fclose(cl);
	fprintf(md, "\nModelled cost above strict's: adaptive default in %d of %d traces (by more "
		    "than 1%%: %d), the paper's first-trap rule in %d of %d.\n\n", def_loses, n,
		def_loses1, first_loses, n);
	fprintf(md, "Per kind, strict / policy (median of %d seeds; worst in brackets):\n\n"
		    "| kind | adaptive (default) | first-trap (paper) | dyn-seg back-off (old default) |\n"
		    "|---|---:|---:|---:|\n", SEEDS);
	for (int k = 0; k < K_COUNT; k++) {
		fprintf(md, "| %s", kind_names[k]);
		for (int p = 0; p < 3; p++) {
			struct ev_dist d = ev_dist_of(kind_v[k][p], SEEDS, false);

			fprintf(md, " | %.2fx (%.2fx)", d.med, d.worst);
		}
		fprintf(md, " |\n");
	}
}
