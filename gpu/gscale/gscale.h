/* gScale: sharing the global graphics memory (GGTT address space) among
 * many vGPUs (gScale paper).
 *
 * gVirt gives every vGPU a private, non-overlapping slice of the GGTT, so
 * the aperture (low GM) caps the number of vGPUs at a handful. gScale lets
 * vGPUs overlap:
 *  - every vGPU keeps a private shadow of the GGTT entries of its ranges;
 *  - at a vGPU switch only the incoming vGPU's ranges are written to the
 *    physical GGTT ("on-demand copying"), and only the chunks whose physical
 *    entries currently belong to someone else (ownership tracking);
 *  - high GM is divided into slots; vGPUs are placed on slots, several per
 *    slot when they must ("slot sharing"); a slot whose vGPUs are all idle
 *    but one keeps that one's entries resident, so its switches copy
 *    nothing for high GM;
 *  - idle vGPUs are never switched to, so they cost no copy;
 *  - optionally the next vGPU's entries are copied ahead of its switch into
 *    chunks the running vGPU does not use ("predictive copy").
 *
 * This module is the mechanism: it owns the shadows, the ownership map and
 * the physical GGTT writes (through gpu_hw). Callers: the mediator's GGTT
 * write path (gscale_guest_write) and its scheduler (gscale_switch_to,
 * gscale_prefetch), and the evaluation harness (tools/eval/gscale).
 *
 * Units: GGTT entry indices (one entry = one 4 KiB page of GM). */
#ifndef GPU_GSCALE_GSCALE_H
#define GPU_GSCALE_GSCALE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/hw/gpu_hw.h"

#define GSCALE_MAX_VGPUS 128
#define GSCALE_NO_OWNER 0xffff
/* Ownership is tracked per chunk of 512 entries (2 MiB of GM): fine enough
 * that a vGPU's range boundary rarely splits a chunk, coarse enough that the
 * map for a 4 GiB GGTT is 2048 entries. */
#define GSCALE_CHUNK_ENTRIES 512u
/* A vGPU's high GM is at most this many ranges (runs of slots): the
 * non-contiguous slots of issue 17. A guest is told each of them
 * (docs/hypercalls.md); more would flood its reply ring. */
#define GSCALE_MAX_RANGES 8

/* A chunk of empty entries: the source of scrubbing writes. */
extern const uint64_t gscale_zero_chunk[GSCALE_CHUNK_ENTRIES];

struct gscale_range {
	uint32_t first; /* GGTT index */
	uint32_t count; /* entries; 0 = none */
};

struct gscale_params {
	/* Low GM shared by guest vGPUs (inside the aperture, after the host's
	 * part and the fence pool) and high GM divided into slots. */
	struct gscale_range low, high;
	uint32_t slot_entries; /* slot size; 0: 16384 entries = 64 MiB */
	bool slot_sharing;     /* false = gScale-basic: copy every switch */
	bool predictive;       /* copy the next vGPU's entries ahead */
};

/* Where shadows come from: hv pages on the machine, malloc in host tools. */
struct gscale_mem {
	void *(*alloc)(void *ctx, size_t bytes); /* zeroed, or NULL */
	void (*free)(void *ctx, void *p, size_t bytes);
	/* Optional clock (TSC cycles or ns) to account time spent copying. */
	uint64_t (*clock)(void *ctx);
	void *ctx;
};

struct gscale_stats {
	uint64_t switches;          /* gscale_switch_to calls that changed vGPU */
	uint64_t entries_copied;    /* on the switch path */
	uint64_t entries_prefetched; /* ahead of the switch (predictive) */
	uint64_t chunks_resident;   /* chunks found already owned at switch */
	uint64_t guest_writes;      /* entries written by guests */
	uint64_t guest_writes_hw;   /* ... that also went to the physical GGTT */
	uint64_t writes_rejected;   /* outside the writer's ranges */
	uint64_t copy_clock;        /* clock ticks spent copying at switch */
	uint64_t resizes;           /* gscale_vgpu_set_high calls done */
	/* Low GM chunks a switch did not copy although another vGPU ran in
	 * between: the physical chunk still held this vGPU's generation
	 * (unchanged), or the content there equals its shadow (same). */
	uint64_t low_chunks_unchanged, low_chunks_same;
	uint64_t prefetch_cut;      /* predictive copies stopped by deadline */
	uint64_t prefetch_clock;    /* clock ticks spent copying ahead */
	uint64_t moves;             /* relocations (move, split, merge) */
	uint64_t entries_carried;   /* present entries they carried over */
	/* The predictive gate (gscale_predict.c): chunks copied ahead that
	 * their vGPU found resident at its switch (hits) or that were
	 * overwritten or scrubbed first (wasted); prefetch calls the gate
	 * refused (paused); correct guesses made while paused (probes). */
	uint64_t pf_hit_chunks, pf_wasted_chunks, pf_paused, pf_probe_hits;
};

