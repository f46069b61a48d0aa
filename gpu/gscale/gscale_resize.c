/* Changing a vGPU's high GM at run time: gBalloon's expansion and
 * reduction (reshape: entries kept by GM address) and DymGPU's
 * re-placement, a split into several runs or a merge into one (relocate:
 * entries kept by their high offset). A layout is a list of runs of slots
 * (non-contiguous slots, issue 17); see gscale.h.
 *
 * Either way every chunk the vGPU had resident in high GM is scrubbed
 * from the physical GGTT and its new layout is copied in when it next
 * runs (at once if it owns the engine): a change costs one copy of its
 * high GM, what the balloon study charges (tools/eval/balloon). */
#include "gpu/gscale/gscale.h"
#include "mini/string.h"

static uint32_t round_chunks(uint32_t entries)
{
	return (entries + GSCALE_CHUNK_ENTRIES - 1) & ~(GSCALE_CHUNK_ENTRIES - 1);
}

static struct gscale_vgpu *get(struct gscale *gs, int id)
{
	if (id < 0 || id >= GSCALE_MAX_VGPUS || !gs->vgpus[id].present)
		return NULL;
	return &gs->vgpus[id];
}

/* The ranges of `runs` holding `entries` (0: every slot), checked: inside
 * the slots, lowest first, neither overlapping nor adjacent (adjacent
 * runs are one range), each run needed. Returns the number of ranges,
 * 0 when invalid. */
static uint32_t to_ranges(const struct gscale *gs, const struct gscale_run *runs,
			  uint32_t n, uint32_t entries,
			  struct gscale_range *out)
{
	uint64_t left, cap = 0;

	if (!n || n > GSCALE_MAX_RANGES)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		if (!runs[i].count || runs[i].first >= gs->nr_slots ||
		    runs[i].count > gs->nr_slots - runs[i].first)
			return 0;
		if (i && runs[i].first <= runs[i - 1].first + runs[i - 1].count)
			return 0;
		cap += (uint64_t)runs[i].count * gs->p.slot_entries;
	}
	left = entries ? round_chunks(entries) : cap;
	if (!left || left > cap)
		return 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t c = (uint64_t)runs[i].count * gs->p.slot_entries;

		if (!left)
			return 0; /* a run holding nothing */
		if (c > left)
			c = left;
		/* Only the last range may end inside its last slot, and
		 * every slot of a run holds some of it. */
		if ((i + 1 < n && c % gs->p.slot_entries) ||
		    (c + gs->p.slot_entries - 1) / gs->p.slot_entries !=
			    runs[i].count)
			return 0;
		out[i] = (struct gscale_range){
			gs->p.high.first + runs[i].first * gs->p.slot_entries,
			(uint32_t)c };
		left -= c;
	}
	return n;
}

static uint32_t total(const struct gscale_range *r, uint32_t n)
{
	uint32_t t = 0;

	for (uint32_t i = 0; i < n; i++)
		t += r[i].count;
	return t;
}

/* Every chunk of v's high GM still holding its entries: zeroed in the
 * GGTT and given up. */
static void scrub_high(struct gscale *gs, const struct gscale_vgpu *v)
{
	bool wrote = false;

	for (uint32_t r = 0; r < v->nr_high; r++) {
		uint32_t c0 = v->hr[r].first / GSCALE_CHUNK_ENTRIES;
		uint32_t c1 = c0 + v->hr[r].count / GSCALE_CHUNK_ENTRIES;

		for (uint32_t c = c0; c < c1; c++) {
			uint16_t *own = &gs->owner[c - gs->first_chunk];

			if (*own != v->id)
				continue;
			gpu_hw_ggtt_write_range(gs->hw, c * GSCALE_CHUNK_ENTRIES,
						gscale_zero_chunk,
						GSCALE_CHUNK_ENTRIES);
			gscale_pf_drop(gs, c);
			*own = GSCALE_NO_OWNER;
			wrote = true;
		}
	}
	if (wrote)
		gpu_hw_ggtt_flush(gs->hw);
}

/* v takes the layout nr[0..n): slots recounted, old chunks scrubbed, and
 * a vGPU on the engine gets its entries back at once. */
