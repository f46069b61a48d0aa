/* Read-only views of the mediator for the hypervisor's shell: which vGPU
 * owns the GPU, and how gScale's slots are shared. */
#include "gpu/gscale/gscale.h"
#include "gpu/vgpu/vgpu_priv.h"

void gvt_get_status(const struct gvt *gvt, struct gvt_status *st)
{
	const struct gscale *gs = gvt->gs;

	st->owner = gvt->owner ? gvt->owner->id : 0;
	st->nr_vgpus = gvt->nr_vgpus;
	st->timeslice_ns = gvt->p.timeslice_ns;
	st->gscale = gs != NULL;
	st->nr_slots = gs ? gs->nr_slots : 0;
	st->slot_bytes = gs ? (uint64_t)gs->p.slot_entries << 12 : 0;
	st->high_base = gs ? (uint64_t)gs->p.high.first << 12 : 0;
	st->switches = gs ? gs->stats.switches : 0;
	st->entries_copied = gs ? gs->stats.entries_copied : 0;
	st->entries_prefetched = gs ? gs->stats.entries_prefetched : 0;
	st->copy_ns = gs ? gs->stats.copy_clock : 0;
	st->entries_carried = gs ? gs->stats.entries_carried : 0;
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

int gvt_slot_users(const struct gvt *gvt, uint32_t slot, uint32_t *users)
{
	if (!gvt->gs || slot >= gvt->gs->nr_slots)
		return -GPU_EINVAL;
	*users = gvt->gs->slot_users[slot];
	return 0;
}

int vgpu_slots(const struct vgpu *v, uint32_t *first, uint32_t *count)
{
	const struct gscale *gs = v->gvt->gs;
	const struct gscale_vgpu *g;

	if (!gs || v->gs_id < 0)
		return -GPU_EINVAL;
	g = &gs->vgpus[v->gs_id];
	*first = g->slot;
	*count = 0;
	for (uint32_t r = 0; r < g->nr_high; r++)
		*count += (g->hr[r].count + gs->p.slot_entries - 1) /
			  gs->p.slot_entries;
	return 0;
}

uint32_t vgpu_slot_runs(const struct vgpu *v, struct vgpu_slot_run *out,
			uint32_t max)
{
	struct gscale_run runs[GSCALE_MAX_RANGES];
	uint32_t n;

	if (!v->gvt->gs || v->gs_id < 0)
		return 0;
	n = gscale_vgpu_runs(v->gvt->gs, v->gs_id, runs);
	for (uint32_t i = 0; i < n && i < max; i++)
		out[i] = (struct vgpu_slot_run){ runs[i].first, runs[i].count };
	return n;
}

bool vgpu_busy(const struct vgpu *v)
{
	return v->gvt->gs && v->gs_id >= 0 && v->gvt->gs->vgpus[v->gs_id].busy;
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
