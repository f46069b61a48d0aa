/* Shadow page tables: one shadow page per guest PPGTT table page, found by
 * (guest frame, level), shared by every parent that points at it (i915
 * points all unused entries of a level at one scratch table, so sharing
 * keeps a fresh PPGTT at a handful of shadow pages).
 *
 * Every guest table page with a live shadow is write-protected through
 * hv_ops; its shadow holds only validated host addresses: a leaf is the
 * host page hv_ops gpa_to_hpa gave for a page of this VM, an inner entry is
 * another shadow page. Anything else becomes a not-present entry, so the
 * GPU faults instead of reaching memory the VM does not own.
 *
 * A research system attached through the PPGTT hooks (vgpu_ext.h; gHyvi,
 * gpu/ghyvi) may instead keep a table relaxed: unprotected, with a
 * snapshot of the guest entries its shadow was built from, brought up to
 * date before the GPU uses it. The shadow values are the same either way
 * (spt_set is the only writer).
 *
 * Recursion (fill, put) is bounded by the four levels. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "mini/string.h"

#define PTE_FLAGS 0xfffull /* present, rw, pwt, pcd, pat, ... */
#define PDE_FLAGS (0xfffull & ~(GEN8_PDE_PS_2M | GEN8_PDE_IPS_64K))
#define PTE_HIGH_BITS GEN9_GENMASK_ULL(63, 46)

static uint32_t hash_of(uint64_t gfn)
{
	return (uint32_t)(gfn ^ (gfn >> 10) ^ (gfn >> 20)) & (VGPU_SPT_HASH - 1);
}

int vgpu_ppgtt_init(struct vgpu *v)
{
	int32_t i;
	int ret;

	for (i = 0; i < VGPU_SPT_HASH; i++)
		v->spt_hash[i] = SPT_NONE;
	if (!v->pt_budget)
		v->pt_budget = VGPU_SHADOW_PT_KIB_DEFAULT / 4;
	ret = vslab_init(v, &v->spts, sizeof(struct spt), VGPU_SPT_MAX);
	if (!ret)
		ret = vgpu_mm_init(v);
	if (!ret)
		ret = vgpu_ext_attach(v);
	return ret;
}

static bool gfn_tracked_by_other(struct vgpu *v, uint64_t gfn, int32_t self)
{
	int32_t i;

	for (i = v->spt_hash[hash_of(gfn)]; i != SPT_NONE; i = SPT(v, i).hnext)
		if (i != self && SPT(v, i).gfn == gfn && !SPT(v, i).dead)
			return true;
	return false;
}

/* A page a looped batch is watched on (vgpu_bb_watch.c) stays
 * protected when its last table goes. */
static void wp(struct vgpu *v, uint64_t gfn, bool on)
{
	const struct hv_if *hv = &v->gvt->hv;

	if (on)
		hv->ops->wp_page(hv->ctx, v->vm, gfn << 12);
	else if (!bbw_holds(v, gfn))
		hv->ops->unwp_page(hv->ctx, v->vm, gfn << 12);
}

/* Some live strict (protected) table shadows guest page gfn. */
bool spt_gfn_strict(struct vgpu *v, uint64_t gfn)
{
	int32_t i;

	for (i = v->spt_hash[hash_of(gfn)]; i != SPT_NONE; i = SPT(v, i).hnext)
		if (SPT(v, i).gfn == gfn && !SPT(v, i).dead &&
		    !SPT(v, i).relaxed)
			return true;
	return false;
}

int32_t spt_lookup(struct vgpu *v, uint64_t gfn, int level)
{
	int32_t i;

	for (i = v->spt_hash[hash_of(gfn)]; i != SPT_NONE; i = SPT(v, i).hnext)
		if (SPT(v, i).gfn == gfn && SPT(v, i).level == level &&
		    !SPT(v, i).dead)
			return i;
	return SPT_NONE;
}

