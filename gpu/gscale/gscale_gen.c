/* Low GM generations: what lets a switch skip shared low GM chunks that
 * did not change since the incoming vGPU last had them (gscale.h).
 *
 * Invariants:
 *  - gs->low_gen[c] changes whenever physical chunk c's content changes
 *    (a copy, a scrub, a guest write that reached the hardware), to a
 *    value never used before;
 *  - v->low_seen[c] == gs->low_gen[c] (nonzero) only if physical chunk c
 *    equals v's shadow of it;
 *  - owner[c] (a present vGPU) has a shadow equal to physical chunk c.
 * So a chunk may be skipped when the generations match, or when the
 * incoming shadow equals the owner's shadow. */
#include "gpu/gscale/gscale.h"
#include "mini/string.h"

static uint32_t low_chunks(const struct gscale_range *r)
{
	return r->count / GSCALE_CHUNK_ENTRIES;
}

static uint32_t low_idx(const struct gscale *gs, uint32_t c)
{
	return c - gs->p.low.first / GSCALE_CHUNK_ENTRIES;
}

bool gscale_gen_is_low(const struct gscale *gs, uint32_t c)
{
	uint32_t c0 = gs->p.low.first / GSCALE_CHUNK_ENTRIES;

	return c >= c0 && c - c0 < low_chunks(&gs->p.low);
}

int gscale_gen_init(struct gscale *gs)
{
	gs->low_gen = gs->mem.alloc(gs->mem.ctx,
				    low_chunks(&gs->p.low) * sizeof(uint64_t));
	/* 0 means "never": start every chunk at a generation nobody saw. */
	gs->gen_next = 1;
	for (uint32_t i = 0; gs->low_gen && i < low_chunks(&gs->p.low); i++)
		gs->low_gen[i] = gs->gen_next++;
	return gs->low_gen ? 0 : -GPU_ENOMEM;
}

void gscale_gen_fini(struct gscale *gs)
{
	if (gs->low_gen)
		gs->mem.free(gs->mem.ctx, gs->low_gen,
			     low_chunks(&gs->p.low) * sizeof(uint64_t));
	gs->low_gen = NULL;
}

int gscale_gen_vgpu_add(struct gscale *gs, struct gscale_vgpu *v)
{
	v->low_seen = gs->mem.alloc(gs->mem.ctx,
				    low_chunks(&v->low) * sizeof(uint64_t));
	return v->low_seen ? 0 : -GPU_ENOMEM;
}

void gscale_gen_vgpu_remove(struct gscale *gs, struct gscale_vgpu *v)
{
	if (v->low_seen)
		gs->mem.free(gs->mem.ctx, v->low_seen,
			     low_chunks(&v->low) * sizeof(uint64_t));
	v->low_seen = NULL;
}

static const uint64_t *low_shadow(const struct gscale_vgpu *v, uint32_t c)
{
	return &v->shadow_low[c * GSCALE_CHUNK_ENTRIES - v->low.first];
}

static bool covers(const struct gscale_vgpu *v, uint32_t c)
{
	uint32_t first = c * GSCALE_CHUNK_ENTRIES;

	return first >= v->low.first &&
	       first - v->low.first < v->low.count;
}

bool gscale_gen_holds(struct gscale *gs, const struct gscale_vgpu *v,
		      uint32_t c)
{
	uint32_t i = low_idx(gs, c);
	uint32_t k = c - v->low.first / GSCALE_CHUNK_ENTRIES;
	uint16_t own = gs->owner[c - gs->first_chunk];
	const struct gscale_vgpu *o;

	if (v->low_seen[k] == gs->low_gen[i]) {
		gs->stats.low_chunks_unchanged++;
		return true;
	}
	if (own == GSCALE_NO_OWNER || own >= GSCALE_MAX_VGPUS)
		return false;
	o = &gs->vgpus[own];
	/* Differing chunks usually differ in their first entry, so this
	 * costs little when it fails and saves a chunk of writes when not. */
	if (!o->present || !covers(o, c) ||
	    memcmp(low_shadow(o, c), low_shadow(v, c),
		   GSCALE_CHUNK_ENTRIES * sizeof(uint64_t)))
		return false;
	v->low_seen[k] = gs->low_gen[i];
	gs->stats.low_chunks_same++;
	return true;
}

void gscale_gen_written(struct gscale *gs, const struct gscale_vgpu *v,
			uint32_t c)
{
	uint32_t i = low_idx(gs, c);

	gs->low_gen[i] = gs->gen_next++;
	if (v)
		v->low_seen[c - v->low.first / GSCALE_CHUNK_ENTRIES] =
			gs->low_gen[i];
}

void gscale_gen_guest_write(struct gscale *gs, const struct gscale_vgpu *v,
			    uint32_t c, bool hw)
{
	if (hw)
		gscale_gen_written(gs, v, c);
	else
		v->low_seen[c - v->low.first / GSCALE_CHUNK_ENTRIES] = 0;
}
