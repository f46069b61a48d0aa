/* See g9hv/vmrpc_guest.h. Single producer (this guest), single consumer
 * (the hypervisor, only during our kick hypercall), so plain stores in
 * order suffice: the kick is a VM exit, which serializes. */
#include "guest-shim/include/g9hv/hypercall.h"
#include "guest-shim/include/g9hv/vmrpc_guest.h"

int64_t vmrpc_open(struct vmrpc_guest *g, void *area,
		   int64_t (*hypercall)(uint64_t, uint64_t, uint64_t, uint64_t))
{
	volatile uint8_t *p = area;

	for (unsigned i = 0; i < VMRPC_PAGES * 4096; i++)
		p[i] = 0;
	g->ctl = area;
	g->ring = (struct vmrpc_msg *)((uint8_t *)area + 4096);
	g->seq = 0;
	g->rsp_seen = 0;
	g->hypercall = hypercall;
	g->ctl->magic = VMRPC_MAGIC;
	g->ctl->version = VMRPC_VERSION;
	return hypercall(G9HV_HC_VMRPC_SETUP, (uint64_t)(uintptr_t)area,
			 VMRPC_PAGES, 0);
}

uint32_t vmrpc_unsent(const struct vmrpc_guest *g)
{
	return ((volatile struct vmrpc_ctl *)g->ctl)->req_head -
	       ((volatile struct vmrpc_ctl *)g->ctl)->req_tail;
}

int64_t vmrpc_kick(struct vmrpc_guest *g)
{
	return g->hypercall(G9HV_HC_VMRPC_KICK, 0, 0, 0);
}

void vmrpc_put_raw(struct vmrpc_guest *g, const struct vmrpc_msg *m)
{
	g->ring[g->ctl->req_head % VMRPC_SLOTS] = *m;
	g->ctl->req_head++;
}

static uint32_t put(struct vmrpc_guest *g, uint32_t type, uint64_t a,
		    uint64_t b)
{
	struct vmrpc_msg m = { type, ++g->seq, a, b, 0 };

	if (vmrpc_unsent(g) >= VMRPC_SLOTS)
		vmrpc_kick(g);	/* full: flush the batch first */
	vmrpc_put_raw(g, &m);
	return m.seq;
}

void vmrpc_stats(struct vmrpc_guest *g, uint64_t evictions, uint64_t gm_used)
{
	put(g, VMRPC_STATS, evictions, gm_used);
}

static uint32_t urgent(struct vmrpc_guest *g, uint32_t type, uint32_t slots)
{
	uint32_t seq = put(g, type, slots, 0);

	return vmrpc_kick(g) < 0 ? 0 : seq;
}

uint32_t vmrpc_expand(struct vmrpc_guest *g, uint32_t slots)
{
	return urgent(g, VMRPC_EXPAND, slots);
}

uint32_t vmrpc_release(struct vmrpc_guest *g, uint32_t slots)
{
	return urgent(g, VMRPC_RELEASE, slots);
}

bool vmrpc_next_reply(struct vmrpc_guest *g, struct vmrpc_reply *r)
{
	volatile struct vmrpc_ctl *c = g->ctl;

	if (c->rsp_head == g->rsp_seen)
		return false;
	if (c->rsp_head - g->rsp_seen > VMRPC_REPLIES)
		g->rsp_seen = c->rsp_head - VMRPC_REPLIES;	/* overrun */
	*r = *(const struct vmrpc_reply *)&c->reply[g->rsp_seen % VMRPC_REPLIES];
	g->rsp_seen++;
	return true;
}

uint32_t vmrpc_ask_ranges(struct vmrpc_guest *g)
{
	uint32_t seq = put(g, VMRPC_RANGES, 0, 0);

	return vmrpc_kick(g) < 0 ? 0 : seq;
}

void vmrpc_set_quiet(struct vmrpc_guest *g, bool quiet)
{
	((volatile struct vmrpc_ctl *)g->ctl)->quiet = quiet ? 1 : 0;
}

bool vmrpc_layout_feed(struct vmrpc_layout *b, const struct vmrpc_reply *r,
		       struct vmrpc_layout *done)
{
	bool moved = r->type == VMRPC_R_MOVED;

	if (r->type != VMRPC_R_RANGES && !moved)
		return false;
	if (r->range == 0) {
		b->n = 0;
		b->moved = moved;
		b->low_base = r->low_base;
		b->low_size = r->low_size;
	}
	if (r->range != b->n || b->n >= VMRPC_MAX_RANGES || b->moved != moved) {
		b->n = VMRPC_MAX_RANGES + 1;	/* broken: wait for range 0 */
		return false;
	}
	b->base[b->n] = r->high_base;
	b->size[b->n] = r->high_size;
	b->n++;
	if (r->status == VMRPC_MORE)
		return false;
	b->status = r->status;
	*done = *b;
	return true;
}

uint64_t vmrpc_rebase(const struct vmrpc_layout *from,
		      const struct vmrpc_layout *to, uint64_t gm)
{
	uint64_t off = 0;

	for (uint32_t i = 0; i < from->n; i++) {
		if (gm >= from->base[i] && gm - from->base[i] < from->size[i]) {
			off += gm - from->base[i];
			for (uint32_t j = 0; j < to->n; j++) {
				if (off < to->size[j])
					return to->base[j] + off;
				off -= to->size[j];
			}
			return ~0ull;
		}
		off += from->size[i];
	}
	return gm;
}

bool vmrpc_layout_same(const struct vmrpc_layout *a,
		       const struct vmrpc_layout *b)
{
	if (a->n != b->n)
		return false;
	for (uint32_t i = 0; i < a->n; i++)
		if (a->base[i] != b->base[i] || a->size[i] != b->size[i])
			return false;
	return true;
}
