/* gBalloon's policy loop; see balloon_policy.h. */
#include "gpu/gballoon/balloon_policy.h"
#include "gpu/gballoon/gballoon_adjust.h"
#include "gpu/policy/params.h"
#include "gpu/hw/gpu_hw.h"
#include "mini/string.h"

int bpol_init(struct bpol *bp, const struct bpol_params *p, uint64_t now)
{
	memset(bp, 0, sizeof(*bp));
	if (p)
		bp->p = *p;
	bp->p.period_ns = or_default(bp->p.period_ns, BPOL_PERIOD_NS);
	bp->p.low = (uint32_t)or_default(bp->p.low, BPOL_LOW);
	bp->p.high = (uint32_t)or_default(bp->p.high, BPOL_HIGH);
	bp->p.vcpus = (uint32_t)or_default(bp->p.vcpus, 1);
	bp->p.nr_cpus = (uint32_t)or_default(bp->p.nr_cpus, 1);
	bp->p.w_max = or_default(bp->p.w_max, 1000ull * bp->p.vcpus);
	bp->p.rcopy_max = or_default(bp->p.rcopy_max, 1000 / bp->p.nr_cpus);
	if (!bp->p.rcopy_max)
		bp->p.rcopy_max = 1;
	bp->p.max_pending =
		(uint32_t)or_default(bp->p.max_pending, BPOL_MAX_PENDING);
	bp->p.guarantee_entries =
		or_default(bp->p.guarantee_entries, BPOL_GUARANTEE_ENTRIES);
	if (bp->p.low >= bp->p.high || bp->p.max_pending > UINT16_MAX)
		return -GPU_EINVAL;
	bp->last_ns = now;
	return 0;
}

static uint64_t term(uint64_t x, uint64_t max)
{
	/* x / max in permille, capped at 1000; no overflow for x < 2^54. */
	uint64_t t;

	if (x >= max)
		return 1000;
	t = x * 1000 / max;
	return t > 1000 ? 1000 : t;
}

uint32_t bpol_f(const struct bpol *bp, uint64_t w, uint64_t rcopy)
{
	return (uint32_t)(term(w, bp->p.w_max) + term(rcopy, bp->p.rcopy_max));
}

uint32_t bpol_guarantee_slots(const struct bpol *bp, uint32_t slot_entries)
{
	uint64_t g;

	if (bp->p.guarantee_entries == BPOL_NO_GUARANTEE || !slot_entries)
		return 0;
	g = bp->p.guarantee_entries / slot_entries;
	return g > SLOTS_MAX ? SLOTS_MAX : (uint32_t)g;
}

enum bpol_band bpol_band_of(const struct bpol *bp, uint32_t f)
{
	if (f >= bp->p.high)
		return BPOL_OVERLOADED;
	if (f >= bp->p.low)
		return BPOL_BUSY;
	return BPOL_CALM;
}

static struct bpol_req *find(struct bpol *bp, uint32_t k)
{
	for (uint32_t i = 0; i < bp->len; i++) {
		struct bpol_req *r = &bp->q[(bp->head + i) % BPOL_QUEUE];

		if (r->vgpu == k)
			return r;
	}
	return NULL;
}

uint32_t bpol_pending(const struct bpol *bp, uint32_t k)
{
	struct bpol_req *r = find((struct bpol *)bp, k);

	return r ? r->slots : 0;
}

int bpol_request(struct bpol *bp, const struct bpol_view *view, uint32_t k,
		 uint32_t q, uint64_t now)
{
	struct bpol_req *r;
	uint32_t pending;

	bp->st.requests++;
	if (k >= view->n || k >= SLOTS_MAX_VGPUS || !view->v[k].present ||
	    !q || q > view->m) {
		bp->st.refused++;
		return -GPU_EINVAL;
	}
	r = find(bp, k);
	pending = r ? r->slots : 0;
	if ((uint64_t)view->v[k].slots + pending + q > view->m) {
		bp->st.refused++;
		return -GPU_EINVAL; /* more than high GM holds */
	}
	if (pending + q > bp->p.max_pending ||
	    (!r && bp->len == BPOL_QUEUE)) {
		bp->st.refused++;
		return -GPU_ENOSPC;
	}
	if (!r) {
		r = &bp->q[(bp->head + bp->len) % BPOL_QUEUE];
		r->vgpu = (uint16_t)k;
		r->slots = 0;
		r->since_ns = now;
		bp->len++;
	}
	r->slots = (uint16_t)(r->slots + q);
	return 0;
}

