/* The guest channel for GPU memory (guest-shim/include/g9hv/vmrpc.h): the
 * two hypercalls and the replies. Guest memory is read only through
 * vm_read_gpa into our own copies (never a pointer kept into it), checked
 * by vmrpc_ring.c, and written only at the reply slots of the registered
 * control page. Everything a guest gets wrong is counted per VM and
 * reported with its name; the VM runs on. */
#include "hv/console/console.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mem.h"
#include "hv/vm/vmrpc.h"
#include "hv/vm/vmrpc_ring.h"

#define CTL_HEAD_OFF 8	/* offsetof(struct vmrpc_ctl, req_head) */
/* Records one exit acts on: each may ask gBalloon for a decision and
 * writes a reply, so a kick of a full ring is done in chunks (the VMCALL
 * is repeated, like an interrupted REP: hv/vm/hypercall.c). */
#define VMRPC_CHUNK 16
#define NO_GM_OPS (-1)

static const struct vmrpc_gm_ops *gm_ops;

void vmrpc_set_gm_ops(const struct vmrpc_gm_ops *ops)
{
	gm_ops = ops;
}

static uint64_t ring_gpa(const struct vm *vm)
{
	return vm->vmrpc.gpa + 4096;
}

/* Publishes a reply: the slot first, then the head the guest polls. */
static void reply(struct vm *vm, const struct vmrpc_reply *r)
{
	uint64_t at = vm->vmrpc.gpa + __builtin_offsetof(struct vmrpc_ctl, reply) +
		      (vm->vmrpc.rsp_head % VMRPC_REPLIES) * sizeof(*r);

	vm_write_gpa(vm, at, r, sizeof(*r));
	vm->vmrpc.rsp_head++;
	vm_write_gpa(vm, vm->vmrpc.gpa + __builtin_offsetof(struct vmrpc_ctl,
							     rsp_head),
		     &vm->vmrpc.rsp_head, 4);
}

/* Our consumer position and the error count, for the guest to see. */
static void publish_tail(struct vm *vm, uint32_t tail)
{
	uint32_t errors = (uint32_t)(vm->vmrpc.bad + vm->vmrpc.lost);

	vm->vmrpc.tail = tail;
	vm_write_gpa(vm, vm->vmrpc.gpa + __builtin_offsetof(struct vmrpc_ctl,
							     req_tail),
		     &tail, 4);
	vm_write_gpa(vm, vm->vmrpc.gpa + __builtin_offsetof(struct vmrpc_ctl,
							     errors),
		     &errors, 4);
}

static void ack(struct vm *vm, uint32_t seq, uint32_t status)
{
	struct vmrpc_reply r = { VMRPC_R_ACK, seq, status, 0, 0, 0, 0, 0 };

	reply(vm, &r);
}

/* One reply of `type` per high range, lowest first; all but the last say
 * "more follows" (g9hv/vmrpc.h). */
/* The VM's GPU memory from whoever owns it (vmrpc_gm_ops): false when
 * it has none (no vGPU). */
static bool vm_gm_layout(const struct vm *vm, struct vmrpc_gm_layout *l)
{
	return gm_ops && gm_ops->gm_layout && !gm_ops->gm_layout(vm->id, l);
}

static void tell_ranges(struct vm *vm, uint32_t type, uint32_t status)
{
	struct vmrpc_gm_layout l;
	struct vmrpc_reply r = { type, 0, status, 0, 0, 0, 0, 0 };
	uint32_t n;

	if (!vm->vmrpc.gpa || !vm_gm_layout(vm, &l))
		return;
	r.low_base = l.low_base;
	r.low_size = l.low_size;
	n = l.nr_high;
	if (n > VMRPC_MAX_RANGES)
		n = VMRPC_MAX_RANGES;	/* the mediator never makes more */
	for (uint32_t i = 0; i < n; i++) {
		r.range = i;
		r.high_base = l.high[i].base;
		r.high_size = l.high[i].size;
		r.status = i + 1 < n ? VMRPC_MORE : status;
		reply(vm, &r);
	}
}

void vmrpc_notify(struct vm *vm, uint32_t status)
{
	tell_ranges(vm, VMRPC_R_RANGES, status);
}

void vmrpc_notify_moved(struct vm *vm)
{
	tell_ranges(vm, VMRPC_R_MOVED, VMRPC_OK);
}

