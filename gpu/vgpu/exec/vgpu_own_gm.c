/* The mediator's own objects in GGTT space: per vGPU and engine a shadow
 * context and a shadow ring (at rest: one grown for a large segment comes
 * from the shadow batch pool, below), and per physical engine a status
 * page. They
 * live at the top of the host's high reservation, one fixed slot of
 * GVT_OWN_SLOT_PAGES per vGPU id (slot 0: the device), so they never
 * collide with guest GM and need no allocator beyond a cursor. Below them
 * in the same reservation: each vGPU's shadow batch pool (the end of this
 * file), sized by its VM's budget. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "mini/string.h"

int gvt_own_obj_alloc(struct gvt *gvt, uint32_t slot, uint32_t *cursor,
		      uint32_t pages, struct own_obj *o)
{
	uint64_t gm;
	uint32_t i;

	memset(o, 0, sizeof(*o));
	if (slot > GVT_MAX_VGPUS || *cursor + pages > GVT_OWN_SLOT_PAGES)
		return -GPU_ENOSPC;
	gm = gvt->own_gm_base +
	     ((uint64_t)slot * GVT_OWN_SLOT_PAGES + *cursor) * VGPU_PAGE;
	o->va = gvt_pages(gvt, pages, &o->hpa);
	if (!o->va)
		return -GPU_ENOMEM;
	o->gm = (uint32_t)gm;
	o->pages = pages;
	for (i = 0; i < pages; i++)
		gpu_hw_ggtt_write(gvt->hw, (uint32_t)(gm >> 12) + i,
				  gen8_ggtt_pte_encode(o->hpa + (uint64_t)i * VGPU_PAGE));
	gpu_hw_ggtt_flush(gvt->hw);
	*cursor += pages;
	return 0;
}

void gvt_own_obj_free(struct gvt *gvt, struct own_obj *o)
{
	uint32_t i;

	if (!o->va)
		return;
	for (i = 0; i < o->pages; i++)
		gpu_hw_ggtt_write(gvt->hw, (o->gm >> 12) + i, 0);
	gpu_hw_ggtt_flush(gvt->hw);
	gvt_free_pages(gvt, o->va, o->pages);
	memset(o, 0, sizeof(*o));
}

/* ---- the shadow batch pool ------------------------------------------------
 *
 * Every batch copy a vGPU's workloads run comes from one pool per vGPU
 * (all its engines): a window of GGTT space of the VM's budget, carved
 * from the host's high GM below the fixed slots, whose pages get a host
 * page and a GGTT entry when first needed. The budget is the VM's alone,
 * so one VM filling its pool takes nothing from another's. A workload
 * holds its pages until it completes; when nothing holds any, the pool
 * shrinks back to VGPU_SBB_REST_PAGES (the rest go back to the host). */

static void list_push(struct sbb_pool *p, int32_t *head, int32_t i)
{
	p->pg[i].next = *head;
	*head = i;
}

static int32_t list_pop(struct sbb_pool *p, int32_t *head)
{
	int32_t i = *head;

	if (i >= 0)
		*head = p->pg[i].next;
	return i;
}

static void note_backed(struct vgpu *v)
{
	v->stats.sbb_pages = v->sbb.backed;
	if (v->sbb.backed > v->sbb.peak_backed)
		v->sbb.peak_backed = v->sbb.backed;
	v->stats.sbb_pages_peak = v->sbb.peak_backed;
}

int vgpu_sbb_init(struct vgpu *v, uint32_t kib)
{
	struct sbb_pool *p = &v->sbb;
	uint32_t i;

	memset(p, 0, sizeof(*p));
	p->free_backed = p->free_bare = -1;
	if (!kib)
		kib = VGPU_SBB_DEFAULT_KIB;
	if (kib < VGPU_SBB_MIN_KIB || kib > VGPU_SBB_MAX_KIB || kib % 4)
		return -GPU_EINVAL;
	p->budget = kib / 4;
	p->pg_pages = ((size_t)p->budget * sizeof(*p->pg) + VGPU_PAGE - 1) /
		      VGPU_PAGE;
	p->pg = gvt_pages(v->gvt, p->pg_pages, NULL);
	if (!p->pg)
		return -GPU_ENOMEM;
	if (gm_region_alloc(&v->gvt->sbb_region,
			    (uint64_t)p->budget * VGPU_PAGE, &p->gm)) {
		gvt_free_pages(v->gvt, p->pg, p->pg_pages);
		p->pg = NULL;
		return -GPU_ENOSPC;
	}
	memset(p->pg, 0, p->pg_pages * VGPU_PAGE);
	for (i = p->budget; i-- > 0;)
		list_push(p, &p->free_bare, (int32_t)i);
	return 0;
}

