/* Non-contiguous slot sets; see ncslots.h.
 *
 * Why ncs_min_shared is the minimum. Take any placement and let x be its
 * number of shared slots (two or more users). The other m - x slots have
 * at most one user each. vGPU i holds at most x shared slots, so at least
 * s_i - x of its slots are unshared, and unshared slots of different vGPUs
 * are different slots: sum_i max(0, s_i - x) <= m - x. So no placement
 * has fewer shared slots than the least x meeting that inequality.
 * Conversely, for such an x, give each vGPU a_i >= max(0, s_i - x) slots of
 * its own among the first m - x (the sum fits) and its other b_i = s_i -
 * a_i <= x slots among the last x, distinct because b_i <= x: only those x
 * slots can be shared. The condition is monotone in x (x = m always holds
 * when every s_i <= m), so the least x is found by counting up. ncs_place
 * is that construction; tests/unit/test_policy_ncslots.c checks it against
 * exhaustive search on small cases. */
#include "gpu/policy/ncslots.h"
#include "gpu/hw/gpu_hw.h"
#include "mini/string.h"

uint32_t ncs_count(const struct ncs_set *s)
{
	uint32_t c = 0;

	/* No popcount builtin: freestanding, it may become a libgcc call. */
	for (uint32_t i = 0; i < NCS_WORDS; i++)
		for (uint64_t w = s->w[i]; w; w &= w - 1)
			c++;
	return c;
}

uint32_t ncs_users(const struct ncs_layout *l, uint32_t slot)
{
	uint32_t u = 0;

	for (uint32_t i = 0; i < l->n; i++)
		u += ncs_has(&l->set[i], slot);
	return u;
}

uint32_t ncs_shared(const struct ncs_layout *l)
{
	uint32_t shared = 0;

	for (uint32_t slot = 0; slot < l->m; slot++)
		shared += ncs_users(l, slot) > 1;
	return shared;
}

int ncs_check(const struct ncs_layout *l)
{
	if (l->m > SLOTS_MAX || l->n > SLOTS_MAX_VGPUS)
		return -GPU_EINVAL;
	for (uint32_t i = 0; i < l->n; i++)
		for (uint32_t slot = l->m; slot < SLOTS_MAX; slot++)
			if (ncs_has(&l->set[i], slot))
				return -GPU_EINVAL;
	return 0;
}

void ncs_from_contig(struct ncs_layout *out, const struct slot_layout *in)
{
	memset(out, 0, sizeof(*out));
	out->m = in->m;
	out->n = in->n;
	for (uint32_t i = 0; i < in->n && i < SLOTS_MAX_VGPUS; i++)
		for (uint32_t s = in->p[i]; s < in->p[i] + in->s[i]; s++)
			ncs_add(&out->set[i], s);
}

static int check_sizes(uint32_t m, uint32_t n, const uint32_t *s)
{
	if (m > SLOTS_MAX || n > SLOTS_MAX_VGPUS)
		return -GPU_EINVAL;
	for (uint32_t i = 0; i < n; i++)
		if (!s[i] || s[i] > m)
			return -GPU_EINVAL;
	return 0;
}

static bool feasible(uint32_t m, uint32_t n, const uint32_t *s, uint32_t x)
{
	uint64_t need = 0;

	for (uint32_t i = 0; i < n; i++)
		need += s[i] > x ? s[i] - x : 0;
	return need <= m - x;
}

int ncs_min_shared(uint32_t m, uint32_t n, const uint32_t *s)
{
	if (check_sizes(m, n, s))
		return -GPU_EINVAL;
	for (uint32_t x = 0; x <= m; x++)
		if (feasible(m, n, s, x))
			return (int)x;
	return -GPU_EINVAL; /* not reached: x = m is feasible */
}

static uint32_t weight_of(const uint32_t *weight, uint32_t i)
{
	return weight ? weight[i] : 0;
}

/* vGPU indices by non-increasing weight, then size, then index. */
static void order(uint32_t n, const uint32_t *s, const uint32_t *weight,
		  uint32_t *ord)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t j = i;

		while (j > 0) {
			uint32_t a = ord[j - 1];
			bool after = weight_of(weight, a) < weight_of(weight, i) ||
				     (weight_of(weight, a) == weight_of(weight, i) &&
				      s[a] < s[i]);

			if (!after)
				break;
			ord[j] = a;
			j--;
		}
		ord[j] = i;
	}
}

