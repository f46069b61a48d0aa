/* gHyvi ADAPTIVE: strict or relaxed per page table, by what each costs.
 *
 * Relaxing a table is a bet. It costs an EPT change and a snapshot now,
 * a 512-entry diff at every submission while relaxed, and an EPT change
 * to protect it again; it saves a trap (VM exit + shadowing) per store
 * the table then takes. It pays only if enough stores follow. The paper
 * relaxes at the first store (fine for media bursts, a loss on isolated
 * updates); a fixed threshold loses on short bursts. Here the bet is
 * placed per table, online, in the two directions of a ski-rental
 * problem, with the unit costs of make bench (vgpu_ghyvi_params.cost):
 *
 *  - A window is the time between two submissions of the vGPU: what a
 *    relaxed table absorbs in it is diffed once, at the next submission.
 *  - Strict -> relaxed, at the j-th trapped store of a table in a window:
 *    relax now if the stores still expected in this window, times what
 *    each saves (trap - entry), exceed a relaxed window's cost (EPT
 *    change, snapshot, diff, EPT change back), and relaxing now beats
 *    waiting for one more trap (one-step look-ahead: now is better iff
 *    the chance p that the window goes on past j satisfies
 *    p x saving >= (1 - p) x cost; heavy-tailed bursts wait a few traps,
 *    bursts of a steady length relax at the first). Known from, in order:
 *      1. the table's own busy windows (moving mean), while j is below it
 *         and the mean clears the cost twice over;
 *      2. all tables' busy windows of this vGPU that reached j (a decaying
 *         histogram of window sizes), by a margin that shrinks as
 *         evidence grows;
 *      3. a window longer than any seen: the break-even rule, relax once
 *         the window's traps have cost a relaxed window (2-competitive:
 *         never more than twice the best choice made knowing the
 *         future), and once windows are known only past twice the
 *         longest (a short-burst workload's rare long window is no bet).
 *  - Relaxed -> strict, with hysteresis: at a submission a relaxed table
 *    is protected, diffed, and then unprotected again (one more EPT
 *    change; its snapshot is current) if it is likely busy in the next
 *    window: p_next x (saving + snapshot) > (1 - p_next) x (two EPT
 *    changes + a diff), p_next the table's rate of busy windows that
 *    followed a busy window. A table written in most windows stays
 *    relaxed; one written now and then goes back at once.
 * Stores to a relaxed table are counted as the entries its diff finds
 * changed (repeated stores to one entry count once: conservative). Every
 * transition is the same relax_gfn / strict_gfn the other policies use,
 * so validation and the shadow's exactness do not depend on the choice. */
#include "gpu/ghyvi/ghyvi_priv.h"
#include "mini/string.h"

/* Default unit costs: Bochs instruction counts, build/bench/exits.md
 * (make bench; gpu/vgpu/README.md, "gHyvi"), build of 2026-11-28. Bochs
 * does not count the VMX transition, INVEPT's flush or the TLB misses
 * after it: real traps and EPT changes cost more (docs/eval/ghyvi.md). */
#define COST_TRAP 3826u     /* vgpu-pte-store: exit + shadowing */
#define COST_EPT 278u       /* ghyvi-ept-change */
#define COST_SNAPSHOT 2968u /* ghyvi-snapshot */
#define COST_DIFF 7827u     /* ghyvi-diff-page */
#define COST_ENTRY 206u     /* ghyvi-retranslate (a leaf entry) */

#define MIN_OBS 3        /* own windows before a table's mean is used */
#define OWN_MARGIN 2     /* ... and by how much it must clear the cost */
#define HIST_CAP (1024 * 16) /* halve the histogram beyond this weight */

static uint32_t or_def(uint32_t x, uint32_t d)
{
	return x ? x : d;
}

void ghyvi_adapt_costs(struct vgpu_ghyvi_costs *c)
{
	c->trap = or_def(c->trap, COST_TRAP);
	c->ept = or_def(c->ept, COST_EPT);
	c->snapshot = or_def(c->snapshot, COST_SNAPSHOT);
	c->diff = or_def(c->diff, COST_DIFF);
	c->entry = or_def(c->entry, COST_ENTRY);
}

