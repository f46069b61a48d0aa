/* DymGPU's placement manager; see dymgpu_trigger.h. */
#include <stddef.h>

#include "gpu/dymgpu/dymgpu_place.h"
#include "gpu/dymgpu/dymgpu_trigger.h"
#include "gpu/hw/gpu_hw.h"
#include "mini/string.h"

int dym_init(struct dym *d, const struct dym_params *p, uint64_t now)
{
	memset(d, 0, sizeof(*d));
	d->p = *p;
	if (!d->p.period_ns)
		d->p.period_ns = DYM_PERIOD_NS;
	if (!p->m || p->m > SLOTS_MAX || p->mode > DYM_BY_UTIL)
		return -GPU_EINVAL;
	d->lay.m = p->m;
	d->last_periodic = now;
	return 0;
}

static bool valid(const struct dym *d, uint32_t id)
{
	return id < SLOTS_MAX_VGPUS && d->present[id];
}

/* The algorithm's layout, by id: active vGPUs through DymGPU's placement,
 * idle ones parked on the rightmost slots. Sets band_* in size mode. */
static int compute(struct dym *d, struct slot_layout *out, uint32_t *bs,
		   uint32_t *bl)
{
	struct slot_layout *c = &d->scratch;
	uint32_t map[SLOTS_MAX_VGPUS], util[SLOTS_MAX_VGPUS];
	int ret = 0;

	memset(c, 0, sizeof(*c));
	c->m = d->p.m;
	for (uint32_t id = 0; id < d->lay.n; id++)
		if (d->present[id] && !d->idle[id]) {
			map[c->n] = id;
			util[c->n] = d->util[id];
			c->s[c->n++] = d->lay.s[id];
		}
	*out = d->lay;
	*bs = *bl = 0;
	if (c->n) {
		ret = d->p.mode == DYM_BY_SIZE ? dymgpu_place_by_size(c)
					       : dymgpu_place_by_util(c, util);
		if (ret < 0)
			return ret;
	}
	for (uint32_t i = 0; i < c->n; i++)
		out->p[map[i]] = c->p[i];
	for (uint32_t id = 0; id < d->lay.n; id++)
		if (d->present[id] && d->idle[id])
			out->p[id] = d->p.m - d->lay.s[id];
	if (d->p.mode == DYM_BY_SIZE && ret > 0) {
		/* P_K: V_K sits at the right end, the later ones start with
		 * it; V_{K-1} may end at m too but starts no later. */
		for (uint32_t i = 0; i < c->n; i++)
			if (c->p[i] + c->s[i] == c->m && c->p[i] > *bs)
				*bs = c->p[i];
		*bl = (uint32_t)ret;
	}
	return 0;
}

static uint64_t own_entries(const struct dym *d, uint32_t id)
{
	uint64_t all = (uint64_t)d->lay.s[id] * d->p.slot_entries;

	return d->used[id] < all ? d->used[id] : all;
}

/* Takes layout `to`: moves into r, counters. */
static void take(struct dym *d, const struct slot_layout *to,
		 struct dym_result *r)
{
	for (uint32_t id = 0; id < d->lay.n; id++) {
		struct dym_move *mv;

		if (!d->present[id] || to->p[id] == d->lay.p[id])
			continue;
		mv = &r->mv[r->nr++];
		mv->vgpu = (uint16_t)id;
		mv->from = d->lay.p[id];
		mv->to = to->p[id];
		mv->slots = d->lay.s[id];
		mv->entries = own_entries(d, id);
		r->entries += mv->entries;
	}
	d->lay = *to;
	r->replaced = true;
	d->st.replacements++;
	d->st.moves += r->nr;
	d->st.entries += r->entries;
}

/* Re-place everybody; when must_not_worsen, only if that does not add
 * shared slots. Pinned vGPUs stay; if that makes the result worse, veto.
 * `fresh` (a vGPU being created, or UINT32_MAX) lands where the algorithm
 * puts it without counting as a move: it has no entries yet. */
static int replace(struct dym *d, struct dym_result *r, bool must_not_worsen,
		   uint32_t fresh)
{
	struct slot_layout to;
	uint32_t bs, bl, shared;
	bool pin_moved = false;
	int err = compute(d, &to, &bs, &bl);

	if (err)
		return err;
	for (uint32_t id = 0; id < d->lay.n; id++)
		if (d->present[id] && d->pinned[id] && to.p[id] != d->lay.p[id]) {
			to.p[id] = d->lay.p[id];
			pin_moved = true;
		}
	shared = slots_shared(&to);
	if (pin_moved && shared > r->shared_before) {
		r->vetoed = true;
		d->st.vetoes++;
		return 0;
	}
	if (must_not_worsen && shared > r->shared_before)
		return 0;
	if (!pin_moved) {
		d->band_start = bs;
		d->band_len = bl;
	}
	if (fresh < SLOTS_MAX_VGPUS)
		d->lay.p[fresh] = to.p[fresh];
	take(d, &to, r);
	return 0;
}

static void begin(struct dym *d, struct dym_result *r, uint8_t why)
{
	memset(r, 0, offsetof(struct dym_result, mv));
	r->why = why;
	r->shared_before = slots_shared(&d->lay);
	d->st.events[why]++;
}

static void end(struct dym *d, struct dym_result *r)
{
	r->shared_after = slots_shared(&d->lay);
}

/* The spot with the fewest shared slots for id, everybody else fixed;
 * ties: leftmost. */
