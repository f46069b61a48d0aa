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
/* Test hook: write a raw record (any bytes) without kicking. */
void vmrpc_put_raw(struct vmrpc_guest *g, const struct vmrpc_msg *m);
int64_t vmrpc_kick(struct vmrpc_guest *g);

#endif
