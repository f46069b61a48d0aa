/* Read-only views of the mediator for the hypervisor's shell: which vGPU
 * owns the GPU, its counters; how gScale's slots are shared is gScale's
 * (gpu/gscale/mediator/gscale_status.c, and the gm_status hook). */
#include "gpu/vgpu/vgpu_priv.h"
#include "mini/string.h"

void gvt_get_status(const struct gvt *gvt, struct gvt_status *st)
{
	memset(st, 0, sizeof(*st));
	st->owner = gvt->owner ? gvt->owner->id : 0;
	st->nr_vgpus = gvt->nr_vgpus;
	st->timeslice_ns = gvt->p.timeslice_ns;
	if (gvt->gm) /* shared GM: its slots and copies (vgpu_ext.h) */
		gvt_gm_ops(gvt)->gm_status(gvt, gvt_gm_state(gvt), st);
	if (gvt->pgpu) {
		const struct pgpu_stats *ps = &gvt->pgpu->stats;

		st->hangs = ps->hangs;
		st->engine_resets = ps->engine_resets;
		st->full_resets = ps->full_resets;
		st->full_reset_failures = ps->full_reset_failures;
		st->resets_not_ready = ps->resets_not_ready;
	}
	st->escalations = gvt->full_resets;
	st->escalations_failed = gvt->full_reset_failures;
	st->wedged_fails = gvt->wedged_fails;
	st->wedged = gvt->wedged;
}

/* How many entries of v's high GM the guest made present: gBalloon's
 * "GPU memory utilization", asked per guest request, so kept up to date
 * on every GGTT write (vgpu_ggtt.c) rather than walked here. Every range
 * counts. */
uint64_t vgpu_high_used(const struct vgpu *v)
{
	return v->high_present;
}

/* The same by a walk over every high entry: what the count must equal
 * (tests/unit/test_vgpu_ggtt.c). */
uint64_t vgpu_high_used_walk(const struct vgpu *v)
{
	uint64_t used = 0, g, h;

	for (uint32_t r = 0; r < v->nr_high; r++) {
		uint32_t first = (uint32_t)(v->hr[r].base >> 12);

		for (uint64_t i = 0; i < v->hr[r].size >> 12; i++)
			if (!vgpu_ggtt_entry((struct vgpu *)v,
					     first + (uint32_t)i, &g, &h) &&
			    (g & 1))
				used++;
	}
	return used;
}

uint32_t vgpu_high_used_permille(const struct vgpu *v)
{
	uint64_t pages = v->high_total >> 12;

	return pages ? (uint32_t)(vgpu_high_used(v) * 1000 / pages) : 0;
}

bool vgpu_work_pending(const struct vgpu *v)
{
	for (int e = 0; e < GEN9_NUM_ENGINES; e++) {
		const struct vgpu_engine *ve = &v->eng[e];

		if (ve->present && ve->wl_count)
			return true;	/* queued or on the GPU */
	}
	return false;
}