static void install(struct gscale *gs, struct gscale_vgpu *v,
		    const struct gscale_range *nr, uint32_t n)
{
	scrub_high(gs, v);
	gscale_count_slots(gs, v, -1);
	memset(v->hr, 0, sizeof(v->hr));
	memcpy(v->hr, nr, n * sizeof(nr[0]));
	v->nr_high = n;
	v->high_count = total(nr, n);
	v->slot = (nr[0].first - gs->p.high.first) / gs->p.slot_entries;
	gscale_count_slots(gs, v, +1);
	if (gs->current == v->id) {
		gs->current = -1;
		gscale_switch_to(gs, v->id);
	}
}

int gscale_vgpu_reshape(struct gscale *gs, int id,
			const struct gscale_run *runs, uint32_t n,
			uint32_t entries)
{
	struct gscale_range nr[GSCALE_MAX_RANGES];
	struct gscale_vgpu *v = get(gs, id);
	uint64_t *shadow;
	uint32_t off = 0;

	if (!v || !(n = to_ranges(gs, runs, n, entries, nr)))
		return -GPU_EINVAL;
	shadow = gs->mem.alloc(gs->mem.ctx, total(nr, n) * 8ull);
	if (!shadow)
		return -GPU_ENOMEM;
	/* Entries at GM addresses both layouts have keep their values. */
	for (uint32_t r = 0; r < n; r++) {
		for (uint32_t i = 0; i < nr[r].count; i++) {
			int64_t old = gscale_high_offset(v, nr[r].first + i);

			if (old >= 0)
				shadow[off + i] = v->shadow_high[old];
		}
		off += nr[r].count;
	}
	gs->mem.free(gs->mem.ctx, v->shadow_high, v->high_count * 8ull);
	v->shadow_high = shadow;
	install(gs, v, nr, n);
	gs->stats.resizes++;
	return 0;
}

int gscale_vgpu_set_high(struct gscale *gs, int id, uint32_t slot,
			 uint32_t entries)
{
	uint32_t n = (round_chunks(entries) + gs->p.slot_entries - 1) /
		     gs->p.slot_entries;
	struct gscale_run run = { slot, n };

	return entries ? gscale_vgpu_reshape(gs, id, &run, 1, entries)
		       : -GPU_EINVAL;
}

/* Entries of v's high shadow that name a page. */
static uint64_t present_entries(const struct gscale_vgpu *v)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < v->high_count; i++)
		n += v->shadow_high[i] != 0;
	return n;
}

static bool same_layout(const struct gscale_vgpu *v,
			const struct gscale_range *nr, uint32_t n)
{
	return n == v->nr_high && !memcmp(v->hr, nr, n * sizeof(nr[0]));
}

int gscale_vgpu_relocate(struct gscale *gs, int id,
			 const struct gscale_run *runs, uint32_t n,
			 uint64_t *carried)
{
	struct gscale_range nr[GSCALE_MAX_RANGES];
	struct gscale_vgpu *v = get(gs, id);

	*carried = 0;
	if (!v || !(n = to_ranges(gs, runs, n, v->high_count, nr)) ||
	    total(nr, n) != v->high_count)
		return -GPU_EINVAL;
	if (same_layout(v, nr, n))
		return 0;
	*carried = present_entries(v);
	install(gs, v, nr, n); /* the shadow stays: same high offsets */
	gs->stats.moves++;
	gs->stats.entries_carried += *carried;
	return 0;
}

int gscale_vgpu_move_high(struct gscale *gs, int id, uint32_t slot,
			  uint64_t *carried)
{
	struct gscale_vgpu *v = get(gs, id);
	struct gscale_run run;

	*carried = 0;
	if (!v)
		return -GPU_EINVAL;
	run.first = slot;
	run.count = (v->high_count + gs->p.slot_entries - 1) / gs->p.slot_entries;
	return gscale_vgpu_relocate(gs, id, &run, 1, carried);
}

uint32_t gscale_vgpu_runs(const struct gscale *gs, int id,
			  struct gscale_run *out)
{
	const struct gscale_vgpu *v =
		id >= 0 && id < GSCALE_MAX_VGPUS && gs->vgpus[id].present
			? &gs->vgpus[id] : NULL;

	if (!v)
		return 0;
	for (uint32_t r = 0; r < v->nr_high; r++)
		out[r] = (struct gscale_run){
			(v->hr[r].first - gs->p.high.first) / gs->p.slot_entries,
			(v->hr[r].count + gs->p.slot_entries - 1) /
				gs->p.slot_entries };
	return v->nr_high;
}
