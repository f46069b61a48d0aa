/* The research systems' hook table (vgpu_ext.h): attaching the systems
 * gvt_params.ext lists to the gvt and to each vGPU, and the calls from the
 * baseline. With nothing listed every call here does nothing and the
 * mediator is the gVirt baseline alone. */
#include "gpu/vgpu/vgpu_priv.h"

static bool has_ppgtt_hooks(const struct vgpu_ext_ops *o)
{
	return o->spt_new || o->spt_gone || o->ppgtt_write || o->ppgtt_sync ||
	       o->ppgtt_check;
}

static bool has_gm_hooks(const struct vgpu_ext_ops *o)
{
	return o->room || o->place || o->unplace || o->ggtt_write ||
	       o->fence_map || o->aperture_map || o->aperture_page ||
	       o->gm_switch || o->gm_status;
}

static bool has_all_gm_hooks(const struct vgpu_ext_ops *o)
{
	return o->room && o->place && o->unplace && o->ggtt_write &&
	       o->fence_map && o->aperture_map && o->aperture_page &&
	       o->gm_switch && o->gm_status;
}

int vgpu_ext_check(const struct gvt_params *p)
{
	unsigned int i, ppgtt = 0, gm = 0;

	for (i = 0; i < VGPU_EXT_MAX; i++) {
		if (!p->ext[i])
			continue;
		ppgtt += has_ppgtt_hooks(p->ext[i]);
		if (has_gm_hooks(p->ext[i]) && !has_all_gm_hooks(p->ext[i]))
			return -GPU_EINVAL;
		gm += has_gm_hooks(p->ext[i]);
	}
	/* Two systems cannot both own the page tables' protection, nor
	 * both share GM. */
	if (ppgtt > 1 || gm > 1)
		return -GPU_EINVAL;
	return 0;
}

static int attach_one(struct gvt *gvt, unsigned int i)
{
	const struct vgpu_ext_ops *o = gvt->p.ext[i];
	void *st = NULL;
	int ret;

	ret = o->gvt_attach ? o->gvt_attach(gvt, gvt->p.ext_params[i], &st) : 0;
	if (ret)
		return ret;
	gvt->ext[i].ops = o;
	gvt->ext[i].state = st;
	if (has_gm_hooks(o) && st)
		gvt->gm = &gvt->ext[i];
	return 0;
}

/* The shared-GM system first (pass 0): the others see the GM as it will
 * be (vgpu_ext.h). */
int vgpu_ext_gvt_attach(struct gvt *gvt)
{
	unsigned int pass, i;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < VGPU_EXT_MAX; i++) {
			const struct vgpu_ext_ops *o = gvt->p.ext[i];
			int ret;

			if (!o || has_gm_hooks(o) != !pass)
				continue;
			ret = attach_one(gvt, i);
			if (ret) {
				vgpu_ext_gvt_detach(gvt);
				return ret;
			}
		}
	return 0;
}

static void detach_one(struct gvt *gvt, unsigned int i)
{
	const struct vgpu_ext_ops *o = gvt->ext[i].ops;

	if (o && o->gvt_detach)
		o->gvt_detach(gvt, gvt->ext[i].state);
	gvt->ext[i].ops = NULL;
	gvt->ext[i].state = NULL;
}

/* The reverse of vgpu_ext_gvt_attach: the shared-GM system last. */
void vgpu_ext_gvt_detach(struct gvt *gvt)
{
	unsigned int i = VGPU_EXT_MAX;

	while (i--)
		if (gvt->ext[i].ops && !has_gm_hooks(gvt->ext[i].ops))
			detach_one(gvt, i);
	gvt->gm = NULL;
	i = VGPU_EXT_MAX;
	while (i--)
		detach_one(gvt, i);
}

void *vgpu_ext_gvt_state(const struct gvt *gvt, const struct vgpu_ext_ops *ops)
{
	unsigned int i;

	for (i = 0; i < VGPU_EXT_MAX; i++)
		if (gvt->ext[i].ops == ops)
			return gvt->ext[i].state;
	return NULL;
}