/* What a store absorbed by a relaxed table saves (its entry is still
 * re-translated at the diff); at least 1. */
static uint64_t saving(const struct vgpu_ghyvi_costs *c)
{
	return c->trap > c->entry ? c->trap - c->entry : 1;
}

/* A relaxed window: relax, diff once, protect again. */
static uint64_t window_cost(const struct vgpu_ghyvi_costs *c)
{
	return 2ull * c->ept + c->snapshot + c->diff;
}

static unsigned int bin_of(uint32_t k)
{
	unsigned int b = GHYVI_EXACT;
	uint32_t hi = 2 * GHYVI_EXACT;

	if (k <= GHYVI_EXACT)
		return k - 1;
	while (k > hi && b < GHYVI_BINS - 1) {
		b++;
		hi *= 2;
	}
	return b;
}

/* A table's window `w` ended with k >= 1 stores: learn from it. */
static void record(struct vgpu *v, struct ghyvi_spt *s, uint32_t k,
		   uint32_t w)
{
	struct ghyvi *g = ghyvi_of(v);
	unsigned int b = bin_of(k);

	s->ew16 = s->nobs ? s->ew16 - s->ew16 / 4 + k * 4 : k * 16;
	if (s->nobs < UINT16_MAX)
		s->nobs++;
	/* Did a busy window follow the last one? (moving rate x16) */
	if (s->lastw)
		s->cont16 = s->cont16 - s->cont16 / 4 +
			    (s->lastw == w ? 4 : 0); /* lastw = previous + 1 */
	s->lastw = w + 1;
	g->hcnt[b] += 16;
	g->hsum[b] += 16ull * k;
	g->htotal += 16;
	g->hdirty = true;
	if (g->htotal > HIST_CAP) {
		g->htotal = 0;
		for (b = 0; b < GHYVI_BINS; b++) {
			g->hcnt[b] /= 2;
			g->hsum[b] /= 2;
			g->htotal += g->hcnt[b];
		}
	}
}

/* A strict table: close the window its last traps were in, if it is
 * not `now`. */
static void roll_to(struct vgpu *v, struct ghyvi_spt *s, uint32_t now)
{
	if (s->seg == now)
		return;
	if (s->seg_traps)
		record(v, s, s->seg_traps, s->seg);
	s->seg = now;
	s->seg_traps = 0;
}

static void roll(struct vgpu *v, struct ghyvi_spt *s)
{
	roll_to(v, s, ghyvi_of(v)->seg);
}

/* Windows of every size from bin b up (suffix sums), recomputed after
 * the histogram changed: a trap reads one entry instead of every bin. */
static void suffix(struct ghyvi *g)
{
	uint64_t mass = 0, sum = 0;
	int b;

	for (b = GHYVI_BINS - 1; b >= 0; b--) {
		mass += g->hcnt[b];
		sum += g->hsum[b];
		g->smass[b] = mass;
		g->ssum[b] = sum;
	}
	g->hdirty = false;
}

/* The longest window size the histogram holds (its bin's lower end),
 * 0 when empty. */
static uint32_t longest(const struct ghyvi *g)
{
	unsigned int b;

	for (b = GHYVI_BINS; b-- > 0;) {
		if (!g->hcnt[b])
			continue;
		if (b < GHYVI_EXACT)
			return b + 1;
		return (2u * GHYVI_EXACT << (b - GHYVI_EXACT)) / 2 + 1;
	}
	return 0;
}