int32_t spt_alloc(struct vgpu *v, uint64_t gfn, int level)
{
	int32_t idx = vslab_alloc(v, &v->spts);
	struct spt *s;
	uint32_t h = hash_of(gfn);
	unsigned int i;

	if (idx == SPT_NONE)
		return SPT_NONE;
	s = &SPT(v, idx);
	s->shadow = spt_page_alloc(v, 1, &s->shadow_hpa);
	if (s->shadow && level > SPT_PT)
		s->child = spt_page_alloc(v, 1, NULL);
	if (!s->shadow || (level > SPT_PT && !s->child)) {
		spt_page_free(v, s->shadow, 1);
		spt_page_free(v, s->child, 1);
		vslab_free(v, &v->spts, idx);
		return SPT_NONE;
	}
	if (s->child)
		for (i = 0; i < VGPU_PTES_PER_PAGE; i++)
			s->child[i] = SPT_NONE;
	s->gfn = gfn;
	s->level = (uint8_t)level;
	s->self = idx;
	/* Relaxed at birth (vgpu_ext.h): never protected; spt_fill
	 * snapshots. */
	if (!vgpu_ext_spt_new(v, idx) && !gfn_tracked_by_other(v, gfn, idx))
		wp(v, gfn, true);
	s->hnext = v->spt_hash[h];
	v->spt_hash[h] = idx;
	v->spt_count++;
	v->stats.spt_created++;
	return idx;
}

static void spt_unhash(struct vgpu *v, int32_t idx)
{
	int32_t *p = &v->spt_hash[hash_of(SPT(v, idx).gfn)];

	while (*p != SPT_NONE && *p != idx)
		p = &SPT(v, *p).hnext;
	if (*p == idx)
		*p = SPT(v, idx).hnext;
}

/* Drop every child reference of a table (its shadow entries go to 0). */
static void spt_drop_children(struct vgpu *v, int32_t idx)
{
	unsigned int i;

	for (i = 0; i < VGPU_PTES_PER_PAGE; i++) {
		struct spt *s = &SPT(v, idx);
		int32_t c;

		s->shadow[i] = 0;
		if (!s->child || s->child[i] == SPT_NONE)
			continue;
		c = s->child[i];
		s->child[i] = SPT_NONE;
		spt_put(v, c);
	}
}

void spt_free(struct vgpu *v, int32_t idx)
{
	struct spt *s = &SPT(v, idx);

	if (!s->dead && !s->relaxed && !gfn_tracked_by_other(v, s->gfn, idx))
		wp(v, s->gfn, false);
	vgpu_ext_spt_gone(v, idx);
	spt_unhash(v, idx);
	spt_page_free(v, s->shadow, 1);
	spt_page_free(v, s->child, 1);
	vslab_free(v, &v->spts, idx);
	v->spt_count--;
	v->stats.spt_freed++;
}

void spt_put(struct vgpu *v, int32_t idx)
{
	struct spt *s = &SPT(v, idx);

	if (!s->refs || --s->refs)
		return;
	spt_drop_children(v, idx);
	spt_free(v, idx);
}

/* The page stopped being a page table (i915-guest §10, gvt-facts §F3): stop
 * tracking it instead of failing. Its shadow empties at once, so nothing
 * the GPU reaches through it survives; roots using it are rebuilt from the
 * guest's tables before their next submission. */
void spt_kill(struct vgpu *v, int32_t idx)
{
	struct spt *s = &SPT(v, idx);

	if (s->dead)
		return;
	if (!s->relaxed && !gfn_tracked_by_other(v, s->gfn, idx))
		wp(v, s->gfn, false);
	vgpu_ext_spt_gone(v, idx);
	s->dead = true;
	memset(s->post, 0, sizeof(s->post));
	vslab_flag(&v->spts, idx, false);
	spt_drop_children(v, idx);
	v->ppgtt_gen++;
	v->visit_stamp++; /* every table may lead here: repair again */
	v->stats.spt_untracked++;
	vgpu_dbg(v, "untracked page-table page gfn 0x%llx level %u",
		 (unsigned long long)s->gfn, s->level);
}

