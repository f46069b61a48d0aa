/* The guest channel (guest-shim/include/g9hv/vmrpc.h), hypervisor side. */
#ifndef HV_VM_VMRPC_H
#define HV_VM_VMRPC_H

#include <stdbool.h>
#include <stdint.h>

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

/* Who decides a guest's GM requests: gBalloon's queue (hv/gpu/
 * gpu_balloon.c), registered by hv/orchestrate.c so this VM-layer file
 * does not reach up into the GPU glue. Return codes as gpu_balloon's:
 * request 0 or negative; release the slots given back, or negative.
 * Until one is set every request is refused. */
struct vmrpc_gm_ops {
	int (*request)(unsigned vm_id, uint32_t slots);
	int (*release)(unsigned vm_id, uint32_t slots);
};
void vmrpc_set_gm_ops(const struct vmrpc_gm_ops *ops);

#endif
