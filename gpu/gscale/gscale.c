/* gScale set-up: parameters, vGPU placement on slots, shadows. The switch
 * and write paths are in gscale_copy.c. */
#include "gpu/gscale/gscale.h"
#include "mini/string.h"

#define DEFAULT_SLOT_ENTRIES 16384u /* 64 MiB of GM */

static uint32_t range_end(const struct gscale_range *r)
{
	return r->first + r->count;
}

static bool chunk_aligned(uint32_t v)
{
	return v % GSCALE_CHUNK_ENTRIES == 0;
}

static uint32_t round_to_chunk(uint32_t entries)
{
	return (entries + GSCALE_CHUNK_ENTRIES - 1) / GSCALE_CHUNK_ENTRIES *
	       GSCALE_CHUNK_ENTRIES;
}

static int check_params(const struct gscale_params *p, uint32_t ggtt_entries)
{
	if (!p->low.count || !p->high.count || !chunk_aligned(p->low.first) ||
	    !chunk_aligned(p->low.count) || !chunk_aligned(p->high.first) ||
	    !chunk_aligned(p->slot_entries) || !p->slot_entries)
		return -GPU_EINVAL;
	if (range_end(&p->low) > p->high.first ||
	    range_end(&p->high) > ggtt_entries ||
	    range_end(&p->high) < p->high.first)
		return -GPU_EINVAL;
	if (p->high.count < p->slot_entries)
		return -GPU_EINVAL;
	return 0;
}

int gscale_init(struct gscale *gs, struct gpu_hw *hw,
		const struct gscale_params *p, const struct gscale_mem *mem)
{
	int err;

	memset(gs, 0, sizeof(*gs));
	gs->hw = hw;
	gs->p = *p;
	gs->mem = *mem;
	gs->current = -1;
	if (!gs->p.slot_entries)
		gs->p.slot_entries = DEFAULT_SLOT_ENTRIES;
	err = check_params(&gs->p, hw->info.ggtt_entries);
	if (err)
		return err;
	gs->nr_slots = gs->p.high.count / gs->p.slot_entries;
	gs->first_chunk = gs->p.low.first / GSCALE_CHUNK_ENTRIES;
	gs->nr_chunks = range_end(&gs->p.high) / GSCALE_CHUNK_ENTRIES -
			gs->first_chunk;
	gs->owner = mem->alloc(mem->ctx, gs->nr_chunks * sizeof(gs->owner[0]));
	gs->slot_users = mem->alloc(mem->ctx,
				    gs->nr_slots * sizeof(gs->slot_users[0]));
	if (!gs->owner || !gs->slot_users || gscale_gen_init(gs) ||
	    gscale_pf_init(gs)) {
		gscale_fini(gs);
		return -GPU_ENOMEM;
	}
	for (uint32_t c = 0; c < gs->nr_chunks; c++)
		gs->owner[c] = GSCALE_NO_OWNER;
	return 0;
}

void gscale_fini(struct gscale *gs)
{
	for (int id = 0; id < GSCALE_MAX_VGPUS; id++)
		if (gs->vgpus[id].present)
			gscale_vgpu_remove(gs, id);
	if (gs->owner)
		gs->mem.free(gs->mem.ctx, gs->owner,
			     gs->nr_chunks * sizeof(gs->owner[0]));
	if (gs->slot_users)
		gs->mem.free(gs->mem.ctx, gs->slot_users,
			     gs->nr_slots * sizeof(gs->slot_users[0]));
	gs->owner = NULL;
	gs->slot_users = NULL;
	gscale_gen_fini(gs);
	gscale_pf_fini(gs);
}

static uint32_t slots_for(const struct gscale *gs, uint32_t entries)
{
	return (entries + gs->p.slot_entries - 1) / gs->p.slot_entries;
}

/* The run of n slots whose busiest slot has the fewest users (ties: fewest
 * users in total, then leftmost). Without slot sharing every vGPU stacks at
 * slot 0: that is gScale-basic, where all high GM overlaps. */