/* Shadow of the guest table at gpa, one more reference. */
int32_t spt_get_shadow(struct vgpu *v, uint64_t gpa, int level)
{
	uint64_t gfn = gpa >> 12, hpa;
	int32_t idx = spt_lookup(v, gfn, level);

	if (idx != SPT_NONE) {
		SPT(v, idx).refs++;
		/* A shared table may still lead to a table untracked since:
		 * the roots that reached it then are repaired at their next
		 * submission (ppgtt_gen), but a root or entry that reaches it
		 * only now is not. Repair it here; spt_kill starts a new visit
		 * round, so each table is walked at most once per untrack. */
		spt_repair(v, idx);
		return idx;
	}
	if (vgpu_gpa_to_hpa(v, gpa, &hpa))
		return SPT_NONE; /* not the VM's RAM: cannot be a table */
	idx = spt_alloc(v, gfn, level);
	if (idx == SPT_NONE) {
		if (!v->pt_short) /* not the budget: no memory at all */
			v->stats.ppgtt_errors++;
		return SPT_NONE;
	}
	SPT(v, idx).refs = 1;
	if (spt_fill(v, idx)) {
		spt_put(v, idx);
		return SPT_NONE;
	}
	return idx;
}

/* New shadow value for entry i holding guest value g; *child gets the
 * referenced shadow table (SPT_NONE for leaves / not present). -GPU_EINVAL
 * for a value no page table holds. */
static int shadow_entry(struct vgpu *v, int level, uint64_t g, uint64_t *out,
			int32_t *child)
{
	bool was_short, now_short;
	uint64_t hpa;

	*out = 0;
	*child = SPT_NONE;
	if (!(g & GEN8_PAGE_PRESENT))
		return 0;
	if (g & PTE_HIGH_BITS)
		return -GPU_EINVAL;
	if (level == SPT_PT) {
		if (vgpu_gpa_to_hpa(v, gen8_pte_addr(g), &hpa)) {
			v->stats.pte_invalid++;
			return 0;
		}
		*out = (g & PTE_FLAGS) | gen8_pte_addr(hpa);
		return 0;
	}
	if (g & GEN8_PDE_PS_2M) {
		/* 2 MiB / 1 GiB pages: not offered (no HUGE_GTT cap). */
		v->stats.pte_invalid++;
		return 0;
	}
	was_short = v->pt_short;
	v->pt_short = false;
	*child = spt_get_shadow(v, gen8_pte_addr(g), level - 1);
	now_short = v->pt_short;
	v->pt_short = was_short || now_short;
	if (*child == SPT_NONE) {
		if (now_short)
			return -GPU_ENOSPC; /* the budget, not the guest */
		v->stats.pte_invalid++;
		return 0;
	}
	*out = (g & PDE_FLAGS) | SPT(v, *child).shadow_hpa;
	return 0;
}

int spt_set(struct vgpu *v, int32_t idx, unsigned int i, uint64_t g)
{
	struct spt *s = &SPT(v, idx);
	int32_t child, old;
	uint64_t val;
	int ret;

	/* New child first, old one dropped after: an unchanged entry keeps
	 * its subtree instead of tearing it down and rebuilding it. */
	ret = shadow_entry(v, s->level, g, &val, &child);
	if (ret == -GPU_ENOSPC) {
		/* No shadow memory for the table below now: the entry is not
		 * present until the next submission re-reads it (post-shadow
		 * pass), after idle roots were evicted to make room. */
		s->post[i / 64] |= 1ull << (i % 64);
		spt_post_flag(v, s);
		val = 0;
		child = SPT_NONE;
		v->stats.pt_deferred_entries++;
	} else if (ret) {
		return ret;
	}
	old = s->child ? s->child[i] : SPT_NONE;
	if (s->child)
		s->child[i] = child;
	s->shadow[i] = val;
	if (old != SPT_NONE)
		spt_put(v, old);
	return ret;
}