/* Relax at the j-th trap of this window? */
static bool worth_relaxing(struct vgpu *v, const struct ghyvi_spt *s,
			   uint32_t j)
{
	struct ghyvi *g = ghyvi_of(v);
	uint64_t save = saving(&g->p.cost), cost = window_cost(&g->p.cost);
	uint64_t mass, sum;
	unsigned int b;

	/* 1. This table's own windows, while this one is below their mean
	 *    and that mean clearly pays (a moving mean of a few windows is
	 *    noisy: a margin keeps one long window from misleading it). */
	if (s->nobs >= MIN_OBS && s->ew16 > 16ull * j &&
	    (s->ew16 - 16ull * j) * save > 16 * OWN_MARGIN * cost)
		return true;
	/* 2. Every table's windows that reached j (the bins from j's on):
	 *    the mean of what lies beyond j must pay for the window, by a
	 *    margin that shrinks as the evidence grows (a quarter, plus four
	 *    costs spread over the windows seen: one window, 5.25x). */
	if (g->hdirty)
		suffix(g);
	b = bin_of(j);
	mass = g->smass[b];
	sum = g->ssum[b];
	if (mass) {
		unsigned int bn = bin_of(j + 1);
		uint64_t next = bn == b ? mass : g->smass[bn];

		return sum > j * mass &&
		       (sum - j * mass) * save > cost * (mass + 4 * 16) &&
		       next * save >= (mass - next) * cost;
	}
	/* 3. Longer than any window seen (or none seen): break even, then
	 *    relax; once windows are known, only past twice the longest, so
	 *    a short-burst workload's rare long window is not a bet. */
	return (uint64_t)j * save >= cost && j > 2 * longest(g);
}

bool ghyvi_adapt_trap(struct vgpu *v, int32_t idx)
{
	struct ghyvi *g = ghyvi_of(v);
	struct ghyvi_spt *s = GS(v, idx);

	roll(v, s);
	if (!s->seg_traps++ && g->ntouched < GHYVI_TOUCHED)
		g->touched[g->ntouched++] = idx;
	return worth_relaxing(v, s, s->seg_traps);
}

void ghyvi_adapt_close(struct vgpu *v)
{
	struct ghyvi *g = ghyvi_of(v);

	for (uint32_t i = 0; i < g->ntouched; i++) {
		const struct spt *s = &SPT(v, g->touched[i]);
		struct ghyvi_spt *gs = GS(v, g->touched[i]);

		/* Gone, relaxed since (its diff records the window) or
		 * reused: not this window's strict table any more. */
		if (!s->level || s->dead || s->relaxed || gs->seg != g->seg)
			continue;
		roll_to(v, gs, g->seg + 1);
	}
	g->ntouched = 0;
}

bool ghyvi_adapt_stay(struct vgpu *v, int32_t idx)
{
	const struct ghyvi *g = ghyvi_of(v);
	const struct vgpu_ghyvi_costs *c = &g->p.cost;
	const struct ghyvi_spt *s = GS(v, idx);

	/* Busy in the window just closed, and busy windows usually come in
	 * runs: keep it relaxed for the next. */
	return s->lastw == g->seg &&
	       (uint64_t)s->cont16 * (saving(c) + c->snapshot) >
		       (uint64_t)(16 - s->cont16) * (2ull * c->ept + c->diff);
}

void ghyvi_adapt_window(struct vgpu *v, int32_t idx, uint32_t changed)
{
	struct ghyvi_spt *s = GS(v, idx);
	uint32_t seg = ghyvi_of(v)->seg, closing = seg - 1;

	/* ghyvi_reconstruct has opened the next window already: traps
	 * counted in the one closing now are the table's, else none. */
	if (s->seg != closing)
		s->seg_traps = 0;
	if (s->seg_traps + changed)
		record(v, s, s->seg_traps + changed, closing);
	s->seg = seg;
	s->seg_traps = 0;
}

void ghyvi_adapt_reset(struct vgpu *v)
{
	struct ghyvi *g = ghyvi_of(v);
	int32_t i;

	memset(g->hcnt, 0, sizeof(g->hcnt));
	memset(g->hsum, 0, sizeof(g->hsum));
	g->htotal = 0;
	g->hdirty = true;
	g->ntouched = 0;
	for (i = 0; i < vslab_end(&v->spts); i++) {
		struct ghyvi_spt *s;

		if (!vslab_get(&v->spts, i))
			continue;
		s = GS(v, i);
		s->seg = s->seg_traps = s->ew16 = s->lastw = s->cont16 = 0;
		s->nobs = 0;
	}
}
