/* The guest <-> hypervisor channel for GPU memory (issue 7), modelled on
 * vCUDA's VMRPC (vCUDA paper): a control page and a message ring in
 * guest RAM that both sides share, and a hypercall to say "look now".
 *
 * Layout: the guest hands the hypervisor VMRPC_PAGES contiguous pages of
 * its RAM (G9HV_HC_VMRPC_SETUP). Page 0 is struct vmrpc_ctl (replies,
 * written by the hypervisor); page 1 is the request ring (written by the
 * guest), VMRPC_SLOTS records of struct vmrpc_msg.
 *
 * Requests: the guest writes records at slot (req_head % VMRPC_SLOTS) and
 * advances req_head. Statistics (VMRPC_STATS) are batched lazily: they
 * stay in the ring until the ring is full or an urgent request is sent;
 * an urgent request (VMRPC_EXPAND, VMRPC_RELEASE) is followed at once by
 * G9HV_HC_VMRPC_KICK, which makes the hypervisor consume every record from
 * req_tail to req_head (at most VMRPC_SLOTS per kick) and advance req_tail.
 *
 * Replies: the hypervisor writes struct vmrpc_reply at (rsp_head %
 * VMRPC_REPLIES) of the control page and advances rsp_head; the guest reads
 * up to rsp_head. An expansion is decided later by the policy loop
 * (hv/gpu_balloon.c): the immediate reply says "queued" (or why not), and a
 * VMRPC_R_RANGES reply follows with the vGPU's new GM ranges, which are
 * also what PVINFO's ballooning registers now say.
 *
 * Several ranges (non-contiguous slots, docs/hypercalls.md): a vGPU's
 * high GM may be up to VMRPC_MAX_RANGES ranges. One change is told as one
 * R_RANGES reply per range, lowest GM first, `range` = 0, 1, ...; every
 * reply but the last has status VMRPC_MORE, the last the change's status.
 * Range 0 is the one PVINFO names (a stock guest sees only it). When the
 * hypervisor MOVES high GM (re-placement, split, merge) the replies are
 * R_MOVED instead: every page keeps its high offset (the k-th page of the
 * old ranges, taken lowest first, is the k-th page of the new ones) and
 * the guest re-bases. R_RANGES (a balloon, an answer) keeps addresses.
 * VMRPC_RANGES asks for the ranges again (a guest that missed replies).
 *
 * The hypervisor never trusts this memory: it copies what it needs, then
 * checks it; a bad record is counted and skipped, and nothing a guest
 * writes here can make it read or write outside the registered pages. */
#ifndef G9HV_VMRPC_H
#define G9HV_VMRPC_H

#include <stdint.h>

#define VMRPC_MAGIC	0x43505256u	/* "VRPC" */
#define VMRPC_VERSION	1
#define VMRPC_PAGES	2
#define VMRPC_SLOTS	128		/* request ring: one 4 KiB page */
#define VMRPC_REPLIES	32		/* reply ring in the control page */

/* Request types. */
#define VMRPC_STATS	1	/* lazy: a = evictions for lack of GM since
				 * the last record, b = GM in use (bytes) */
#define VMRPC_EXPAND	2	/* urgent: a = slots wanted (1..8) */
#define VMRPC_RELEASE	3	/* urgent: a = slots given back */
#define VMRPC_RANGES	4	/* urgent: a = b = 0; the ranges are sent
				 * again as R_RANGES replies */

#define VMRPC_MAX_RANGES 8	/* high GM ranges of one vGPU */

/* Reply types and statuses. */
#define VMRPC_R_ACK	1	/* to the request `seq`: status */
#define VMRPC_R_RANGES	2	/* the vGPU's GM changed: base/size below;
				 * every page kept keeps its GM address */
#define VMRPC_R_MOVED	3	/* the same replies for a move (re-placement,
				 * split, merge): every page keeps its high
				 * offset, its GM address changed */
#define VMRPC_OK	0
#define VMRPC_EQUEUED	1	/* expansion queued for the policy */
#define VMRPC_MORE	2	/* R_RANGES: another range follows */
#define VMRPC_EINVAL	22	/* malformed record */
#define VMRPC_ENOSPC	28	/* too much asked / waiting */
#define VMRPC_EREJECT	111	/* the policy said no */

struct vmrpc_msg {
	uint32_t type;
	uint32_t seq;		/* the guest's; echoed in the reply */
	uint64_t a, b;
	uint64_t reserved;	/* must be 0 */
};

struct vmrpc_reply {
	uint32_t type;
	uint32_t seq;		/* request it answers (R_ACK) */
	uint32_t status;
	uint32_t range;		/* R_RANGES: index of this high range */
	uint64_t low_base, low_size, high_base, high_size;	/* R_RANGES */
};

struct vmrpc_ctl {
	uint32_t magic;		/* guest: VMRPC_MAGIC before setup */
	uint32_t version;	/* guest: VMRPC_VERSION */
	uint32_t req_head;	/* guest: records written */
	uint32_t req_tail;	/* hypervisor: records consumed */
	uint32_t rsp_head;	/* hypervisor: replies written */
	uint32_t errors;	/* hypervisor: records refused so far */
	/* guest: 1 while no high-GM address of it is in flight (between
	 * its submissions, replies read): only then does the hypervisor
	 * move its high GM. Cleared before it next uses a GM address and
	 * reads the replies after clearing (docs/hypercalls.md). */
	uint32_t quiet;
	uint32_t pad;
	struct vmrpc_reply reply[VMRPC_REPLIES];
};

_Static_assert(sizeof(struct vmrpc_msg) * VMRPC_SLOTS == 4096,
	       "ring = one page");
_Static_assert(sizeof(struct vmrpc_ctl) <= 4096, "control = one page");

#endif