void bpol_cancel(struct bpol *bp, uint32_t k)
{
	struct bpol_req keep[BPOL_QUEUE];
	uint32_t n = 0;

	for (uint32_t i = 0; i < bp->len; i++) {
		struct bpol_req *r = &bp->q[(bp->head + i) % BPOL_QUEUE];

		if (r->vgpu != k)
			keep[n++] = *r;
	}
	for (uint32_t i = 0; i < n; i++)
		bp->q[i] = keep[i];
	bp->head = 0;
	bp->len = n;
}

static void add(struct bpol_decision *d, uint8_t kind, uint32_t k,
		uint32_t slots, int err)
{
	if (d->nr == BPOL_MAX_ACTIONS)
		return; /* not reached: at most BPOL_QUEUE + 2 */
	d->act[d->nr++] = (struct bpol_action){ .kind = kind,
						 .vgpu = (uint16_t)k,
						 .slots = slots,
						 .err = err };
}

/* used/slots of a below that of b (lower GM utilization)? */
static bool less_used(const struct bpol_vgpu *a, const struct bpol_vgpu *b)
{
	/* Clamped so the cross products fit 64 bits (slots < 2^9). */
	uint64_t ua = a->used < (1ull << 50) ? a->used : 1ull << 50;
	uint64_t ub = b->used < (1ull << 50) ? b->used : 1ull << 50;

	return ua * b->slots < ub * a->slots;
}

/* Would taking a slot from c cut into GM it has bound? */
static bool full(const struct bpol_vgpu *c, uint32_t slot_entries)
{
	return c->used > (uint64_t)(c->slots - 1) * slot_entries;
}

/* The vGPU to shrink by one slot: above its floor; if under_used, with a
 * slot's worth of GM unused and not grown in this decision; otherwise not
 * a full or just grown one within the guarantee g (slots). The largest, then the least
 * used, then the lowest id. -1: none; *spared: a full vGPU was passed
 * over for the guarantee. */
static int victim(const struct bpol_vgpu *v, uint32_t n, uint32_t slot_entries,
		  bool under_used, const bool *grown, uint32_t g, bool *spared)
{
	int best = -1;

	for (uint32_t i = 0; i < n; i++) {
		const struct bpol_vgpu *c = &v[i];

		if (!c->present || c->slots <= c->floor || !c->slots)
			continue;
		if (under_used && (grown[i] || full(c, slot_entries)))
			continue;
		if (!under_used && c->slots <= g &&
		    (grown[i] || full(c, slot_entries))) {
			*spared = true;
			continue;
		}
		if (best < 0 || c->slots > v[best].slots ||
		    (c->slots == v[best].slots && less_used(c, &v[best])))
			best = (int)i;
	}
	return best;
}

int bpol_evaluate(struct bpol *bp, uint64_t now, uint64_t w, uint64_t rcopy,
		  const struct bpol_view *view, struct bpol_decision *d)
{
	struct bpol_vgpu *v = bp->scratch;
	bool grown[SLOTS_MAX_VGPUS];
	uint32_t n = view->n < SLOTS_MAX_VGPUS ? view->n : SLOTS_MAX_VGPUS;
	uint32_t shrink = 0, g;
	bool copy_over, spared = false;

	if (now < bp->last_ns || now - bp->last_ns < bp->p.period_ns)
		return 0;
	/* On a fixed 0.5 s grid, whatever the caller's tick jitter; after
	 * a long gap, from now. */
	if (now - bp->last_ns >= 2 * bp->p.period_ns)
		bp->last_ns = now;
	else
		bp->last_ns += bp->p.period_ns;
	memset(d, 0, sizeof(*d));
	d->t_ns = now;
	d->w = w;
	d->rcopy = rcopy;
	d->f = bpol_f(bp, w, rcopy);
	d->band = (uint8_t)bpol_band_of(bp, d->f);
	bp->st.evaluations++;
	bp->st.band[d->band]++;
	memcpy(v, view->v, n * sizeof(v[0]));
	memset(grown, 0, sizeof(grown));
	g = bpol_guarantee_slots(bp, view->slot_entries);
	copy_over = term(rcopy, bp->p.rcopy_max) >= bp->p.high;
	/* The requests, oldest first. */
	for (uint32_t i = 0; i < bp->len; i++) {
		struct bpol_req *r = &bp->q[(bp->head + i) % BPOL_QUEUE];
		uint32_t k = r->vgpu;

		if (k >= n || !v[k].present) {
			continue; /* gone since it asked */
		} else if ((uint64_t)v[k].slots + r->slots > view->m) {
			add(d, BPOL_REJECT, k, r->slots, -GPU_EINVAL);
			bp->st.rejected++;
		} else if (d->band == BPOL_OVERLOADED &&
			   (copy_over || (uint64_t)v[k].slots + r->slots > g)) {
			add(d, BPOL_REJECT, k, r->slots, -GPU_EBUSY);
			bp->st.rejected++;
		} else {
			bp->st.guaranteed += d->band == BPOL_OVERLOADED;
			add(d, BPOL_APPROVE, k, r->slots, 0);
			v[k].slots += r->slots;
			grown[k] = true;
			bp->st.approved++;
			bp->st.granted_slots += r->slots;
		}
	}
	bp->head = bp->len = 0;
	/* Taking back: one slot from an under-used vGPU, or two slots from
	 * the largest regardless of usage. */
	if (d->band == BPOL_BUSY)
		shrink = 1;
	else if (d->band == BPOL_OVERLOADED)
		shrink = 2;
	while (shrink--) {
		int k = victim(v, n, view->slot_entries,
			       d->band == BPOL_BUSY, grown, g, &spared);

		if (k < 0)
			break;
		v[k].slots--;
		bp->st.shrunk_slots++;
		/* Two slots off the same vGPU are one reduction of two. */
		if (d->nr && d->act[d->nr - 1].kind == BPOL_SHRINK &&
		    d->act[d->nr - 1].vgpu == k)
			d->act[d->nr - 1].slots++;
		else
			add(d, BPOL_SHRINK, (uint32_t)k, 1, 0);
	}
	bp->st.spared += spared;
	return 1;
}

