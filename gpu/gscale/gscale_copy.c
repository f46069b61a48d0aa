/* gScale's hot paths: the GGTT part of a vGPU switch (on-demand copying with
 * per-chunk ownership), predictive copy, and guest GGTT writes into the
 * private shadow. */
#include "gpu/gscale/gscale.h"
#include "mini/string.h"

const uint64_t gscale_zero_chunk[GSCALE_CHUNK_ENTRIES];

static bool in_range(const struct gscale_range *r, uint32_t index)
{
	return index >= r->first && index - r->first < r->count;
}

int64_t gscale_high_offset(const struct gscale_vgpu *v, uint32_t index)
{
	uint32_t off = 0;

	for (uint32_t r = 0; r < v->nr_high; r++) {
		if (in_range(&v->hr[r], index))
			return off + (index - v->hr[r].first);
		off += v->hr[r].count;
	}
	return -1;
}

static bool uses(const struct gscale_vgpu *v, uint32_t index)
{
	return in_range(&v->low, index) || gscale_high_offset(v, index) >= 0;
}

static uint64_t clock_now(const struct gscale *gs)
{
	return gs->mem.clock ? gs->mem.clock(gs->mem.ctx) : 0;
}

static uint16_t *owner_of(struct gscale *gs, uint32_t chunk)
{
	return &gs->owner[chunk - gs->first_chunk];
}

/* Writes the shadow of range r (of vGPU v) for one chunk to the GGTT, as
 * one bulk write: per entry calls through gpu_hw cost about 7x a memcpy of
 * the same bytes (issue 18). */
static uint32_t copy_chunk(struct gscale *gs, const struct gscale_range *r,
			   const uint64_t *shadow, uint32_t chunk)
{
	uint32_t first = chunk * GSCALE_CHUNK_ENTRIES;

	gpu_hw_ggtt_write_range(gs->hw, first, &shadow[first - r->first],
				GSCALE_CHUNK_ENTRIES);
	return GSCALE_CHUNK_ENTRIES;
}

/* Every chunk of r not already holding v's entries gets them. A chunk that
 * `avoid` uses is skipped (predictive copy must not disturb the running
 * vGPU); avoid may be NULL. */
static uint64_t copy_range(struct gscale *gs, struct gscale_vgpu *v,
			   const struct gscale_range *r, const uint64_t *shadow,
			   const struct gscale_vgpu *avoid, uint64_t deadline)
{
	uint64_t copied = 0;
	uint32_t c0 = r->first / GSCALE_CHUNK_ENTRIES;
	uint32_t c1 = (r->first + r->count) / GSCALE_CHUNK_ENTRIES;

	for (uint32_t c = c0; c < c1; c++) {
		uint16_t *own = owner_of(gs, c);
		uint32_t idx = c * GSCALE_CHUNK_ENTRIES;

		bool low = gscale_gen_is_low(gs, c);

		bool ahead = avoid != NULL, wrote = false;

		if (*own == v->id) {
			gs->stats.chunks_resident++;
			if (!ahead)
				gscale_pf_resident(gs, c, v);
			continue;
		}
		if (ahead && uses(avoid, idx))
			continue;
		/* Taking ownership without a copy is safe only here, after
		 * the avoid test: the running vGPU must stay the owner of
		 * what it uses, or its own writes would miss the GGTT. */
		if (!(low && gscale_gen_holds(gs, v, c))) {
			/* Out of time: the rest waits for the switch. */
			if (deadline != UINT64_MAX && clock_now(gs) >= deadline) {
				gs->prefetch_was_cut = true;
				break;
			}
			/* Out of allowance: prediction has not paid. */
			if (ahead && gscale_pf_allowance(v) <= 0)
				break;
			copied += copy_chunk(gs, r, shadow, c);
			if (low)
				gscale_gen_written(gs, v, c);
			wrote = true;
		}
		gscale_pf_take(gs, c, v, ahead, wrote);
		*own = (uint16_t)v->id;
	}
	return copied;
}

static uint64_t copy_vgpu(struct gscale *gs, struct gscale_vgpu *v,
			  const struct gscale_vgpu *avoid, uint64_t deadline)
{
	uint64_t n = copy_range(gs, v, &v->low, v->shadow_low, avoid,
				deadline);
	uint32_t off = 0;

	for (uint32_t r = 0; r < v->nr_high; r++) {
		n += copy_range(gs, v, &v->hr[r], v->shadow_high + off, avoid,
				deadline);
		off += v->hr[r].count;
	}

	/* The GPU may cache GGTT entries: flush once per batch of writes. */
	if (n)
		gpu_hw_ggtt_flush(gs->hw);
	return n;
}