/* The predictive gate's account of one vGPU as the target of copies ahead
 * (gscale_predict.c). Invariant: wasted + pending <= allowance, where
 * allowance = GSCALE_PF_BUDGET + hit / GSCALE_PF_HIT_SHARE
 *             + min(grants, GSCALE_PF_MAX_GRANTS) * GSCALE_PF_GRANT
 * (chunks): a fixed part of at most 64 chunks plus 1/64 of its hits. */
struct gscale_pf {
	uint64_t hit, wasted, pending; /* chunks */
	uint64_t grants;               /* probe grants earned */
	uint32_t streak;               /* correct guesses in a row */
};
/* Fixed allowance of chunks a vGPU may have copied ahead and lost. */
#define GSCALE_PF_BUDGET 32u
/* One more chunk of allowance per this many chunks it found resident:
 * prediction pays while at most 1 in 64 chunks copied ahead is lost. */
#define GSCALE_PF_HIT_SHARE 64u
/* Every prefetch call is a guess of the next switch, scored there (the
 * probe: no copying). This many correct guesses in a row earn a grant of
 * GSCALE_PF_GRANT chunks, at most GSCALE_PF_MAX_GRANTS in a vGPU's life:
 * how a paused vGPU tries again. */
#define GSCALE_PF_PROBE_STREAK 8u
#define GSCALE_PF_GRANT 4u
#define GSCALE_PF_MAX_GRANTS 8u

struct gscale_vgpu {
	int id;                     /* index in gscale.vgpus */
	bool present;
	bool busy;                  /* has work: the scheduler may pick it */
	struct gscale_range low;    /* its low GM, in GGTT indices */
	/* Its high GM: nr_high ranges, each a run of slots starting on a
	 * slot boundary, lowest GM first, none adjacent to the next. Their
	 * entries are ONE array, shadow_high, range after range: an entry's
	 * place there (its "high offset") is what a relocation keeps. high
	 * is hr[0], the only range of a contiguous vGPU and the one PVINFO
	 * names. */
	union {
		struct gscale_range high;
		struct gscale_range hr[GSCALE_MAX_RANGES];
	};
	uint32_t nr_high;
	uint32_t high_count;        /* entries of all ranges */
	uint32_t slot;              /* first slot of hr[0] */
	uint64_t *shadow_low;       /* private shadow entries of low */
	uint64_t *shadow_high;      /* ... and of high (high_count) */
	uint64_t entries_copied;    /* for this vGPU, on the switch path */
	uint64_t switches_in;
	/* Per chunk of low: the generation of the physical chunk known to
	 * equal this vGPU's shadow, 0 = none (gscale_gen.c). */
	uint64_t *low_seen;
	struct gscale_pf pf;        /* as a target of predictive copy */
};

struct gscale {
	struct gpu_hw *hw;
	struct gscale_params p;
	struct gscale_mem mem;
	uint32_t nr_slots;
	uint32_t first_chunk, nr_chunks; /* chunks covering low..high */
	uint16_t *owner;                 /* per chunk: vGPU id or NO_OWNER */
	uint16_t *slot_users;            /* per slot: vGPUs placed there */
	int current;                     /* vGPU on the engine, -1 none */
	/* Low GM generations (gscale_gen.c): per chunk of p.low, bumped
	 * whenever the physical chunk's content changes. */
	uint64_t *low_gen;
	uint64_t gen_next;
	bool prefetch_was_cut;           /* set by the copy loop */
	/* Per chunk: the vGPU it was copied ahead for and that has not
	 * switched in since (it owns the chunk), or GSCALE_NO_OWNER. */
	uint16_t *pf_for;
	int pf_guess;                    /* last prefetch target, or -1 */
	struct gscale_vgpu vgpus[GSCALE_MAX_VGPUS];
	struct gscale_stats stats;
};