int ncs_place(struct ncs_layout *l, const uint32_t *s, const uint32_t *weight)
{
	uint32_t ord[SLOTS_MAX_VGPUS], own[SLOTS_MAX_VGPUS];
	uint64_t load[SLOTS_MAX];
	uint32_t users[SLOTS_MAX];
	uint32_t m = l->m, n = l->n, x, budget, pos = 0;
	int min = ncs_min_shared(m, n, s);

	if (min < 0)
		return min;
	x = (uint32_t)min;
	memset(l->set, 0, sizeof(l->set));
	order(n, s, weight, ord);
	/* Slots of their own: what each must have, then the rest of the
	 * private region to the heaviest first. */
	budget = m - x;
	for (uint32_t i = 0; i < n; i++) {
		own[i] = s[i] > x ? s[i] - x : 0;
		budget -= own[i];
	}
	for (uint32_t k = 0; k < n && budget; k++) {
		uint32_t i = ord[k], more = s[i] - own[i];

		if (more > budget)
			more = budget;
		own[i] += more;
		budget -= more;
	}
	for (uint32_t k = 0; k < n; k++)
		for (uint32_t j = 0; j < own[ord[k]]; j++)
			ncs_add(&l->set[ord[k]], pos++);
	/* The rest on the x shared slots, heaviest first, each on the
	 * least loaded ones so heavy vGPUs meet light ones. */
	memset(load, 0, sizeof(load));
	memset(users, 0, sizeof(users));
	for (uint32_t k = 0; k < n; k++) {
		uint32_t i = ord[k], left = s[i] - own[i];

		while (left--) {
			uint32_t best = m;

			for (uint32_t slot = m - x; slot < m; slot++) {
				if (ncs_has(&l->set[i], slot))
					continue;
				if (best == m || load[slot] < load[best] ||
				    (load[slot] == load[best] &&
				     users[slot] < users[best]))
					best = slot;
			}
			ncs_add(&l->set[i], best);
			load[best] += (uint64_t)weight_of(weight, i) + 1;
			users[best]++;
		}
	}
	return (int)ncs_shared(l);
}

static uint32_t clamp_u(const uint32_t *u, uint32_t i)
{
	return u[i] > 1000 ? 1000 : u[i];
}

/* The cost of one slot held by the vGPUs in users[0..k). */
static uint64_t slot_cost(const uint32_t *users, uint32_t k, const uint32_t *u)
{
	uint64_t c = 0;

	if (k < 2)
		return 0;
	for (uint32_t a = 0; a < k; a++) {
		uint64_t none = 1000; /* nobody else ran, permille */

		for (uint32_t b = 0; b < k; b++)
			if (b != a)
				none = none * (1000 - clamp_u(u, users[b])) / 1000;
		c += (uint64_t)clamp_u(u, users[a]) * (1000 - none) / 1000;
	}
	return c;
}

static uint32_t users_of(const struct ncs_layout *l, uint32_t slot,
			 uint32_t *users)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < l->n; i++)
		if (ncs_has(&l->set[i], slot))
			users[k++] = i;
	return k;
}

uint64_t ncs_cost(const struct ncs_layout *l, const uint32_t *u)
{
	uint32_t users[SLOTS_MAX_VGPUS];
	uint64_t c = 0;

	for (uint32_t slot = 0; slot < l->m && slot < SLOTS_MAX; slot++)
		c += slot_cost(users, users_of(l, slot, users), u);
	return c;
}

int64_t ncs_place_cost(struct ncs_layout *l, const uint32_t *s,
		       const uint32_t *u)
{
	uint32_t ord[SLOTS_MAX_VGPUS], users[SLOTS_MAX_VGPUS + 1];
	uint64_t delta[SLOTS_MAX];
	uint32_t cnt[SLOTS_MAX];

	if (check_sizes(l->m, l->n, s))
		return -GPU_EINVAL;
	memset(l->set, 0, sizeof(l->set));
	order(l->n, s, u, ord);
	for (uint32_t k = 0; k < l->n; k++) {
		uint32_t i = ord[k];

		for (uint32_t slot = 0; slot < l->m; slot++) {
			uint32_t c = users_of(l, slot, users);
			uint64_t before = slot_cost(users, c, u);

			users[c] = i;
			delta[slot] = slot_cost(users, c + 1, u) - before;
			cnt[slot] = c;
		}
		for (uint32_t j = 0; j < s[i]; j++) {
			uint32_t best = l->m;

			for (uint32_t slot = 0; slot < l->m; slot++) {
				if (ncs_has(&l->set[i], slot))
					continue;
				if (best == l->m || delta[slot] < delta[best] ||
				    (delta[slot] == delta[best] &&
				     cnt[slot] < cnt[best]))
					best = slot;
			}
			ncs_add(&l->set[i], best);
		}
	}
	/* The fewest shared slots is sometimes cheaper than the greedy
	 * (equal loads): keep whichever costs less. */
	{
		struct ncs_layout alt;
		uint64_t c = ncs_cost(l, u), ca;

		alt.m = l->m;
		alt.n = l->n;
		if (ncs_place(&alt, s, u) >= 0) {
			ca = ncs_cost(&alt, u);
			if (ca < c) {
				memcpy(l->set, alt.set, sizeof(l->set));
				c = ca;
			}
		}
		return (int64_t)c;
	}
}

