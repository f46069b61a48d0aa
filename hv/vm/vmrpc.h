/* The guest channel (guest-shim/include/g9hv/vmrpc.h), hypervisor side. */
#ifndef HV_VM_VMRPC_H
#define HV_VM_VMRPC_H

#include <stdbool.h>
#include <stdint.h>

#include "guest-shim/include/g9hv/vmrpc.h"

struct vm;

/* G9HV_HC_VMRPC_SETUP: the channel's pages at gpa. 0 or a negated
 * G9HV_E* code (no vGPU, not two pages of RAM, bad magic/version). */
int64_t vmrpc_setup(struct vm *vm, uint64_t gpa, uint64_t pages);
/* G9HV_HC_VMRPC_KICK: consume the requests, at most a bounded chunk per
 * call; *more: records are left and the caller must repeat the call (the
 * guest's VMCALL, as an interrupted REP). The number taken by the whole
 * kick so far. */
int64_t vmrpc_kick(struct vm *vm, bool *more);
/* The VM's GM ranges changed (or a request was decided): post an
 * VMRPC_R_RANGES reply with status if it has a channel. */
void vmrpc_notify(struct vm *vm, uint32_t status);
/* Its high GM moved (re-placed, split, merged): VMRPC_R_MOVED replies,
 * the guest re-bases by high offset. */
void vmrpc_notify_moved(struct vm *vm);
/* The guest says (vmrpc_ctl.quiet) that no high-GM address of it is in
 * flight: its GM may be moved now. False without a channel. */
bool vmrpc_guest_quiet(struct vm *vm);

/* A VM's GPU memory as the channel tells it: low GM, and the high GM
 * ranges lowest first (high[0] is the one PVINFO names). */
struct vmrpc_gm_layout {
	uint64_t low_base, low_size;
	uint32_t nr_high;	/* at most VMRPC_MAX_RANGES */
	struct { uint64_t base, size; } high[VMRPC_MAX_RANGES];
};

/* Who owns a guest's GPU memory: the vGPU for its layout, gBalloon's
 * queue (hv/gpu/gpu_balloon.c) for its requests; registered by
 * hv/orchestrate.c so this VM-layer file does not reach up into the GPU
 * glue. Return codes as gpu_balloon's: request 0 or negative; release
 * the slots given back, or negative; gm_layout 0, or negative when the VM
 * has no vGPU (then the channel cannot be set up and nothing is told).
 * Until a table is set every request is refused and no VM has GPU
 * memory. */
struct vmrpc_gm_ops {
	int (*request)(unsigned vm_id, uint32_t slots);
	int (*release)(unsigned vm_id, uint32_t slots);
	int (*gm_layout)(unsigned vm_id, struct vmrpc_gm_layout *out);
};
void vmrpc_set_gm_ops(const struct vmrpc_gm_ops *ops);

#endif
