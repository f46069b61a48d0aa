/* The mediator's own objects in GGTT space: per vGPU and engine a shadow
 * context, a shadow ring and a shadow batch area, and per physical engine
 * a status page. They live at the top of the host's high reservation, one
 * fixed slot of GVT_OWN_SLOT_PAGES per vGPU id (slot 0: the device), so
 * they never collide with guest GM and need no allocator beyond a cursor. */
#include "gpu/vgpu/vgpu_priv.h"
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
