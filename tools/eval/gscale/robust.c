/* The gScale claims over workloads we did not choose (issue 18): every
 * policy on the same traces, many seeds, random busy sets and creation
 * orders, and adversarial shapes (rotating hot sets, Pareto on/off bursts,
 * all busy, mixed vGPU sizes, 8-64 VMs). For each claim: the paper's
 * figure, ours on the paper's case, and median / p5 / p95 / worst over
 * the set. Totals count predictive copies: a copy made ahead is work.
 *
 * DymGPU live: the same gScale run with the hypervisor's re-placement
 * policy (gpu/dymgpu/dymgpu_live.c, fed by the monitor as dymgpu_move.c
 * feeds it: GPU busy time per vGPU, a 1 s period) moving vGPUs with
 * gscale_vgpu_move_high; the entries a move carries count as copies. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu_live.h"
#include "gpu/policy/monitor.h"
#include "tools/eval/gscale/eval.h"

/* Twice DymGPU's 20 s utilization window: the hypervisor's policy judges
 * a vGPU over the whole window (mon_share), so a 10 s run (SIM_SECONDS,
 * the other studies') would show it doing nothing whatever the workload. */
#define RUN_SECONDS 40
#define SLICES (RUN_SECONDS * 1000 / SLICE_MS)
#define MAXN 64
#define SEEDS 10

enum kind { K_PAPER, K_RANDOM_BUSY, K_RANDOM_N, K_ROTATING, K_PARETO,
	    K_ALL_BUSY, K_MIXED, K_BURSTS, K_COUNT };
static const char *const kind_names[K_COUNT] = {
	"paper (15 VMs, 3 busy created first)", "15 VMs, 3 busy at random",
	"8-64 VMs, random busy set", "rotating hot set", "Pareto on/off bursts",
	"all busy", "mixed sizes", "random short bursts (15-48 VMs)",
};

/* Seeds are seed_base .. seed_base + SEEDS - 1 (env EVAL_SEED_BASE, else
 * 0): another base is a held-out run of the same generators. */
static int seed_base;

