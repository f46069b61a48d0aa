/* Ballooning a running vGPU's high GM over gScale's slots (gBalloon,
 * seeds/gballoon.txt §3; DymGPU's re-placement is the same operation with
 * no overlap).
 *
 * Guests use GM addresses directly, so changing them needs the guest's
 * cooperation: this implementation does NOT translate addresses. The
 * mediator guarantees isolation whatever the guest does: entries outside
 * the new range are dropped (hardware scrubbed by gScale), and from then on
 * GGTT writes and command-buffer addresses outside the new range are refused
 * as for any vGPU. A guest that keeps using dropped GM gets faults in its
 * own workloads (and, as for any refused workload, its vGPU fails). A
 * cooperating guest (guest-shim's channel) learns the new ranges and
 * re-reads PVINFO's ballooning registers, which change here. Expansion
 * (gBalloon grows a vGPU by L slots left and R right) keeps every existing
 * entry where it is, so it is safe even for a guest that never looks. */
#include "gpu/gscale/gscale.h"
#include "gpu/policy/slots.h"
#include "gpu/vgpu/vgpu_priv.h"

static bool has_work(const struct vgpu *v)
{
	for (int e = 0; e < GEN9_NUM_ENGINES; e++) {
		const struct vgpu_engine *ve = &v->eng[e];

		if (ve->present && ve->wl_count)
			return true;	/* queued or on the GPU */
	}
	return false;
}

int vgpu_set_high_slots(struct vgpu *v, uint32_t slot, uint32_t nslots)
{
	struct gscale *gs = v->gvt->gs;
	struct ggtt_arrays arrays;
	uint64_t entries, base, size;
	int err;

	if (!gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	if (!nslots || slot >= gs->nr_slots || nslots > gs->nr_slots - slot)
		return -GPU_EINVAL;
	if (has_work(v))
		return -GPU_EBUSY;
	entries = (uint64_t)nslots * gs->p.slot_entries;
	base = (uint64_t)(gs->p.high.first + slot * gs->p.slot_entries) << 12;
	size = entries << 12;
	err = vgpu_ggtt_prepare_high(v, base, size, &arrays);
	if (err)
		return err;
	err = gscale_vgpu_set_high(gs, v->gs_id, slot, (uint32_t)entries);
	if (err) {
		vgpu_ggtt_abandon_high(v, &arrays);
		return err;	/* nothing changed */
	}
	vgpu_ggtt_commit_high(v, &arrays);
	vgpu_pvinfo_update_gm(v);
	v->stats.balloons++;
	vgpu_info(v, "high GM now 0x%llx+%lluM (slots %u-%u)",
		  (unsigned long long)base, (unsigned long long)(size >> 20),
		  slot, slot + nslots - 1);
	return 0;
}

/* Every gScale vGPU's slots, for Algorithm 1; *k = v's index in it. */
static void layout_of(const struct vgpu *v, struct slot_layout *l, uint32_t *k)
{
	const struct gscale *gs = v->gvt->gs;

	l->m = gs->nr_slots;
	l->n = 0;
	for (int id = 0; id < GSCALE_MAX_VGPUS && l->n < SLOTS_MAX_VGPUS; id++) {
		const struct gscale_vgpu *g = &gs->vgpus[id];

		if (!g->present)
			continue;
		if (id == v->gs_id)
			*k = l->n;
		l->p[l->n] = g->slot;
		l->s[l->n] = (g->high.count + gs->p.slot_entries - 1) /
			     gs->p.slot_entries;
		l->n++;
	}
}

int vgpu_balloon(struct vgpu *v, int32_t delta, uint32_t *l_out,
		 uint32_t *r_out)
{
	struct slot_layout lay;
	uint32_t k = 0, l = 0, r = 0, q;
	int err;

	if (!v->gvt->gs || v->gs_id < 0)
		return -GPU_ENOTSUP;
	if (!delta)
		return -GPU_EINVAL;
	layout_of(v, &lay, &k);
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
