/* Resizing or moving a vGPU's high GM at run time (gBalloon's expansion and
 * reduction, DymGPU's re-placement). Entries at GM addresses both ranges
 * share keep their values; the rest of the old range is forgotten and
 * scrubbed from the physical GGTT; the new part starts empty. A running
 * vGPU gets its new range copied in at once, any other at its next switch
 * (the usual on-demand copy). */
#include "gpu/gscale/gscale.h"
#include "mini/string.h"

static uint32_t round_chunks(uint32_t entries)
{
	return (entries + GSCALE_CHUNK_ENTRIES - 1) & ~(GSCALE_CHUNK_ENTRIES - 1);
}

static uint32_t nslots(const struct gscale *gs, uint32_t entries)
{
	return (entries + gs->p.slot_entries - 1) / gs->p.slot_entries;
}

/* The old range's chunks still holding v's entries: zero them in the
 * GGTT and give them up (the new range is copied in separately). */
static void scrub_range(struct gscale *gs, const struct gscale_vgpu *v)
{
	uint32_t c0 = v->high.first / GSCALE_CHUNK_ENTRIES;
	uint32_t c1 = c0 + v->high.count / GSCALE_CHUNK_ENTRIES;
	bool wrote = false;

	for (uint32_t c = c0; c < c1; c++) {
		uint16_t *own = &gs->owner[c - gs->first_chunk];

		if (*own != v->id)
			continue;
		for (uint32_t i = 0; i < GSCALE_CHUNK_ENTRIES; i++)
			gpu_hw_ggtt_write(gs->hw, c * GSCALE_CHUNK_ENTRIES + i, 0);
		*own = GSCALE_NO_OWNER;
		wrote = true;
	}
	if (wrote)
		gpu_hw_ggtt_flush(gs->hw);
}

static void copy_kept(const struct gscale_range *from, const uint64_t *src,
		      const struct gscale_range *to, uint64_t *dst)
{
	uint32_t lo = from->first > to->first ? from->first : to->first;
	uint32_t a = from->first + from->count, b = to->first + to->count;
	uint32_t hi = a < b ? a : b;

	for (uint32_t i = lo; i < hi; i++)
		dst[i - to->first] = src[i - from->first];
}

int gscale_vgpu_set_high(struct gscale *gs, int id, uint32_t slot,
			 uint32_t entries)
{
	struct gscale_vgpu *v;
	struct gscale_range nr;
	uint64_t *shadow;
	uint32_t n, old_n;

	if (id < 0 || id >= GSCALE_MAX_VGPUS || !gs->vgpus[id].present)
		return -GPU_EINVAL;
	v = &gs->vgpus[id];
	entries = round_chunks(entries);
	n = nslots(gs, entries);
	if (!entries || slot >= gs->nr_slots || n > gs->nr_slots - slot)
		return -GPU_EINVAL;
	nr = (struct gscale_range){ gs->p.high.first + slot * gs->p.slot_entries,
				    entries };
	shadow = gs->mem.alloc(gs->mem.ctx, entries * 8ull);
	if (!shadow)
		return -GPU_ENOMEM;
	copy_kept(&v->high, v->shadow_high, &nr, shadow);
	scrub_range(gs, v);
	old_n = nslots(gs, v->high.count);
	for (uint32_t i = v->slot; i < v->slot + old_n; i++)
		gs->slot_users[i]--;
	for (uint32_t i = slot; i < slot + n; i++)
		gs->slot_users[i]++;
	gs->mem.free(gs->mem.ctx, v->shadow_high, v->high.count * 8ull);
	v->shadow_high = shadow;
	v->high = nr;
	v->slot = slot;
	if (gs->current == id) {
		/* It owns the engine: its entries must be there now. */
		gs->current = -1;
		gscale_switch_to(gs, id);
	}
	gs->stats.resizes++;
	return 0;
}

/* Entries of v's high shadow that name a page. */
static uint64_t present_entries(const struct gscale_vgpu *v)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < v->high.count; i++)
		n += v->shadow_high[i] != 0;
	return n;
}

/* DymGPU's re-placement: the same entries, at the same offsets, from the
 * first GM address of `slot` on. The shadow is kept as it is (only its
 * range moves), the old range is scrubbed from the GGTT, and a vGPU on the
 * engine gets its new range copied in at once. */
int gscale_vgpu_move_high(struct gscale *gs, int id, uint32_t slot,
			  uint64_t *carried)
{
	struct gscale_vgpu *v;
	uint32_t n;

	if (id < 0 || id >= GSCALE_MAX_VGPUS || !gs->vgpus[id].present)
		return -GPU_EINVAL;
	v = &gs->vgpus[id];
	n = nslots(gs, v->high.count);
	if (slot >= gs->nr_slots || n > gs->nr_slots - slot)
		return -GPU_EINVAL;
	if (slot == v->slot) {
		*carried = 0;
		return 0;
	}
	*carried = present_entries(v);
	scrub_range(gs, v);
	for (uint32_t i = v->slot; i < v->slot + n; i++)
		gs->slot_users[i]--;
	for (uint32_t i = slot; i < slot + n; i++)
		gs->slot_users[i]++;
	v->slot = slot;
	v->high.first = gs->p.high.first + slot * gs->p.slot_entries;
	if (gs->current == id) {
		gs->current = -1;
		gscale_switch_to(gs, id);
	}
	gs->stats.moves++;
	gs->stats.entries_carried += *carried;
	return 0;
}
