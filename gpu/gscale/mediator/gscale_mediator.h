/* gScale's mediator part (gpu/gscale/mediator/): the private shadow GGTT and
 * its copy at a vGPU switch, ladder mapping of the aperture, and the fence
 * memory space pool. The baseline calls it where gScale mode
 * (its settings' `on`, gpu/gscale/gscale_ext.h) changes what a GGTT write, a fence or a switch does;
 * gpu/gscale/README.md lists those points. */
#ifndef GPU_GSCALE_MEDIATOR_GSCALE_MEDIATOR_H
#define GPU_GSCALE_MEDIATOR_GSCALE_MEDIATOR_H

#include "gpu/gscale/gscale.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/vgpu/vgpu_priv.h"

/* ---- gScale (vgpu_gscale.c) --------------------------------------------- */

/* gScale's per-gvt state, the hook table's private data for it
 * (gvt->gm->state while gScale shares GM; struct gvt holds none of it):
 * the shared-GM model, the settings it was attached with, and the fence
 * memory space pool. */
struct gscale_gvt {
	struct gscale gs;
	struct gscale_settings set;
	struct gm_region fence_pool;
	uint32_t pages; /* pages of this struct */
};
/* gvt's gScale state, or NULL when gScale does not share its GM. */
static inline struct gscale_gvt *gscale_gvt_of(const struct gvt *gvt)
{
	return gvt->gm && gvt->gm->ops == &gscale_ext_ops ? gvt->gm->state
							  : NULL;
}
/* gvt's shared-GM model, or NULL (gVirt's partitioned GM). */
static inline struct gscale *gvt_gscale(const struct gvt *gvt)
{
	struct gscale_gvt *g = gscale_gvt_of(gvt);

	return g ? &g->gs : NULL;
}
static inline const struct gscale_settings *gscale_settings_of(
	const struct gvt *gvt)
{
	return &gscale_gvt_of(gvt)->set;
}

/* set NULL or off: no state, GM stays partitioned (returns 0, *out NULL). */
int gvt_gscale_init(struct gvt *gvt, const struct gscale_settings *set,
		    struct gscale_gvt **out);
void gvt_gscale_fini(struct gvt *gvt, struct gscale_gvt *g);
int vgpu_gscale_take(struct gvt *gvt, struct vgpu *v,
		     const struct vgpu_type *t);
void vgpu_gscale_give_back(struct gvt *gvt, struct vgpu *v);
/* A translated GGTT entry under gScale: into v's private shadow (and the
 * physical GGTT only while v's entries there are resident), and the
 * aperture page's ladder mapping follows it. */
void vgpu_gscale_ggtt_write(struct vgpu *v, uint32_t index, uint64_t host);
void vgpu_ladder_map_all(struct vgpu *v);
/* The ladder for the one aperture page of GM index `index`, on demand. */
void vgpu_ladder_map_one(struct vgpu *v, uint32_t index);
void gvt_gscale_switch(struct gvt *gvt, struct vgpu *next, struct vgpu *after);

/* gScale's fence memory space pool (vgpu_fence_pool.c). */
uint64_t vgpu_fence_pool_map(struct vgpu *v, unsigned int i, uint64_t f);
void vgpu_fence_pool_unmap(struct vgpu *v, unsigned int i);
/* Is GM page `index` of v in the pool now (fenced), and at which pool
 * entry? Reads v->pooled only, so the ladder (vgpu_gscale.c) asks it
 * without calling back into the pool's file, which calls the ladder. */
static inline bool vgpu_fence_pooled(const struct vgpu *v, uint32_t index,
				     uint32_t *pool_index)
{
	uint64_t gm = (uint64_t)index << 12;

	for (unsigned int i = 0; i < v->fence_num && i < GEN9_NUM_FENCES; i++)
		if (v->pooled[i].size && gm >= v->pooled[i].gm &&
		    gm - v->pooled[i].gm < v->pooled[i].size) {
			*pool_index = (uint32_t)((v->pooled[i].pool_gm + gm -
						  v->pooled[i].gm) >> 12);
			return true;
		}
	return false;
}

/* Software detiling of fenced aperture pages (gscale_ap_detile.c). */
void vgpu_ap_detile_set(struct vgpu *v, unsigned int i, uint64_t gm,
			uint64_t size);
void vgpu_ap_detile_clear(struct vgpu *v, unsigned int i);
bool vgpu_ap_detiled(const struct vgpu *v, uint32_t index);

/* gvt_get_status's gScale part (gscale_status.c). */
void gscale_gvt_status(const struct gvt *gvt, struct gvt_status *st);

#endif
