/* gHyvi: hybrid strict / relaxed PPGTT shadowing (the paper's §4;
 * README.md in this folder).
 *
 * A page-table page with a shadow is either
 *  - strict (gVirt): write-protected through hv_ops; every guest store traps
 *    and is applied to the shadow at once (vgpu_ppgtt.c), or
 *  - relaxed: a snapshot holds the guest entries its shadow was built from;
 *    the page is unprotected, stores do not trap, and before any workload
 *    of the vGPU reaches the hardware (vgpu_mm_prepare ->
 *    the ppgtt_sync hook, ghyvi_reconstruct) the page is diffed against
 *    the snapshot and only the changed entries are validated and
 *    translated again (ghyvi_diff_table: the same spt_set a trap uses, so
 *    validation is never relaxed).
 *
 * Every table on one guest frame (a frame may be a table at several
 * levels) is in the same mode: protection is per frame.
 *
 * Races (several vCPUs; calls into the mediator are serialized per vGPU):
 *  - strict -> relaxed: the trap is applied, the snapshot taken while the
 *    page is still protected, then the protection dropped. A store that
 *    landed before the snapshot but is reported after it is applied as a
 *    late trap (re-read from guest memory); one after the unprotect is
 *    found by the next diff.
 *  - relaxed -> strict: protect first, then diff: a store before the
 *    protection is in memory for the diff, one after it traps.
 *
 * Policies (§4.5): FULL relaxes every table page; STATIC relaxes a fixed
 * set of N hot pages (named from a profile with vgpu_ghyvi_pin, the rest of
 * the set filled by first-trapped pages) for good; DYNAMIC relaxes a page
 * when it is written (adaptive: at the relax_traps-th trap within
 * relax_window_ns) and keeps it relaxed until it cools; DYNAMIC_SEGMENTED
 * relaxes the same way but re-protects every relaxed page after each
 * reconstruction (the relaxed list is reset); ADAPTIVE (ours, the default
 * once gHyvi is on) decides both ways per table from what each step
 * costs (ghyvi_adapt.c). */
#include "gpu/ghyvi/ghyvi_priv.h"
#include "mini/string.h"

/* Defaults and why (README.md in this folder):
 * - static 200 pages: the paper's best static setting (Fig. 13).
 * - relax at the 1st trap (the paper's rule, Fig. 8: updates to one page
 *   come in contiguous bursts, so the first store predicts more) plus a
 *   per-page back-off: relaxing costs about as much as one or two traps
 *   (two EPT permission changes, a 4 KiB snapshot, one 512-entry diff), so
 *   it pays only if the relaxed period absorbs at least ~2 stores. A page
 *   whose period absorbed fewer (a 2D/3D driver's isolated or paired
 *   updates) doubles its own threshold, up to 64, and costs what gVirt
 *   pays from then on; a period that absorbs 8 or more (a burst page)
 *   resets it. The eval (tools/eval/ghyvi) compares this with a fixed
 *   threshold of 1 (paper) and 2. Window 1 ms: bursts in Fig. 8 are far
 *   shorter; isolated updates are further apart.
 * - cool after 8 quiet submissions (DYNAMIC): an unchanged relaxed page
 *   still costs a 512-entry diff per submission (Fig. 14's argument against
 *   plain dynamic); 8 rounds keep pages that are rewritten every few frames
 *   relaxed. */
#define GHYVI_DEF_STATIC 200u
#define GHYVI_DEF_RELAX_TRAPS 1u
#define GHYVI_PAYOFF 2u     /* stores a relaxed period must absorb */
#define GHYVI_BURST 8u      /* ... to count as a burst page again */
#define GHYVI_MAX_RELAX_AT 64u
#define GHYVI_DEF_WINDOW_NS 1000000ull
#define GHYVI_DEF_COOL_ENTRIES 1u
#define GHYVI_DEF_COOL_ROUNDS 8u