static void unback(struct vgpu *v, int32_t i)
{
	struct sbb_page *pg = &v->sbb.pg[i];

	gpu_hw_ggtt_write(v->gvt->hw, vgpu_sbb_gm(v, i) >> 12, 0);
	gvt_free_pages(v->gvt, pg->va, 1);
	pg->va = NULL;
	pg->hpa = 0;
	v->sbb.backed--;
	v->sbb.gen++;
}

/* Idle: keep VGPU_SBB_REST_PAGES backed, give the rest back. */
static void shrink(struct vgpu *v, uint32_t keep)
{
	struct sbb_pool *p = &v->sbb;
	bool any = false;

	while (p->backed > keep) {
		int32_t i = list_pop(p, &p->free_backed);

		if (i < 0)
			break;
		unback(v, i);
		list_push(p, &p->free_bare, i);
		any = true;
	}
	if (any)
		gpu_hw_ggtt_flush(v->gvt->hw);
	note_backed(v);
}

/* Idle: every page goes back to the host (the pool as vgpu_sbb_init left
 * it, for a caller that needs that state again, e.g. a harness between
 * inputs). Pages held by workloads stay. */
void vgpu_sbb_trim(struct vgpu *v)
{
	struct sbb_pool *p = &v->sbb;
	uint32_t i;

	if (p->used || !p->pg)
		return;
	shrink(v, 0);
	/* and the free list in vgpu_sbb_init's order: page 0 goes first */
	p->free_bare = -1;
	for (i = p->budget; i-- > 0;)
		list_push(p, &p->free_bare, (int32_t)i);
}

void vgpu_sbb_fini(struct vgpu *v)
{
	struct sbb_pool *p = &v->sbb;

	uint32_t i;

	if (!p->pg)
		return;
	bbw_fini(v); /* watched runs point into the pages */
	/* Every page, also those of work abandoned on the GPU. */
	for (i = 0; i < p->budget; i++)
		if (p->pg[i].va)
			unback(v, (int32_t)i);
	gpu_hw_ggtt_flush(v->gvt->hw);
	note_backed(v);
	gm_region_free(&v->gvt->sbb_region, p->gm);
	gvt_free_pages(v->gvt, p->pg, p->pg_pages);
	p->pg = NULL;
}

static int32_t back_one(struct vgpu *v)
{
	struct sbb_pool *p = &v->sbb;
	int32_t i = list_pop(p, &p->free_bare);
	struct sbb_page *pg;

	if (i < 0)
		return -1;
	pg = &p->pg[i];
	pg->va = gvt_pages(v->gvt, 1, &pg->hpa);
	if (!pg->va) {
		list_push(p, &p->free_bare, i);
		return -1;
	}
	gpu_hw_ggtt_write(v->gvt->hw, vgpu_sbb_gm(v, i) >> 12,
			  gen8_ggtt_pte_encode(pg->hpa));
	gpu_hw_ggtt_flush(v->gvt->hw);
	p->backed++;
	p->gen++;
	note_backed(v);
	return i;
}

/* user: the page will hold only copies of non-privileged batches (the
 * scanner never mixes the two in a page), so where the engine stopped
 * tells whose a hang is (vgpu_sched.c). */
int vgpu_sbb_alloc(struct vgpu *v, struct workload *w, bool user)
{
	struct sbb_pool *p = &v->sbb;
	int32_t i;

	if (w->sbb_n + w->sring_pages >= p->budget) {
		v->stats.sbb_too_big++;
		return -GPU_E2BIG;
	}
	i = list_pop(p, &p->free_backed);
	if (i < 0)
		i = back_one(v);
	if (i < 0) /* budget held by other work, or the host is out */
		return p->used ? -GPU_ENOSPC : -GPU_ENOMEM;
	p->pg[i].next = w->sbb_n ? w->sbb_first : -1;
	p->pg[i].user = user;
	p->pg[i].held = true;
	w->sbb_first = i;
	w->sbb_n++;
	p->used++;
	return i;
}

bool vgpu_sbb_user_at(const struct vgpu *v, const struct workload *w,
		      uint64_t gm)
{
	const struct sbb_pool *p = &v->sbb;
	int32_t i = w->sbb_n ? w->sbb_first : -1;
	uint64_t page;

	if (gm < p->gm || gm >= p->gm + (uint64_t)p->budget * VGPU_PAGE)
		return false;
	page = (gm - p->gm) / VGPU_PAGE;
	for (; i >= 0; i = p->pg[i].next) /* w's pages: at most the budget */
		if ((uint64_t)i == page)
			return p->pg[i].user;
	return false;
}