static struct gscale_vgpu *get(struct gscale *gs, int id)
{
	if (id < 0 || id >= GSCALE_MAX_VGPUS || !gs->vgpus[id].present)
		return NULL;
	return &gs->vgpus[id];
}

uint64_t gscale_switch_to(struct gscale *gs, int id)
{
	struct gscale_vgpu *v = get(gs, id);
	uint64_t t0, n;

	if (!v || id == gs->current)
		return 0;
	gscale_pf_switch(gs, id);
	t0 = clock_now(gs);
	n = copy_vgpu(gs, v, NULL, UINT64_MAX);
	gs->stats.copy_clock += clock_now(gs) - t0;
	gs->stats.entries_copied += n;
	gs->stats.switches++;
	v->entries_copied += n;
	v->switches_in++;
	gs->current = id;
	return n;
}

uint64_t gscale_prefetch_until(struct gscale *gs, int next,
			       uint64_t deadline)
{
	struct gscale_vgpu *v = get(gs, next);
	struct gscale_vgpu *cur = get(gs, gs->current);
	uint64_t n, t0;

	if (!gs->p.predictive || !v || next == gs->current ||
	    !gscale_pf_admit(gs, v))
		return 0;
	t0 = clock_now(gs);
	gs->prefetch_was_cut = false;
	n = copy_vgpu(gs, v, cur, deadline);
	gs->stats.prefetch_clock += clock_now(gs) - t0;
	gs->stats.prefetch_cut += gs->prefetch_was_cut;
	gs->stats.entries_prefetched += n;
	return n;
}

uint64_t gscale_prefetch(struct gscale *gs, int next)
{
	return gscale_prefetch_until(gs, next, UINT64_MAX);
}

static uint64_t *shadow_slot(struct gscale_vgpu *v, uint32_t index)
{
	int64_t off;

	if (in_range(&v->low, index))
		return &v->shadow_low[index - v->low.first];
	off = gscale_high_offset(v, index);
	return off >= 0 ? &v->shadow_high[off] : NULL;
}

int gscale_guest_write(struct gscale *gs, int id, uint32_t index,
		       uint64_t pte)
{
	struct gscale_vgpu *v = get(gs, id);
	uint64_t *slot = v ? shadow_slot(v, index) : NULL;

	if (!slot) {
		gs->stats.writes_rejected++;
		return -GPU_EINVAL;
	}
	uint32_t c = index / GSCALE_CHUNK_ENTRIES;
	bool resident = *owner_of(gs, c) == id;

	*slot = pte;
	gs->stats.guest_writes++;
	/* Resident chunk: the physical GGTT must keep matching the shadow. */
	if (resident) {
		gpu_hw_ggtt_write(gs->hw, index, pte);
		gpu_hw_ggtt_flush(gs->hw);
		gs->stats.guest_writes_hw++;
	}
	if (gscale_gen_is_low(gs, c))
		gscale_gen_guest_write(gs, v, c, resident);
	return 0;
}

uint64_t gscale_shadow_read(const struct gscale *gs, int id, uint32_t index)
{
	struct gscale_vgpu *v = get((struct gscale *)gs, id);
	uint64_t *slot = v ? shadow_slot(v, index) : NULL;

	return slot ? *slot : 0;
}

/* A removed vGPU's entries must not stay in the physical GGTT: they point
 * at pages of a VM that may be gone. */
void gscale_scrub_owned(struct gscale *gs, int id)
{
	bool wrote = false;

	for (uint32_t c = 0; c < gs->nr_chunks; c++) {
		uint32_t first = (gs->first_chunk + c) * GSCALE_CHUNK_ENTRIES;

		if (gs->owner[c] != id)
			continue;
		gpu_hw_ggtt_write_range(gs->hw, first, gscale_zero_chunk,
					GSCALE_CHUNK_ENTRIES);
		gscale_pf_drop(gs, gs->first_chunk + c);
		gs->owner[c] = GSCALE_NO_OWNER;
		if (gscale_gen_is_low(gs, gs->first_chunk + c))
			gscale_gen_written(gs, NULL, gs->first_chunk + c);
		wrote = true;
	}
	if (wrote)
		gpu_hw_ggtt_flush(gs->hw);
}