bool vmrpc_guest_quiet(struct vm *vm)
{
	uint32_t quiet = 0;

	return vm->vmrpc.gpa &&
	       !vm_read_gpa(vm, vm->vmrpc.gpa +
				    __builtin_offsetof(struct vmrpc_ctl, quiet),
			    &quiet, 4) &&
	       quiet == 1;
}

int64_t vmrpc_setup(struct vm *vm, uint64_t gpa, uint64_t pages)
{
	struct vmrpc_ctl head;
	struct vmrpc_gm_layout l;

	if (!vm_gm_layout(vm, &l))
		return -22;	/* no vGPU: no GPU memory to talk about */
	if (pages != VMRPC_PAGES || (gpa & 4095) ||
	    vm_read_gpa(vm, gpa, &head, CTL_HEAD_OFF + 8) ||
	    !vm_ram_contains(&vm->ram_layout, gpa, VMRPC_PAGES * 4096ull))
		return -14;
	if (head.magic != VMRPC_MAGIC || head.version != VMRPC_VERSION)
		return -22;
	vm->vmrpc = (struct vmrpc_state){ .gpa = gpa };
	vm->vmrpc.tail = head.req_head;	/* what is there already is stale */
	kprintf("vm '%s': guest channel at %llx\n", vm->name,
		(unsigned long long)gpa);
	return 0;
}

static bool read_slot(void *ctx, uint32_t slot, struct vmrpc_msg *out)
{
	struct vm *vm = ctx;

	return !vm_read_gpa(vm, ring_gpa(vm) + slot * sizeof(*out), out,
			    sizeof(*out));
}

static void act(struct vm *vm, const struct vmrpc_msg *m)
{
	uint32_t st = vmrpc_check(m);
	int err;

	if (m->type == VMRPC_STATS) {
		vm->vmrpc.evictions += m->a;
		vm->vmrpc.gm_used = m->b;
		return;
	}
	if (st != VMRPC_OK) {
		ack(vm, m->seq, st);
		return;
	}
	if (m->type == VMRPC_RANGES) {
		ack(vm, m->seq, VMRPC_OK);
		vmrpc_notify(vm, VMRPC_OK);
		return;
	}
	if (m->type == VMRPC_EXPAND) {
		err = gm_ops ? gm_ops->request(vm->id, (uint32_t)m->a)
			     : NO_GM_OPS;
		ack(vm, m->seq, err ? VMRPC_ENOSPC : VMRPC_EQUEUED);
		return;
	}
	err = gm_ops ? gm_ops->release(vm->id, (uint32_t)m->a) : NO_GM_OPS;
	ack(vm, m->seq, err < 0 ? VMRPC_EINVAL : VMRPC_OK);
	if (err > 0)
		vmrpc_notify(vm, VMRPC_OK);
}

/* One kick: every record written since the last one, at most a ring's
 * worth, in ring order as the guest batched them; VMRPC_CHUNK per call,
 * *more while records are left (the caller repeats the call). */
int64_t vmrpc_kick(struct vm *vm, bool *more)
{
	struct vmrpc_msg msgs[VMRPC_CHUNK];
	struct vmrpc_take t;
	uint32_t head;
	int64_t taken;

	*more = false;
	if (!vm->vmrpc.gpa)
		return -22;
	if (vm_read_gpa(vm, vm->vmrpc.gpa + CTL_HEAD_OFF, &head, 4))
		return -14;
	vmrpc_take(head, vm->vmrpc.tail, read_slot, vm, msgs, VMRPC_CHUNK, &t);
	vm->vmrpc.kicks += !vm->vmrpc.kick_taken;
	vm->vmrpc.records += t.taken;
	vm->vmrpc.bad += t.bad;
	vm->vmrpc.lost += t.lost;
	if (t.bad || t.lost)
		vm_event(vm, VM_EV_VMRPC, "guest channel: %u malformed "
			 "record(s) skipped, %u overwritten unread", t.bad,
			 t.lost);
	publish_tail(vm, t.tail);
	for (uint32_t i = 0; i < t.taken; i++)
		act(vm, &msgs[i]);
	taken = vm->vmrpc.kick_taken + t.taken;
	*more = t.left > 0;
	vm->vmrpc.kick_taken = *more ? taken : 0;
	return taken;
}
