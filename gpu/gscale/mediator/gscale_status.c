/* gScale's mediator part: read-only views of gScale's slots for the
 * hypervisor's shell and the policies (the vgpu.h API), and the status
 * gvt_get_status asks for through the hook table (gm_status). With GM not
 * shared every view says so (-GPU_EINVAL, 0, false). */
#include "gpu/gscale/gscale.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "gpu/vgpu/vgpu_priv.h"

/* gvt_status's gScale part (the gm_status entry, vgpu_ext.h). */
void gscale_gvt_status(const struct gvt *gvt, struct gvt_status *st)
{
	const struct gscale *gs = gvt_gscale(gvt);

	st->gscale = true;
	st->nr_slots = gs->nr_slots;
	st->slot_bytes = (uint64_t)gs->p.slot_entries << 12;
	st->high_base = (uint64_t)gs->p.high.first << 12;
	st->switches = gs->stats.switches;
	st->entries_copied = gs->stats.entries_copied;
	st->entries_prefetched = gs->stats.entries_prefetched;
	st->copy_ns = gs->stats.copy_clock;
	st->entries_carried = gs->stats.entries_carried;
}

int gvt_slot_users(const struct gvt *gvt, uint32_t slot, uint32_t *users)
{
	const struct gscale *gs = gvt_gscale(gvt);

	if (!gs || slot >= gs->nr_slots)
		return -GPU_EINVAL;
	*users = gs->slot_users[slot];
	return 0;
}

int vgpu_slots(const struct vgpu *v, uint32_t *first, uint32_t *count)
{
	const struct gscale *gs = gvt_gscale(v->gvt);
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
	const struct gscale *gs = gvt_gscale(v->gvt);
	struct gscale_run runs[GSCALE_MAX_RANGES];
	uint32_t n;

	if (!gs || v->gs_id < 0)
		return 0;
	n = gscale_vgpu_runs(gs, v->gs_id, runs);
	for (uint32_t i = 0; i < n && i < max; i++)
		out[i] = (struct vgpu_slot_run){ runs[i].first, runs[i].count };
	return n;
}

bool vgpu_busy(const struct vgpu *v)
{
	const struct gscale *gs = gvt_gscale(v->gvt);

	return gs && v->gs_id >= 0 && gs->vgpus[v->gs_id].busy;
}
