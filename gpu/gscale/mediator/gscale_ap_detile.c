/* gScale's mediator part: fenced aperture pages on a GPU with no physical
 * aperture (the plain software model: gScale's no_aperture setting).
 *
 * On Gen9 a CPU access through the aperture that a valid fence covers
 * sees the range as linear rows of the fence's pitch; the hardware finds
 * each byte where X or Y tiling put it (gpu/model/aperture.c models it;
 * the layout is gpu/hw/gen9_tiling.h). gScale's ladder maps the guest's
 * aperture pages straight to RAM, which skips the fence, so where there
 * is a physical aperture the fence pool sends fenced pages through it
 * (vgpu_fence_pool.c). Without one the mediator does what the aperture
 * would: while guest fence i is valid over low GM its pages stay out of
 * the guest's EPT, every access exits (the hypervisor's BAR2 region) and
 * vgpu_aperture_rw detiles it against this vGPU's own GGTT entries and
 * fence. When the fence changes or goes, the pages fault back into the
 * ladder (vgpu_aperture_fault). Cost: one exit per access, so a 4 KiB
 * page read with 16-byte SSE moves is 256 exits (docs/gpu.md). */
#include "gpu/hw/gen9_tiling.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/gscale/gscale.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "mini/string.h"

void vgpu_ap_detile_set(struct vgpu *v, unsigned int i, uint64_t gm,
			uint64_t size)
{
	const struct hv_if *hv = &v->gvt->hv;

	v->detiled[i].gm = gm;
	v->detiled[i].size = size;
	if (!v->ap_mapped)
		return; /* BAR2 not decoded: nothing mapped to take back */
	if (hv->ops->ept_unmap_range) {
		hv->ops->ept_unmap_range(hv->ctx, v->vm, v->ap_base + gm, size);
		return;
	}
	for (uint64_t x = 0; x < size; x += VGPU_PAGE)
		hv->ops->ept_unmap(hv->ctx, v->vm, v->ap_base + gm + x);
}

/* The pages were never mapped while fenced: the next touch of each
 * faults into the ladder again. */
void vgpu_ap_detile_clear(struct vgpu *v, unsigned int i)
{
	v->detiled[i].size = 0;
}

/* The fence detiling GM address gm, or -1. */
static int detiled_fence(const struct vgpu *v, uint64_t gm)
{
	for (unsigned int i = 0; i < v->fence_num && i < GEN9_NUM_FENCES; i++)
		if (v->detiled[i].size && gm >= v->detiled[i].gm &&
		    gm - v->detiled[i].gm < v->detiled[i].size)
			return (int)i;
	return -1;
}

bool vgpu_ap_detiled(const struct vgpu *v, uint32_t index)
{
	return detiled_fence(v, (uint64_t)index << 12) >= 0;
}

/* Bytes from linear offset lin that stay contiguous in the tiled layout:
 * to the end of the OWord (Y) or of the tile's row (X), and of the
 * surface row; never past a tile, so never past a page. */
static uint64_t tiled_run(uint32_t pitch, bool y, uint64_t lin)
{
	uint32_t x = (uint32_t)(lin % pitch);
	uint32_t unit = y ? GEN9_TILE_Y_OWORD : GEN9_TILE_X_WIDTH;
	uint32_t run = unit - x % unit;

	return run < pitch - x ? run : pitch - x;
}

/* n bytes at GM address gm (inside one page) through v's GGTT entry. */
static void gm_rw(struct vgpu *v, uint64_t gm, uint8_t *p, size_t n,
		  bool write)
{
	uint64_t pte = gscale_shadow_read(gvt_gscale(v->gvt), v->gs_id,
					  (uint32_t)(gm >> 12));
	uint8_t *mem = NULL;

	if (pte & GEN8_PAGE_PRESENT)
		mem = gpu_hw_phys(v->gvt->hw, gen8_pte_addr(pte) +
					      (gm & (VGPU_PAGE - 1)), n);
	if (!mem) {
		if (!write)
			memset(p, 0xff, n);
		return;
	}
	if (write)
		memcpy(mem, p, n);
	else
		memcpy(p, mem, n);
}

int vgpu_aperture_rw(struct vgpu *v, uint64_t off, void *buf, size_t len,
		     bool write)
{
	int i = gvt_gscale(v->gvt) ? detiled_fence(v, off) : -1;
	uint64_t f, start, lin;
	uint32_t pitch;
	uint8_t *p = buf;
	bool y;

	if (i < 0 || len == 0 || len > 8 ||
	    off + len > v->detiled[i].gm + v->detiled[i].size)
		return -GPU_EINVAL;
	f = v->fence_hw[i];
	start = v->detiled[i].gm;
	pitch = (uint32_t)(((f & GEN6_FENCE_PITCH_MASK) >>
			    GEN6_FENCE_PITCH_SHIFT) + 1) * 128;
	y = f & (1ull << I965_FENCE_TILING_Y_SHIFT);
	for (lin = off - start; len;) {
		uint64_t n = tiled_run(pitch, y, lin);

		n = n < len ? n : len;
		gm_rw(v, start + gen9_tiled_offset(lin, pitch, y), p, n, write);
		lin += n;
		p += n;
		len -= n;
	}
	v->stats.ap_detiled++;
	return 0;
}
