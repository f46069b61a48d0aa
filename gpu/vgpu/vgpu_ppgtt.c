/* PPGTT roots and the write-trap path (strict shadowing, gvt features §5).
 *
 * A shadow "mm" is one guest PML4 and its shadow tree. It is built when
 * the guest announces the PPGTT (g2v notify) or, at the latest, when a
 * workload using it is submitted, and kept (cached) afterwards; the
 * context that reaches the hardware carries the shadow root instead of the
 * guest's (vgpu_workload.c).
 *
 * Guest stores to tracked pages come back through vgpu_page_write():
 *  - whole 8-byte entries (8-byte stores, 16-byte SSE stores, string
 *    stores) are re-shadowed at once;
 *  - part of an entry (a 4-byte half) makes the shadow entry not-present
 *    and marks it; marked entries are re-read from the guest right before
 *    the next submission ("post-shadow"), so half an entry never reaches
 *    the GPU;
 *  - a value no page table holds (bits above 45, e.g. all ones from a page
 *    reused as data) untracks the page instead of failing (guest §10).
 * Only this vGPU's state is touched on any failure.
 *
 * gHyvi (ghyvi_relax.c): each trap also feeds the per-page write-rate
 * detector that may relax the page; vgpu_mm_prepare reconstructs every
 * relaxed page before anything else, and (test mode) verifies the tree. */
#include "gpu/vgpu/vgpu_priv.h"
#include "mini/string.h"

static void mm_release(struct vgpu *v, int mm)
{
	struct shadow_mm *m = &v->mm[mm];

	if (m->root != SPT_NONE)
		spt_put(v, m->root);
	memset(m, 0, sizeof(*m));
	m->root = SPT_NONE;
	v->stats.mm_destroyed++;
}

static int mm_find(struct vgpu *v, uint64_t root_gpa)
{
	int i;

	for (i = 0; i < VGPU_MAX_MM; i++)
		if (v->mm[i].used && v->mm[i].root_gpa == root_gpa)
			return i;
	return -1;
}

/* A free slot, evicting the least recently used idle root if needed. */
static int mm_slot(struct vgpu *v)
{
	int i, lru = -1;

	for (i = 0; i < VGPU_MAX_MM; i++) {
		if (!v->mm[i].used)
			return i;
		if (!v->mm[i].refs && !v->mm[i].g2v &&
		    (lru < 0 || v->mm[i].last_use < v->mm[lru].last_use))
			lru = i;
	}
	if (lru >= 0)
		mm_release(v, lru);
	return lru;
}

int vgpu_mm_get(struct vgpu *v, uint64_t root_gpa, bool g2v)
{
	uint64_t t0 = vgpu_time_start(v);
	struct shadow_mm *m;
	int i;

	root_gpa &= GEN8_PTE_ADDR_MASK;
	i = mm_find(v, root_gpa);
	if (i < 0) {
		i = mm_slot(v);
		if (i < 0)
			return -GPU_ENOSPC;
		m = &v->mm[i];
		m->root = spt_get_shadow(v, root_gpa, SPT_PML4);
		if (m->root == SPT_NONE) {
			m->root = SPT_NONE;
			return -GPU_EFAULT;
		}
		m->used = true;
		m->root_gpa = root_gpa;
		m->gen = v->ppgtt_gen;
		v->stats.mm_created++;
	}
	m = &v->mm[i];
	if (g2v)
		m->g2v = true;
	else
		m->refs++;
	m->last_use = gvt_now(v->gvt);
	vgpu_time_add(v, &v->stats.ns_shadow, t0);
	return i;
}

void vgpu_mm_put(struct vgpu *v, int mm)
{
	struct shadow_mm *m = &v->mm[mm];

	if (m->refs)
		m->refs--;
	m->last_use = gvt_now(v->gvt);
}

int vgpu_mm_destroy_g2v(struct vgpu *v, uint64_t root_gpa)
{
	int i = mm_find(v, root_gpa & GEN8_PTE_ADDR_MASK);

	if (i < 0)
		return -GPU_ENOENT;
	v->mm[i].g2v = false;
	/* In use by queued work: it goes when that completes (LRU). */
	if (!v->mm[i].refs)
		mm_release(v, i);
	return 0;
}

/* Finish half-written entries of every tracked table. */
static void flush_post_shadow(struct vgpu *v)
{
	int32_t idx;
	unsigned int w;

	/* Marks are set only by trap_one, which raises post_pending; a flush
	 * leaves none on a live table (dead and free ones have them cleared). */
	if (!v->post_pending)
		return;
	v->post_pending = false;
	for (idx = 0; idx < VGPU_MAX_SPT; idx++) {
		struct spt *s = &v->spt[idx];

		if (!s->level || s->dead)
			continue;
		for (w = 0; w < VGPU_PTES_PER_PAGE / 64; w++) {
			while (s->post[w] && !s->dead) {
				unsigned int bit = (unsigned int)__builtin_ctzll(s->post[w]);

				if (spt_update_entry(v, idx, w * 64 + bit) == -GPU_EINVAL)
					spt_kill(v, idx);
			}
		}
	}
}

