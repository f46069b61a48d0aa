/* The scanout window: host GGTT space the physical plane reads the owner
 * VM's surface through (docs/display.md, "The physical plane").
 *
 * Why a window of the host's own rather than the owner's GM addresses:
 * under gScale the GGTT entries at a vGPU's GM addresses are whichever
 * vGPU is switched in (vgpu_gscale.c), so a plane pointed at the owner's
 * surface address would show another VM's pages while that VM runs. The
 * window lives in the host's high GM (carved from the shadow batch
 * region, vgpu_own_gm.c), which no vGPU's entries ever reach, and holds
 * copies of the owner's translated entries (the host page behind each
 * guest page, validated as its VM's RAM when the guest wrote the entry,
 * vgpu_ggtt.c) for the pages of the checked plane's extent, nothing
 * more; a page the guest has not mapped, and every entry a half held
 * for an earlier, larger plane, point at one black page. So
 * the plane can only ever scan the owner's own pages or black, whatever
 * vGPU runs, and no pixel is copied.
 *
 * Two halves: a flip fills the half the plane is not reading, then the
 * caller moves PLANE_SURF to it, so the old surface stays mapped until
 * the flip latches. The cursor has two halves of its own after them
 * (CURSOR_PAGES each: a 256x256 ARGB image), used the same way with
 * CURBASE. A guest write to an entry the window copies marks
 * the vGPU dirty (vgpu_ggtt.c), and the caller maps again. When the
 * owner's vGPU is destroyed its entries leave the window before its
 * pages go back (vgpu_destroy). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/display/display.h"
#include "mini/string.h"

#define SCAN_CHUNK 64u	/* PTEs per gpu_hw_ggtt_write_range */

#define CURSOR_PAGES 64u	/* 256 x 256 x 4 bytes */

/* The window's slots: 0, 1 the plane's halves, 2, 3 the cursor's. */
static uint32_t slot_index(const struct gvt *gvt, unsigned slot)
{
	uint32_t base = (uint32_t)(gvt->scan_gm >> 12);

	return slot < 2 ? base + slot * gvt->scan_half_pages :
	       base + 2 * gvt->scan_half_pages + (slot - 2) * CURSOR_PAGES;
}

/* [first, first + n) of the window to the black page. */
static void fill_black(struct gvt *gvt, uint32_t first, uint32_t n)
{
	uint64_t ptes[SCAN_CHUNK];
	uint32_t i, k;

	for (i = 0; i < SCAN_CHUNK; i++)
		ptes[i] = gvt->scan_black;
	for (i = 0; i < n; i += k) {
		k = n - i < SCAN_CHUNK ? n - i : SCAN_CHUNK;
		gpu_hw_ggtt_write_range(gvt->hw, first + i, ptes, k);
	}
}

/* GVT_SCANOUT_PAGES a half, or less when the host's high GM is small (a
 * host test's world): half of the largest free run of the region after
 * the cursor's slots. */
static int window_init(struct gvt *gvt)
{
	uint64_t hpa, gm, half, cur = 2ull * CURSOR_PAGES * VGPU_PAGE;
	uint64_t run = gm_region_largest_free(&gvt->sbb_region);
	void *va;

	if (gvt->scan_gm)
		return 0;
	half = run > cur ? (run - cur) / 2 : 0;
	half = half < (uint64_t)GVT_SCANOUT_PAGES * VGPU_PAGE ? half & ~(VGPU_PAGE - 1) :
	       (uint64_t)GVT_SCANOUT_PAGES * VGPU_PAGE;
	if (!half || gm_region_alloc(&gvt->sbb_region, 2 * half + cur, &gm))
		return -GPU_ENOSPC;
	va = gvt_pages(gvt, 1, &hpa);
	if (!va) {
		gm_region_free(&gvt->sbb_region, gm);
		return -GPU_ENOMEM;
	}
	memset(va, 0, VGPU_PAGE);
	gvt->scan_black_va = va;
	gvt->scan_black = gen8_ggtt_pte_encode(hpa);
	gvt->scan_gm = gm;
	gvt->scan_half_pages = (uint32_t)(half / VGPU_PAGE);
	/* Entries past a half's scan_filled are left as they are: the plane
	 * never reads past the extent it was mapped for. */
	return 0;
}

/* v's translated entries for its GGTT pages [first, first + pages) into
 * the window from slot's start, the rest of what the slot held black;
 * the entries written, or < 0 when a page is not v's GM. */