struct wl {
	int n;
	uint32_t low[MAXN], high[MAXN], init_permille[MAXN];
	int order[MAXN]; /* creation order: order[k] = VM created k-th */
	uint8_t busy[MAXN][SLICES];
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

static void shuffle(int *a, int n)
{
	for (int i = n - 1; i > 0; i--) {
		int j = (int)rnd((uint32_t)i + 1), x = a[i];

		a[i] = a[j];
		a[j] = x;
	}
}

/* k distinct VMs of n, at random. */
static void pick(int n, int k, int *out)
{
	int all[MAXN];

	for (int i = 0; i < n; i++)
		all[i] = i;
	shuffle(all, n);
	memcpy(out, all, (size_t)k * sizeof(int));
}

static void busy_set(struct wl *w, int k, int from, int to)
{
	int set[MAXN];

	pick(w->n, k, set);
	for (int i = 0; i < k; i++)
		for (int s = from; s < to; s++)
			w->busy[set[i]][s] = 1;
}

/* Pareto(xm, alpha) slices, at least 1. */
static int pareto(double xm, double alpha)
{
	double x = xm / pow(frand(), 1.0 / alpha);

	return x > SLICES ? SLICES : (int)x < 1 ? 1 : (int)x;
}

static void make_wl(struct wl *w, enum kind k, int seed)
{
	static const int sizes[] = { 8, 16, 24, 32, 48, 64 };

	memset(w, 0, sizeof(*w));
	rs = 0x9e3779b97f4a7c15ull * (uint64_t)(seed_base + seed + 1) +
	     (uint64_t)k;
	w->n = 15;
	for (int i = 0; i < MAXN; i++) {
		w->low[i] = MIB(VGPU_LOW_MIB);
		w->high[i] = MIB(VGPU_HIGH_MIB);
		w->init_permille[i] = 100 + rnd(900);
		w->order[i] = i;
	}
	switch (k) {
	case K_PAPER:
		for (int i = 0; i < 3; i++)
			memset(w->busy[i], 1, SLICES);
		break;
	case K_RANDOM_BUSY:
		busy_set(w, 3, 0, SLICES);
		break;
	case K_RANDOM_N:
		w->n = sizes[seed % 6];
		busy_set(w, 1 + (int)rnd((uint32_t)w->n / 4), 0, SLICES);
		break;
	case K_ROTATING: {
		int len = 20 + (int)rnd(60), hot = 3 + (int)rnd(4);

		w->n = seed & 1 ? 32 : 15;
		for (int s = 0; s < SLICES; s += len)
			busy_set(w, hot, s, s + len > SLICES ? SLICES : s + len);
		break;
	}
	case K_PARETO:
		w->n = (int[]){ 15, 32, 64 }[seed % 3];
		for (int i = 0; i < w->n; i++) {
			int s = pareto(4, 1.5) - 1; /* start idle a while */

			while (s < SLICES) {
				int on = pareto(2, 1.5);

				for (int j = s; j < s + on && j < SLICES; j++)
					w->busy[i][j] = 1;
				s += on + pareto(8, 1.2);
			}
		}
		break;
	case K_ALL_BUSY:
		w->n = (int[]){ 8, 15, 32 }[seed % 3];
		for (int i = 0; i < w->n; i++)
			memset(w->busy[i], 1, SLICES);
		break;
	case K_MIXED:
		w->n = 15 + (int)rnd(18);
		for (int i = 0; i < w->n; i++) {
			static const uint32_t lo[] = { 16, 32, 64 };
			static const uint32_t hi[] = { 128, 256, 384, 512 };

			w->low[i] = MIB(lo[rnd(3)]);
			w->high[i] = MIB(hi[rnd(4)]);
		}
		busy_set(w, 2 + (int)rnd(5), 0, SLICES);
		break;
	case K_BURSTS: { /* 1-3 slice bursts, started at random */
		uint32_t start = (uint32_t[]){ 20, 10, 5 }[rnd(3)];

		w->n = (int[]){ 15, 32, 48 }[seed % 3];
		for (int i = 0; i < w->n; i++)
			for (int s = 0; s < SLICES; s++)
				if (!rnd(start))
					for (int j = 1 + (int)rnd(3); j-- &&
					     s < SLICES; s++)
						w->busy[i][s] = 1;
		break;
	}
	default:
		break;
	}
	if (k != K_PAPER)
		shuffle(w->order, w->n);
}

struct rres {
	uint64_t switches, copied, prefetched, low_saved, cuts;
	/* The predictive gate: chunks hit / wasted, and the bound in
	 * entries its invariant allows over the run (gscale.h). */
	uint64_t pf_hit, pf_wasted, pf_bound;
	uint64_t moves, carried; /* DymGPU live */
};

#define SLICE_NS ((uint64_t)SLICE_MS * 1000000ull)
#define PERIOD_NS 1000000000ull /* DymGPU live's period (dymgpu_move.c) */

/* DymGPU live beside a gScale run, as the mediator runs it. */
struct live {
	struct mon mon;
	struct dyml dyml;
};

static uint32_t nslots_of(const struct gscale *gs, int id)
{
	return (gs->vgpus[id].high.count + gs->p.slot_entries - 1) /
	       gs->p.slot_entries;
}

/* window_s: the monitor's utilization window (0: DymGPU's 20 s, what the
 * hypervisor runs: dymgpu_params.window_ms is 0 there). The policy's
 * parameters are its defaults (dyml_init with NULL), as in dymgpu_attach.c. */
static struct live *live_init(struct gscale *gs, const int *id, int n,
			      uint32_t window_s)
{
	struct live *l = calloc(1, sizeof(*l));
	struct mon_params mp = { .window_ns = window_s * 1000000000ull };

	if (!l || mon_init(&l->mon, &mp, 0) ||
	    dyml_init(&l->dyml, NULL, gs->nr_slots))
		exit(1);
	for (int vm = 0; vm < n; vm++)
		if (mon_add(&l->mon, (uint32_t)id[vm], 0) ||
		    dyml_add(&l->dyml, (uint32_t)id[vm], gs->vgpus[id[vm]].slot,
			     nslots_of(gs, id[vm]), true))
			exit(1);
	return l;
}

/* GM entries vm has bound, as the mediator's gm_present counts them:
 * binds() writes present entries at offsets 0, 1, 2... of low + high,
 * wrapping, so after `cursor` writes min(cursor, total) are present. */
static uint64_t bound(const struct gscale *gs, int id, uint32_t cursor)
{
	uint32_t total = gs->vgpus[id].low.count + gs->vgpus[id].high.count;

	return cursor < total ? cursor : total;
}

/* One period: the monitor's figures in through dyml_feed (as dymgpu_move.c
 * feeds them), moves out, applied by gScale. */
static void live_period(struct live *l, struct gscale *gs, const int *id,
			int n, uint64_t now, const uint32_t *cursor,
			struct rres *out)
{
	struct dyml_decision dec[DYML_MAX_MOVES];
	uint32_t nd;