int vgpu_mm_prepare(struct vgpu *v, int mm, uint64_t *root)
{
	struct shadow_mm *m = &v->mm[mm];
	uint64_t t0 = vgpu_time_start(v);

	/* Relaxed pages first: their changed entries may leave half-written
	 * marks or untrack tables, which the passes below finish. */
	ghyvi_reconstruct(v);
	flush_post_shadow(v);
	if (m->gen != v->ppgtt_gen) {
		/* Some table was untracked since: replace a dead root, then
		 * re-shadow every entry that led to a dead table from the
		 * guest's current tables (live subtrees are kept). */
		int32_t old = m->root;

		m->gen = v->ppgtt_gen;
		if (old == SPT_NONE || v->spt[old].dead) {
			m->root = spt_get_shadow(v, m->root_gpa, SPT_PML4);
			if (old != SPT_NONE)
				spt_put(v, old);
		}
		if (m->root != SPT_NONE) {
			v->visit_stamp++;
			spt_repair(v, m->root);
		}
		v->stats.mm_rebuilt++;
	}
	vgpu_time_add(v, &v->stats.ns_shadow, t0);
	if (m->root == SPT_NONE)
		return -GPU_EFAULT;
	if (v->ghyvi.p.verify && ghyvi_verify_mm(v, mm)) {
		vgpu_err(v, "verify: shadow differs from guest tables; workload refused");
		return -GPU_EIO;
	}
	*root = v->spt[m->root].shadow_hpa;
	return 0;
}

/* Tracked tables on the guest frame (any level), at most n. */
static int spts_on(struct vgpu *v, uint64_t gfn, int32_t *out, int n)
{
	int lvl, k = 0;

	for (lvl = SPT_PT; lvl <= SPT_PML4 && k < n; lvl++) {
		int32_t i = spt_lookup(v, gfn, lvl);

		if (i != SPT_NONE)
			out[k++] = i;
	}
	return k;
}

static void trap_one(struct vgpu *v, int32_t idx, uint32_t off, uint32_t len)
{
	unsigned int i, first = off / 8, last = (off + len - 1) / 8;

	for (i = first; i <= last && !v->spt[idx].dead; i++) {
		bool whole = off <= i * 8 && off + len >= i * 8 + 8;

		if (!whole) {
			/* Half an entry: unusable until the rest arrives. */
			v->spt[idx].post[i / 64] |= 1ull << (i % 64);
			v->post_pending = true;
			v->spt[idx].shadow[i] = 0;
			v->stats.pte_trap_partial++;
			continue;
		}
		if (spt_update_entry(v, idx, i) == -GPU_EINVAL)
			spt_kill(v, idx);
	}
}

static void page_write_one(struct vgpu *v, uint64_t gpa, uint32_t len)
{
	int32_t found[SPT_PML4];
	int n, k;

	n = spts_on(v, gpa >> 12, found, SPT_PML4);
	if (!n) {
		/* A protection we no longer need (raced with an untrack). */
		const struct hv_if *hv = &v->gvt->hv;

		hv->ops->unwp_page(hv->ctx, v->vm, gpa);
		return;
	}
	for (k = 0; k < n; k++)
		trap_one(v, found[k], gpa & 0xfff, len);
	ghyvi_on_trap(v, gpa >> 12);
}

int vgpu_page_write(struct vgpu *v, uint64_t gpa, const void *data,
		    size_t len)
{
	uint64_t t0 = vgpu_time_start(v);

	(void)data; /* the bytes are in guest memory already; re-read there */
	v->stats.pte_traps++;
	if (len > 8)
		v->stats.pte_trap_wide++;
	/* A string store may be reported whole: one page at a time. */
	while (len) {
		uint32_t n = VGPU_PAGE - (gpa & 0xfff);

		if (n > len)
			n = (uint32_t)len;
		page_write_one(v, gpa, n);
		gpa += n;
		len -= n;
	}
	vgpu_time_add(v, &v->stats.ns_shadow, t0);
	return 0;
}

int vgpu_ppgtt_gva_to_gpa(struct vgpu *v, uint64_t root_gpa, uint64_t gva,
			  uint64_t *gpa)
{
	uint64_t table = root_gpa & GEN8_PTE_ADDR_MASK, e;
	int lvl;

	for (lvl = SPT_PML4; lvl >= SPT_PT; lvl--) {
		unsigned int i = (gva >> (12 + 9 * (lvl - 1))) & 511;

		if (vgpu_read_gpa(v, table + 8ull * i, &e, 8))
			return -GPU_EFAULT;
		if (!(e & GEN8_PAGE_PRESENT) ||
		    (lvl > SPT_PT && (e & GEN8_PDE_PS_2M)))
			return -GPU_EFAULT;
		table = gen8_pte_addr(e);
	}
	*gpa = table | (gva & 0xfff);
	return 0;
}

void vgpu_ppgtt_fini(struct vgpu *v)
{
	int32_t i;

	if (!v->spt) {
		ghyvi_fini(v);
		return;
	}
	for (i = 0; i < VGPU_MAX_MM; i++)
		if (v->mm[i].used)
			mm_release(v, i);
	/* Dead tables still referenced by nothing are gone by now; free any
	 * leftovers so their protection is lifted. */
	for (i = 0; i < VGPU_MAX_SPT; i++)
		if (v->spt[i].level)
			spt_free(v, i);
	gvt_free_pages(v->gvt, v->spt, v->spt_pages);
	v->spt = NULL;
	ghyvi_fini(v);
}

/* Full GPU reset: forget every root no queued work still needs. */
void vgpu_ppgtt_reset(struct vgpu *v)
{
	int i;

	for (i = 0; i < VGPU_MAX_MM; i++)
		if (v->mm[i].used && !v->mm[i].refs)
			mm_release(v, i);
}
