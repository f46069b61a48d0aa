/* The mediator's side of gScale (its settings' `on`, gscale_ext.h): guest GM comes from
 * gpu/gscale instead of disjoint slices, GGTT writes go to the vGPU's
 * private shadow (and to the hardware only while its entries are
 * resident), vGPU switches copy on demand, and the guest's CPU view of its
 * aperture is the ladder mapping: each BAR2 page mapped in EPT straight to
 * the host page its GGTT entry names, so it never depends on which vGPU's
 * entries the physical GGTT holds. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "gpu/gscale/gscale_ext.h"
#include "mini/string.h"

_Static_assert(VGPU_MAX_RANGES == GSCALE_MAX_RANGES,
	       "a vGPU holds what gScale can give it");

#define DEFAULT_SLOT_MIB 64
#define DEFAULT_FENCE_POOL_MIB 32

static void *gs_alloc(void *ctx, size_t bytes)
{
	struct gvt *gvt = ctx;
	size_t n = (bytes + VGPU_PAGE - 1) / VGPU_PAGE;
	void *p = gvt_pages(gvt, n, NULL);

	if (p)
		memset(p, 0, n * VGPU_PAGE);
	return p;
}

static void gs_free(void *ctx, void *p, size_t bytes)
{
	gvt_free_pages(ctx, p, (bytes + VGPU_PAGE - 1) / VGPU_PAGE);
}

static uint64_t gs_clock(void *ctx)
{
	return gvt_now(ctx);
}

/* The fence memory pool: the top of the guests' low GM, taken away from
 * what vGPUs share. */
static int carve_fence_pool(struct gm_region *pool,
			    const struct gscale_settings *set,
			    struct gscale_range *low)
{
	uint64_t mib = set->fence_pool_mib ? set->fence_pool_mib
					   : DEFAULT_FENCE_POOL_MIB;
	uint32_t entries = (uint32_t)(mib << 8);

	if (entries >= low->count)
		return -GPU_EINVAL;
	low->count -= entries;
	pool->base = (uint64_t)(low->first + low->count) << 12;
	pool->size = (uint64_t)entries << 12;
	pool->n = 0;
	return 0;
}

/* The guest part of GM, as gVirt's layout computed it, becomes gScale's
 * shared low range and slotted high range. */
const struct gscale_settings gscale_on = { .on = true };

int gvt_gscale_init(struct gvt *gvt, const struct gscale_settings *set,
		    struct gscale_gvt **out)
{
	struct gscale_mem mem = { gs_alloc, gs_free, gs_clock, gvt };
	uint32_t slot = set && set->slot_mib ? set->slot_mib : DEFAULT_SLOT_MIB;
	struct gscale_gvt *g;
	struct gscale_params p = {
		.low = { (uint32_t)(gvt->low.base >> 12),
			 (uint32_t)(gvt->low.size >> 12) },
		.high = { (uint32_t)(gvt->high.base >> 12),
			  (uint32_t)(gvt->high.size >> 12) },
		.slot_entries = slot * 256,
		.slot_sharing = set && !set->basic,
		.predictive = set && set->predictive,
	};
	struct gm_region pool;
	uint32_t pages = (sizeof(*g) + VGPU_PAGE - 1) / VGPU_PAGE;
	int ret;

	*out = NULL;
	if (!set || !set->on)
		return 0;
	if (carve_fence_pool(&pool, set, &p.low))
		return -GPU_EINVAL;
	g = gvt_pages(gvt, pages, NULL);
	if (!g)
		return -GPU_ENOMEM;
	g->set = *set;
	g->fence_pool = pool;
	g->pages = pages;
	ret = gscale_init(&g->gs, gvt->hw, &p, &mem);
	if (ret)
		gvt_free_pages(gvt, g, pages);
	else
		*out = g;
	return ret;
}

void gvt_gscale_fini(struct gvt *gvt, struct gscale_gvt *g)
{
	if (!g)
		return;
	gscale_fini(&g->gs);
	gvt_free_pages(gvt, g, g->pages);
}

int vgpu_gscale_take(struct gvt *gvt, struct vgpu *v,
		     const struct vgpu_type *t)
{
	struct gscale *gs = gvt_gscale(gvt);
	int id = gscale_vgpu_add(gs, (uint32_t)(t->low_gm_size >> 12),
				 (uint32_t)(t->high_gm_size >> 12));

	if (id < 0)
		return id == -GPU_ENOMEM ? id : -GPU_ENOSPC;
	v->gs_id = id;
	v->low_base = (uint64_t)gs->vgpus[id].low.first << 12;
	v->low_size = t->low_gm_size;
	vgpu_gm_set_high(v, &(struct vgpu_gm_range){
		(uint64_t)gs->vgpus[id].high.first << 12, t->high_gm_size }, 1);
	v->movable = false; /* pinned until its guest negotiates */
	v->gm_present = 0;
	return 0;
}

