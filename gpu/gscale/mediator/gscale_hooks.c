/* gScale's entries in the mediator's hook table (gpu/vgpu/vgpu_ext.h, the
 * shared-GM ones): each one calls down into gScale's mediator part
 * (vgpu_gscale.c: GM, GGTT writes, switches, the ladder;
 * vgpu_fence_pool.c: fences; gscale_status.c), which call none of these. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "gpu/gscale/gscale_ext.h"

static int ext_gvt_attach(struct gvt *gvt, const void *params, void **state)
{
	struct gscale_gvt *g;
	int ret = gvt_gscale_init(gvt, params, &g);

	*state = g; /* NULL with gScale's settings off: not attached */
	return ret;
}

static void ext_gvt_detach(struct gvt *gvt, void *state)
{
	gvt_gscale_fini(gvt, state);
}

/* GM and fences are shared, so they bind only through gScale's vGPU count
 * (a vGPU too large for the shared ranges or the guests' fences is refused
 * at placement). */
static uint32_t ext_room(const struct gvt *gvt, void *state,
			 const struct vgpu_type *t, const char **why)
{
	uint32_t n = GSCALE_MAX_VGPUS - gscale_nr_vgpus(state);

	*why = "gm-share";
	if (t->fences > gvt->fences_total - gvt->p.host_fences) {
		*why = "fences";
		return 0;
	}
	return n;
}

/* Shared fences: every vGPU's fences are the guests' first physical
 * fences, loaded at its switch. */
static int ext_place(struct gvt *gvt, void *state, struct vgpu *v,
		     const struct vgpu_type *t)
{
	int ret;

	(void)state;
	if (t->fences > gvt->fences_total - gvt->p.host_fences)
		return -GPU_ENOSPC;
	ret = vgpu_gscale_take(gvt, v, t);
	if (ret)
		return ret;
	v->fence_base = gvt->p.host_fences;
	v->fence_num = t->fences;
	return 0;
}

static void ext_unplace(struct gvt *gvt, void *state, struct vgpu *v)
{
	(void)state;
	vgpu_gscale_give_back(gvt, v);
}

static void ext_ggtt_write(struct vgpu *v, void *state, uint32_t index,
			   uint64_t host)
{
	(void)state;
	vgpu_gscale_ggtt_write(v, index, host);
}

static uint64_t ext_fence_map(struct vgpu *v, void *state, unsigned int i,
			      uint64_t f)
{
	(void)state;
	return vgpu_fence_pool_map(v, i, f);
}

static void ext_aperture_map(struct vgpu *v, void *state)
{
	(void)state;
	vgpu_ladder_map_all(v);
}

static void ext_aperture_page(struct vgpu *v, void *state, uint32_t index)
{
	(void)state;
	vgpu_ladder_map_one(v, index);
}

static void ext_gm_status(const struct gvt *gvt, void *state,
			  struct gvt_status *st)
{
	(void)state;
	gscale_gvt_status(gvt, st);
}

static void ext_gm_switch(struct gvt *gvt, void *state, struct vgpu *next,
			  struct vgpu *after)
{
	(void)state;
	gvt_gscale_switch(gvt, next, after);
}

const struct vgpu_ext_ops gscale_ext_ops = {
	.name = "gscale",
	.gvt_attach = ext_gvt_attach,
	.gvt_detach = ext_gvt_detach,
	.room = ext_room,
	.place = ext_place,
	.unplace = ext_unplace,
	.ggtt_write = ext_ggtt_write,
	.fence_map = ext_fence_map,
	.aperture_map = ext_aperture_map,
	.aperture_page = ext_aperture_page,
	.gm_switch = ext_gm_switch,
	.gm_status = ext_gm_status,
};
