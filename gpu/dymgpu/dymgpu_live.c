/* DymGPU's live re-placement with hysteresis; see dymgpu_live.h. */
#include <stddef.h>

#include "gpu/dymgpu/dymgpu_live.h"
#include "gpu/policy/monitor.h"
#include "gpu/policy/params.h"
#include "gpu/hw/gpu_hw.h"
#include "mini/string.h"

int dyml_init(struct dyml *d, const struct dyml_params *p, uint32_t m)
{
	memset(d, 0, sizeof(*d));
	if (p)
		d->p = *p;
	d->p.busy_on = (uint32_t)or_default(d->p.busy_on, DYML_BUSY_ON);
	d->p.busy_off = (uint32_t)or_default(d->p.busy_off, DYML_BUSY_OFF);
	d->p.active_min = (uint32_t)or_default(d->p.active_min, DYML_ACTIVE_MIN);
	d->p.dwell = (uint32_t)or_default(d->p.dwell, DYML_DWELL);
	d->p.max_moves = (uint32_t)or_default(d->p.max_moves, DYML_MAX_MOVES);
	if (!m || m > DYML_MAX_SLOTS || d->p.busy_off > d->p.busy_on ||
	    d->p.active_min > 1000)
		return -GPU_EINVAL;
	d->m = m;
	d->period = 1;
	return 0;
}

static struct dyml_vgpu *get(struct dyml *d, uint32_t id)
{
	return id < DYML_MAX_VGPUS && d->v[id].present ? &d->v[id] : NULL;
}

static bool run_ok(const struct dyml *d, uint32_t slot, uint32_t n)
{
	return n && n <= d->m && slot <= d->m - n;
}

static bool has(const struct dyml_vgpu *v, uint32_t s)
{
	return v->set[s / 64] >> (s % 64) & 1;
}

static void set_run(struct dyml_vgpu *v, uint32_t slot, uint32_t n)
{
	memset(v->set, 0, sizeof(v->set));
	for (uint32_t s = slot; s < slot + n; s++)
		v->set[s / 64] |= 1ull << (s % 64);
	v->slot = slot;
	v->n = n;
}

int dyml_add(struct dyml *d, uint32_t id, uint32_t slot, uint32_t n,
	     bool movable)
{
	if (id >= DYML_MAX_VGPUS || d->v[id].present || !run_ok(d, slot, n))
		return -GPU_EINVAL;
	memset(&d->v[id], 0, sizeof(d->v[id]));
	d->v[id] = (struct dyml_vgpu){ .present = true, .movable = movable };
	set_run(&d->v[id], slot, n);
	return 0;
}

void dyml_remove(struct dyml *d, uint32_t id)
{
	if (get(d, id))
		d->v[id].present = false;
}

void dyml_set(struct dyml *d, uint32_t id, uint32_t util, uint64_t entries,
	      bool movable)
{
	struct dyml_vgpu *v = get(d, id);

	if (!v)
		return;
	v->util = util;
	v->entries = entries;
	v->movable = movable;
}

void dyml_feed(struct dyml *d, struct mon *m, uint32_t id,
	       uint64_t now, uint64_t entries, bool movable)
{
	dyml_set(d, id, mon_share(m, id, now, d->p.active_min), entries,
		 movable);
}

void dyml_sync(struct dyml *d, uint32_t id, uint32_t slot, uint32_t n)
{
	struct dyml_vgpu *v = get(d, id);

	if (v && run_ok(d, slot, n))
		set_run(v, slot, n);
}

void dyml_sync_set(struct dyml *d, uint32_t id, const uint64_t *set)
{
	struct dyml_vgpu *v = get(d, id);
	uint32_t first = DYML_MAX_SLOTS, n = 0;

	if (!v)
		return;
	for (uint32_t s = 0; s < DYML_MAX_SLOTS; s++)
		if (set[s / 64] >> (s % 64) & 1) {
			if (s >= d->m)
				return;
			first = first < s ? first : s;
			n++;
		}
	if (!n)
		return;
	memcpy(v->set, set, sizeof(v->set));
	v->slot = first;
	v->n = n;
}

