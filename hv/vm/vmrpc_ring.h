/* The checking core of the guest channel (hv/vm/vmrpc.c): which records of
 * the guest's request ring to take, and whether each is well formed. Pure
 * (no VM, no memory access of its own), so the host tests and the fuzzer run
 * it on arbitrary guest bytes. */
#ifndef HV_VM_VMRPC_RING_H
#define HV_VM_VMRPC_RING_H

#include <stdbool.h>
#include <stdint.h>

#include "guest-shim/include/g9hv/vmrpc.h"

/* Copies ring slot `slot` (< VMRPC_SLOTS) of the guest into *out; false
 * when it cannot (the hypervisor's copy from guest RAM failed). */
typedef bool (*vmrpc_read_fn)(void *ctx, uint32_t slot, struct vmrpc_msg *out);

struct vmrpc_take {
	uint32_t taken;		/* well-formed records copied to out[] */
	uint32_t bad;		/* malformed records skipped */
	uint32_t lost;		/* records the guest overwrote unread */
	uint32_t tail;		/* the new consumer position */
	uint32_t left;		/* records after tail not taken yet (max) */
};

/* Takes the records from *tail up to the guest's head (at most
 * VMRPC_SLOTS: older ones the guest has overwritten are counted as lost),
 * but no more than `max` of them (one exit's bounded share: the rest is
 * `left` for the next), each copied once through read() and then checked,
 * valid ones into out[] (room for max). */
void vmrpc_take(uint32_t head, uint32_t tail, vmrpc_read_fn read, void *ctx,
		struct vmrpc_msg *out, uint32_t max, struct vmrpc_take *res);

/* VMRPC_OK, or why the record is refused. */
uint32_t vmrpc_check(const struct vmrpc_msg *m);

#endif