static int fill_slot(struct gvt *gvt, struct vgpu *v, unsigned slot,
		     uint32_t first, uint32_t pages)
{
	uint64_t chunk[SCAN_CHUNK], guest, host;
	uint32_t dst = slot_index(gvt, slot), i, k, j, old = gvt->scan_filled[slot];

	for (i = 0; i < pages; i += k) {
		k = pages - i < SCAN_CHUNK ? pages - i : SCAN_CHUNK;
		for (j = 0; j < k; j++) {
			if (vgpu_ggtt_entry(v, first + i + j, &guest, &host))
				return -GPU_EINVAL;
			chunk[j] = host & GEN8_PAGE_PRESENT ? host :
							      gvt->scan_black;
		}
		gpu_hw_ggtt_write_range(gvt->hw, dst + i, chunk, k);
	}
	if (old > pages)
		fill_black(gvt, dst + pages, old - pages);
	gpu_hw_ggtt_flush(gvt->hw);
	gvt->scan_filled[slot] = pages;
	gvt->scan_src = v;
	v->scan_dirty = false;
	return (int)(pages + (old > pages ? old - pages : 0));
}

/* The checked extent of pl, in pages within cap; 0 when it does not fit
 * or is not v's GM. */
static uint32_t extent_pages(struct vgpu *v, const struct vdisp_plane *pl,
			     uint64_t cap)
{
	uint64_t ext = vdisp_plane_extent(pl);

	if ((pl->surf & (VGPU_PAGE - 1)) || !ext || ext > cap * VGPU_PAGE ||
	    !vgpu_gm_valid(v, pl->surf, ext))
		return 0;
	return (uint32_t)((ext + VGPU_PAGE - 1) / VGPU_PAGE);
}

int gvt_scanout_map(struct gvt *gvt, struct vgpu *v,
		    const struct vdisp_plane *pl, uint64_t *gm, uint32_t *ptes)
{
	unsigned half = gvt->scan_half ^ 1;
	uint32_t pages;
	int err = window_init(gvt), n;

	if (err)
		return err;
	if (vdisp_plane_extent(pl) > (uint64_t)gvt->scan_half_pages * VGPU_PAGE)
		return -GPU_ENOSPC;
	/* Every page must be one of v's GM (vgpu_screen_plane checked the
	 * extent; this is the same question asked of the entries). */
	pages = extent_pages(v, pl, gvt->scan_half_pages);
	if (!pages)
		return (pl->surf & (VGPU_PAGE - 1)) ? -GPU_ENOSPC : -GPU_EINVAL;
	n = fill_slot(gvt, v, half, (uint32_t)(pl->surf >> 12), pages);
	if (n < 0)
		return n;
	*ptes = (uint32_t)n;
	gvt->scan_half = half;
	v->scan_first = (uint32_t)(pl->surf >> 12);
	v->scan_n = pages;
	*gm = (uint64_t)slot_index(gvt, half) << 12;
	return 0;
}

int gvt_scanout_map_cursor(struct gvt *gvt, struct vgpu *v,
			   const struct vdisp_plane *cur, uint64_t *gm,
			   uint32_t *ptes)
{
	unsigned half = gvt->scan_cur_half ^ 1;
	uint32_t pages;
	int err = window_init(gvt), n;

	if (err)
		return err;
	pages = extent_pages(v, cur, CURSOR_PAGES);
	if (!pages)
		return -GPU_EINVAL;
	n = fill_slot(gvt, v, 2 + half, (uint32_t)(cur->surf >> 12), pages);
	if (n < 0)
		return n;
	*ptes = (uint32_t)n;
	gvt->scan_cur_half = half;
	v->scan_cur_first = (uint32_t)(cur->surf >> 12);
	v->scan_cur_n = pages;
	*gm = (uint64_t)slot_index(gvt, 2 + half) << 12;
	return 0;
}

void gvt_scanout_clear(struct gvt *gvt)
{
	unsigned h;

	if (gvt->scan_src)
		gvt->scan_src->scan_n = gvt->scan_src->scan_cur_n = 0;
	gvt->scan_src = NULL;
	for (h = 0; h < 4; h++) {
		if (gvt->scan_filled[h])
			fill_black(gvt, slot_index(gvt, h), gvt->scan_filled[h]);
		gvt->scan_filled[h] = 0;
	}
	gpu_hw_ggtt_flush(gvt->hw);
}

/* vgpu_destroy: none of v's pages may stay in the window. */
void vgpu_scanout_forget(struct vgpu *v)
{
	if (v->gvt->scan_src == v)
		gvt_scanout_clear(v->gvt);
}

void gvt_scanout_fini(struct gvt *gvt)
{
	if (!gvt->scan_gm)
		return;
	gvt_scanout_clear(gvt);
	gm_region_free(&gvt->sbb_region, gvt->scan_gm);
	gvt_free_pages(gvt, gvt->scan_black_va, 1);
	gvt->scan_black_va = NULL;
	gvt->scan_black = 0;
	gvt->scan_gm = 0;
	gvt->scan_half_pages = 0;
}

bool vgpu_scanout_dirty(const struct vgpu *v)
{
	return v->scan_dirty;
}