int dyml_moved(struct dyml *d, uint32_t id, uint32_t slot, uint32_t n,
	       uint8_t why)
{
	struct dyml_vgpu *v = get(d, id);

	if (!v || !run_ok(d, slot, n))
		return -GPU_EINVAL;
	set_run(v, slot, n);
	v->moved_at = d->period;
	v->moves++;
	d->st.moves++;
	d->st.entries += why == DYML_OPERATOR ? 0 : v->entries;
	return 0;
}

void dyml_undo(struct dyml *d, const struct dyml_decision *dec)
{
	struct dyml_vgpu *v = get(d, dec->vgpu);

	if (v) {
		memcpy(v->set, v->prev, sizeof(v->set));
		v->slot = v->prev_slot;
	}
}

static bool overlaps(const struct dyml_vgpu *a, const struct dyml_vgpu *b)
{
	for (uint32_t w = 0; w < DYML_SET_WORDS; w++)
		if (a->set[w] & b->set[w])
			return true;
	return false;
}

/* Per slot: busy users, all users and the sum of their utilizations
 * (load), not counting `skip` (an id, or DYML_MAX_VGPUS). */
struct tally {
	uint16_t busy[DYML_MAX_SLOTS], users[DYML_MAX_SLOTS];
	uint32_t load[DYML_MAX_SLOTS];
};

static void count(const struct dyml *d, uint32_t skip, struct tally *t)
{
	memset(t, 0, sizeof(*t));
	for (uint32_t id = 0; id < DYML_MAX_VGPUS; id++) {
		const struct dyml_vgpu *v = &d->v[id];

		if (!v->present || id == skip)
			continue;
		for (uint32_t s = 0; s < d->m; s++)
			if (has(v, s)) {
				t->users[s]++;
				t->busy[s] += v->busy;
				t->load[s] += v->util;
			}
	}
}

uint32_t dyml_collisions(const struct dyml *d)
{
	struct tally t;
	uint32_t c = 0;

	count(d, DYML_MAX_VGPUS, &t);
	for (uint32_t s = 0; s < d->m; s++)
		c += t.busy[s] > 1;
	return c;
}

/* The hysteresis band on the share-relative utilization (dyml_feed): per
 * state, the threshold (a dyml_params field) and the side of it that
 * flips the state. */
static const struct band {
	size_t threshold;	/* offsetof(struct dyml_params, ...) */
	bool flip_at_or_above;
} bands[2] = {
	[false] = { offsetof(struct dyml_params, busy_on), true },
	[true] = { offsetof(struct dyml_params, busy_off), false },
};

static uint32_t param(const struct dyml *d, size_t off)
{
	return *(const uint32_t *)((const char *)&d->p + off);
}

static void classify(struct dyml *d)
{
	uint32_t busy = 0;

	for (uint32_t id = 0; id < DYML_MAX_VGPUS; id++) {
		struct dyml_vgpu *v = &d->v[id];
		const struct band *b = &bands[v->busy];

		if (!v->present)
			continue;
		if ((v->util >= param(d, b->threshold)) == b->flip_at_or_above)
			v->busy = !v->busy;
		busy += v->busy;
	}
	d->st.busy = busy;
}

/* Where id goes: the run of v->n slots with no busy user but id, the
 * least load from the others (the sum of their utilizations: users that
 * are not busy now but use the GPU now and then are the next collisions),
 * then the fewest users, then leftmost. Only a run with less load than
 * id's slots have now is worth the move. False when there is none. */
static bool target(const struct dyml *d, uint32_t id, uint32_t *to)
{
	struct tally t;		/* 2 KiB of the hypervisor's 64 KiB stack */
	const struct dyml_vgpu *v = &d->v[id];
	uint64_t best = UINT64_MAX, here = 0;

	count(d, id, &t);
	for (uint32_t s = 0; s < d->m; s++)
		here += has(v, s) ? t.load[s] : 0;
	for (uint32_t s = 0; s + v->n <= d->m; s++) {
		uint64_t load = 0, users = 0;
		bool free = true;

		for (uint32_t i = s; i < s + v->n && free; i++) {
			free = !t.busy[i];
			load += t.load[i];
			users += t.users[i];
		}
		/* (load, users) in one key: users < 2^16 per slot. */
		if (free && load * 2 <= here && (load << 24 | users) < best) {
			best = load << 24 | users;
			*to = s;
		}
	}
	return best != UINT64_MAX;
}