void vgpu_gscale_give_back(struct gvt *gvt, struct vgpu *v)
{
	struct gscale *gs = gvt_gscale(gvt);

	if (!gs || v->gs_id < 0)
		return;
	gscale_vgpu_remove(gs, v->gs_id);
	v->gs_id = -1;
}

/* Ladder mapping of one low-GM entry: the guest's BAR2 page for it goes to
 * the host page behind the entry, or traps when the entry is not present.
 * Always the RAM page, on every backend, never the physical aperture page
 * at the same offset: vGPUs share low GM, so the physical GGTT entry there
 * may be another vGPU's. Only the fence pool, whose entries are this
 * vGPU's alone, points guest pages at the physical aperture (what that
 * means per backend: hv/gpu/gpu_host.c gpu_host_aperture_target). */
static void ladder_update(struct vgpu *v, uint32_t index, uint64_t host)
{
	const struct hv_if *hv = &v->gvt->hv;
	uint64_t gpa = v->ap_base + ((uint64_t)index << 12);
	uint32_t pool_index;

	/* A fenced page lives in the fence pool: keep the pool's entry in
	 * step; its aperture page stays mapped to the pool. */
	if (vgpu_fence_pooled(v, index, &pool_index)) {
		gpu_hw_ggtt_write(v->gvt->hw, pool_index, host);
		gpu_hw_ggtt_flush(v->gvt->hw);
		return;
	}
	/* A page detiled in software stays unmapped while fenced. */
	if (!v->ap_mapped || vgpu_ap_detiled(v, index))
		return; /* BAR2 not placed yet: ladder_map_all does it then */
	if (host & GEN8_PAGE_PRESENT)
		hv->ops->ept_map(hv->ctx, v->vm, gpa, gen8_pte_addr(host),
				 HV_MAP_READ | HV_MAP_WRITE);
	else
		hv->ops->ept_unmap(hv->ctx, v->vm, gpa);
	v->stats.ladder_updates++;
}

/* One translated entry of v to the GGTT: straight to the hardware under
 * gVirt; under gScale into the private shadow, the hardware only when
 * resident, and the ladder for low GM. */
void vgpu_gscale_ggtt_write(struct vgpu *v, uint32_t index, uint64_t host)
{
	struct gscale *gs = gvt_gscale(v->gvt);
	uint64_t old = gscale_shadow_read(gs, v->gs_id, index);

	if (!gscale_guest_write(gs, v->gs_id, index, host))
		v->gm_present += (host != 0) - (old != 0);
	if (((uint64_t)index << 12) < v->gvt->aperture_size)
		ladder_update(v, index, host);
}

void vgpu_ladder_map_one(struct vgpu *v, uint32_t index)
{
	const struct hv_if *hv = &v->gvt->hv;
	uint64_t host = gscale_shadow_read(gvt_gscale(v->gvt), v->gs_id, index);
	uint32_t pool_index;

	if (vgpu_fence_pooled(v, index, &pool_index)) {
		hv->ops->ept_map(hv->ctx, v->vm,
				 v->ap_base + ((uint64_t)index << 12),
				 v->gvt->hw->info.aperture_base +
				 ((uint64_t)pool_index << 12),
				 HV_MAP_READ | HV_MAP_WRITE | HV_MAP_WC);
		return;
	}
	if ((host & GEN8_PAGE_PRESENT) && !vgpu_ap_detiled(v, index))
		ladder_update(v, index, host);
}

void vgpu_ladder_map_all(struct vgpu *v)
{
	const struct gscale *gs = gvt_gscale(v->gvt);

	for (uint64_t gm = 0; gm < v->low_size; gm += VGPU_PAGE) {
		uint32_t index = (uint32_t)((v->low_base + gm) >> 12);
		uint64_t host = gscale_shadow_read(gs, v->gs_id, index);

		if (host & GEN8_PAGE_PRESENT)
			ladder_update(v, index, host);
	}
}

/* The GGTT part of a vGPU switch; then, while `next` runs, the vGPU after
 * it is copied ahead where that does not disturb `next`. The copy ahead is
 * CPU work done here, at the switch: it may use at most a quarter of the
 * slice `next` was given (gscale_prefetch_until), so it can never cost
 * more than the switch it is meant to shorten; the rest is copied at the
 * next switch as usual. */
void gvt_gscale_switch(struct gvt *gvt, struct vgpu *next,
		       struct vgpu *after)
{
	struct gscale *gs = gvt_gscale(gvt);
	uint64_t n, t0;

	if (!gs)
		return;
	t0 = gvt_now(gvt);
	n = gscale_switch_to(gs, next->gs_id);
	next->stats.gm_entries_copied += n;
	vgpu_ext_switch_in(next, n, gvt_now(gvt) - t0);
	vgpu_fence_load(next);
	if (after && after != next)
		gscale_prefetch_until(gs, after->gs_id,
				      gvt_now(gvt) + gvt->p.timeslice_ns / 4);
}