	for (int vm = 0; vm < n; vm++)
		dyml_feed(&l->dyml, &l->mon, (uint32_t)id[vm], now,
			  bound(gs, id[vm], cursor[vm]), true);
	nd = dyml_step(&l->dyml, dec, DYML_MAX_MOVES);
	for (uint32_t i = 0; i < nd; i++) {
		uint64_t carried = 0;

		if (gscale_vgpu_move_high(gs, dec[i].vgpu, dec[i].to, &carried)) {
			dyml_undo(&l->dyml, &dec[i]);
			continue;
		}
		dyml_moved(&l->dyml, dec[i].vgpu, dec[i].to, dec[i].n,
			   DYML_COLLISION);
		out->moves++;
		out->carried += carried;
	}
}

static void binds(struct gscale *gs, int id, int vm, uint32_t permille,
		  uint32_t *cursor)
{
	const struct gscale_vgpu *v = &gs->vgpus[id];
	uint32_t total = v->low.count + v->high.count;
	uint32_t n = (uint32_t)((uint64_t)total * permille / 1000);

	for (uint32_t i = 0; i < n; i++) {
		uint32_t off = (*cursor)++ % total;
		uint32_t idx = off < v->low.count
				       ? v->low.first + off
				       : v->high.first + off - v->low.count;

		gscale_guest_write(gs, id, idx,
				   ((uint64_t)(vm + 1) << 32) | off << 12 | 1);
	}
}

/* dymgpu: 0 = no DymGPU live, else its window in seconds + 1 (1 = the
 * default 20 s). */
static int run(const struct wl *w, enum policy pol, uint32_t dymgpu,
	       struct rres *out)
{
	struct live *live = NULL;
	struct gscale_mem mem = ev_heap_mem;
	struct gscale_params p = layout(pol != POL_BASIC, pol == POL_PREDICT);
	struct gscale *gs = calloc(1, sizeof(*gs));
	struct ev_model pf;
	uint32_t cursor[MAXN] = { 0 };
	int id[MAXN];
	bool busy[MAXN];
	int cur = -1;