uint32_t bpol_apply_contig(struct slot_layout *lay, struct bpol_decision *d)
{
	uint32_t done = 0;

	for (uint32_t i = 0; i < d->nr; i++) {
		struct bpol_action *a = &d->act[i];
		uint32_t l = 0, r = 0;

		if (a->kind == BPOL_REJECT)
			continue;
		if (a->kind == BPOL_APPROVE)
			a->err = gballoon_expand(lay, a->vgpu, a->slots, &l, &r);
		else
			a->err = gballoon_reduce(lay, a->vgpu, a->slots, &l, &r);
		if (a->err)
			continue;
		a->l = l;
		a->r = r;
		if (a->kind == BPOL_APPROVE)
			slots_apply(lay, a->vgpu, (int32_t)l, (int32_t)r);
		else
			slots_apply(lay, a->vgpu, -(int32_t)l, -(int32_t)r);
		done++;
	}
	return done;
}

uint32_t bpol_apply_nc(struct ncs_layout *l, struct bpol_decision *d,
		       const uint32_t *weight)
{
	uint32_t done = 0;

	for (uint32_t i = 0; i < d->nr; i++) {
		struct bpol_action *a = &d->act[i];

		if (a->kind == BPOL_REJECT)
			continue;
		a->err = a->kind == BPOL_APPROVE
				 ? ncs_expand(l, a->vgpu, a->slots, weight, NULL)
				 : ncs_reduce(l, a->vgpu, a->slots, weight, NULL);
		done += !a->err;
	}
	return done;
}

/* The view of n vGPUs over m slots, vGPU i holding count[i] slots. */
static void view_fill(struct bpol_view *v, uint32_t m, uint32_t n,
		      const uint32_t *count, const uint32_t *floor,
		      const uint64_t *used, uint32_t slot_entries)
{
	memset(v, 0, sizeof(*v));
	v->m = m;
	v->n = n;
	v->slot_entries = slot_entries;
	for (uint32_t i = 0; i < n && i < SLOTS_MAX_VGPUS; i++)
		v->v[i] = (struct bpol_vgpu){ .present = count[i] > 0,
					      .slots = count[i],
					      .floor = floor ? floor[i] : 0,
					      .used = used ? used[i] : 0 };
}

void bpol_view_contig(struct bpol_view *v, const struct slot_layout *lay,
		      const uint32_t *floor, const uint64_t *used,
		      uint32_t slot_entries)
{
	view_fill(v, lay->m, lay->n, lay->s, floor, used, slot_entries);
}

void bpol_view_nc(struct bpol_view *v, const struct ncs_layout *l,
		  const uint32_t *floor, const uint64_t *used,
		  uint32_t slot_entries)
{
	uint32_t count[SLOTS_MAX_VGPUS] = { 0 };

	for (uint32_t i = 0; i < l->n && i < SLOTS_MAX_VGPUS; i++)
		count[i] = ncs_count(&l->set[i]);
	view_fill(v, l->m, l->n, count, floor, used, slot_entries);
}

void bpol_view_granted(struct bpol_view *v, uint32_t m, uint32_t n,
		       const uint32_t *count, const uint32_t *granted,
		       const uint64_t *used, uint32_t slot_entries)
{
	uint32_t floor[SLOTS_MAX_VGPUS] = { 0 };

	for (uint32_t i = 0; i < n && i < SLOTS_MAX_VGPUS; i++)
		floor[i] = granted[i] < count[i] ? count[i] - granted[i] : 0;
	view_fill(v, m, n, count, floor, used, slot_entries);
}
