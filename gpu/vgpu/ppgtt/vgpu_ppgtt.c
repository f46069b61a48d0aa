/* PPGTT roots and the write-trap path (strict shadowing, gvt-facts §5).
 *
 * A shadow "mm" is one guest PML4 the vGPU knows of: announced by the
 * guest (g2v notify) or used by a submitted workload. Its shadow tree is
 * built when the budget allows (at the announcement if there is room, at
 * the latest when a workload using it is submitted) and kept afterwards;
 * the context that reaches the hardware carries the shadow root instead
 * of the guest's (vgpu_workload.c).
 *
 * Contexts at scale (docs/shadow-ppgtt.md): i915 creates one PPGTT per
 * context, a desktop hundreds. Records are found by root through a hash,
 * live in a slab (vgpu_slab.c) and cost no shadow until used; the shadow
 * trees share one per-vGPU budget of shadow page-table memory
 * (pt_budget pages). When a tree does not fit, the least recently used
 * shadowed root no queued or running workload holds (refs == 0) is
 * dropped: its tables are freed and their write protection lifted unless
 * another shadow still uses them; the record stays if the guest announced
 * it, and the tree is rebuilt from the guest's tables at its next
 * submission. Only when every shadow is held by in-flight work does the
 * submission wait (-GPU_EAGAIN: the execlist defers it); a tree that alone
 * exceeds the whole budget is built as far as it fits and its user
 * batches fail as after a hang (vgpu_cmd_scan.c, vgpu_user_fault.c).
 *
 * Guest stores to tracked pages come back through vgpu_page_write():
 *  - whole 8-byte entries (8-byte stores, 16-byte SSE stores, string
 *    stores) are re-shadowed at once;
 *  - part of an entry (a 4-byte half) makes the shadow entry not-present
 *    and marks it; marked entries are re-read from the guest right before
 *    the next submission ("post-shadow"), so half an entry never reaches
 *    the GPU (an entry whose table below found no shadow memory is
 *    marked the same way);
 *  - a value no page table holds (bits above 45, e.g. all ones from a page
 *    reused as data) untracks the page instead of failing (i915-guest §10).
 * Only this vGPU's state is touched on any failure.
 *
 * A research system attached through the PPGTT hooks (vgpu_ext.h; gHyvi,
 * gpu/ghyvi) hears of each trap (ppgtt_write: it may relax the page);
 * vgpu_mm_prepare lets it bring relaxed pages up to date before anything
 * else (ppgtt_sync) and check the finished tree (ppgtt_check). Dropping a
 * tree tells it of every table freed (spt_gone); a rebuilt table starts
 * strict or relaxed afresh. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "mini/string.h"

/* ---- records: hash by root, LRU of shadowed roots ------------------------ */

static uint32_t mm_hash_of(uint64_t root_gpa)
{
	uint64_t f = root_gpa >> 12;

	return (uint32_t)(f ^ (f >> 10) ^ (f >> 20)) & (VGPU_MM_HASH - 1);
}

int vgpu_mm_init(struct vgpu *v)
{
	int i;

	for (i = 0; i < VGPU_MM_HASH; i++)
		v->mm_hash[i] = SPT_NONE;
	v->lru_head = v->lru_tail = SPT_NONE;
	v->mm_shadowed = 0;
	return vslab_init(v, &v->mms, sizeof(struct shadow_mm), VGPU_MM_MAX);
}

static int32_t mm_find(struct vgpu *v, uint64_t root_gpa)
{
	int32_t i;

	for (i = v->mm_hash[mm_hash_of(root_gpa)]; i != SPT_NONE;
	     i = MM(v, i).hnext)
		if (MM(v, i).root_gpa == root_gpa)
			return i;
	return SPT_NONE;
}

static void lru_unlink(struct vgpu *v, int32_t i)
{
	struct shadow_mm *m = &MM(v, i);

	if (m->lprev != SPT_NONE)
		MM(v, m->lprev).lnext = m->lnext;
	else
		v->lru_head = m->lnext;
	if (m->lnext != SPT_NONE)
		MM(v, m->lnext).lprev = m->lprev;
	else
		v->lru_tail = m->lprev;
	m->lprev = m->lnext = SPT_NONE;
}

static void lru_push(struct vgpu *v, int32_t i)
{
	struct shadow_mm *m = &MM(v, i);

	m->lprev = SPT_NONE;
	m->lnext = v->lru_head;
	if (v->lru_head != SPT_NONE)
		MM(v, v->lru_head).lprev = i;
	else
		v->lru_tail = i;
	v->lru_head = i;
}