static uint32_t place_high(const struct gscale *gs, uint32_t n)
{
	uint32_t best = 0, best_max = UINT32_MAX, best_sum = UINT32_MAX;

	if (!gs->p.slot_sharing)
		return 0;
	for (uint32_t s = 0; s + n <= gs->nr_slots; s++) {
		uint32_t max = 0, sum = 0;

		for (uint32_t i = s; i < s + n; i++) {
			sum += gs->slot_users[i];
			if (gs->slot_users[i] > max)
				max = gs->slot_users[i];
		}
		if (max < best_max || (max == best_max && sum < best_sum)) {
			best = s;
			best_max = max;
			best_sum = sum;
		}
	}
	return best;
}

static int free_id(const struct gscale *gs)
{
	for (int id = 0; id < GSCALE_MAX_VGPUS; id++)
		if (!gs->vgpus[id].present)
			return id;
	return -GPU_ENOSPC;
}

uint64_t gscale_shadow_bytes(uint32_t low_entries, uint32_t high_entries)
{
	return ((uint64_t)round_to_chunk(low_entries) +
		round_to_chunk(high_entries)) * sizeof(uint64_t);
}

int gscale_vgpu_add(struct gscale *gs, uint32_t low_entries,
		    uint32_t high_entries)
{
	struct gscale_vgpu *v;
	uint32_t nslots;
	int id = free_id(gs);

	low_entries = round_to_chunk(low_entries);
	high_entries = round_to_chunk(high_entries);
	if (id < 0)
		return id;
	nslots = slots_for(gs, high_entries);
	if (!low_entries || !high_entries || low_entries > gs->p.low.count ||
	    nslots > gs->nr_slots)
		return -GPU_EINVAL;
	v = &gs->vgpus[id];
	memset(v, 0, sizeof(*v));
	v->id = id;
	v->low = (struct gscale_range){ gs->p.low.first, low_entries };
	v->slot = place_high(gs, nslots);
	v->high = (struct gscale_range){
		gs->p.high.first + v->slot * gs->p.slot_entries, high_entries };
	v->nr_high = 1;
	v->high_count = high_entries;
	v->shadow_low = gs->mem.alloc(gs->mem.ctx, low_entries * 8ull);
	v->shadow_high = gs->mem.alloc(gs->mem.ctx, high_entries * 8ull);
	if (!v->shadow_low || !v->shadow_high || gscale_gen_vgpu_add(gs, v)) {
		gscale_gen_vgpu_remove(gs, v);
		if (v->shadow_low)
			gs->mem.free(gs->mem.ctx, v->shadow_low,
				     low_entries * 8ull);
		if (v->shadow_high)
			gs->mem.free(gs->mem.ctx, v->shadow_high,
				     high_entries * 8ull);
		return -GPU_ENOMEM;
	}
	gscale_count_slots(gs, v, +1);
	v->present = true;
	return id;
}

void gscale_count_slots(struct gscale *gs, const struct gscale_vgpu *v,
			int delta)
{
	for (uint32_t r = 0; r < v->nr_high; r++) {
		uint32_t s0 = (v->hr[r].first - gs->p.high.first) /
			      gs->p.slot_entries;

		for (uint32_t i = s0; i < s0 + slots_for(gs, v->hr[r].count); i++)
			gs->slot_users[i] += (uint16_t)delta;
	}
}

void gscale_vgpu_remove(struct gscale *gs, int id)
{
	struct gscale_vgpu *v;

	if (id < 0 || id >= GSCALE_MAX_VGPUS || !gs->vgpus[id].present)
		return;
	v = &gs->vgpus[id];
	gscale_scrub_owned(gs, id);
	gscale_gen_vgpu_remove(gs, v);
	gscale_count_slots(gs, v, -1);
	gs->mem.free(gs->mem.ctx, v->shadow_low, v->low.count * 8ull);
	gs->mem.free(gs->mem.ctx, v->shadow_high, v->high_count * 8ull);
	if (gs->current == id)
		gs->current = -1;
	v->present = false;
}

int gscale_nr_vgpus(const struct gscale *gs)
{
	int n = 0;

	for (int id = 0; id < GSCALE_MAX_VGPUS; id++)
		n += gs->vgpus[id].present;
	return n;
}

void gscale_set_busy(struct gscale *gs, int id, bool busy)
{
	if (id >= 0 && id < GSCALE_MAX_VGPUS && gs->vgpus[id].present)
		gs->vgpus[id].busy = busy;
}