static void resolve(struct vgpu_ghyvi_params *p)
{
	if (!p->static_pages)
		p->static_pages = GHYVI_DEF_STATIC;
	if (p->static_pages > GHYVI_MAX_RELAXED)
		p->static_pages = GHYVI_MAX_RELAXED;
	if (!p->relax_traps)
		p->relax_traps = GHYVI_DEF_RELAX_TRAPS;
	if (!p->relax_window_ns)
		p->relax_window_ns = GHYVI_DEF_WINDOW_NS;
	if (!p->cool_entries)
		p->cool_entries = GHYVI_DEF_COOL_ENTRIES;
	if (!p->cool_rounds)
		p->cool_rounds = GHYVI_DEF_COOL_ROUNDS;
	ghyvi_adapt_costs(&p->cost);
}

static bool policy_ok(uint32_t p)
{
	return p < VGPU_PPGTT_NR_POLICIES;
}

#define GHYVI_STATE_PAGES ((sizeof(struct ghyvi) + VGPU_PAGE - 1) / VGPU_PAGE)

int ghyvi_attach(struct vgpu *v, void **state)
{
	struct ghyvi *g = gvt_pages(v->gvt, GHYVI_STATE_PAGES, NULL);

	if (!g)
		return -GPU_ENOMEM;
	memset(g, 0, sizeof(*g));
	g->rhead = SPT_NONE;
	g->pin_pages = (GHYVI_MAX_RELAXED * sizeof(uint64_t) + VGPU_PAGE - 1) / VGPU_PAGE;
	g->work_pages = (GHYVI_MAX_RELAXED * sizeof(int32_t) + VGPU_PAGE - 1) / VGPU_PAGE;
	g->pins = gvt_pages(v->gvt, g->pin_pages, NULL);
	g->work = gvt_pages(v->gvt, g->work_pages, NULL);
	g->buf = gvt_pages(v->gvt, 1, NULL);
	if (!g->pins || !g->work || !g->buf) {
		ghyvi_detach(v, g);
		return -GPU_ENOMEM;
	}
	resolve(&g->p); /* STRICT until vgpu_ghyvi_set */
	*state = g;
	return 0;
}

void ghyvi_detach(struct vgpu *v, void *state)
{
	struct ghyvi *g = state;

	gvt_free_pages(v->gvt, g->pins, g->pin_pages);
	gvt_free_pages(v->gvt, g->work, g->work_pages);
	gvt_free_pages(v->gvt, g->buf, 1);
	gvt_free_pages(v->gvt, g, GHYVI_STATE_PAGES);
}

static void protect(struct vgpu *v, uint64_t gfn, bool on)
{
	const struct hv_if *hv = &v->gvt->hv;
	uint64_t t0 = vgpu_time_start(v);

	if (on)
		hv->ops->wp_page(hv->ctx, v->vm, gfn << 12);
	else if (!bbw_holds(v, gfn)) /* a watched batch page (vgpu_bb_watch.c) */
		hv->ops->unwp_page(hv->ctx, v->vm, gfn << 12);
	vgpu_time_add(v, &v->stats.ns_ept, t0);
	v->stats.wp_changes++;
}

static void link(struct vgpu *v, int32_t idx)
{
	struct ghyvi *g = ghyvi_of(v);
	struct ghyvi_spt *s = GS(v, idx);

	SPT(v, idx).relaxed = true;
	s->cool = 0;
	s->rprev = SPT_NONE;
	s->rnext = g->rhead;
	if (s->rnext != SPT_NONE)
		GS(v, s->rnext)->rprev = idx;
	g->rhead = idx;
	g->nrelaxed++;
	v->stats.pte_relaxed++;
}

static void unlink(struct vgpu *v, int32_t idx)
{
	struct ghyvi *g = ghyvi_of(v);
	struct ghyvi_spt *s = GS(v, idx);

	if (!SPT(v, idx).relaxed)
		return;
	if (s->rprev != SPT_NONE)
		GS(v, s->rprev)->rnext = s->rnext;
	else
		g->rhead = s->rnext;
	if (s->rnext != SPT_NONE)
		GS(v, s->rnext)->rprev = s->rprev;
	s->rprev = s->rnext = SPT_NONE;
	SPT(v, idx).relaxed = false;
	g->nrelaxed--;
}

/* Live tables on a guest frame. */
static int tables_on(struct vgpu *v, uint64_t gfn, int32_t out[SPT_PML4])
{
	int lvl, n = 0;

	for (lvl = SPT_PT; lvl <= SPT_PML4; lvl++) {
		int32_t i = spt_lookup(v, gfn, lvl);

		if (i != SPT_NONE)
			out[n++] = i;
	}
	return n;
}

