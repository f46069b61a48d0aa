/* The guest side of the GPU-memory channel (g9hv/vmrpc.h): a small
 * freestanding library a guest links (the test guest does; a Linux-side
 * agent would use the same protocol). Statistics are batched lazily and
 * flushed with the next urgent request or when the ring fills. */
#ifndef G9HV_VMRPC_GUEST_H
#define G9HV_VMRPC_GUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "guest-shim/include/g9hv/vmrpc.h"

struct vmrpc_guest {
	struct vmrpc_ctl *ctl;		/* page 0 of the area */
	struct vmrpc_msg *ring;		/* page 1 */
	uint32_t seq;			/* last request sequence number */
	uint32_t rsp_seen;		/* replies consumed */
	int64_t (*hypercall)(uint64_t nr, uint64_t a1, uint64_t a2,
			     uint64_t a3);
};

/* area: VMRPC_PAGES page-aligned pages of guest RAM, identity mapped.
 * 0 or the hypervisor's negated error. */
int64_t vmrpc_open(struct vmrpc_guest *g, void *area,
		   int64_t (*hypercall)(uint64_t, uint64_t, uint64_t, uint64_t));
/* Lazy: queued, sent with the next urgent request (or when the ring is
 * full). */
void vmrpc_stats(struct vmrpc_guest *g, uint64_t evictions, uint64_t gm_used);
/* Urgent: sent at once with everything batched before it; returns the
 * request's sequence number (its ACK carries it), or 0 if the kick
 * failed. */
uint32_t vmrpc_expand(struct vmrpc_guest *g, uint32_t slots);
uint32_t vmrpc_release(struct vmrpc_guest *g, uint32_t slots);
/* The next unread reply into *r; false when there is none. */
bool vmrpc_next_reply(struct vmrpc_guest *g, struct vmrpc_reply *r);
/* Records written but not yet taken by the hypervisor. */
uint32_t vmrpc_unsent(const struct vmrpc_guest *g);
/* Ask for the vGPU's ranges (VMRPC_RANGES): they come back as R_RANGES
 * replies. The request's sequence number, 0 if the kick failed. */
uint32_t vmrpc_ask_ranges(struct vmrpc_guest *g);
/* quiet = true: no high-GM address of ours is in flight (between our
 * submissions, replies read): the hypervisor may move our GM now. Set it
 * false BEFORE using a GM address again, then read the replies. */
void vmrpc_set_quiet(struct vmrpc_guest *g, bool quiet);

/* The vGPU's GM as a sequence of R_RANGES replies describes it. */
struct vmrpc_layout {
	uint32_t n;			/* high ranges, lowest GM first */
	uint32_t status;		/* of the change (the last reply) */
	bool moved;			/* R_MOVED: re-base by high offset;
					 * else addresses were kept */
	uint64_t low_base, low_size;
	uint64_t base[VMRPC_MAX_RANGES], size[VMRPC_MAX_RANGES];
};
/* Feed every reply here: true when r completed a layout (copied to
 * *done; done->moved says whether it was a move); a sequence with a reply
 * missing (ring overrun) or of mixed types is dropped: ask again
 * (vmrpc_ask_ranges). */
bool vmrpc_layout_feed(struct vmrpc_layout *building,
		       const struct vmrpc_reply *r, struct vmrpc_layout *done);
/* Where GM address gm of layout `from` is in `to` after a move: the same
 * high offset (the k-th page of from's ranges is the k-th of to's). Low
 * GM and addresses outside from's high ranges come back unchanged; an
 * offset beyond to's ranges gives ~0. */
uint64_t vmrpc_rebase(const struct vmrpc_layout *from,
		      const struct vmrpc_layout *to, uint64_t gm);
bool vmrpc_layout_same(const struct vmrpc_layout *a,
		       const struct vmrpc_layout *b);

/* Test hook: write a raw record (any bytes) without kicking. */
void vmrpc_put_raw(struct vmrpc_guest *g, const struct vmrpc_msg *m);
int64_t vmrpc_kick(struct vmrpc_guest *g);

#endif