int spt_fill(struct vgpu *v, int32_t idx)
{
	uint64_t base = SPT(v, idx).gfn << 12, g;
	unsigned int i;

	v->stats.spt_entries_filled += VGPU_PTES_PER_PAGE;
	for (i = 0; i < VGPU_PTES_PER_PAGE; i++) {
		if (vgpu_read_gpa(v, base + 8ull * i, &g, 8))
			return -GPU_EFAULT;
		if (SPT(v, idx).snap)
			SPT(v, idx).snap[i] = g;
		/* Garbage in a fresh table costs that entry only; one without
		 * shadow memory now is re-read before the next submission. */
		if (spt_set(v, idx, i, g) == -GPU_EINVAL)
			v->stats.pte_invalid++;
	}
	return 0;
}

void spt_post_flag(struct vgpu *v, const struct spt *s)
{
	uint32_t c = (uint32_t)s->self / VSLAB_PER;

	vslab_flag(&v->spts, s->self, true);
	v->post_pending = true;
	v->post_chunks[c / 64] |= 1ull << (c % 64);
}

/* Re-read entry i from the guest and shadow it again. The snapshot, if
 * the table has one, takes the value too: it must hold what the shadow
 * was built from. A repair reaching a relaxed table re-shadows an entry
 * from the guest's current value; left with the old one, a guest that
 * then writes the old value back is not seen by the diff, and the shadow
 * keeps the repaired entry (fuzz_ghyvi, corpus regress-repair-snap). */
int spt_update_entry(struct vgpu *v, int32_t idx, unsigned int i)
{
	uint64_t g;

	SPT(v, idx).post[i / 64] &= ~(1ull << (i % 64));
	if (vgpu_read_gpa(v, (SPT(v, idx).gfn << 12) + 8ull * i, &g, 8))
		return -GPU_EFAULT;
	if (SPT(v, idx).snap)
		SPT(v, idx).snap[i] = g;
	return spt_set(v, idx, i, g);
}

/* After an untrack: re-shadow every entry that points at a dead table,
 * from the guest's current value. Shared tables are visited once. */
void spt_repair(struct vgpu *v, int32_t idx)
{
	struct spt *s = &SPT(v, idx);
	unsigned int i;

	if (s->level == SPT_PT || s->dead || s->visit == v->visit_stamp)
		return;
	s->visit = v->visit_stamp;
	for (i = 0; i < VGPU_PTES_PER_PAGE && !s->dead; i++) {
		int32_t c = s->child[i];

		if (c == SPT_NONE)
			continue;
		if (!SPT(v, c).dead) {
			spt_repair(v, c);
			continue;
		}
		if (spt_update_entry(v, idx, i) == -GPU_EINVAL)
			spt_kill(v, idx);
	}
}

/* What shadow_entry() would produce for g, without side effects. */
bool spt_expected(struct vgpu *v, int32_t idx, uint64_t g, uint64_t *want)
{
	int level = SPT(v, idx).level;
	uint64_t hpa;
	int32_t c;

	*want = 0;
	if (!(g & GEN8_PAGE_PRESENT))
		return true;
	if (g & PTE_HIGH_BITS)
		return true; /* garbage: dropped (a fresh table over data) */
	if (level == SPT_PT) {
		if (!vgpu_gpa_to_hpa(v, gen8_pte_addr(g), &hpa))
			*want = (g & PTE_FLAGS) | gen8_pte_addr(hpa);
		return true;
	}
	if (g & GEN8_PDE_PS_2M)
		return true;
	c = spt_lookup(v, gen8_pte_addr(g) >> 12, level - 1);
	if (c == SPT_NONE)
		/* No shadow: right only when the target is not the VM's RAM. */
		return vgpu_gpa_to_hpa(v, gen8_pte_addr(g), &hpa) != 0;
	*want = (g & PDE_FLAGS) | SPT(v, c).shadow_hpa;
	return true;
}