static bool pinned(const struct vgpu *v, uint64_t gfn)
{
	const struct ghyvi *g = ghyvi_of(v);
	uint32_t i;

	for (i = 0; i < g->npins; i++)
		if (g->pins[i] == gfn)
			return true;
	return false;
}

/* strict -> relaxed for every table on gfn. snapshot: take one; else
 * the tables' snapshots are current (ADAPTIVE keeping a table relaxed
 * right after strict_gfn protected and diffed it, so any store since
 * trapped and the snapshot equals the guest page). */
static void relax_frame(struct vgpu *v, uint64_t gfn, bool snapshot)
{
	struct ghyvi *g = ghyvi_of(v);
	int32_t t[SPT_PML4];
	int n = tables_on(v, gfn, t), k;
	uint64_t t0;

	if (!n || g->nrelaxed + (uint32_t)n > GHYVI_MAX_RELAXED)
		return; /* at the cap: stays strict */
	for (k = 0; k < n; k++) {
		struct spt *s = &SPT(v, t[k]);

		if (s->relaxed)
			return; /* already */
		if (!snapshot && (!s->snap || GS(v, t[k])->seg != g->seg))
			return; /* not diffed just now: no current snapshot */
		if (!s->snap)
			s->snap = spt_snap_alloc(v);
		if (!s->snap)
			return; /* no memory (the budget): stay strict */
	}
	/* Snapshot while still protected, then unprotect. */
	t0 = vgpu_time_start(v);
	if (snapshot && vgpu_read_gpa(v, gfn << 12, SPT(v, t[0]).snap, VGPU_PAGE))
		return;
	for (k = 1; k < n && snapshot; k++)
		memcpy(SPT(v, t[k]).snap, SPT(v, t[0]).snap, VGPU_PAGE);
	if (snapshot) {
		vgpu_time_add(v, &v->stats.ns_snapshot, t0);
		v->stats.snapshots++;
	}
	for (k = 0; k < n; k++) {
		GS(v, t[k])->win_traps = 0;
		GS(v, t[k])->absorbed = 0;
		link(v, t[k]);
	}
	protect(v, gfn, false);
}

static void relax_gfn(struct vgpu *v, uint64_t gfn)
{
	relax_frame(v, gfn, true);
}

/* 64 entries equal? Branch-free over the block. */
static bool block_same(const uint64_t *a, const uint64_t *b)
{
	uint64_t d = 0;
	unsigned int k;

	for (k = 0; k < 64; k++)
		d |= a[k] ^ b[k];
	return !d;
}

/* Reconstruction of one relaxed table (the paper's §4.4): guest
 * holds the table's current guest entries. Only entries that differ from
 * the snapshot (or were left half-written) go through spt_set, the same
 * validation and translation a trapped store gets: a page outside the VM
 * becomes not-present, a value no page table holds untracks the table. */
uint32_t ghyvi_diff_table(struct vgpu *v, int32_t idx, const uint64_t *guest)
{
	struct spt *s = &SPT(v, idx);
	uint64_t t0 = vgpu_time_start(v), tset = 0;
	uint32_t changed = 0;
	unsigned int i;
	int ret;

	v->stats.recon_pages++;
	v->stats.recon_compared += VGPU_PTES_PER_PAGE;
	for (i = 0; i < VGPU_PTES_PER_PAGE && !s->dead && s->snap; i++) {
		uint64_t bit = 1ull << (i % 64), t1;

		/* A block of 64 entries with no half-written mark that equals
		 * the snapshot is skipped whole: a tight loop the compiler
		 * keeps in registers (most of a relaxed page is unchanged). */
		if (!(i % 64) && !s->post[i / 64] &&
		    block_same(guest + i, s->snap + i)) {
			i += 63;
			continue;
		}
		if (guest[i] == s->snap[i] && !(s->post[i / 64] & bit))
			continue;
		s->snap[i] = guest[i];
		s->post[i / 64] &= ~bit;
		changed++;
		v->stats.recon_entries++;
		t1 = vgpu_time_start(v);
		ret = spt_set(v, idx, i, guest[i]);
		tset += gvt_now(v->gvt) - t1;
		if (ret == -GPU_EINVAL) {
			v->stats.recon_dropped++;
			spt_kill(v, idx);
			break;
		}
		if ((guest[i] & GEN8_PAGE_PRESENT) && !s->shadow[i])
			v->stats.recon_dropped++;
	}
	/* Unit costs (make bench): the compare, and the re-translations of
	 * leaf entries (an inner one may build a whole subtree: not a unit
	 * cost, and rare once the tree exists). */
	if (s->level == SPT_PT) {
		v->stats.ns_retranslate += tset;
		v->stats.retranslated_ptes += changed;
	}
	v->stats.ns_diff += gvt_now(v->gvt) - t0 - tset;
	return changed;
}