/* Which of two colliding busy vGPUs moves: a movable one out of its dwell;
 * of two such, by the keys below in order (the first that differs). */
static bool can_move(const struct dyml *d, const struct dyml_vgpu *v)
{
	return v->movable &&
	       (!v->moved_at || d->period - v->moved_at >= d->p.dwell);
}

/* A key: the vGPU's value; the smaller moves. The lighter moves (the
 * heavier keeps running where its entries are), then the one with fewer
 * entries to carry, then the higher id (created later). */
static uint64_t key_util(const struct dyml_vgpu *v, uint32_t id)
{
	(void)id;
	return v->util;
}

static uint64_t key_entries(const struct dyml_vgpu *v, uint32_t id)
{
	(void)id;
	return v->entries;
}

static uint64_t key_lower_id(const struct dyml_vgpu *v, uint32_t id)
{
	(void)v;
	return DYML_MAX_VGPUS - id;
}

static uint64_t (*const mover_keys[])(const struct dyml_vgpu *, uint32_t) = {
	key_util, key_entries, key_lower_id,
};

static uint32_t pick_mover(struct dyml *d, uint32_t a, uint32_t b)
{
	const struct dyml_vgpu *va = &d->v[a], *vb = &d->v[b];
	bool ma = can_move(d, va), mb = can_move(d, vb);

	if (!ma && !mb) {
		if (!va->movable && !vb->movable)
			d->st.held_pinned++;
		else
			d->st.held_dwell++;
		return DYML_MAX_VGPUS;
	}
	if (ma != mb)
		return ma ? a : b;
	for (size_t k = 0; k < sizeof(mover_keys) / sizeof(mover_keys[0]); k++) {
		uint64_t ka = mover_keys[k](va, a), kb = mover_keys[k](vb, b);

		if (ka != kb)
			return ka < kb ? a : b;
	}
	return a;	/* a == b: not reached */
}

/* The first busy pair sharing a slot, after `after` (an id). */
static bool next_collision(const struct dyml *d, uint32_t *a, uint32_t *b)
{
	for (uint32_t i = *a; i < DYML_MAX_VGPUS; i++) {
		if (!d->v[i].present || !d->v[i].busy)
			continue;
		for (uint32_t j = i + 1; j < DYML_MAX_VGPUS; j++)
			if (d->v[j].present && d->v[j].busy &&
			    overlaps(&d->v[i], &d->v[j])) {
				*a = i;
				*b = j;
				return true;
			}
	}
	return false;
}

uint32_t dyml_step(struct dyml *d, struct dyml_decision *out, uint32_t max)
{
	uint32_t n = 0, a = 0, b, mover, to;

	d->period++;
	d->st.periods++;
	classify(d);
	d->st.collisions += dyml_collisions(d);
	if (max > d->p.max_moves)
		max = d->p.max_moves;
	while (n < max && next_collision(d, &a, &b)) {
		struct dyml_vgpu *v;

		mover = pick_mover(d, a, b);
		if (mover == DYML_MAX_VGPUS || !target(d, mover, &to)) {
			if (mover != DYML_MAX_VGPUS)
				d->st.no_room++;
			a++;	/* this pair stays; look further */
			continue;
		}
		v = &d->v[mover];
		out[n] = (struct dyml_decision){
			.vgpu = (uint16_t)mover, .other = (uint16_t)(mover == a ? b : a),
			.why = DYML_COLLISION, .from = v->slot, .to = to,
			.n = v->n, .entries = v->entries };
		memcpy(v->prev, v->set, sizeof(v->prev));
		v->prev_slot = v->slot;
		set_run(v, to, v->n);
		d->st.decisions++;
		n++;
	}
	return n;
}