int gscale_init(struct gscale *gs, struct gpu_hw *hw,
		const struct gscale_params *p, const struct gscale_mem *mem);
void gscale_fini(struct gscale *gs);

/* Adds a vGPU needing low_entries of low GM and high_entries of high GM.
 * Low GM: every guest vGPU overlaps at the start of the shared low range.
 * High GM: placed on the least used slot run (slot sharing spreads vGPUs;
 * gScale-basic stacks them all at the first slot, as every vGPU's copy is
 * unconditional there anyway). Returns the id or a negative error. */
int gscale_vgpu_add(struct gscale *gs, uint32_t low_entries,
		    uint32_t high_entries);
void gscale_vgpu_remove(struct gscale *gs, int id);
void gscale_set_busy(struct gscale *gs, int id, bool busy);
int gscale_nr_vgpus(const struct gscale *gs);

/* A guest's GGTT write (already validated and translated by the mediator:
 * pte holds a host page of that VM). Updates the private shadow and, when
 * the chunk is resident for this vGPU, the physical GGTT. -GPU_EINVAL when
 * index is outside the vGPU's ranges (counted, nothing written). */
int gscale_guest_write(struct gscale *gs, int id, uint32_t index,
		       uint64_t pte);
/* The private view: what vGPU id's GGTT entry index holds (0 if none). */
uint64_t gscale_shadow_read(const struct gscale *gs, int id, uint32_t index);

/* A layout of high GM in slots (gscale_resize.c): n runs, lowest first,
 * none overlapping or adjacent, at most GSCALE_MAX_RANGES. The last run
 * may be shorter than its slots (`entries` of the whole set, rounded up
 * to chunks, fill the runs in order). */
struct gscale_run {
	uint32_t first, count; /* slots */
};

/* Gives vGPU id the high GM of `entries` (rounded up to chunks) starting
 * at slot `slot`: gscale_vgpu_reshape with one run. */
int gscale_vgpu_set_high(struct gscale *gs, int id, uint32_t slot,
			 uint32_t entries);
/* Ballooning: vGPU id's high GM becomes the runs (entries: their size,
 * 0 = whole slots). Entries at GM addresses old and new layout share are
 * kept, the others are forgotten, the new part is empty. Every chunk the
 * vGPU had resident in high GM is scrubbed (a running vGPU gets its new
 * layout copied in at once): the cost the balloon study charges a change.
 * -GPU_EINVAL: bad runs, -GPU_ENOMEM; nothing changes then. */
int gscale_vgpu_reshape(struct gscale *gs, int id,
			const struct gscale_run *runs, uint32_t n,
			uint32_t entries);
/* Re-placement (DymGPU's move, a split into runs, a merge into one): the
 * same number of entries, each carried to the same high offset (the k-th
 * entry of the old layout, ranges lowest first, is the k-th of the new
 * one). The shadow is kept; the old layout's chunks are scrubbed.
 * *carried = present entries moved. -GPU_EINVAL: bad runs or another
 * size. */
int gscale_vgpu_relocate(struct gscale *gs, int id,
			 const struct gscale_run *runs, uint32_t n,
			 uint64_t *carried);
/* Moves vGPU id's high GM, same size, into one run at slot `slot`
 * (gscale_vgpu_relocate; merges a vGPU of several ranges). */
int gscale_vgpu_move_high(struct gscale *gs, int id, uint32_t slot,
			  uint64_t *carried);
/* The runs (in slots) of vGPU id's high GM; returns how many. */
uint32_t gscale_vgpu_runs(const struct gscale *gs, int id,
			  struct gscale_run *out);
/* The high offset of GGTT index `index` in vGPU v's layout, or -1. */
int64_t gscale_high_offset(const struct gscale_vgpu *v, uint32_t index);
/* Slot accounting of a vGPU's layout: +1 / -1 user on each of its slots. */
void gscale_count_slots(struct gscale *gs, const struct gscale_vgpu *v,
			int delta);
/* Zero the physical GGTT chunks vGPU id owns (gscale_copy.c), for its
 * removal (gscale.c gscale_vgpu_remove). */
void gscale_scrub_owned(struct gscale *gs, int id);

/* Make vGPU id's entries the ones in the physical GGTT (the GGTT part of a
 * vGPU context switch). Returns the number of entries written. */