/* Read the guest page; untrack the tables on it when it is gone. */
static bool read_guest(struct vgpu *v, int32_t idx)
{
	uint64_t t0 = vgpu_time_start(v);
	int err = vgpu_read_gpa(v, SPT(v, idx).gfn << 12, ghyvi_of(v)->buf,
				VGPU_PAGE);

	vgpu_time_add(v, &v->stats.ns_diff, t0); /* part of a page's diff */
	if (!err)
		return true;
	spt_kill(v, idx);
	return false;
}

/* End of a relaxed period: did it pay? */
static void backoff(struct vgpu *v, int32_t idx)
{
	const struct ghyvi *g = ghyvi_of(v);
	struct ghyvi_spt *s = GS(v, idx);
	uint32_t thr = s->relax_at ? s->relax_at : g->p.relax_traps;

	if (g->p.no_backoff)
		return;
	if (s->absorbed < GHYVI_PAYOFF)
		s->relax_at = thr * 2 < GHYVI_MAX_RELAX_AT ? thr * 2 : GHYVI_MAX_RELAX_AT;
	else if (s->absorbed >= GHYVI_BURST)
		s->relax_at = 0;
	s->absorbed = 0;
}

/* relaxed -> strict for every table on gfn: protect, then diff. */
static void strict_gfn(struct vgpu *v, uint64_t gfn)
{
	struct ghyvi *g = ghyvi_of(v);
	int32_t t[SPT_PML4];
	int n = tables_on(v, gfn, t), k, pass;
	uint32_t changed;
	bool any = false;

	for (k = 0; k < n; k++)
		any |= SPT(v, t[k]).relaxed;
	if (!any)
		return;
	protect(v, gfn, true);
	/* The diff may create a table on this very frame (an entry naming its
	 * own page at the level below): it is born relaxed, its sibling being
	 * relaxed still (ghyvi_on_alloc), so take the frame's tables again
	 * until none is relaxed. A newborn's snapshot is fresh, its diff
	 * changes nothing, so a second pass ends it (4 levels bound it). */
	for (pass = 0; any && pass <= SPT_PML4; pass++) {
		for (k = 0; k < n; k++) {
			int32_t idx = t[k];

			if (!SPT(v, idx).relaxed || SPT(v, idx).dead)
				continue;
			if (!read_guest(v, idx))
				continue;
			changed = ghyvi_diff_table(v, idx, g->buf);
			GS(v, idx)->absorbed += changed;
			if (SPT(v, idx).relaxed) {
				unlink(v, idx);
				GS(v, idx)->win_traps = 0;
				if (g->p.policy == VGPU_PPGTT_ADAPTIVE)
					ghyvi_adapt_window(v, idx, changed);
				else
					backoff(v, idx);
				v->stats.pte_strict_again++;
			}
		}
		n = tables_on(v, gfn, t);
		for (any = false, k = 0; k < n; k++)
			any |= SPT(v, t[k]).relaxed;
	}
	/* The diff untracked every table on the frame: nothing to protect. */
	if (!tables_on(v, gfn, t))
		protect(v, gfn, false);
}

