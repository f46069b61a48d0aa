/* The test guest's check of the GPU-memory channel (g9hv/vmrpc.h) through
 * the guest library (guest-shim/vmrpc): lazy batching, an urgent expansion
 * the policy loop decides, the new ranges matching PVINFO, and bad input
 * (garbage records, a ring overrun, an oversized request) answered without
 * harm. Runs after gpu_test (mode=gpu vmrpc). */
#include "guest-shim/include/g9hv/vmrpc_guest.h"
#include "guest-shim/testguest/gpu_test.h"
#include "guest-shim/testguest/tg.h"

#define PV_HIGH_BASE 0x48
#define PV_HIGH_SIZE 0x4c
#define SLOT_BYTES (64ull << 20)

static uint8_t area[VMRPC_PAGES * 4096] __attribute__((aligned(4096)));
static struct vmrpc_guest ch;

/* The reply of type `type` (for `seq` if an ACK), within a bounded wait. */
static bool wait_reply(uint32_t type, uint32_t seq, struct vmrpc_reply *r)
{
	for (int i = 0; i < 200000; i++) {
		while (vmrpc_next_reply(&ch, r))
			if (r->type == type &&
			    (type != VMRPC_R_ACK || r->seq == seq))
				return true;
		hypercall(G9HV_HC_YIELD, 0, 0, 0);
	}
	return false;
}

static void check_batching(void)
{
	struct vmrpc_reply r = { 0 };
	uint32_t high0 = gpu_pvinfo_read(PV_HIGH_SIZE), seq;

	for (int i = 0; i < 3; i++)
		vmrpc_stats(&ch, 1, 4096u * (i + 1));
	tg_check("vmrpc-lazy", vmrpc_unsent(&ch) == 3, "%u records wait "
		 "(statistics are not sent on their own)", vmrpc_unsent(&ch));
	bool ok;

	seq = vmrpc_expand(&ch, 1);
	ok = seq && vmrpc_unsent(&ch) == 0 &&
	     wait_reply(VMRPC_R_ACK, seq, &r) && r.status == VMRPC_EQUEUED;
	tg_check("vmrpc-urgent", ok, "expansion sent with the batch, ack "
		 "status %u", r.status);
	ok = wait_reply(VMRPC_R_RANGES, 0, &r) && r.status == VMRPC_OK &&
	     r.high_size == high0 + SLOT_BYTES &&
	     gpu_pvinfo_read(PV_HIGH_SIZE) == (uint32_t)r.high_size &&
	     gpu_pvinfo_read(PV_HIGH_BASE) == (uint32_t)r.high_base;
	/* Arguments after the check: their order of evaluation is free. */
	tg_check("vmrpc-ranges", ok,
		 "high GM %llx+%llx (was +%x), PVINFO %x+%x",
		 (unsigned long long)r.high_base,
		 (unsigned long long)r.high_size, high0,
		 gpu_pvinfo_read(PV_HIGH_BASE), gpu_pvinfo_read(PV_HIGH_SIZE));
}

static void check_bad_input(void)
{
	struct vmrpc_msg junk = { 77, 1, 2, 3, 4 };
	struct vmrpc_reply r = { 0 };
	uint32_t e0 = ch.ctl->errors, seq;
	bool ok;

	for (int i = 0; i < 5; i++)
		vmrpc_put_raw(&ch, &junk);
	vmrpc_kick(&ch);
	ok = ch.ctl->errors == e0 + 5 && vmrpc_unsent(&ch) == 0;
	tg_check("vmrpc-garbage", ok, "errors %u -> %u", e0, ch.ctl->errors);
	/* Claim more records than the ring holds: bounded, counted. */
	ch.ctl->req_head += 1000;
	ok = vmrpc_kick(&ch) >= 0 && vmrpc_unsent(&ch) == 0 &&
	     ch.ctl->errors > e0 + 5;
	tg_check("vmrpc-overrun", ok, "errors now %u", ch.ctl->errors);
	seq = vmrpc_expand(&ch, 9);
	ok = wait_reply(VMRPC_R_ACK, seq, &r) && r.status == VMRPC_ENOSPC;
	tg_check("vmrpc-too-big", ok, "status %u", r.status);
}

void vmrpc_test(void)
{
	int64_t err = vmrpc_open(&ch, area, hypercall);

	tg_check("vmrpc-setup", !err, "setup returned %lld", (long long)err);
	if (err)
		return;
	check_batching();
	check_bad_input();
}
