/* DymGPU's memory allocator as a placement manager (DymGPU paper
 * §III-B): it keeps the slot layout of every vGPU and re-places them with
 * the size-based or the utilization-based algorithm (dymgpu_place_by_size /
 * _by_util, dymgpu_place.h) when
 *   - a vGPU is created: size mode follows the paper (a vGPU no larger
 *     than the shared band L goes on top of it at P_K; otherwise the fewer
 *     shared slots of "new one alone at its best spot" and "everybody
 *     re-placed" wins); util mode re-places;
 *   - a vGPU is destroyed: size mode re-places only if it held a slot of
 *     its own (the paper), util mode re-places;
 *   - a vGPU turns idle or active (monitor.h): idle vGPUs are placed "as if
 *     terminated" - left out of the algorithm, parked on the rightmost
 *     slots, where they cost no copy because an idle vGPU is never
 *     switched to;
 *   - every period (20 s): re-placed by the latest utilization (the paper's
 *     util mode; in size mode it only changes something after sizes
 *     changed, e.g. by ballooning).
 * Each re-placement reports its moves: which vGPU, from which slot to
 * which, and how many GGTT entries must be re-copied - only the moved
 * vGPU's own bound entries, into its private shadow at the new position.
 *
 * Moving changes the GM addresses the guest uses (nothing translates
 * them), so only cooperating guests may be moved: a pinned vGPU (a stock
 * guest) keeps its slots; a re-placement that would move it keeps it in
 * place and is taken only if that does not add shared slots (else it is
 * vetoed and nothing moves). Pure, integer-only, time passed in. */
#ifndef GPU_DYMGPU_DYMGPU_TRIGGER_H
#define GPU_DYMGPU_DYMGPU_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/policy/slots.h"

#define DYM_PERIOD_NS 20000000000ull	/* the paper's 20 s */

enum dym_mode { DYM_BY_SIZE, DYM_BY_UTIL };
enum dym_why { DYM_CREATE, DYM_DESTROY, DYM_IDLE, DYM_ACTIVE, DYM_PERIODIC,
	       DYM_WHYS };

struct dym_params {
	uint8_t mode;		/* enum dym_mode */
	uint32_t m;		/* slots in high GM */
	uint32_t slot_entries;	/* GGTT entries per slot */
	uint64_t period_ns;	/* 0: DYM_PERIOD_NS */
};

struct dym_move {
	uint16_t vgpu;
	uint32_t from, to;	/* first slot before and after */
	uint32_t slots;
	uint64_t entries;	/* its own entries to re-copy */
};

struct dym_result {
	uint8_t why;		/* enum dym_why */
	bool replaced;		/* the algorithm ran and its layout taken */
	bool vetoed;		/* ... rejected because of a pinned vGPU */
	uint32_t shared_before, shared_after;
	uint32_t nr;		/* moves */
	uint64_t entries;	/* sum over the moves */
	struct dym_move mv[SLOTS_MAX_VGPUS];
};

struct dym_stats {
	uint64_t events[DYM_WHYS];
	uint64_t replacements, vetoes, moves, entries;
};

struct dym {
	struct dym_params p;
	struct slot_layout lay;		/* by vGPU id; s = 0: no vGPU */
	bool present[SLOTS_MAX_VGPUS], idle[SLOTS_MAX_VGPUS];
	bool pinned[SLOTS_MAX_VGPUS];
	uint32_t util[SLOTS_MAX_VGPUS];
	uint64_t used[SLOTS_MAX_VGPUS];	/* bound entries (re-copy cost) */
	uint32_t band_start, band_len;	/* size mode: P_K and L */
	uint64_t last_periodic;
	struct dym_stats st;
	struct slot_layout scratch;
	struct dym_result scratch_r;	/* when the caller passes no result */
};

int dym_init(struct dym *d, const struct dym_params *p, uint64_t now);

/* Events. Each fills r (may be NULL) with what moved. -GPU_EINVAL: bad
 * id, id present already (create) or absent, size 0 or above m. */
int dym_create(struct dym *d, uint32_t id, uint32_t slots, uint64_t now,
	       struct dym_result *r);
int dym_destroy(struct dym *d, uint32_t id, uint64_t now,
		struct dym_result *r);
int dym_set_idle(struct dym *d, uint32_t id, bool idle, uint64_t now,
		 struct dym_result *r);
/* 1 when the period was due and a re-placement considered, else 0. */
int dym_tick(struct dym *d, uint64_t now, struct dym_result *r);

/* Inputs between events. */
void dym_set_util(struct dym *d, uint32_t id, uint32_t util);
void dym_set_used(struct dym *d, uint32_t id, uint64_t entries);
void dym_pin(struct dym *d, uint32_t id, bool pinned);
/* The vGPU was resized or moved by someone else (ballooning). */
int dym_set_slots(struct dym *d, uint32_t id, uint32_t first, uint32_t n);

static inline const struct slot_layout *dym_layout(const struct dym *d)
{
	return &d->lay;
}

#endif