int vgpu_ext_attach(struct vgpu *v)
{
	unsigned int i;

	for (i = 0; i < VGPU_EXT_MAX; i++) {
		const struct vgpu_ext_ops *o = v->gvt->p.ext[i];
		void *st = NULL;
		int ret;

		if (!o)
			continue;
		ret = o->attach ? o->attach(v, &st) : 0;
		if (ret) {
			vgpu_ext_detach(v);
			return ret;
		}
		v->ext[i].ops = o;
		v->ext[i].state = st;
	}
	return 0;
}

void vgpu_ext_detach(struct vgpu *v)
{
	unsigned int i = VGPU_EXT_MAX;

	while (i--) {
		const struct vgpu_ext_ops *o = v->ext[i].ops;

		if (o && o->detach)
			o->detach(v, v->ext[i].state);
		v->ext[i].ops = NULL;
		v->ext[i].state = NULL;
	}
}

void *vgpu_ext_state(const struct vgpu *v, const struct vgpu_ext_ops *ops)
{
	unsigned int i;

	for (i = 0; i < VGPU_EXT_MAX; i++)
		if (v->ext[i].ops == ops)
			return v->ext[i].state;
	return NULL;
}

/* The one attached system with PPGTT hooks (vgpu_ext_check), or NULL. */
static const struct vgpu_ext_slot *ppgtt_ext(const struct vgpu *v)
{
	unsigned int i;

	for (i = 0; i < VGPU_EXT_MAX; i++)
		if (v->ext[i].ops && has_ppgtt_hooks(v->ext[i].ops))
			return &v->ext[i];
	return NULL;
}

bool vgpu_ext_spt_new(struct vgpu *v, int32_t idx)
{
	const struct vgpu_ext_slot *x = ppgtt_ext(v);

	return x && x->ops->spt_new && x->ops->spt_new(v, x->state, idx);
}

void vgpu_ext_spt_gone(struct vgpu *v, int32_t idx)
{
	const struct vgpu_ext_slot *x = ppgtt_ext(v);

	if (x && x->ops->spt_gone)
		x->ops->spt_gone(v, x->state, idx);
}

void vgpu_ext_ppgtt_write(struct vgpu *v, uint64_t gfn)
{
	const struct vgpu_ext_slot *x = ppgtt_ext(v);

	if (x && x->ops->ppgtt_write)
		x->ops->ppgtt_write(v, x->state, gfn);
}

void vgpu_ext_ppgtt_sync(struct vgpu *v)
{
	const struct vgpu_ext_slot *x = ppgtt_ext(v);

	if (x && x->ops->ppgtt_sync)
		x->ops->ppgtt_sync(v, x->state);
}

int vgpu_ext_ppgtt_check(struct vgpu *v, int mm)
{
	const struct vgpu_ext_slot *x = ppgtt_ext(v);

	return x && x->ops->ppgtt_check ? x->ops->ppgtt_check(v, x->state, mm)
					: 0;
}

/* ---- the scheduler's points and the queries --------------------------- */

void vgpu_ext_dispatch(struct vgpu *v, uint64_t t)
{
	unsigned int i;

	for (i = 0; v && i < VGPU_EXT_MAX; i++)
		if (v->ext[i].ops && v->ext[i].ops->dispatch)
			v->ext[i].ops->dispatch(v, v->ext[i].state, t);
}

void vgpu_ext_ran(struct vgpu *v, uint64_t start, uint64_t end)
{
	unsigned int i;

	for (i = 0; v && i < VGPU_EXT_MAX; i++)
		if (v->ext[i].ops && v->ext[i].ops->ran)
			v->ext[i].ops->ran(v, v->ext[i].state, start, end);
}

void vgpu_ext_switch_in(struct vgpu *v, uint64_t n, uint64_t ns)
{
	unsigned int i;

	for (i = 0; v && i < VGPU_EXT_MAX; i++)
		if (v->ext[i].ops && v->ext[i].ops->switch_in)
			v->ext[i].ops->switch_in(v, v->ext[i].state, n, ns);
}

uint32_t vgpu_ext_util(const struct vgpu *v)
{
	unsigned int i;
	uint32_t permille;

	for (i = 0; i < VGPU_EXT_MAX; i++)
		if (v->ext[i].ops && v->ext[i].ops->util &&
		    v->ext[i].ops->util(v, v->ext[i].state, &permille))
			return permille;
	return 0;
}