bool ghyvi_on_alloc(struct vgpu *v, void *state, int32_t idx)
{
	const struct ghyvi *g = state;
	struct spt *s = &SPT(v, idx);
	int32_t t[SPT_PML4];
	int n = tables_on(v, s->gfn, t), k;
	bool want = false, others = false;

	GS(v, idx)->rprev = GS(v, idx)->rnext = SPT_NONE;
	if (g->p.policy == VGPU_PPGTT_STRICT)
		return false;
	for (k = 0; k < n; k++) {
		if (t[k] == idx)
			continue;
		if (!SPT(v, t[k]).relaxed)
			return false; /* the frame is protected: stay strict */
		want = others = true;
	}
	if (g->p.policy == VGPU_PPGTT_FULL ||
	    (g->p.policy == VGPU_PPGTT_STATIC && pinned(v, s->gfn)))
		want = true;
	if (!want)
		return false;
	if (g->nrelaxed < GHYVI_MAX_RELAXED)
		s->snap = spt_snap_alloc(v);
	if (!s->snap) {
		/* No memory: the frame goes (back) to strict as a whole. */
		if (others)
			strict_gfn(v, s->gfn);
		return false;
	}
	link(v, idx); /* spt_fill writes the snapshot */
	return true;
}

void ghyvi_on_free(struct vgpu *v, void *state, int32_t idx)
{
	struct spt *s = &SPT(v, idx);

	(void)state; /* unlink finds it */
	unlink(v, idx);
	spt_page_free(v, s->snap, 1);
	s->snap = NULL;
}

void ghyvi_on_trap(struct vgpu *v, void *state, uint64_t gfn)
{
	struct ghyvi *g = state;
	int32_t t[SPT_PML4];
	int n = tables_on(v, gfn, t);
	struct ghyvi_spt *s;
	uint64_t now;

	if (!n)
		return;
	s = GS(v, t[0]);
	if (SPT(v, t[0]).relaxed) {
		v->stats.pte_late_traps++;
		return;
	}
	switch (g->p.policy) {
	case VGPU_PPGTT_STRICT:
		return;
	case VGPU_PPGTT_FULL:
		relax_gfn(v, gfn);
		return;
	case VGPU_PPGTT_STATIC:
		if (!pinned(v, gfn)) {
			if (g->npins >= g->p.static_pages)
				return;
			g->pins[g->npins++] = gfn;
		}
		relax_gfn(v, gfn);
		return;
	case VGPU_PPGTT_ADAPTIVE:
		if (ghyvi_adapt_trap(v, t[0]))
			relax_gfn(v, gfn);
		return;
	case VGPU_PPGTT_DYNAMIC:
	case VGPU_PPGTT_DYNAMIC_SEGMENTED:
		now = gvt_now(v->gvt);
		if (!s->win_traps || now - s->win_start > g->p.relax_window_ns) {
			s->win_start = now;
			s->win_traps = 0;
		}
		if (++s->win_traps >= (s->relax_at ? s->relax_at : g->p.relax_traps))
			relax_gfn(v, gfn);
		return;
	}
}

void ghyvi_reconstruct(struct vgpu *v, void *state)
{
	struct ghyvi *g = state;
	uint64_t t0;
	uint32_t n = 0, k;
	int32_t i;

	if (g->p.policy == VGPU_PPGTT_ADAPTIVE)
		ghyvi_adapt_close(v); /* learn from the strict tables' traps */
	g->seg++; /* a new window between submissions starts */
	if (!g->nrelaxed)
		return;
	t0 = vgpu_time_start(v);
	v->stats.recon_runs++;
	/* Reconstruction may free tables (an entry cleared) and create new
	 * ones (relaxed at birth under FULL, with a fresh snapshot): work on
	 * a copy of the list and skip what is gone. */
	for (i = g->rhead; i != SPT_NONE && n < GHYVI_MAX_RELAXED; i = GS(v, i)->rnext)
		g->work[n++] = i;
	for (k = 0; k < n; k++) {
		struct spt *s;
		struct ghyvi_spt *gs;
		uint32_t changed;

		/* a table freed by an earlier repair may have taken its
		 * slab chunk with it */
		if (!vslab_has(&v->spts, g->work[k]))
			continue;
		s = &SPT(v, g->work[k]);
		gs = GS(v, g->work[k]);
		if (!s->level || s->dead || !s->relaxed)
			continue;
		if (g->p.policy == VGPU_PPGTT_ADAPTIVE) {
			/* Protect and diff (a sibling on the frame that was
			 * kept relaxed below has had its window already). */
			if (gs->seg == g->seg)
				continue;
			strict_gfn(v, s->gfn);
			if (s->level && !s->dead &&
			    ghyvi_adapt_stay(v, g->work[k]))
				relax_frame(v, s->gfn, false);
			continue;
		}
		if (g->p.policy == VGPU_PPGTT_DYNAMIC_SEGMENTED ||
		    g->p.policy == VGPU_PPGTT_STRICT) {
			strict_gfn(v, s->gfn);
			continue;
		}
		if (!read_guest(v, g->work[k]))
			continue;
		changed = ghyvi_diff_table(v, g->work[k], g->buf);
		gs->absorbed += changed;
		if (g->p.policy != VGPU_PPGTT_DYNAMIC || s->dead ||
		    g->p.cool_rounds == GHYVI_NEVER)
			continue;
		if (changed >= g->p.cool_entries)
			gs->cool = 0;
		else if (++gs->cool >= g->p.cool_rounds)
			strict_gfn(v, s->gfn);
	}
	vgpu_time_add(v, &v->stats.ns_reconstruct, t0);
}

