/* DymGPU's re-placement as the running hypervisor applies it: keep BUSY
 * vGPUs apart on gScale's high-GM slots, whatever order they were created
 * in, and follow the busy set as it changes, without thrashing.
 *
 * Why only busy ones: under slot sharing a slot costs copies at a switch
 * only when two of its users both have work (an idle vGPU is never
 * switched to, gScale paper §4.3); a busy vGPU beside idle ones costs
 * nothing. So the rule is not "balance the slots" but "no slot with two
 * busy users", and every move has to remove such a collision.
 *
 * Each period (the caller's, 1 s in the hypervisor):
 *  1. busy, relative to the fair share, with a hysteresis band: the input
 *     is the monitor's share-relative utilization (mon_share, fed by
 *     dyml_feed): in each second of the window (DymGPU's 20 s) the N vGPUs
 *     that used the GPU (at least active_min of that second) would each
 *     get 1/N of it; how much of its share a vGPU used there, averaged
 *     over the window, 1000 = its whole share every second. A vGPU becomes
 *     busy at busy_on and stops being busy only below busy_off. Why
 *     relative: an absolute band (30% of the GPU on, as this module had)
 *     calls nothing busy once four or more vGPUs share the GPU, which is
 *     exactly when slots are shared and separating busy ones pays. Why
 *     per second and not 1/N of the whole window: a busy set that rotates
 *     faster than the window gives every vGPU that took part about the
 *     same average as a set busy all the time, but each competes only in
 *     the seconds it is busy, so it reads low here and moves nothing; one
 *     that rotates slower pays for each move over many rounds of
 *     collisions avoided.
 *  2. a busy vGPU that shares a slot with another busy one is a collision;
 *     of the two the lighter (then the one with fewer entries to carry,
 *     then the higher id) moves, to the run of slots with no other busy
 *     user and the fewest users (ties: leftmost).
 *  3. dwell: a vGPU moved (by the policy or the operator) is not moved
 *     again for `dwell` periods; at most max_moves per period.
 *  4. pinned vGPUs (guests that never negotiated the guest channel, e.g. a
 *     stock i915 that read PVINFO once) never move: the other busy user of
 *     the collision moves instead, or nothing does.
 * Pure, integer-only, no globals: the caller applies each decision and
 * reports it back (dyml_moved), so a refused move (work in flight) is
 * retried at the next period. */
#ifndef GPU_DYMGPU_DYMGPU_LIVE_H
#define GPU_DYMGPU_DYMGPU_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#define DYML_MAX_VGPUS 128
#define DYML_MAX_SLOTS 256
#define DYML_BUSY_ON 800	/* permille of the fair share (mon_share) */
#define DYML_BUSY_OFF 400
#define DYML_ACTIVE_MIN 10	/* permille of a second: counts in N */
#define DYML_DWELL 10		/* periods */
#define DYML_MAX_MOVES 2	/* per period */

struct dyml_params {
	/* 0: the defaults above. busy_on/off: permille of the fair share
	 * (1000 = its whole 1/N every second); active_min: permille of a
	 * second a vGPU must use the GPU to count as one of the N. */
	uint32_t busy_on, busy_off, active_min;
	uint32_t dwell, max_moves;
};

enum dyml_why {
	DYML_COLLISION,		/* shared a slot with another busy vGPU */
	DYML_OPERATOR,		/* `place` from the shell */
};

#define DYML_SET_WORDS (DYML_MAX_SLOTS / 64)

struct dyml_vgpu {
	bool present, movable, busy;
	uint32_t slot, n;	/* first slot, slots */
	/* Its slots: the run [slot, slot + n), or any set for a vGPU of
	 * several ranges (non-contiguous slots, dyml_sync_set). A move
	 * always makes it one run of n slots. */
	uint64_t set[DYML_SET_WORDS];
	uint64_t prev[DYML_SET_WORDS];	/* before this period's move */
	uint32_t prev_slot;
	uint32_t util;		/* permille of its fair share, last dyml_set */
	uint64_t entries;	/* bound entries a move carries */
	uint64_t moved_at;	/* period of its last move; 0 = never */
	uint64_t moves;
};

struct dyml_decision {
	uint16_t vgpu, other;	/* other: the busy vGPU it collided with */
	uint8_t why;		/* enum dyml_why */
	uint32_t from, to, n;
	uint64_t entries;
};

struct dyml_stats {
	uint64_t periods, decisions, moves, entries;
	uint64_t collisions;	/* busy-busy collisions seen, per period */
	uint64_t held_dwell;	/* a mover waited for its dwell */
	uint64_t held_pinned;	/* both busy users pinned */
	uint64_t no_room;	/* no run of slots free of busy users */
	uint32_t busy;		/* busy vGPUs, last period */
};

struct dyml {
	struct dyml_params p;
	uint32_t m;		/* slots */
	uint64_t period;	/* periods done; starts at 1 */
	struct dyml_vgpu v[DYML_MAX_VGPUS];
	struct dyml_stats st;
};

/* -GPU_EINVAL when m is 0 or above DYML_MAX_SLOTS, or busy_off > busy_on. */
int dyml_init(struct dyml *d, const struct dyml_params *p, uint32_t m);
/* -GPU_EINVAL: bad id, present already, run outside the slots. */
int dyml_add(struct dyml *d, uint32_t id, uint32_t slot, uint32_t n,
	     bool movable);
void dyml_remove(struct dyml *d, uint32_t id);
/* Inputs before a period: utilization (permille of the fair share, as
 * mon_share gives it), entries, movability. */
void dyml_set(struct dyml *d, uint32_t id, uint32_t util, uint64_t entries,
	      bool movable);
struct mon;
/* dyml_set with the monitor's share-relative utilization of id at now
 * (mon_share with this policy's active_min): what the hypervisor
 * (dymgpu_move.c) and the evaluation (tools/eval/gscale/robust.c) both
 * call, so they run the same rule with the same parameters. */
void dyml_feed(struct dyml *d, struct mon *m, uint32_t id,
	       uint64_t now, uint64_t entries, bool movable);
/* id's run changed by someone else (a balloon): no dwell, no move. */
void dyml_sync(struct dyml *d, uint32_t id, uint32_t slot, uint32_t n);
/* The same for a vGPU of several ranges: set = its slots (bit s of word
 * s / 64); ignored when empty or outside the slots. */
void dyml_sync_set(struct dyml *d, uint32_t id, const uint64_t *set);
/* The mechanism moved id (a decision applied, or the operator, or a
 * balloon): its new run; starts its dwell. */
int dyml_moved(struct dyml *d, uint32_t id, uint32_t slot, uint32_t n,
	       uint8_t why);
/* One period: writes at most max decisions (each already taken into the
 * policy's view of the layout; dyml_moved confirms, dyml_undo gives one
 * up) and returns how many. */
uint32_t dyml_step(struct dyml *d, struct dyml_decision *out, uint32_t max);
/* A decision the mechanism could not apply: back to where it was, and no
 * dwell started. */
void dyml_undo(struct dyml *d, const struct dyml_decision *dec);
/* Slots holding two or more busy vGPUs. */
uint32_t dyml_collisions(const struct dyml *d);

#endif