/* A used root moves to the front; the LRU end is what goes first. */
static void mm_touch(struct vgpu *v, int32_t i)
{
	MM(v, i).last_use = gvt_now(v->gvt);
	if (MM(v, i).root == SPT_NONE || v->lru_head == i)
		return;
	lru_unlink(v, i);
	lru_push(v, i);
}

/* Drop i's shadow tree; the record stays. */
static void mm_unshadow(struct vgpu *v, int32_t i)
{
	struct shadow_mm *m = &MM(v, i);

	if (m->root == SPT_NONE)
		return;
	lru_unlink(v, i);
	spt_put(v, m->root);
	m->root = SPT_NONE;
	m->over_budget = false;
	v->mm_shadowed--;
}

static void mm_forget(struct vgpu *v, int32_t i)
{
	int32_t *p = &v->mm_hash[mm_hash_of(MM(v, i).root_gpa)];

	mm_unshadow(v, i);
	while (*p != SPT_NONE && *p != i)
		p = &MM(v, *p).hnext;
	if (*p == i)
		*p = MM(v, i).hnext;
	vslab_free(v, &v->mms, i);
	v->stats.mm_destroyed++;
}

/* Evict the least recently used shadow no workload holds, other than
 * keep. A root the guest did not announce is forgotten with it (nothing
 * would find it again but a submission, which recreates it). */
static bool mm_evict_one(struct vgpu *v, int32_t keep)
{
	int32_t i;

	for (i = v->lru_tail; i != SPT_NONE; i = MM(v, i).lprev)
		if (!MM(v, i).refs && i != keep)
			break;
	if (i == SPT_NONE)
		return false;
	v->stats.mm_evicted++;
	MM(v, i).evicted = true;
	if (MM(v, i).g2v)
		mm_unshadow(v, i);
	else
		mm_forget(v, i);
	return true;
}

/* Idle shadows are evicted until want pages are free or none is left. */
static void mm_make_room(struct vgpu *v, uint32_t want, int32_t keep)
{
	while (v->pt_pages + want > v->pt_budget)
		if (!mm_evict_one(v, keep))
			return;
}

static int32_t mm_new(struct vgpu *v, uint64_t root_gpa)
{
	int32_t i = vslab_alloc(v, &v->mms);
	uint32_t h = mm_hash_of(root_gpa);
	struct shadow_mm *m;

	/* A record chunk is one page: make room for it like for a table. */
	if (i == SPT_NONE && mm_evict_one(v, SPT_NONE))
		i = vslab_alloc(v, &v->mms);
	if (i == SPT_NONE)
		return SPT_NONE;
	m = &MM(v, i);
	m->used = true;
	m->root_gpa = root_gpa;
	m->root = SPT_NONE;
	m->lprev = m->lnext = SPT_NONE;
	m->hnext = v->mm_hash[h];
	v->mm_hash[h] = i;
	return i;
}

/* One attempt: the whole tree, or nothing (-GPU_ENOSPC, *got = the pages
 * the attempt held before it was undone, a lower bound of its need). */
static int mm_try_build(struct vgpu *v, int32_t i, uint32_t *got)
{
	struct shadow_mm *m = &MM(v, i);
	uint32_t before = v->pt_pages;
	bool was = v->pt_short;

	v->pt_short = false;
	m->root = spt_get_shadow(v, m->root_gpa, SPT_PML4);
	*got = v->pt_pages > before ? v->pt_pages - before : 0;
	if (!v->pt_short) {
		v->pt_short = was;
		return m->root == SPT_NONE ? -GPU_EFAULT : 0;
	}
	v->pt_short = was;
	if (m->root != SPT_NONE)
		spt_put(v, m->root);
	m->root = SPT_NONE;
	return -GPU_ENOSPC;
}

/* Build i's shadow tree within the budget, evicting idle roots (least
 * recently used first) when may_evict. An attempt that ran out of budget
 * is undone and tried again with at least twice the room it used, so the
 * attempts are few (the room doubles) and end when nothing idle is left.
 * -GPU_ENOSPC: it does not fit now. */