void vgpu_sbb_release(struct vgpu *v, struct workload *w)
{
	struct sbb_pool *p = &v->sbb;
	int32_t i = w->sbb_n ? w->sbb_first : -1;

	/* Watched runs point into these pages: they go first. */
	bbw_release(v, w);
	while (i >= 0) {
		int32_t next = p->pg[i].next;

		p->pg[i].held = false;
		list_push(p, &p->free_backed, i);
		p->used--;
		i = next;
	}
	w->sbb_n = 0;
	w->sbb_first = -1;
	if (!p->used)
		shrink(v, VGPU_SBB_REST_PAGES);
}

/* ---- runs for grown shadow rings ---------------------------------------------
 *
 * A shadow ring larger than the 64 KiB at rest is one GGTT range the
 * engine wraps in, so it takes a run of contiguous pool pages: the VM's
 * budget pays for it as for batch copies (one VM's large rings take
 * nothing from another), and the pool's window is GM already set aside for
 * the VM, so no GM is reserved for rings that are rarely large. Taken only
 * when the engine's ring is empty (no live bytes move); pages of other
 * work in the way make the caller wait, and they come back as that work
 * completes. */

/* The free lists without the held pages, backed ones first in page order. */
static void relist(struct sbb_pool *p)
{
	uint32_t i;

	p->free_backed = p->free_bare = -1;
	for (i = p->budget; i-- > 0;)
		if (!p->pg[i].held)
			list_push(p, p->pg[i].va ? &p->free_backed : &p->free_bare,
				  (int32_t)i);
}

int vgpu_sbb_take_run(struct vgpu *v, uint32_t n, int32_t *first)
{
	struct sbb_pool *p = &v->sbb;
	uint32_t i, run = 0, bare = 0, best_at = 0, best_bare = ~0u;

	if (!n || n > p->budget)
		return -GPU_E2BIG;
	/* The free run of n pages needing the fewest new host pages (a
	 * window sliding over the pool: run free pages end at i, bare of the
	 * last min(run, n) unbacked). */
	for (i = 0; i < p->budget; i++) {
		if (p->pg[i].held) {
			run = bare = 0;
			continue;
		}
		run++;
		bare += !p->pg[i].va;
		if (run > n)
			bare -= !p->pg[i - n].va;
		if (run >= n && bare < best_bare) {
			best_bare = bare;
			best_at = i + 1 - n;
			if (!bare)
				break;
		}
	}
	if (best_bare == ~0u)
		return -GPU_ENOSPC; /* held pages in the way: p->used > 0 */
	for (i = best_at; i < best_at + n; i++) {
		struct sbb_page *pg = &p->pg[i];

		if (pg->va)
			continue;
		pg->va = gvt_pages(v->gvt, 1, &pg->hpa);
		if (!pg->va)
			break;
		gpu_hw_ggtt_write(v->gvt->hw, vgpu_sbb_gm(v, (int32_t)i) >> 12,
				  gen8_ggtt_pte_encode(pg->hpa));
		p->backed++;
		p->gen++;
	}
	gpu_hw_ggtt_flush(v->gvt->hw);
	note_backed(v);
	if (i < best_at + n) { /* the host is out: what was backed stays free */
		relist(p);
		if (!p->used)
			shrink(v, VGPU_SBB_REST_PAGES);
		return p->used ? -GPU_ENOSPC : -GPU_ENOMEM;
	}
	for (i = best_at; i < best_at + n; i++) {
		p->pg[i].held = true;
		p->pg[i].user = false; /* the ring is the kernel's */
	}
	p->used += n;
	relist(p);
	*first = (int32_t)best_at;
	return 0;
}

void vgpu_sbb_put_run(struct vgpu *v, int32_t first, uint32_t n)
{
	struct sbb_pool *p = &v->sbb;
	uint32_t i;

	for (i = (uint32_t)first + n; i-- > (uint32_t)first;) {
		p->pg[i].held = false;
		list_push(p, &p->free_backed, (int32_t)i);
	}
	p->used -= n;
	if (!p->used)
		shrink(v, VGPU_SBB_REST_PAGES);
}

/* A new budget: a new window (the old one is given back first, so a
 * vGPU can also grow into its own old space); on failure the old budget
 * is set up again. */
int vgpu_set_batch_budget(struct vgpu *v, uint32_t kib)
{
	uint32_t old = v->sbb.budget * 4;
	int ret;

	if (kib < VGPU_SBB_MIN_KIB || kib > VGPU_SBB_MAX_KIB || kib % 4)
		return -GPU_EINVAL;
	if (v->sbb.used)
		return -GPU_EBUSY;
	vgpu_sbb_fini(v);
	ret = vgpu_sbb_init(v, kib);
	if (ret && vgpu_sbb_init(v, old))
		vgpu_err(v, "shadow batch pool lost: %d", ret);
	if (!ret)
		vgpu_info(v, "shadow batch budget %u KiB", kib);
	return ret;
}

uint32_t vgpu_batch_budget(const struct vgpu *v)
{
	return v->sbb.budget * 4;
}
