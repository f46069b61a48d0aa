/* Non-contiguous slots ("ours", issue 7): a vGPU's high GM is a SET of
 * slots instead of one run [P, P + S). gBalloon's own future work
 * (gBalloon paper §6) names the limit this removes: contiguous ranges
 * can only grow or shrink at their two ends, so expansion often has to
 * cover a busy neighbour even when free slots exist elsewhere.
 *
 * With sets, three things become simple and provably minimal:
 *  - placement: the fewest shared slots any placement of sizes S_i on M
 *    slots can have has a closed form (ncs_min_shared, proof in
 *    ncslots.c), and ncs_place reaches it; on top of that it gives private
 *    slots to the busiest vGPUs first and spreads the shared remainder so
 *    that busy vGPUs meet as little as possible (DymGPU's utilization idea);
 *  - expansion by q: the q slots outside the set with the fewest users
 *    (minimizes Algorithm 1's count of occupied slots covered);
 *  - reduction by q: the q slots of the set with the most other users
 *    (maximizes the sharing given up).
 * The guest then sees its GM as several ranges (ncs_runs): it needs a
 * guest that takes a list of ranges (the guest channel), where a stock
 * i915 takes one. */
#ifndef GPU_POLICY_NCSLOTS_H
#define GPU_POLICY_NCSLOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/policy/slots.h"

#define NCS_WORDS (SLOTS_MAX / 64)

struct ncs_set {
	uint64_t w[NCS_WORDS];
};

struct ncs_layout {
	uint32_t m;			/* slots in high GM */
	uint32_t n;			/* vGPUs */
	struct ncs_set set[SLOTS_MAX_VGPUS];
};

/* A run of consecutive slots: one GM range the guest is told about. */
struct ncs_run {
	uint32_t first, count;
};

static inline bool ncs_has(const struct ncs_set *s, uint32_t slot)
{
	return slot < SLOTS_MAX && (s->w[slot / 64] >> (slot % 64) & 1);
}

static inline void ncs_add(struct ncs_set *s, uint32_t slot)
{
	if (slot < SLOTS_MAX)
		s->w[slot / 64] |= 1ull << (slot % 64);
}

static inline void ncs_del(struct ncs_set *s, uint32_t slot)
{
	if (slot < SLOTS_MAX)
		s->w[slot / 64] &= ~(1ull << (slot % 64));
}

uint32_t ncs_count(const struct ncs_set *s);
/* How many vGPUs hold slot `slot`. */
uint32_t ncs_users(const struct ncs_layout *l, uint32_t slot);
/* Slots held by two or more vGPUs. */
uint32_t ncs_shared(const struct ncs_layout *l);
/* 0 when m and n are in range and every set lies inside [0, m). */
int ncs_check(const struct ncs_layout *l);
/* The contiguous layout as sets (to compare or to convert). */
void ncs_from_contig(struct ncs_layout *out, const struct slot_layout *in);

/* The fewest shared slots any placement of n vGPUs of s[i] slots each on
 * m slots can have: the least x with sum_i max(0, s_i - x) <= m - x.
 * -GPU_EINVAL when some s_i is 0 or larger than m, or m, n out of range. */
int ncs_min_shared(uint32_t m, uint32_t n, const uint32_t *s);

/* Global placement of l->n vGPUs of s[i] slots (l->m set by the caller):
 * exactly ncs_min_shared shared slots. weight[i] (GPU utilization, any
 * unit; NULL = all equal) orders who gets private slots first and spreads
 * the shared parts so heavy vGPUs share with light ones. Private parts are
 * laid out as runs, so a vGPU has at most a few ranges. Returns the number
 * of shared slots, or -GPU_EINVAL. */
int ncs_place(struct ncs_layout *l, const uint32_t *s, const uint32_t *weight);

/* Expected GGTT slot copies per round of the round robin, permille of a
 * slot: u[i] is vGPU i's busy share (permille of its turns it has work).
 * A user of a slot copies it when switched in after another user ran
 * since its last turn: slot j costs sum_{i in U_j} u_i (1 - prod_{o in
 * U_j, o != i} (1 - u_o)). Two always-busy vGPUs on a slot cost 2 per
 * round, a busy one with an idle one nothing. */
uint64_t ncs_cost(const struct ncs_layout *l, const uint32_t *u);
/* Copy-aware placement: busiest first, each vGPU takes the s[i] slots
 * where it adds the least to ncs_cost (free slots first), ties: fewest
 * users, lowest index. With every u equal to 1000 (all always busy) the
 * cost of a slot is its users when shared, so this concentrates the
 * sharing as ncs_place does; with mixed loads it puts light vGPUs over
 * busy ones instead of busy over busy. Greedy, then compared with
 * ncs_place's layout and the cheaper kept: never costlier than the fewest
 * shared slots, not always the minimum (test_policy_ncslots.c bounds the
 * gap by exhaustive search). Uses about 4 KiB of stack more than
 * ncs_place. Returns ncs_cost of the result, or -GPU_EINVAL. */
int64_t ncs_place_cost(struct ncs_layout *l, const uint32_t *s,
		       const uint32_t *u);

/* vGPU k gains q slots: those outside its set with the fewest users (the
 * least occupied GM covered); ties: the lightest users (weight, may be
 * NULL), then next to its own slots, then the lowest index. The added
 * slots are written to *added (may be NULL). -GPU_EINVAL when k is not a
 * vGPU or |set| + q > m. */
int ncs_expand(struct ncs_layout *l, uint32_t k, uint32_t q,
	       const uint32_t *weight, struct ncs_set *added);
/* vGPU k gives up q slots: those of its set with the most other users;
 * ties: the heaviest other users, then the highest index. -GPU_EINVAL
 * when |set| < q or k is not a vGPU. */
int ncs_reduce(struct ncs_layout *l, uint32_t k, uint32_t q,
	       const uint32_t *weight, struct ncs_set *removed);

/* The set as runs of consecutive slots, lowest first; returns the number
 * of runs (which may exceed max: only max are written). */
uint32_t ncs_runs(const struct ncs_set *s, uint32_t m, struct ncs_run *out,
		  uint32_t max);

#endif