static int mm_build(struct vgpu *v, int32_t i, bool may_evict)
{
	uint32_t got;
	int ret;

	for (;;) {
		ret = mm_try_build(v, i, &got);
		if (ret != -GPU_ENOSPC || !may_evict)
			break;
		if (v->pt_pages >= v->pt_budget ||
		    v->pt_budget - v->pt_pages < 2 * got + 8) {
			uint32_t want = 2 * got + 8;
			uint64_t before = v->stats.mm_evicted;

			mm_make_room(v, want > v->pt_budget ? v->pt_budget : want, i);
			if (v->stats.mm_evicted == before)
				break; /* nothing idle to evict */
		} else if (!mm_evict_one(v, i)) {
			break;
		}
	}
	if (ret)
		return ret;
	MM(v, i).gen = v->ppgtt_gen;
	MM(v, i).over_budget = false;
	MM(v, i).evicted = false;
	lru_push(v, i);
	v->mm_shadowed++;
	return 0;
}

/* Some other root's shadow is held by queued or running work: the memory
 * it holds comes back when that completes. */
static bool mm_others_busy(struct vgpu *v, int32_t self)
{
	int32_t i;

	for (i = v->lru_head; i != SPT_NONE; i = MM(v, i).lnext)
		if (MM(v, i).refs && i != self)
			return true;
	return false;
}

/* The tree alone exceeds the budget (nothing else is shadowed that could
 * go): build what fits, for the scanner to fail its user batches. */
static void mm_build_partial(struct vgpu *v, int32_t i)
{
	struct shadow_mm *m = &MM(v, i);
	bool was = v->pt_short;

	m->root = spt_get_shadow(v, m->root_gpa, SPT_PML4);
	v->pt_short = was;
	m->over_budget = true;
	m->gen = v->ppgtt_gen;
	if (m->root != SPT_NONE) {
		lru_push(v, i);
		v->mm_shadowed++;
	}
	v->stats.mm_over_budget++;
	if (v->stats.mm_over_budget <= 4)
		vgpu_warn(v, "vm %u: PPGTT at 0x%llx needs more than the whole "
			  "shadow page-table budget (%u KiB): its user batches "
			  "fail", v->vm, (unsigned long long)m->root_gpa,
			  v->pt_budget * 4);
}

/* A submission's root: shadowed, or it waits (-GPU_EAGAIN). */
static int mm_ensure(struct vgpu *v, int32_t i)
{
	int ret;

	if (MM(v, i).root != SPT_NONE)
		return 0;
	ret = mm_build(v, i, true);
	if (ret != -GPU_ENOSPC)
		return ret;
	if (mm_others_busy(v, i)) {
		v->stats.mm_waits++;
		return -GPU_EAGAIN;
	}
	mm_build_partial(v, i);
	return MM(v, i).root == SPT_NONE ? -GPU_EFAULT : 0;
}

int vgpu_mm_get(struct vgpu *v, uint64_t root_gpa, bool g2v)
{
	uint64_t t0 = vgpu_time_start(v);
	bool fresh = false;
	int32_t i;
	int ret = 0;

	root_gpa &= GEN8_PTE_ADDR_MASK;
	i = mm_find(v, root_gpa);
	if (i == SPT_NONE) {
		uint64_t hpa;

		/* Not the VM's RAM: cannot be a table (nothing recorded). */
		if (vgpu_gpa_to_hpa(v, root_gpa, &hpa)) {
			vgpu_time_add(v, &v->stats.ns_shadow, t0);
			return -GPU_EFAULT;
		}
		i = mm_new(v, root_gpa);
		if (i == SPT_NONE) {
			vgpu_time_add(v, &v->stats.ns_shadow, t0);
			return g2v ? -GPU_ENOMEM : -GPU_EAGAIN;
		}
		fresh = true;
		v->stats.mm_created++;
	}
	if (g2v) {
		/* Recorded; shadowed now only if it fits without evicting
		 * (a creation storm must not thrash the roots in use). */
		MM(v, i).g2v = true;
		MM(v, i).destroyed = false; /* announced again while busy */
		if (MM(v, i).root == SPT_NONE && mm_build(v, i, false) == -GPU_EFAULT)
			v->stats.ppgtt_errors++;
	} else {
		bool rebuild = MM(v, i).evicted && MM(v, i).root == SPT_NONE;
		uint64_t t1 = vgpu_time_start(v);

		ret = mm_ensure(v, i);
		if (ret) {
			if (fresh && !MM(v, i).refs)
				mm_forget(v, i);
			vgpu_time_add(v, &v->stats.ns_shadow, t0);
			return ret;
		}
		if (rebuild) {
			v->stats.mm_rebuilt_evicted++;
			vgpu_time_add(v, &v->stats.ns_mm_rebuild, t1);
		}
		MM(v, i).refs++;
	}
	mm_touch(v, i);
	vgpu_time_add(v, &v->stats.ns_shadow, t0);
	return i;
}