uint64_t gscale_switch_to(struct gscale *gs, int id);
/* Predictive copy: while `current` runs, copy next's entries into chunks
 * current does not use. No-op unless params.predictive. */
uint64_t gscale_prefetch(struct gscale *gs, int next);
/* The same, bounded by the idle time it may use: no chunk is started once
 * mem.clock reads deadline or later (the next switch is due); what is left
 * is copied at that switch as usual. Counted in stats.prefetch_cut. */
uint64_t gscale_prefetch_until(struct gscale *gs, int next,
			       uint64_t deadline);

/* The predictive gate (gscale_predict.c). Predictive copy never moves
 * work off the switch path for free: a chunk copied ahead is either found
 * resident at its vGPU's switch (a hit: the switch was spared that copy,
 * the total is unchanged) or lost before (wasted: extra work, plus at
 * most one recopy of the owner it evicted). Per target vGPU the gate
 * admits a chunk ahead only while wasted + pending < allowance (above),
 * so over any run
 *   total with prediction <= total without + 2 * 512 * sum over vGPUs
 *       (BUDGET + GRANT * min(grants, MAX_GRANTS) + hit / HIT_SHARE)
 * i.e. at most 64 chunks per vGPU plus 1/32 of the entries it moved off
 * the switch path
 * (tests/unit/test_gscale_predict.c asserts it). Paused (allowance
 * used up), it copies nothing; every call is still a guess of the next
 * switch, and GSCALE_PF_PROBE_STREAK correct guesses in a row earn a
 * grant to try again. */
int gscale_pf_init(struct gscale *gs);
void gscale_pf_fini(struct gscale *gs);
/* v's allowance in chunks (the invariant's right-hand side), and what
 * is left of it for copies ahead of v (<= 0: paused). */
uint64_t gscale_pf_bound(const struct gscale_vgpu *v);
int64_t gscale_pf_allowance(const struct gscale_vgpu *v);
/* Chunk c becomes v's (ahead: copied ahead of v's switch, copied: with
 * a GGTT write); resident: v already owned it at its switch. */
void gscale_pf_take(struct gscale *gs, uint32_t c, struct gscale_vgpu *v,
		    bool ahead, bool copied);
void gscale_pf_resident(struct gscale *gs, uint32_t c,
			struct gscale_vgpu *v);
/* Chunk c was scrubbed (its owner gave it up). */
void gscale_pf_drop(struct gscale *gs, uint32_t c);
/* A switch to id: scores the guess made while its target was paused. */
void gscale_pf_switch(struct gscale *gs, int id);
/* A prefetch call for v: records the guess; false while paused. */
bool gscale_pf_admit(struct gscale *gs, struct gscale_vgpu *v);

/* Low GM generations (gscale_gen.c), used by gscale.c and gscale_copy.c.
 * The shared low GM is where every vGPU overlaps, so every switch used to
 * recopy all of it. A chunk is skipped when the physical table still
 * holds the generation the incoming vGPU last saw there, or holds the
 * same entries (compared against the shadow of the vGPU that put them
 * there: never a read of the GGTT). c is an absolute chunk number. */
int gscale_gen_init(struct gscale *gs);
void gscale_gen_fini(struct gscale *gs);
int gscale_gen_vgpu_add(struct gscale *gs, struct gscale_vgpu *v);
void gscale_gen_vgpu_remove(struct gscale *gs, struct gscale_vgpu *v);
bool gscale_gen_is_low(const struct gscale *gs, uint32_t c);
/* Physical chunk c already equals v's shadow (and v becomes its owner). */
bool gscale_gen_holds(struct gscale *gs, const struct gscale_vgpu *v,
		      uint32_t c);
/* Physical chunk c was just written: with v's shadow (v may be NULL for a
 * scrub). */
void gscale_gen_written(struct gscale *gs, const struct gscale_vgpu *v,
			uint32_t c);
/* v's guest wrote its shadow in chunk c; hw: the write also reached the
 * physical GGTT. */
void gscale_gen_guest_write(struct gscale *gs, const struct gscale_vgpu *v,
			    uint32_t c, bool hw);

/* How many vGPUs of this size the shadows' memory allows: the limit that
 * replaces gVirt's partition (bytes_available / shadow bytes per vGPU). */
uint64_t gscale_shadow_bytes(uint32_t low_entries, uint32_t high_entries);

#endif
