/* See vmrpc_ring.h. */
#include "hv/vm/vmrpc_ring.h"

#define EXPAND_MAX 8	/* slots one request may ask for */

uint32_t vmrpc_check(const struct vmrpc_msg *m)
{
	if (m->reserved)
		return VMRPC_EINVAL;
	switch (m->type) {
	case VMRPC_STATS:
		return VMRPC_OK;
	case VMRPC_EXPAND:
		return !m->a ? VMRPC_EINVAL :
		       m->a > EXPAND_MAX || m->b ? VMRPC_ENOSPC : VMRPC_OK;
	case VMRPC_RELEASE:
		return !m->a || m->a > EXPAND_MAX || m->b ? VMRPC_EINVAL
							  : VMRPC_OK;
	case VMRPC_RANGES:
		return m->a || m->b ? VMRPC_EINVAL : VMRPC_OK;
	default:
		return VMRPC_EINVAL;
	}
}

void vmrpc_take(uint32_t head, uint32_t tail, vmrpc_read_fn read, void *ctx,
		struct vmrpc_msg *out, uint32_t max, struct vmrpc_take *res)
{
	uint32_t n = head - tail;	/* unsigned: wraps like the indices */

	*res = (struct vmrpc_take){ 0 };
	if (n > VMRPC_SLOTS) {
		/* The guest wrote past what we consumed: the oldest are gone
		 * (or head is garbage): keep the newest ring's worth. */
		res->lost = n - VMRPC_SLOTS;
		tail = head - VMRPC_SLOTS;
		n = VMRPC_SLOTS;
	}
	if (n > max) {
		res->left = n - max;
		n = max;
	}
	for (uint32_t i = 0; i < n; i++, tail++) {
		struct vmrpc_msg m;

		if (!read(ctx, tail % VMRPC_SLOTS, &m) ||
		    vmrpc_check(&m) == VMRPC_EINVAL) {
			res->bad++;
			continue;
		}
		out[res->taken++] = m;	/* ENOSPC is answered, not dropped */
	}
	res->tail = tail;
}