/* ---- public ------------------------------------------------------------- */

int vgpu_ghyvi_set(struct vgpu *v, const struct vgpu_ghyvi_params *p)
{
	struct ghyvi *g = ghyvi_of(v);
	struct vgpu_ghyvi_params np = *p;
	int32_t i;

	if (!g || !policy_ok((uint32_t)p->policy))
		return -GPU_EINVAL;
	resolve(&np);
	/* Back to a consistent all-strict state first. */
	while (g->rhead != SPT_NONE) {
		int32_t h = g->rhead;

		strict_gfn(v, SPT(v, h).gfn);
		if (g->rhead == h) /* cannot happen; never loop forever */
			unlink(v, h);
	}
	g->p = np;
	ghyvi_adapt_reset(v);
	if (g->npins > np.static_pages)
		g->npins = np.static_pages;
	for (i = 0; i < vslab_end(&v->spts); i++) {
		if (vslab_get(&v->spts, i)) {
			GS(v, i)->win_traps = 0;
			GS(v, i)->relax_at = 0;
		}
	}
	for (i = 0; i < vslab_end(&v->spts); i++) {
		struct spt *s = vslab_get(&v->spts, i);

		if (!s || !s->level || s->dead || s->relaxed)
			continue;
		if (np.policy == VGPU_PPGTT_FULL ||
		    (np.policy == VGPU_PPGTT_STATIC && pinned(v, s->gfn)))
			relax_gfn(v, s->gfn);
	}
	return 0;
}

void vgpu_ghyvi_get(const struct vgpu *v, struct vgpu_ghyvi_params *p)
{
	const struct ghyvi *g = ghyvi_of(v);

	if (g)
		*p = g->p;
	else
		memset(p, 0, sizeof(*p)); /* no gHyvi: the baseline, strict */
}

int vgpu_ghyvi_pin(struct vgpu *v, uint64_t gpa)
{
	struct ghyvi *g = ghyvi_of(v);
	uint64_t gfn = gpa >> 12;

	if (!g)
		return -GPU_EINVAL;
	if (pinned(v, gfn))
		return 0;
	if (g->npins >= g->p.static_pages)
		return -GPU_ENOSPC;
	g->pins[g->npins++] = gfn;
	if (g->p.policy == VGPU_PPGTT_STATIC)
		relax_gfn(v, gfn);
	return 0;
}

uint32_t vgpu_ghyvi_relaxed(const struct vgpu *v)
{
	const struct ghyvi *g = ghyvi_of(v);

	return g ? g->nrelaxed : 0;
}

const struct vgpu_ext_ops ghyvi_ext_ops = {
	.name = "ghyvi",
	.attach = ghyvi_attach,
	.detach = ghyvi_detach,
	.spt_new = ghyvi_on_alloc,
	.spt_gone = ghyvi_on_free,
	.ppgtt_write = ghyvi_on_trap,
	.ppgtt_sync = ghyvi_reconstruct,
	.ppgtt_check = ghyvi_check,
};
