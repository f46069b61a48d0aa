/* gScale's fence memory space pool (gScale paper, figure 8).
 *
 * Under gScale the guest's aperture pages are ladder-mapped straight to the
 * pages behind them, so a CPU access never goes through the GGTT - and so
 * never through a fence, which detiles only GGTT-translated aperture
 * accesses. A fenced range therefore moves, while fenced, into a pool of
 * low GM that belongs to nobody else:
 *   1. take the guest's fence value (range, pitch, tiling);
 *   2. the guest-physical aperture pages of that range are known (BAR2 +
 *      GM offset) - their ladder mappings are suspended;
 *   3. allocate pool space of the same size;
 *   4. map those aperture pages in EPT to the host aperture at the pool;
 *   5. copy the vGPU's entries for the range into the pool's GGTT entries;
 *   6. hand the hardware the fence with the pool range, format untouched.
 * Changing or clearing the fence undoes it: the pool space is freed and the
 * ladder mappings return. Pool exhaustion refuses the fence (counted and
 * logged for that vGPU); nothing else is disturbed. A GPU without a
 * physical aperture (the plain model) has no pool: the mediator detiles
 * those pages itself (gscale_ap_detile.c). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/gscale/mediator/gscale_mediator.h"

#define FENCE_RANGE_MASK (GEN6_FENCE_START_MASK | GEN6_FENCE_END_MASK)

static uint64_t fence_start(uint64_t f)
{
	return f & GEN6_FENCE_START_MASK;
}

static uint64_t fence_size(uint64_t f)
{
	return ((f & GEN6_FENCE_END_MASK) >> 32) + VGPU_PAGE - fence_start(f);
}

static void ept_map_page(struct vgpu *v, uint64_t gm, uint64_t hpa)
{
	const struct hv_if *hv = &v->gvt->hv;

	if (v->ap_mapped)
		hv->ops->ept_map(hv->ctx, v->vm, v->ap_base + gm, hpa,
				 HV_MAP_READ | HV_MAP_WRITE | HV_MAP_WC);
}

void vgpu_fence_pool_unmap(struct vgpu *v, unsigned int i)
{
	struct gvt *gvt = v->gvt;
	uint64_t x, size;

	vgpu_ap_detile_clear(v, i);
	if (!v->pooled[i].size)
		return;
	for (x = 0; x < v->pooled[i].size; x += VGPU_PAGE)
		gpu_hw_ggtt_write(gvt->hw,
				  (uint32_t)((v->pooled[i].pool_gm + x) >> 12), 0);
	gpu_hw_ggtt_flush(gvt->hw);
	gm_region_free(&gscale_gvt_of(gvt)->fence_pool, v->pooled[i].pool_gm);
	size = v->pooled[i].size;
	v->pooled[i].size = 0;
	/* The suspended pages come back: on demand (hv_ops ept_unmap_range)
	 * by dropping the pool's mappings, so each page faults into the
	 * ladder when touched (one range, whatever the low GM's size);
	 * otherwise every present page now. */
	if (v->ap_mapped && gvt->hv.ops->ept_unmap_range) {
		gvt->hv.ops->ept_unmap_range(gvt->hv.ctx, v->vm,
					     v->ap_base + v->pooled[i].gm, size);
		return;
	}
	vgpu_ladder_map_all(v);
}

/* Steps 2-5 for fence i over [gm, gm + size) of this vGPU's low GM. */
static int pool_in(struct vgpu *v, unsigned int i, uint64_t gm, uint64_t size)
{
	struct gvt *gvt = v->gvt;
	struct gscale_gvt *g = gscale_gvt_of(gvt);
	uint64_t pool_gm, x;

	if (gm_region_alloc(&g->fence_pool, size, &pool_gm))
		return -GPU_ENOSPC;
	v->pooled[i].gm = gm;
	v->pooled[i].size = size;
	v->pooled[i].pool_gm = pool_gm;
	for (x = 0; x < size; x += VGPU_PAGE) {
		uint32_t idx = (uint32_t)((gm + x) >> 12);

		gpu_hw_ggtt_write(gvt->hw, (uint32_t)((pool_gm + x) >> 12),
				  gscale_shadow_read(&g->gs, v->gs_id, idx));
		ept_map_page(v, gm + x,
			     gvt->hw->info.aperture_base + pool_gm + x);
	}
	gpu_hw_ggtt_flush(gvt->hw);
	return 0;
}

/* Bytes of one row of tiles, or 0 for a pitch that is not whole tiles
 * (i915_tiling_ok refuses those). A fence that is not a whole number of
 * tile rows detiles its last bytes past its own end (i915 rounds fence
 * sizes up to it, i915_gem_fence_size), into whatever the pool holds
 * next: refused too. */
static uint64_t tile_row(uint64_t f)
{
	bool y = f & (1ull << I965_FENCE_TILING_Y_SHIFT);
	uint64_t pitch = (((f & GEN6_FENCE_PITCH_MASK) >> GEN6_FENCE_PITCH_SHIFT) +
			  1) * 128;

	if (pitch % (y ? 128 : 512))
		return 0;
	return pitch * (y ? 32 : 8);
}

/* The hardware value for guest fence i (already validated against the
 * vGPU's GM): through the pool when it fences CPU-visible GM under gScale. */
uint64_t vgpu_fence_pool_map(struct vgpu *v, unsigned int i, uint64_t f)
{
	uint64_t gm = fence_start(f), size = fence_size(f), pool_gm;

	vgpu_fence_pool_unmap(v, i);
	if (!gvt_gscale(v->gvt) || !(f & I965_FENCE_REG_VALID) ||
	    gm + size > v->gvt->aperture_size)
		return f; /* nothing CPU-visible to detile */
	if (!tile_row(f) || size % tile_row(f)) {
		vgpu_warn(v, "fence %u over 0x%llx+%llu KiB is not whole rows "
			  "of whole tiles (%llu bytes): fence refused", i,
			  (unsigned long long)gm,
			  (unsigned long long)(size >> 10),
			  (unsigned long long)tile_row(f));
		return f & ~I965_FENCE_REG_VALID;
	}
	if (gscale_settings_of(v->gvt)->no_aperture) {
		/* nothing to detile with: the mediator does it */
		vgpu_ap_detile_set(v, i, gm, size);
		return f;
	}
	if (pool_in(v, i, gm, size)) {
		v->stats.fence_pool_full++;
		vgpu_warn(v, "fence %u over 0x%llx+%llu KiB: fence memory pool "
			  "full, fence refused", i, (unsigned long long)gm,
			  (unsigned long long)(size >> 10));
		return f & ~I965_FENCE_REG_VALID;
	}
	v->stats.fence_pool_maps++;
	pool_gm = v->pooled[i].pool_gm;
	return (f & ~FENCE_RANGE_MASK) | pool_gm |
	       ((pool_gm + size - VGPU_PAGE) << 32);
}