void vgpu_mm_put(struct vgpu *v, int mm)
{
	struct shadow_mm *m = &MM(v, mm);

	if (m->refs && !--m->refs) {
		/* Memory a waiting submission may need. */
		v->mm_wake = true;
		if (m->destroyed || (!m->g2v && m->root == SPT_NONE))
			mm_forget(v, mm);
		return;
	}
	m->last_use = gvt_now(v->gvt);
}

int vgpu_mm_destroy_g2v(struct vgpu *v, uint64_t root_gpa)
{
	int32_t i = mm_find(v, root_gpa & GEN8_PTE_ADDR_MASK);

	if (i == SPT_NONE || !MM(v, i).g2v)
		return -GPU_ENOENT;
	MM(v, i).g2v = false;
	/* In use by queued work: it goes when that completes. */
	if (!MM(v, i).refs) {
		mm_forget(v, i);
	} else {
		MM(v, i).destroyed = true;
		v->stats.mm_destroy_busy++;
	}
	return 0;
}

/* Shadow memory is short: evict idle roots (never keep, the one about to
 * run) until the refused entries can be built. */
static void mm_relieve(struct vgpu *v, int32_t keep)
{
	if (!v->pt_short)
		return;
	v->pt_short = false;
	mm_make_room(v, v->pt_budget / 4, keep);
}

/* The lowest chunk at or above c with a bit in post_chunks, or -1. */
static int32_t post_chunk_next(const struct vgpu *v, uint32_t c)
{
	uint32_t w = c / 64;
	uint64_t bits;

	if (w >= sizeof(v->post_chunks) / sizeof(v->post_chunks[0]))
		return -1;
	bits = v->post_chunks[w] & (~0ull << (c % 64));
	while (!bits) {
		if (++w >= sizeof(v->post_chunks) / sizeof(v->post_chunks[0]))
			return -1;
		bits = v->post_chunks[w];
	}
	return (int32_t)(w * 64 + (uint32_t)__builtin_ctzll(bits));
}

/* The lowest table at or above slot from with a post-shadow flag, or
 * SPT_NONE; chunks found with no flag left lose their bit. */
static int32_t post_next(struct vgpu *v, uint32_t from)
{
	int32_t c = post_chunk_next(v, from / VSLAB_PER);

	for (; c >= 0; c = post_chunk_next(v, (uint32_t)c + 1)) {
		uint64_t all = vslab_flags(&v->spts, (uint32_t)c), bits = all;

		if ((uint32_t)c == from / VSLAB_PER)
			bits &= ~0ull << (from % VSLAB_PER);
		if (bits)
			return (int32_t)((uint32_t)c * VSLAB_PER +
					 (uint32_t)__builtin_ctzll(bits));
		if (!all)
			v->post_chunks[c / 64] &= ~(1ull << (c % 64));
	}
	return SPT_NONE;
}

/* Finish the half-written entries of one table. Each mark once: an entry
 * still without shadow memory marks itself again for the next flush. */
static void post_table(struct vgpu *v, int32_t idx)
{
	struct spt *s = &SPT(v, idx);
	unsigned int w;

	v->stats.post_tables_visited++;
	for (w = 0; w < VGPU_PTES_PER_PAGE / 64; w++) {
		uint64_t bits = s->post[w];

		while (bits && !s->dead) {
			unsigned int bit = (unsigned int)__builtin_ctzll(bits);

			bits &= bits - 1;
			if (spt_update_entry(v, idx, w * 64 + bit) == -GPU_EINVAL)
				spt_kill(v, idx);
		}
	}
}

/* Finish half-written entries: only the flagged tables, in slot order. A
 * table flagged during the pass is visited in it when its slot is further
 * on, at the next pass otherwise (its own new marks included). */
static void flush_post_shadow(struct vgpu *v)
{
	int32_t idx;

	if (!v->post_pending)
		return;
	v->post_pending = false;
	for (idx = post_next(v, 0); idx != SPT_NONE;
	     idx = post_next(v, (uint32_t)idx + 1)) {
		vslab_flag(&v->spts, idx, false);
		/* Flags live only on live tables: kill and free clear them. */
		post_table(v, idx);
	}
}

