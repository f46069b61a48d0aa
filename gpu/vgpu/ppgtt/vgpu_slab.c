/* Slabs: objects in chunks of VSLAB_PER, allocated when the first object
 * of a chunk is needed and freed when its last one goes, so the shadow
 * PPGTT's descriptors (struct spt) and root records (struct shadow_mm)
 * cost memory in proportion to what the guest uses now, and return to
 * the directory alone at rest. An index never moves (chunks are never
 * copied): the shadowing code holds pointers to objects across calls that
 * allocate others.
 *
 * Allocation takes the lowest chunk with a free object (hint), which keeps
 * live objects together and lets emptied chunks at the top go.
 *
 * Each chunk ends with one flag word, bit k for its object k, which its
 * user sets and clears (vslab_flag): a set of objects found in one load
 * per chunk, at no extra page (the spt chunk has room to spare). Freeing
 * an object clears its flag. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "mini/string.h"

/* ---- budgeted shadow page-table memory (what slabs and shadow tables take) */

/* Pages of shadow page-table memory, counted against the vGPU's budget
 * (vgpu_ppgtt.c evicts idle roots to keep within it). A refusal marks
 * pt_short: whoever was building a tree learns it is incomplete. */
void *spt_page_alloc(struct vgpu *v, size_t n, uint64_t *hpa)
{
	void *p;

	if (v->pt_pages + n > v->pt_budget) {
		v->pt_short = true;
		v->stats.pt_refused++;
		return NULL;
	}
	p = gvt_pages(v->gvt, n, hpa);
	if (!p) {
		v->pt_short = true;
		return NULL;
	}
	v->pt_pages += (uint32_t)n;
	if (v->pt_pages > v->pt_peak)
		v->pt_peak = v->pt_pages;
	return p;
}

/* A snapshot for a relaxed table (vgpu_ext.h): optional (the table stays
 * strict without one), so a refusal does not make a tree incomplete. */
void *spt_snap_alloc(struct vgpu *v)
{
	bool was = v->pt_short;
	void *p = spt_page_alloc(v, 1, NULL);

	v->pt_short = was;
	return p;
}

void spt_page_free(struct vgpu *v, void *p, size_t n)
{
	if (!p)
		return;
	gvt_free_pages(v->gvt, p, n);
	v->pt_pages -= (uint32_t)n;
}

static int32_t link_of(const void *obj)
{
	int32_t l;

	memcpy(&l, obj, sizeof(l));
	return l;
}

static void set_link(void *obj, int32_t l)
{
	memcpy(obj, &l, sizeof(l));
}

static void *obj_at(const struct vslab *sl, uint32_t c, uint32_t k)
{
	return (uint8_t *)sl->dir[c] + (size_t)k * sl->size;
}

/* The flag word at the end of chunk c's pages. */
static uint64_t *flags_at(const struct vslab *sl, uint32_t c)
{
	return (uint64_t *)((uint8_t *)sl->dir[c] +
			    (size_t)sl->chunk_pages * VGPU_PAGE) - 1;
}

int vslab_init(struct vgpu *v, struct vslab *sl, uint32_t size, uint32_t max)
{
	size_t bytes;

	memset(sl, 0, sizeof(*sl));
	sl->size = size;
	sl->max_chunks = (max + VSLAB_PER - 1) / VSLAB_PER;
	sl->chunk_pages = (VSLAB_PER * size + sizeof(uint64_t) + VGPU_PAGE - 1) /
			  VGPU_PAGE;
	bytes = sl->max_chunks * (sizeof(void *) + sizeof(struct vslab_chunk));
	sl->meta_pages = (uint32_t)((bytes + VGPU_PAGE - 1) / VGPU_PAGE);
	sl->dir = gvt_pages(v->gvt, sl->meta_pages, NULL);
	if (!sl->dir)
		return -GPU_ENOMEM;
	memset(sl->dir, 0, (size_t)sl->meta_pages * VGPU_PAGE);
	sl->info = (struct vslab_chunk *)(sl->dir + sl->max_chunks);
	return 0;
}