	memset(out, 0, sizeof(*out));
	if (!gs || ev_model_init(&pf, GGTT_ENTRIES, APERTURE_BYTES) ||
	    gscale_init(gs, &pf.hw, &p, &mem))
		return -1;
	for (int k = 0; k < w->n; k++) {
		int vm = w->order[k];

		id[vm] = gscale_vgpu_add(gs, w->low[vm], w->high[vm]);
		if (id[vm] < 0)
			return -1;
	}
	for (int vm = 0; vm < w->n; vm++)
		binds(gs, id[vm], vm, w->init_permille[vm], &cursor[vm]);
	if (dymgpu)
		live = live_init(gs, id, w->n, dymgpu - 1);
	for (int s = 0; s < SLICES; s++) {
		uint64_t now = (uint64_t)s * SLICE_NS;
		int nx, af;

		if (live && s && now / PERIOD_NS != (now - SLICE_NS) / PERIOD_NS)
			live_period(live, gs, id, w->n, now, cursor, out);
		for (int vm = 0; vm < w->n; vm++) {
			busy[vm] = w->busy[vm][s];
			if (busy[vm])
				binds(gs, id[vm], vm, 2, &cursor[vm]);
			if (busy[vm] && live)
				mon_submit(&live->mon, (uint32_t)id[vm], now);
		}
		nx = ev_next_busy(busy, w->n, cur < 0 ? w->n - 1 : cur);
		if (nx < 0)
			continue;
		gscale_switch_to(gs, id[nx]);
		if (live)
			mon_gpu_busy(&live->mon, (uint32_t)id[nx], now,
				     now + SLICE_NS);
		cur = nx;
		/* While it runs, copy the next one ahead. No deadline:
		 * the counts must not depend on this machine's speed, and
		 * unbounded is the most copying ahead can do (the gate,
		 * not the clock, is what limits its total). */
		af = ev_next_busy(busy, w->n, cur);
		if (af >= 0 && af != cur)
			gscale_prefetch(gs, id[af]);
	}
	for (int vm = 0; vm < w->n; vm++)
		out->pf_bound += 2ull * GSCALE_CHUNK_ENTRIES *
				 gscale_pf_bound(&gs->vgpus[id[vm]]);
	out->pf_hit = gs->stats.pf_hit_chunks;
	out->pf_wasted = gs->stats.pf_wasted_chunks;
	out->switches = gs->stats.switches;
	out->copied = gs->stats.entries_copied;
	out->prefetched = gs->stats.entries_prefetched;
	out->low_saved = (gs->stats.low_chunks_unchanged +
			  gs->stats.low_chunks_same) * GSCALE_CHUNK_ENTRIES;
	out->cuts = gs->stats.prefetch_cut;
	free(live);
	gscale_fini(gs);
	free(gs);
	ev_model_fini(&pf);
	return 0;
}

/* Claims, each a per-run value (percent) where higher is better. */
enum claim { C_SHARING, C_DYMGPU, C_DYMGPU_2S, C_SHARING_TOTAL,
	     C_PREDICT_PATH, C_PREDICT_TOTAL, C_PREDICT_BOUND, C_LOWGEN,
	     C_COUNT };
static const struct {
	const char *what, *paper, *baseline;
} claims[C_COUNT] = {
	[C_SHARING] = { "gScale slot sharing vs gScale-basic: fewer entries "
			"copied per switch", "83.4% less copy overhead (Linux, 15 "
			"VMs, 3 busy)", "gScale-basic" },
	[C_DYMGPU] = { "DymGPU live re-placement vs gScale placement: fewer "
		       "entries copied (switches + entries its moves carry)",
		       "up to 53% fewer copies (DymGPU, static placement)",
		       "gScale placement" },
	[C_DYMGPU_2S] = { "DymGPU live with a 2 s utilization window vs gScale "
			  "placement (not the default: why the window is "
			  "DymGPU's 20 s)", "-", "-" },
	[C_SHARING_TOTAL] = { "gscale+predict vs gScale-basic: fewer entries "
			      "copied in total (switch + ahead)", "-", "-" },
	[C_PREDICT_PATH] = { "predictive copy vs gscale: fewer entries on the "
			     "switch path", "copies ahead to shorten the switch",
			     "-" },
	[C_PREDICT_TOTAL] = { "predictive copy (gated) vs gscale: fewer "
			      "entries in total (negative = extra work: no "
			      "copy-ahead policy can promise none)",
			      "- (issue 31: never adds total work)", "-" },
	[C_PREDICT_BOUND] = { "predictive copy (gated): extra entries over "
			      "gscale as a share of the gate's bound, from "
			      "the run's counts (2 x 512 x per vGPU: 32 + "
			      "4 x grants (<= 8) + hits / 64 chunks; "
			      "gpu/gscale/gscale.h); higher is worse; "
			      "verdict: every run <= 100%",
			      "-", "the gate's bound" },
	[C_LOWGEN] = { "low GM generations: share of gscale's would-be low "
		       "copies skipped", "- (ours; the paper recopies low GM)",
		       "-" },
};

static double pct_less(uint64_t ours, uint64_t base)
{
	return base ? 100.0 * (1.0 - (double)ours / (double)base) : 0;
}

static void claims_of(const struct rres r[POL_COUNT], const struct rres *dl,
		      const struct rres *d2, double v[C_COUNT])
{
	const struct rres *b = &r[POL_BASIC], *g = &r[POL_GSCALE],
			  *p = &r[POL_PREDICT];

	v[C_SHARING] = pct_less(g->copied, b->copied);
	v[C_DYMGPU] = pct_less(dl->copied + dl->carried, g->copied);
	v[C_DYMGPU_2S] = pct_less(d2->copied + d2->carried, g->copied);
	v[C_SHARING_TOTAL] = pct_less(p->copied + p->prefetched, b->copied);
	v[C_PREDICT_PATH] = pct_less(p->copied, g->copied);
	v[C_PREDICT_TOTAL] = pct_less(p->copied + p->prefetched, g->copied);
	v[C_PREDICT_BOUND] = p->pf_bound
		? 100.0 * ((double)(p->copied + p->prefetched) -
			   (double)g->copied) / (double)p->pf_bound
		: 0;
	v[C_LOWGEN] = g->copied + g->low_saved
			      ? 100.0 * g->low_saved / (g->copied + g->low_saved)
			      : 0;
}

static void row(FILE *csv, int k, int seed, const struct wl *w, long busy,
		const char *pol, const struct rres *r)
{
	fprintf(csv, "\"%s\",%d,%d,%ld,%s,%llu,%llu,%llu,%llu,%llu,%llu,%llu\n",
		kind_names[k], seed, w->n, busy, pol,
		(unsigned long long)r->switches, (unsigned long long)r->copied,
		(unsigned long long)r->prefetched,
		(unsigned long long)r->low_saved, (unsigned long long)r->cuts,
		(unsigned long long)r->moves, (unsigned long long)r->carried);
}

/* gScale's saving and creation order (issue 31: "gScale's saving
 * independent of creation order"): every workload of the set again in
 * ORDERS creation orders (the set's own and ORDERS - 1 reshuffles, each
 * from a seed derived from the workload's), gScale-basic, gscale and
 * gscale with DymGPU live (the default where guests can be told) on each.
 * Per workload: the spread of the saving over its orders (max - min,
 * percentage points); claim rows: that spread over the workloads. */
#define ORDERS 4
#define ORDER_SEED(seed, k, o) \
	(0x2545f4914f6cdd1dull * (uint64_t)((seed) + 1) + (uint64_t)(k) * 131 + (o))

/* r0, dl0: the set's own runs of w0 (basic, gscale; DymGPU live). */
static void order_spread(const struct wl *w0, int k, int seed,
			 const struct rres r0[POL_COUNT],
			 const struct rres *dl0, double *spread,
			 double *spread_live, FILE *csv)
{
	static struct wl w;
	double sv[ORDERS], lv[ORDERS];

	w = *w0;
	for (int o = 0; o < ORDERS; o++) {
		struct rres b = r0[POL_BASIC], g = r0[POL_GSCALE], dl = *dl0;

		if (o) {
			rs = ORDER_SEED(seed_base + seed, k, o);
			shuffle(w.order, w.n);
		}
		if (o && (run(&w, POL_BASIC, 0, &b) || run(&w, POL_GSCALE, 0, &g) ||
			  run(&w, POL_GSCALE, 1, &dl))) {
			fprintf(stderr, "robust: order run failed\n");
			exit(1);
		}
		sv[o] = pct_less(g.copied, b.copied);
		lv[o] = pct_less(dl.copied + dl.carried, b.copied);
		fprintf(csv, "\"%s\",%d,%d,%llu,%llu,%llu,%llu,%llu,%.2f,%.2f\n",
			kind_names[k], seed_base + seed, o,
			o ? (unsigned long long)ORDER_SEED(seed_base + seed, k, o)
			  : 0ull,
			(unsigned long long)b.copied,
			(unsigned long long)g.copied,
			(unsigned long long)dl.copied,
			(unsigned long long)dl.carried, sv[o], lv[o]);
	}
	*spread = *spread_live = 0;
	for (int i = 0; i < ORDERS; i++)
		for (int j = 0; j < ORDERS; j++) {
			if (sv[i] - sv[j] > *spread)
				*spread = sv[i] - sv[j];
			if (lv[i] - lv[j] > *spread_live)
				*spread_live = lv[i] - lv[j];
		}
}

static void order_claims(FILE *md, FILE *cl, double *sp, double *spl, int n)
{
	static char what[2][200];
	double *v[2] = { sp, spl };

	snprintf(what[0], sizeof(what[0]), "gScale slot sharing vs "
		 "gScale-basic: spread of the saving over %d creation orders "
		 "of the same workload (max - min, percentage points; higher "
		 "is worse)", ORDERS);
	snprintf(what[1], sizeof(what[1]), "gScale + DymGPU live (the "
		 "default) vs gScale-basic: the same spread over %d creation "
		 "orders", ORDERS);

	fprintf(md, "\n### Creation order\n\nEvery workload again in %d "
		    "creation orders (its own and %d reshuffles; seeds in "
		    "`gscale_order.csv`); the spread of its saving over them "
		    "(max - min, percentage points), over the %d workloads:"
		    "\n\n| claim | median | p5 | p95 | worst |\n"
		    "|---|---:|---:|---:|---:|\n", ORDERS, ORDERS - 1, n);
	for (int c = 0; c < 2; c++) {
		struct ev_dist d = ev_dist_of(v[c], n, true);

		fprintf(md, "| %s | %.1f | %.1f | %.1f | %.1f |\n", what[c],
			d.med, d.p5, d.p95, d.worst);
		ev_claim(cl, "gScale/DymGPU", what[c],
			 "- (issue 31: independent of creation order)", "%.1f pp",
			 NAN, &d, "-", "-");
	}
}

void robust_study(const char *dir, FILE *md, FILE *cl)
{
	static double vals[C_COUNT][K_COUNT * SEEDS];
	static double per_kind[K_COUNT][5][SEEDS];
	static double spread[K_COUNT * SEEDS], spread_live[K_COUNT * SEEDS];
	FILE *ocsv = ev_open_out(dir, "gscale_order.csv");
	double paper[C_COUNT] = { 0 };
	int nrun = 0, worse_than_basic = 0, dym_worse = 0, over_bound = 0;
	uint64_t pf_hit = 0, pf_wasted = 0;
	const char *sb = getenv("EVAL_SEED_BASE");
	uint64_t cuts = 0, moves = 0, moves2 = 0;
	FILE *csv = ev_open_out(dir, "gscale_robust.csv");
	struct wl *w = malloc(sizeof(*w));

	seed_base = sb ? atoi(sb) : 0;
	fprintf(ocsv, "kind,seed,order,order_seed,basic_copied,gscale_copied,"
		      "live_copied,live_carried,gscale_saving_pct,"
		      "live_saving_pct\n");
	fprintf(csv, "kind,seed,vms,busy_slices,policy,switches,copied,"
		     "prefetched,low_saved,prefetch_cuts,moves,carried\n");
	for (int k = 0; k < K_COUNT; k++) {
		for (int seed = 0; seed < (k == K_PAPER ? 1 : SEEDS); seed++) {
			struct rres r[POL_COUNT], dl, d2;
			double v[C_COUNT];
			long busy = 0;

			make_wl(w, (enum kind)k, seed);
			for (int i = 0; i < w->n; i++)
				for (int s = 0; s < SLICES; s++)
					busy += w->busy[i][s];
			for (int pol = POL_BASIC; pol < POL_COUNT; pol++) {
				if (run(w, (enum policy)pol, 0, &r[pol])) {
					fprintf(stderr, "robust: run failed\n");
					exit(1);
				}
				cuts += r[pol].cuts;
				row(csv, k, seed, w, busy, policy_names[pol], &r[pol]);
			}
			if (run(w, POL_GSCALE, 1, &dl) ||
			    run(w, POL_GSCALE, 1 + 2, &d2)) {
				fprintf(stderr, "robust: run failed\n");
				exit(1);
			}
			row(csv, k, seed, w, busy, "dymgpu-live", &dl);
			row(csv, k, seed, w, busy, "dymgpu-live-2s", &d2);
			claims_of(r, &dl, &d2, v);
			if (k == K_PAPER) {
				memcpy(paper, v, sizeof(v));
				continue;
			}
			worse_than_basic += r[POL_GSCALE].copied >
					    r[POL_BASIC].copied;
			/* The gate's bound (gpu/gscale/gscale.h), in counts. */
			over_bound += r[POL_PREDICT].copied +
					      r[POL_PREDICT].prefetched >
				      r[POL_GSCALE].copied + r[POL_PREDICT].pf_bound;
			pf_hit += r[POL_PREDICT].pf_hit;
			pf_wasted += r[POL_PREDICT].pf_wasted;
			dym_worse += dl.copied + dl.carried > r[POL_GSCALE].copied;
			moves += dl.moves;
			moves2 += d2.moves;
			per_kind[k][0][seed] = v[C_SHARING];
			per_kind[k][1][seed] = v[C_DYMGPU];
			per_kind[k][2][seed] = v[C_DYMGPU_2S];
			per_kind[k][3][seed] = pct_less(dl.copied + dl.carried,
							r[POL_BASIC].copied);
			per_kind[k][4][seed] = v[C_PREDICT_TOTAL];
			for (int c = 0; c < C_COUNT; c++)
				vals[c][nrun] = v[c];
			order_spread(w, k, seed, r, &dl, &spread[nrun],
				     &spread_live[nrun], ocsv);
			nrun++;
		}
	}
	fclose(csv);
	fclose(ocsv);
	free(w);
	fprintf(md, "## Robustness: %d runs beyond the paper's case\n\n", nrun);
	fprintf(md, "Kinds (%d seeds each, seeds %d..%d (EVAL_SEED_BASE=%d), "
		    "random creation order): ", SEEDS, seed_base,
		seed_base + SEEDS - 1, seed_base);
	for (int k = 1; k < K_COUNT; k++)
		fprintf(md, "%s%s", kind_names[k], k + 1 < K_COUNT ? "; " : ".\n");
	fprintf(md, "Every policy replays the same trace; values are %% fewer "
		    "entries than the baseline (higher is better, negative = "
		    "worse); each run is %d s. DymGPU live is the hypervisor's "
		    "policy module (`gpu/dymgpu/dymgpu_live.c`, fed through "
		    "`dyml_feed` as `gpu/dymgpu/dymgpu_move.c` feeds it: busy "
		    "once a vGPU used %u.%u%% of its fair share 1/N of the GPU averaged over "
		    "the 20 s window, N counted per second, no longer below "
		    "%u.%u%%; a %u s dwell; %u moves per 1 s period; a move only "
		    "to a run with no busy user and less load) over gScale's "
		    "slot sharing, its moves done by `gscale_vgpu_move_high` and "
		    "the entries they carry counted as copies. Per-run values "
		    "in `gscale_robust.csv`.\n\n", RUN_SECONDS,
		DYML_BUSY_ON / 10, DYML_BUSY_ON % 10, DYML_BUSY_OFF / 10,
		DYML_BUSY_OFF % 10, DYML_DWELL, DYML_MAX_MOVES);
	fprintf(md, "| claim | paper | ours, paper's case | median | p5 | "
		    "p95 | worst | baseline | verdict |\n"
		    "|---|---|---:|---:|---:|---:|---:|---|---|\n");
	for (int c = 0; c < C_COUNT; c++) {
		struct ev_dist d = ev_dist_of(vals[c], nrun,
					      c == C_PREDICT_BOUND);
		const char *verdict = strcmp(claims[c].baseline, "-")
					      ? ev_verdict(&d, false) : "-";

		/* The gate's guarantee, run by run (counts, not the
		 * rounded share): no run over its own bound. */
		if (c == C_PREDICT_BOUND)
			verdict = over_bound ? "FAIL" : "pass";

		fprintf(md, "| %s | %s | %.1f%% | %.1f%% | %.1f%% | %.1f%% | "
			    "%.1f%% | %s | %s |\n", claims[c].what,
			claims[c].paper, paper[c], d.med, d.p5, d.p95, d.worst,
			claims[c].baseline, verdict);
		ev_claim(cl, "gScale/DymGPU", claims[c].what, claims[c].paper,
			 "%.1f%%", paper[c], &d, claims[c].baseline, verdict);
	}
	fprintf(md, "\nPredictive copy's gate (`gpu/gscale/gscale_predict.c`): "
		    "%llu chunks copied ahead were used, %llu lost; its total "
		    "exceeded gscale's by more than the gate's bound (2 x 512 "
		    "entries x the vGPUs' allowances) in %d of %d runs.\n",
		(unsigned long long)pf_hit, (unsigned long long)pf_wasted,
		over_bound, nrun);
	fprintf(md, "\ngscale copied more than gScale-basic in %d of %d runs; "
		    "DymGPU live more than gScale's placement in %d of %d "
		    "(%llu moves in all; %llu with the 2 s window). Predictive "
		    "copies cut short by their deadline (the next switch): "
		    "%llu.\n\n", worse_than_basic, nrun, dym_worse, nrun,
		(unsigned long long)moves, (unsigned long long)moves2,
		(unsigned long long)cuts);
	fprintf(md, "Per kind, %% fewer entries (median of %d seeds; worst "
		    "in brackets):\n\n| kind | slot sharing vs basic | DymGPU "
		    "live vs gScale placement | the same, 2 s window | gScale + "
		    "DymGPU live vs basic | predictive vs gscale, total |\n"
		    "|---|---:|---:|---:|---:|---:|\n", SEEDS);
	for (int k = 1; k < K_COUNT; k++) {
		struct ev_dist a = ev_dist_of(per_kind[k][0], SEEDS, false);
		struct ev_dist b = ev_dist_of(per_kind[k][1], SEEDS, false);
		struct ev_dist c = ev_dist_of(per_kind[k][2], SEEDS, false);
		struct ev_dist e = ev_dist_of(per_kind[k][3], SEEDS, false);
		struct ev_dist f = ev_dist_of(per_kind[k][4], SEEDS, false);

		fprintf(md, "| %s | %.1f%% (%.1f%%) | %.1f%% (%.1f%%) | "
			    "%.1f%% (%.1f%%) | %.1f%% (%.1f%%) | %.1f%% "
			    "(%.1f%%) |\n", kind_names[k],
			a.med, a.worst, b.med, b.worst, c.med, c.worst, e.med,
			e.worst, f.med, f.worst);
	}
	order_claims(md, cl, spread, spread_live, nrun);
	fprintf(md, "\n");
}