int vgpu_mm_prepare(struct vgpu *v, int mm, uint64_t *root)
{
	struct shadow_mm *m = &MM(v, mm);
	uint64_t t0 = vgpu_time_start(v);
	int ret;

	/* Entries left without shadow memory: room first (this root is held
	 * by the workload, so it stays). Then relaxed pages: their changed
	 * entries may leave half-written marks or untrack tables, which the
	 * passes below finish. */
	mm_relieve(v, mm);
	vgpu_ext_ppgtt_sync(v);
	flush_post_shadow(v);
	if (m->gen != v->ppgtt_gen) {
		/* Some table was untracked since: replace a dead root, then
		 * re-shadow every entry that led to a dead table from the
		 * guest's current tables (live subtrees are kept). */
		int32_t old = m->root;

		m->gen = v->ppgtt_gen;
		if (old == SPT_NONE || SPT(v, old).dead) {
			m->root = spt_get_shadow(v, m->root_gpa, SPT_PML4);
			if (old != SPT_NONE)
				spt_put(v, old);
			if (old != SPT_NONE && m->root == SPT_NONE) {
				/* Off the LRU with its tree (as mm_unshadow). */
				m->root = old;
				lru_unlink(v, mm);
				m->root = SPT_NONE;
				v->mm_shadowed--;
			} else if (old == SPT_NONE && m->root != SPT_NONE) {
				lru_push(v, mm);
				v->mm_shadowed++;
			}
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
	ret = vgpu_ext_ppgtt_check(v, mm);
	if (ret)
		return ret;
	*root = SPT(v, m->root).shadow_hpa;
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

	for (i = first; i <= last && !SPT(v, idx).dead; i++) {
		bool whole = off <= i * 8 && off + len >= i * 8 + 8;

		if (!whole) {
			/* Half an entry: unusable until the rest arrives. */
			SPT(v, idx).post[i / 64] |= 1ull << (i % 64);
			spt_post_flag(v, &SPT(v, idx));
			SPT(v, idx).shadow[i] = 0;
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
		/* A protection we no longer need (raced with an untrack),
		 * unless a looped batch is watched there. */
		const struct hv_if *hv = &v->gvt->hv;

		if (!bbw_holds(v, gpa >> 12))
			hv->ops->unwp_page(hv->ctx, v->vm, gpa);
		return;
	}
	for (k = 0; k < n; k++)
		trap_one(v, found[k], gpa & 0xfff, len);
	vgpu_ext_ppgtt_write(v, gpa >> 12);
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
		/* A page may hold a looped batch and a page table. */
		bbw_page_write(v, gpa, n);
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

	if (v->mms.dir)
		for (i = 0; i < vslab_end(&v->mms); i++) {
			struct shadow_mm *m = vslab_get(&v->mms, i);

			if (m && m->used)
				mm_forget(v, i);
		}
	/* Dead tables still referenced by nothing are gone by now; free any
	 * leftovers so their protection is lifted. */
	if (v->spts.dir)
		for (i = 0; i < vslab_end(&v->spts); i++) {
			struct spt *s = vslab_get(&v->spts, i);

			if (s && s->level)
				spt_free(v, i);
		}
	vgpu_ext_detach(v);
	vslab_fini(v, &v->mms);
	vslab_fini(v, &v->spts);
}

/* Full GPU reset: forget every root no queued work still needs (an
 * announced one keeps its record, to be rebuilt at its next use). */
void vgpu_ppgtt_reset(struct vgpu *v)
{
	int32_t i;

	for (i = 0; i < vslab_end(&v->mms); i++) {
		struct shadow_mm *m = vslab_get(&v->mms, i);

		if (!m || !m->used || m->refs)
			continue;
		if (m->g2v)
			mm_unshadow(v, i);
		else
			mm_forget(v, i);
	}
}

/* Shadow page-table memory of the vGPU (vgpu.h). */
int vgpu_ppgtt_set_budget(struct vgpu *v, uint32_t kib)
{
	if (kib < VGPU_SHADOW_PT_KIB_MIN || kib > VGPU_SHADOW_PT_KIB_MAX)
		return -GPU_EINVAL;
	v->pt_budget = kib / 4;
	/* Lowered below what is in use: idle roots go now, busy ones when
	 * their work completes and memory is next needed. */
	mm_make_room(v, 0, SPT_NONE);
	v->pt_peak = v->pt_pages;
	return 0;
}

void vgpu_ppgtt_usage(const struct vgpu *v, struct vgpu_ppgtt_usage *u)
{
	u->budget_kib = v->pt_budget * 4;
	u->used_kib = v->pt_pages * 4;
	u->peak_kib = v->pt_peak * 4;
	u->meta_kib = (v->spts.meta_pages + v->mms.meta_pages) * 4;
	u->roots = v->mms.used;
	u->shadowed = v->mm_shadowed;
	u->tables = v->spt_count;
}