void vslab_fini(struct vgpu *v, struct vslab *sl)
{
	uint32_t c;

	if (!sl->dir)
		return;
	for (c = 0; c < sl->span; c++)
		spt_page_free(v, sl->dir[c], sl->chunk_pages);
	gvt_free_pages(v->gvt, sl->dir, sl->meta_pages);
	memset(sl, 0, sizeof(*sl));
}

/* A new chunk at the first empty directory slot, all of it free. */
static bool grow(struct vgpu *v, struct vslab *sl, uint32_t *out)
{
	uint32_t c, k;

	for (c = sl->hint; c < sl->max_chunks && sl->dir[c]; c++)
		;
	if (c == sl->max_chunks)
		return false;
	sl->dir[c] = spt_page_alloc(v, sl->chunk_pages, NULL);
	if (!sl->dir[c])
		return false;
	memset(sl->dir[c], 0, (size_t)sl->chunk_pages * VGPU_PAGE);
	for (k = 0; k < VSLAB_PER; k++)
		set_link(obj_at(sl, c, k),
			 k + 1 < VSLAB_PER ? (int32_t)(c * VSLAB_PER + k + 1) : SPT_NONE);
	sl->info[c].head = (int32_t)(c * VSLAB_PER);
	sl->info[c].nfree = VSLAB_PER;
	if (c >= sl->span)
		sl->span = c + 1;
	*out = c;
	return true;
}

int32_t vslab_alloc(struct vgpu *v, struct vslab *sl)
{
	uint32_t c;
	int32_t i;
	void *o;

	/* Every chunk below hint is full (or absent: grow fills the gap). */
	for (c = sl->hint; c < sl->span && (!sl->dir[c] || !sl->info[c].nfree); c++)
		if (!sl->dir[c])
			break;
	if (c >= sl->span || !sl->dir[c]) {
		if (!grow(v, sl, &c))
			return SPT_NONE;
	}
	sl->hint = c;
	i = sl->info[c].head;
	o = obj_at(sl, c, (uint32_t)i % VSLAB_PER);
	sl->info[c].head = link_of(o);
	sl->info[c].nfree--;
	memset(o, 0, sl->size);
	sl->used++;
	return i;
}

void vslab_free(struct vgpu *v, struct vslab *sl, int32_t i)
{
	uint32_t c = (uint32_t)i / VSLAB_PER;
	void *o = obj_at(sl, c, (uint32_t)i % VSLAB_PER);

	memset(o, 0, sl->size);
	*flags_at(sl, c) &= ~(1ull << ((uint32_t)i % VSLAB_PER));
	set_link(o, sl->info[c].head);
	sl->info[c].head = i;
	sl->info[c].nfree++;
	sl->used--;
	if (c < sl->hint)
		sl->hint = c;
	if (sl->info[c].nfree < VSLAB_PER)
		return;
	/* Empty: give its pages back. */
	spt_page_free(v, sl->dir[c], sl->chunk_pages);
	sl->dir[c] = NULL;
	sl->info[c].head = SPT_NONE;
	sl->info[c].nfree = 0;
	while (sl->span && !sl->dir[sl->span - 1])
		sl->span--;
}

void *vslab_get(const struct vslab *sl, int32_t i)
{
	uint32_t c = (uint32_t)i / VSLAB_PER;

	if (i < 0 || c >= sl->span || !sl->dir[c])
		return NULL;
	return obj_at(sl, c, (uint32_t)i % VSLAB_PER);
}

void vslab_flag(struct vslab *sl, int32_t i, bool on)
{
	uint64_t bit = 1ull << ((uint32_t)i % VSLAB_PER);

	if (on)
		*flags_at(sl, (uint32_t)i / VSLAB_PER) |= bit;
	else
		*flags_at(sl, (uint32_t)i / VSLAB_PER) &= ~bit;
}

uint64_t vslab_flags(const struct vslab *sl, uint32_t c)
{
	if (c >= sl->span || !sl->dir[c])
		return 0;
	return *flags_at(sl, c);
}