static uint32_t best_spot(struct dym *d, uint32_t id)
{
	struct slot_layout *t = &d->scratch;
	uint32_t best = 0, best_shared = UINT32_MAX;

	*t = d->lay;
	for (uint32_t p = 0; p + d->lay.s[id] <= d->p.m; p++) {
		uint32_t sh;

		t->p[id] = p;
		sh = slots_shared(t);
		if (sh < best_shared) {
			best_shared = sh;
			best = p;
		}
	}
	return best;
}

int dym_create(struct dym *d, uint32_t id, uint32_t slots, uint64_t now,
	       struct dym_result *r)
{
	struct slot_layout alone, all;
	uint32_t bs, bl;
	int err;

	(void)now;
	if (!r)
		r = &d->scratch_r;
	if (id >= SLOTS_MAX_VGPUS || d->present[id] || !slots ||
	    slots > d->p.m)
		return -GPU_EINVAL;
	begin(d, r, DYM_CREATE);
	d->present[id] = true;
	d->idle[id] = false;
	d->util[id] = 0;
	d->used[id] = (uint64_t)slots * d->p.slot_entries;
	if (id >= d->lay.n)
		d->lay.n = id + 1;
	d->lay.s[id] = slots;
	if (d->p.mode == DYM_BY_SIZE && d->band_len && slots <= d->band_len) {
		d->lay.p[id] = d->band_start; /* on top of the shared band */
		end(d, r);
		return 0;
	}
	d->lay.p[id] = best_spot(d, id);
	if (d->p.mode == DYM_BY_SIZE) {
		alone = d->lay;
		err = compute(d, &all, &bs, &bl);
		if (err)
			goto fail;
		for (uint32_t i = 0; i < d->lay.n; i++)
			if (d->present[i] && d->pinned[i] && i != id)
				all.p[i] = d->lay.p[i];
		/* Fewer shared slots wins; on a tie nobody moves. */
		if (slots_shared(&all) < slots_shared(&alone)) {
			r->shared_before = slots_shared(&alone);
			/* The new vGPU is not moved: it lands at once. */
			d->lay.p[id] = all.p[id];
			take(d, &all, r);
			d->band_start = bs;
			d->band_len = bl;
		} else if (!memcmp(all.p, alone.p, sizeof(all.p))) {
			/* Same layout either way: its band is known. */
			d->band_start = bs;
			d->band_len = bl;
		}
	} else {
		r->shared_before = slots_shared(&d->lay);
		d->lay.p[id] = d->p.m - slots; /* util 0: with the rest */
		err = replace(d, r, false, id);
		if (err)
			goto fail;
	}
	end(d, r);
	return 0;
fail:
	d->present[id] = false;
	d->lay.s[id] = 0;
	return err;
}

int dym_destroy(struct dym *d, uint32_t id, uint64_t now,
		struct dym_result *r)
{
	bool had_own = false;
	int err = 0;

	(void)now;
	if (!r)
		r = &d->scratch_r;
	if (!valid(d, id))
		return -GPU_EINVAL;
	begin(d, r, DYM_DESTROY);
	for (uint32_t s = d->lay.p[id]; s < d->lay.p[id] + d->lay.s[id]; s++)
		had_own |= slots_users(&d->lay, s) == 1;
	d->present[id] = false;
	d->idle[id] = d->pinned[id] = false;
	d->lay.s[id] = d->lay.p[id] = 0;
	r->shared_before = slots_shared(&d->lay);
	if (d->p.mode == DYM_BY_UTIL || had_own)
		err = replace(d, r, false, UINT32_MAX);
	end(d, r);
	return err;
}

int dym_set_idle(struct dym *d, uint32_t id, bool idle, uint64_t now,
		 struct dym_result *r)
{
	int err;

	(void)now;
	if (!r)
		r = &d->scratch_r;
	if (!valid(d, id))
		return -GPU_EINVAL;
	begin(d, r, idle ? DYM_IDLE : DYM_ACTIVE);
	if (d->idle[id] == idle) {
		end(d, r);
		return 0;
	}
	d->idle[id] = idle;
	err = replace(d, r, false, UINT32_MAX);
	end(d, r);
	return err;
}

int dym_tick(struct dym *d, uint64_t now, struct dym_result *r)
{
	int err;

	if (!r)
		r = &d->scratch_r;
	if (now < d->last_periodic || now - d->last_periodic < d->p.period_ns)
		return 0;
	d->last_periodic = now;
	begin(d, r, DYM_PERIODIC);
	/* Size mode: only when it helps (sizes may have been changed by
	 * ballooning); util mode: follow the utilization. */
	err = replace(d, r, d->p.mode == DYM_BY_SIZE, UINT32_MAX);
	end(d, r);
	return err ? err : 1;
}

void dym_set_util(struct dym *d, uint32_t id, uint32_t util)
{
	if (valid(d, id))
		d->util[id] = util;
}

void dym_set_used(struct dym *d, uint32_t id, uint64_t entries)
{
	if (valid(d, id))
		d->used[id] = entries;
}

void dym_pin(struct dym *d, uint32_t id, bool pinned)
{
	if (valid(d, id))
		d->pinned[id] = pinned;
}

int dym_set_slots(struct dym *d, uint32_t id, uint32_t first, uint32_t n)
{
	if (!valid(d, id) || !n || n > d->p.m || first > d->p.m - n)
		return -GPU_EINVAL;
	d->lay.p[id] = first;
	d->lay.s[id] = n;
	return 0;
}
