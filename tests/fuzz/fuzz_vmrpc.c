/* libFuzzer target for the guest channel's checking core
 * (hv/vm/vmrpc_ring.c): the input is what a guest controls - its head and
 * the ring's bytes - against any consumer position. Invariants after every
 * input: only slots inside the ring are read, each at most once per ring
 * lap and at most VMRPC_SLOTS in all; every record handed on passed the
 * check; the counts add up; the new tail is the guest's head. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/vm/vmrpc_ring.h"

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			abort();                                               \
	} while (0)

static struct vmrpc_msg ring[VMRPC_SLOTS];
static unsigned reads;

static bool read_ring(void *ctx, uint32_t slot, struct vmrpc_msg *out)
{
	(void)ctx;
	CHECK(slot < VMRPC_SLOTS);
	reads++;
	*out = ring[slot];
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct vmrpc_msg out[VMRPC_SLOTS];
	struct vmrpc_take t;
	uint32_t head = 0, tail = 0, n;

	if (size < 8)
		return 0;
	memcpy(&head, data, 4);
	memcpy(&tail, data + 4, 4);
	memset(ring, 0, sizeof(ring));
	memcpy(ring, data + 8, size - 8 < sizeof(ring) ? size - 8 : sizeof(ring));
	reads = 0;
	vmrpc_take(head, tail, read_ring, NULL, out, VMRPC_SLOTS, &t);
	n = head - tail;
	CHECK(reads == (n > VMRPC_SLOTS ? VMRPC_SLOTS : n));
	CHECK(t.taken + t.bad == reads);
	CHECK(t.lost == (n > VMRPC_SLOTS ? n - VMRPC_SLOTS : 0));
	CHECK(t.tail == head);
	CHECK(t.left == 0);
	for (uint32_t i = 0; i < t.taken; i++)
		CHECK(vmrpc_check(&out[i]) != VMRPC_EINVAL);
	return 0;
}
