/* gBalloon on the running mediator (gBalloon paper §3): how many slots a
 * vGPU grows or shrinks by is the caller's (hv/gpu/gpu_balloon.c runs the
 * policy loop, balloon_policy.h); where they come from or go is decided
 * here on the live layout, then carried out by the mediator's reshape
 * (vgpu_set_high_slots / vgpu_set_high_runs, gpu/gscale/mediator/gscale_reshape.c).
 * Two ways, as the balloon study has them: Algorithm 1 on one run of
 * slots (gballoon_adjust.c), or, for a guest that takes a list of ranges,
 * any set of slots (non-contiguous slots, gpu/policy/ncslots.h, issue 17).
 * The mediator does not translate GM addresses: see gpu/gscale/mediator/gscale_reshape.c for
 * what a guest that is not told gets. */
#include "gpu/gballoon/gballoon.h"
#include "gpu/gballoon/gballoon_adjust.h"
#include "gpu/policy/ncslots.h"
#include "gpu/vgpu/vgpu_ext.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "mini/string.h"

static uint32_t nr_slots(struct gvt *gvt)
{
	struct gvt_status st;

	gvt_get_status(gvt, &st);
	return st.nr_slots;
}

/* Every vGPU's runs of slots, for Algorithm 1 (a vGPU of several ranges
 * counts as one entry per run); *k = v's index in it. */
static int layout_of(const struct vgpu *v, struct slot_layout *l, uint32_t *k)
{
	struct vgpu_slot_run runs[VGPU_MAX_RANGES];

	l->m = nr_slots(v->gvt);
	l->n = 0;
	for (int id = 1; id <= GVT_MAX_VGPUS; id++) {
		const struct vgpu *o = v->gvt->vgpu[id];
		uint32_t nr = o ? vgpu_slot_runs(o, runs, VGPU_MAX_RANGES) : 0;

		if (o == v)
			*k = l->n;
		for (uint32_t r = 0; r < nr; r++) {
			if (l->n >= SLOTS_MAX_VGPUS)
				return -GPU_ENOSPC;
			l->p[l->n] = runs[r].first;
			l->s[l->n] = runs[r].count;
			l->n++;
		}
	}
	return 0;
}

int vgpu_balloon(struct vgpu *v, int32_t delta, uint32_t *l_out,
		 uint32_t *r_out)
{
	struct slot_layout lay;
	uint32_t k = 0, l = 0, r = 0, q, first, count;
	int err;

	if (vgpu_slots(v, &first, &count))
		return -GPU_ENOTSUP;
	if (!delta)
		return -GPU_EINVAL;
	/* Several ranges grow and shrink as a set (vgpu_balloon_set). */
	if (v->nr_high > 1)
		return -GPU_ENOTSUP;
	if ((err = layout_of(v, &lay, &k)))
		return err;
	q = (uint32_t)(delta < 0 ? -delta : delta);
	err = delta > 0 ? gballoon_expand(&lay, k, q, &l, &r)
			: gballoon_reduce(&lay, k, q, &l, &r);
	if (err)
		return err;
	*l_out = l;
	*r_out = r;
	if (delta > 0)
		return vgpu_set_high_slots(v, lay.p[k] - l, lay.s[k] + q);
	return vgpu_set_high_slots(v, lay.p[k] + l, lay.s[k] - q);
}

/* ---- non-contiguous slots ("ours" of the balloon study) --------------- */

static void set_of(const struct vgpu *v, struct ncs_set *s)
{
	struct vgpu_slot_run runs[VGPU_MAX_RANGES];
	uint32_t nr = vgpu_slot_runs(v, runs, VGPU_MAX_RANGES);

	memset(s, 0, sizeof(*s));
	for (uint32_t r = 0; r < nr; r++)
		for (uint32_t x = runs[r].first; x < runs[r].first + runs[r].count; x++)
			ncs_add(s, x);
}

/* The layout as sets, indexed by gScale id; weight: each vGPU's GPU
 * utilization as an attached system measures it (vgpu_ext_util: DymGPU's
 * monitor, permille; 0 without one), as the study passes it. */
static void sets_of(struct gvt *gvt, struct ncs_layout *l, uint32_t *weight)
{
	memset(l, 0, sizeof(*l));
	memset(weight, 0, SLOTS_MAX_VGPUS * sizeof(weight[0]));
	l->m = nr_slots(gvt);
	l->n = SLOTS_MAX_VGPUS;
	for (int id = 1; id <= GVT_MAX_VGPUS; id++) {
		struct vgpu *o = gvt->vgpu[id];

		if (!o || o->gs_id < 0 || o->gs_id >= (int)l->n)
			continue;
		set_of(o, &l->set[o->gs_id]);
		weight[o->gs_id] = vgpu_ext_util(o);
	}
}

/* The runs of v's set once ncs_expand / ncs_reduce changed it. */
static int runs_of_set(const struct ncs_layout *lay, int k,
		       struct vgpu_slot_run *vr, uint32_t *nr_runs)
{
	struct ncs_run runs[VGPU_MAX_RANGES];
	uint32_t n = ncs_runs(&lay->set[k], lay->m, runs, VGPU_MAX_RANGES);

	*nr_runs = n;
	if (!n)
		return -GPU_EINVAL;	/* reduced to nothing */
	if (n > VGPU_MAX_RANGES)
		return -GPU_E2BIG;	/* more ranges than a guest is told */
	for (uint32_t i = 0; i < n; i++)
		vr[i] = (struct vgpu_slot_run){ runs[i].first, runs[i].count };
	return 0;
}

int vgpu_balloon_set(struct vgpu *v, int32_t delta, uint32_t *nr_runs)
{
	static struct ncs_layout lay;	/* 4 KiB: not on the stack */
	uint32_t weight[SLOTS_MAX_VGPUS], q, first, count;
	struct vgpu_slot_run vr[VGPU_MAX_RANGES];
	int err;

	if (vgpu_slots(v, &first, &count))
		return -GPU_ENOTSUP;
	if (!delta || v->gs_id >= SLOTS_MAX_VGPUS)
		return -GPU_EINVAL;
	/* A shrink takes GM away: not while the guest may be using it. */
	if (vgpu_work_pending(v) || (delta < 0 && v->gm_in_use))
		return -GPU_EBUSY;
	sets_of(v->gvt, &lay, weight);
	q = (uint32_t)(delta < 0 ? -delta : delta);
	err = delta > 0 ? ncs_expand(&lay, (uint32_t)v->gs_id, q, weight, NULL)
			: ncs_reduce(&lay, (uint32_t)v->gs_id, q, weight, NULL);
	if (err)
		return err;
	err = runs_of_set(&lay, v->gs_id, vr, nr_runs);
	return err ? err : vgpu_set_high_runs(v, vr, *nr_runs);
}
