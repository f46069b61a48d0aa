/* DymGPU's live re-placement with hysteresis; see dymgpu_live.h. */
#include "gpu/policy/dymgpu_live.h"
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
	d->p.dwell = (uint32_t)or_default(d->p.dwell, DYML_DWELL);
	d->p.max_moves = (uint32_t)or_default(d->p.max_moves, DYML_MAX_MOVES);
	if (!m || m > DYML_MAX_SLOTS || d->p.busy_off > d->p.busy_on)
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

/* Busy users of each slot, not counting `skip` (an id, or DYML_MAX_VGPUS),
 * and all users. */
static void count(const struct dyml *d, uint32_t skip, uint16_t *busy,
		  uint16_t *users)
{
	memset(busy, 0, d->m * sizeof(busy[0]));
	memset(users, 0, d->m * sizeof(users[0]));
	for (uint32_t id = 0; id < DYML_MAX_VGPUS; id++) {
		const struct dyml_vgpu *v = &d->v[id];

		if (!v->present || id == skip)
			continue;
		for (uint32_t s = 0; s < d->m; s++)
			if (has(v, s)) {
				users[s]++;
				busy[s] += v->busy;
			}
	}
}

uint32_t dyml_collisions(const struct dyml *d)
{
	uint16_t busy[DYML_MAX_SLOTS], users[DYML_MAX_SLOTS];
	uint32_t c = 0;

	count(d, DYML_MAX_VGPUS, busy, users);
	for (uint32_t s = 0; s < d->m; s++)
		c += busy[s] > 1;
	return c;
}

/* The hysteresis band on utilization. */
static void classify(struct dyml *d)
{
	for (uint32_t id = 0; id < DYML_MAX_VGPUS; id++) {
		struct dyml_vgpu *v = &d->v[id];

		if (!v->present)
			continue;
		if (!v->busy && v->util >= d->p.busy_on)
			v->busy = true;
		else if (v->busy && v->util < d->p.busy_off)
			v->busy = false;
	}
}

/* The run of v->n slots with no busy user but v and the fewest users;
 * ties leftmost. False when every run has another busy user. */
static bool target(const struct dyml *d, uint32_t id, uint32_t *to)
{
	uint16_t busy[DYML_MAX_SLOTS], users[DYML_MAX_SLOTS];
	const struct dyml_vgpu *v = &d->v[id];
	uint32_t best = UINT32_MAX;

	count(d, id, busy, users);
	for (uint32_t s = 0; s + v->n <= d->m; s++) {
		uint32_t u = 0;
		bool free = true;

		for (uint32_t i = s; i < s + v->n && free; i++) {
			free = !busy[i];
			u += users[i];
		}
		if (free && u < best) {
			best = u;
			*to = s;
		}
	}
	return best != UINT32_MAX;
}

/* Which of two colliding busy vGPUs moves: a movable one out of its dwell;
 * of two such, the lighter, then fewer entries, then the higher id. */
static bool can_move(const struct dyml *d, const struct dyml_vgpu *v)
{
	return v->movable &&
	       (!v->moved_at || d->period - v->moved_at >= d->p.dwell);
}

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
	if (va->util != vb->util)
		return va->util < vb->util ? a : b;
	if (va->entries != vb->entries)
		return va->entries < vb->entries ? a : b;
	return a > b ? a : b;
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