static int check_k(const struct ncs_layout *l, uint32_t k)
{
	return k < l->n && !ncs_check(l) ? 0 : -GPU_EINVAL;
}

/* Users of each slot and the sum of their weights, k excluded. */
static void occupancy(const struct ncs_layout *l, uint32_t k,
		      const uint32_t *weight, uint32_t *users, uint64_t *wsum)
{
	for (uint32_t slot = 0; slot < l->m; slot++) {
		users[slot] = 0;
		wsum[slot] = 0;
		for (uint32_t j = 0; j < l->n; j++)
			if (j != k && ncs_has(&l->set[j], slot)) {
				users[slot]++;
				wsum[slot] += weight_of(weight, j);
			}
	}
}

static bool next_to(const struct ncs_set *s, uint32_t slot)
{
	return (slot > 0 && ncs_has(s, slot - 1)) || ncs_has(s, slot + 1);
}

int ncs_expand(struct ncs_layout *l, uint32_t k, uint32_t q,
	       const uint32_t *weight, struct ncs_set *added)
{
	uint32_t users[SLOTS_MAX];
	uint64_t wsum[SLOTS_MAX];
	struct ncs_set orig, got;

	if (check_k(l, k) || ncs_count(&l->set[k]) + (uint64_t)q > l->m)
		return -GPU_EINVAL;
	occupancy(l, k, weight, users, wsum);
	orig = l->set[k];
	memset(&got, 0, sizeof(got));
	while (q--) {
		uint32_t best = l->m;

		for (uint32_t slot = 0; slot < l->m; slot++) {
			if (ncs_has(&l->set[k], slot))
				continue;
			if (best == l->m || users[slot] < users[best] ||
			    (users[slot] == users[best] &&
			     (wsum[slot] < wsum[best] ||
			      (wsum[slot] == wsum[best] &&
			       next_to(&orig, slot) && !next_to(&orig, best)))))
				best = slot;
		}
		ncs_add(&l->set[k], best);
		ncs_add(&got, best);
	}
	if (added)
		*added = got;
	return 0;
}

int ncs_reduce(struct ncs_layout *l, uint32_t k, uint32_t q,
	       const uint32_t *weight, struct ncs_set *removed)
{
	uint32_t users[SLOTS_MAX];
	uint64_t wsum[SLOTS_MAX];
	struct ncs_set gone;

	if (check_k(l, k) || ncs_count(&l->set[k]) < q)
		return -GPU_EINVAL;
	occupancy(l, k, weight, users, wsum);
	memset(&gone, 0, sizeof(gone));
	while (q--) {
		uint32_t best = l->m;

		for (uint32_t slot = 0; slot < l->m; slot++) {
			if (!ncs_has(&l->set[k], slot))
				continue;
			/* >= : among equals the highest index wins. */
			if (best == l->m || users[slot] > users[best] ||
			    (users[slot] == users[best] &&
			     wsum[slot] >= wsum[best]))
				best = slot;
		}
		ncs_del(&l->set[k], best);
		ncs_add(&gone, best);
	}
	if (removed)
		*removed = gone;
	return 0;
}

uint32_t ncs_runs(const struct ncs_set *s, uint32_t m, struct ncs_run *out,
		  uint32_t max)
{
	uint32_t n = 0;

	if (m > SLOTS_MAX)
		m = SLOTS_MAX;
	for (uint32_t slot = 0; slot < m; slot++) {
		if (!ncs_has(s, slot))
			continue;
		if (slot > 0 && ncs_has(s, slot - 1)) {
			if (n <= max)
				out[n - 1].count++;
			continue;
		}
		if (n < max)
			out[n] = (struct ncs_run){ slot, 1 };
		n++;
	}
	return n;
}
