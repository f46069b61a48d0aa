/* The round-robin scheduler of VMs on one CPU; see sched.h. Each CPU
 * runs it over its own VMs (vm->cpu, docs/smp.md): a VM's budget, state
 * and timers are touched only by the CPU it runs on, the CPU's own
 * bookkeeping (whose state it holds, the round-robin cursor) is in its
 * per-CPU area. A VM with several vCPUs (vcpus=) runs them in turn in its
 * slice: each runnable one for its share of the slice, until it halts or
 * an IPI wakes another ("Several vCPUs" in docs/smp.md); the budget is
 * the VM's, so its vCPUs, IPIs and all, share what one VM gets. */
#include "hv/vm/sched.h"
#include "hv/console/console.h"
#include "hv/vm/sched_slice.h"
#include "hv/platform/tsc.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mailbox.h"
#include "hv/vm/vmexit.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/percpu.h"
#include "hv/cpu/xcpu.h"
#include "hv/cpu/x86.h"

#define PREEMPT_MAX		0xffffffffull	/* the field is 32 bits */

/* COM1 at 115200 baud sends its 16-byte FIFO in 16 x 10 bits / 115200 s
 * (1.39 ms): while output waits, the running VM is interrupted that often
 * so COM1 is fed without anyone waiting for it (console.c). */
#define COM1_FIFO_US		1389u
/* One byte of it (10 bits) takes 87 us: the exit path feeds COM1 at most
 * that often (a lock and an LSR read each time), so a FIFO that emptied
 * waits at most a byte's time for more. */
#define COM1_BYTE_US		87u

static uint64_t slice_tsc, floor_tsc, com1_fifo_tsc, com1_byte_tsc, lone_tsc;
static uint64_t stretch_tsc;	/* hv.cfg slice_stretch_ms (sched_set_stretch) */
static int64_t budget[VM_MAX];	/* TSC ticks left this round (sched_slice.h) */


/* The VMs this CPU runs. vm->cpu is published by the BSP after it created
 * the VM (hv/orchestrate.c): acquire, so the AP sees the whole VM. */
static bool mine(const struct vm *vm)
{
	return __atomic_load_n(&vm->cpu, __ATOMIC_ACQUIRE) ==
	       this_cpu()->index;
}

static bool vcpu_wakes(const struct vcpu *vc)
{
	return vc->nmi_pending || vlapic_pending(vc->lapic) >= 0;
}

/* The VM's vCPU timers brought up to now: an expiry becomes an IRR bit
 * (and wakes a halted vCPU) instead of staying behind as a deadline in
 * the past, which would cut every other VM's slice at once. The VM is
 * runnable while one of its vCPUs is. A VM made runnable from outside
 * (the shell's resume) with every vCPU halted wakes them: each HLT
 * checks again. */
static void advance_vm(struct vm *vm, uint64_t now)
{
	bool any = false;

	if (vm->state != VM_HALTED && vm->state != VM_RUNNABLE)
		return;
	vm_mailbox_drain(vm);	/* an MSI from another CPU wakes it */
	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		any |= vm->vcpus[i].run == VCPU_RUN;
	for (unsigned i = 0; i < vm->nr_vcpus; i++) {
		struct vcpu *vc = &vm->vcpus[i];

		if (vc->run == VCPU_WAIT_SIPI)
			continue;
		vlapic_advance(vc->lapic, now);
		if (vc->run == VCPU_HALTED &&
		    ((vm->state == VM_RUNNABLE && !any) || vcpu_wakes(vc)))
			vc->run = VCPU_RUN;
	}
	any = false;
	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		any |= vm->vcpus[i].run == VCPU_RUN;
	vm->state = any ? VM_RUNNABLE : VM_HALTED;
	if (any && vm->stats.halt_start_tsc) {
		vm->stats.halted_tsc += now - vm->stats.halt_start_tsc;
		vm->stats.halt_start_tsc = 0;
	}
}

static void advance_timers(uint64_t now)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (mine(&vms[i]))
			advance_vm(&vms[i], now);
}

/* Earliest virtual-timer deadline of the VM's vCPUs but `skip`. */
static uint64_t vm_next_event(const struct vm *vm, const struct vcpu *skip)
{
	uint64_t t = UINT64_MAX;

	for (unsigned i = 0; i < vm->nr_vcpus; i++) {
		uint64_t d;

		if (&vm->vcpus[i] == skip)
			continue;
		d = vlapic_next_event(vm->vcpus[i].lapic);
		if (d < t)
			t = d;
	}
	return t;
}

/* Earliest virtual-timer deadline of any VM but `self` that could be
 * picked this round (one without budget would not run anyway). */
static uint64_t others_next_event(const struct vm *self)
{
	uint64_t t = UINT64_MAX;

	for (unsigned i = 0; i < nr_vms; i++) {
		const struct vm *vm = &vms[i];
		uint64_t d;

		if (vm == self || vm->state == VM_STOPPED ||
		    vm->state == VM_PAUSED || budget[i] <= 0 || !mine(vm))
			continue;
		d = vm_next_event(vm, NULL);
		if (d < t)
			t = d;
	}
	return t;
}

uint64_t sched_next_event(void)
{
	uint64_t t = UINT64_MAX;

	for (unsigned i = 0; i < nr_vms; i++) {
		const struct vm *vm = &vms[i];
		uint64_t d;

		if (!mine(vm) || vm->state == VM_STOPPED ||
		    vm->state == VM_PAUSED)
			continue;
		d = vm_next_event(vm, NULL);
		if (d < t)
			t = d;
	}
	return t;
}

/* A VM's vUART is one of its devices: drained under its device lock,
 * as its vCPUs' port exits write it (docs/smp.md "The device lock"). */
static void uart_drain(struct vm *vm, bool all)
{
	vm_dev_lock(vm);
	vuart_tx_drain(vm, all);
	vm_dev_unlock(vm);
}

/* Each VM's UART buffer moves on as far as COM1's backlog allows. */
static void drain_uarts(void)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (vms[i].uart.tx_count && mine(&vms[i]))
			uart_drain(&vms[i], false);
}

/* Output moves on after vm's exit at `now`: COM1 gets what its FIFO
 * takes, at most once per byte's time (*polled: when it last did), then
 * the VMs' buffers: all of them when COM1 took some, else only vm's (the
 * only one that can have added bytes). Cheap when nothing waits or COM1
 * was fed just now. */
static void output_poll(struct vm *vm, uint64_t now, uint64_t *polled)
{
	if (now - *polled >= com1_byte_tsc && console_backlog()) {
		console_poll();
		*polled = now;
		drain_uarts();
	} else if (vm->uart.tx_count) {
		uart_drain(vm, false);
	}
}

/* When output must next be moved on (the FIFO fed at `polled` is empty
 * by then), or never. */
static uint64_t output_event(uint64_t now, uint64_t polled)
{
	if (!console_backlog())
		return UINT64_MAX;
	return polled + com1_fifo_tsc > now ? polled + com1_fifo_tsc : now;
}

void sched_charge_work(const struct vm *vm, uint64_t ticks)
{
	budget[vm->id] = sched_charge(budget[vm->id], ticks);
}

void sched_flush_output(void)
{
	for (unsigned i = 0; i < nr_vms; i++)
		uart_drain(&vms[i], true);
	console_flush();
}

static void set_preemption_timer(uint64_t now, uint64_t deadline)
{
	uint64_t ticks = deadline > now
		? (deadline - now) >> vmx_cpu.preempt_shift : 0;

	vmwrite(VMCS_PREEMPTION_TIMER_VALUE,
		ticks > PREEMPT_MAX ? PREEMPT_MAX : ticks);
}

/* The CPU state VMX leaves alone (hv/vm/cpu_state_switch.c) is this
 * CPU's: switched per CPU, per vCPU. */
static void switch_to(struct vcpu *vc)
{
	struct percpu *p = this_cpu();
	struct vcpu *owner = p->sched_owner;

	if (owner == vc)
		return;
	if (owner)
		vcpu_switch_out(owner);
	vcpu_switch_in(vc);
	p->sched_owner = vc;
}

/* The current vCPU's VMCS current here; the first time an AP runs it,
 * with the host state of this CPU (the BSP created the VMCS with its
 * own). A vCPU whose SIPI came starts now. */
static int load_vcpu(struct vm *vm)
{
	struct vcpu *vc = vm_vcpu(vm);
	struct percpu *p = this_cpu();
	int err;

	if (p->index == 0 || vc->taken)
		err = vmcs_make_current(vc->vmcs_pa);
	else
		err = vcpu_take(vm);
	if (!err && vc->start_pending) {
		err = vcpu_start_ap(vm);
		if (p->sched_owner == vc)	/* its fresh state, not the old */
			p->sched_owner = NULL;
	}
	if (!err)
		switch_to(vc);
	return err;
}

/* Every exit is bounded (docs/isolation.md, "Exits"): the longest one of
 * each VM is kept so the summary can show the bound holds. */
static void note_exit(struct vm *vm, uint32_t reason, uint64_t ticks)
{
	if ((reason & 0xffff) < EXIT_REASON_COUNT)
		vm->stats.exit_tsc[reason & 0xffff] += ticks;
	if (ticks > vm->stats.exit_max_tsc) {
		vm->stats.exit_max_tsc = ticks;
		vm->stats.exit_max_reason = reason & 0xffff;
	}
}

static sched_post_exit_fn post_exit_fn;

void sched_set_post_exit(sched_post_exit_fn fn)
{
	post_exit_fn = fn;
}

static sched_rounds_fn needs_rounds_fn;

void sched_set_needs_rounds(sched_rounds_fn fn)
{
	needs_rounds_fn = fn;
}

void sched_post_request(void)
{
	this_cpu()->post_pending = 1;
}

/* The posted work after vm's exit at t: the time now, and *hv grows by
 * the ticks that are not vm's to pay. */
static uint64_t post_exit(struct vm *vm, uint64_t t, uint64_t *hv)
{
	struct percpu *p = this_cpu();
	enum sched_post who = SCHED_POST_NONE;
	uint64_t now;

	if (!p->post_pending)
		return t;
	p->post_pending = 0;
	if (post_exit_fn)
		who = post_exit_fn(vm);
	if (who == SCHED_POST_NONE)
		return t;
	now = rdtsc();
	if (who == SCHED_POST_HV)
		*hv += now - t;
	return now;
}

/* The slice of one VM: its start and end, the ticks of posted work
 * charged to the hypervisor, and the current vCPU's turn. */
struct slice {
	uint64_t start, end, now, hv;
	uint64_t turn_end;	/* this vCPU's share of the slice */
	bool lone;		/* no other VM runnable: sched_lone_end */
	uint64_t other;		/* others_next_event at the slice's start */
	uint64_t out_polled;	/* COM1 last fed (output_poll) */
	uint64_t stretch;	/* slice_stretch, 0 once GPU work is posted */
	bool stretched;		/* slice_stretch allowed it at the start */
	uint64_t timer_end;	/* turn_end, stretched (sched_stretch_end) */
};

enum turn { TURN_AGAIN, TURN_OVER, SLICE_OVER };

/* After an exit of the current vCPU: go on, give the next vCPU its turn
 * (this one halted with another runnable, was sent INIT, woke another
 * with an IPI, or used its share), or end the VM's slice. */
static enum turn after_exit(struct vm *vm, enum exit_action act,
			    struct slice *sl, uint64_t other, uint64_t sib)
{
	struct vcpu *vc = vm_vcpu(vm);
	bool kick = vm->vcpu_kick;

	vm->vcpu_kick = false;
	/* Its HLT, with one vCPU too: it waits for an interrupt
	 * (advance_vm); a lone vCPU left VCPU_RUN made the VM runnable
	 * again at once, and a guest idling in HLT spun through exits. A
	 * parked AP (HLT with interrupts off) stays parked. */
	if (vm->state == VM_HALTED) {
		if (vc->run != VCPU_PARKED)
			vc->run = VCPU_HALTED;
		advance_vm(vm, sl->now);
		return vm->state == VM_RUNNABLE ? TURN_OVER : SLICE_OVER;
	}
	if (act != EXIT_RESUME || vm->state != VM_RUNNABLE ||
	    vm->reset_pending)
		return SLICE_OVER;
	if (sched_slice_over(sl->now, sl->start, sl->end, other, floor_tsc))
		return SLICE_OVER;
	if (vc->run != VCPU_RUN || kick || sl->now >= sl->turn_end ||
	    sib <= sl->now)
		return TURN_OVER;
	return TURN_AGAIN;
}

/* The current vCPU runs: enter, handle the exit, run posted work, repeat
 * until its turn or the VM's slice is over. Another VM's timer may end
 * the slice, never before the floor; one of the VM's other vCPUs' timers
 * ends this vCPU's turn. Those deadlines change only while their owners
 * run (or when this vCPU sends INIT, which ends its turn): taken once per
 * slice and per turn, so each exit pays only for its own vCPU's. */
static enum turn run_turn(struct vm *vm, struct slice *sl)
{
	struct vcpu *vc = vm_vcpu(vm);
	uint64_t sib = vm->nr_vcpus > 1 ? vm_next_event(vm, vc) : UINT64_MAX;

	for (;;) {
		uint64_t t0, t1, own, out;
		enum exit_action act;
		enum turn next;
		uint32_t reason;
		int rc;

		vm_mailbox_enter(vm);	/* interrupts, flushes from other CPUs */
		vlapic_advance(vc->lapic, sl->now);
		vcpu_prepare_events(vm);
		own = vlapic_next_event(vc->lapic);
		if (sib < own)
			own = sib;
		out = output_event(sl->now, sl->out_polled);
		if (out < own)
			own = out;
		set_preemption_timer(sl->now, sched_deadline(sl->start,
			sl->timer_end, own, sl->other, floor_tsc));

		t0 = rdtsc();
		rc = vcpu_enter(vm);
		xcpu_guest_exit();
		if (rc)
			return SLICE_OVER;
		t1 = rdtsc();
		vm->stats.run_tsc += t1 - t0;
		vm->stats.entries++;
		reason = (uint32_t)vmread(VMCS_EXIT_REASON);
		act = vmexit_dispatch(vm);
		output_poll(vm, t1, &sl->out_polled);
		sl->now = rdtsc();
		note_exit(vm, reason, sl->now - t1);
		if (this_cpu()->post_pending) {	/* the GPU's work needs a round */
			sl->stretch = 0;
			sl->timer_end = sl->turn_end;
		}
		sl->now = post_exit(vm, sl->now, &sl->hv);
		next = after_exit(vm, act, sl, sl->other, sib);
		if (next != TURN_AGAIN)
			return next;
	}
}

/* The VM's next runnable vCPU after the last one to run, or NULL. */
static struct vcpu *next_vcpu(struct vm *vm)
{
	for (unsigned k = 1; k <= vm->nr_vcpus; k++) {
		unsigned i = (vm->vcpu_cursor + k) % vm->nr_vcpus;

		if (vm->vcpus[i].run == VCPU_RUN) {
			vm->vcpu_cursor = i;
			return &vm->vcpus[i];
		}
	}
	return NULL;
}

/* Every other VM of this CPU is stopped or paused: nothing to switch
 * to, and nobody whose timer or interrupt (a halted VM's) must cut the
 * slice. A resume from the shell waits for the slice's end. */
static bool alone(const struct vm *vm)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (&vms[i] != vm && (vms[i].state == VM_RUNNABLE ||
				      vms[i].state == VM_HALTED) &&
		    mine(&vms[i]))
			return false;
	return true;
}

static sched_dev_next_fn dev_next_fn;

void sched_set_stretch(unsigned ms, sched_dev_next_fn fn)
{
	stretch_tsc = tsc_ms(ms);
	dev_next_fn = fn;
}

/* How far the slice's end may wait for an exit the VM takes anyway
 * (sched_timer_deadline): only while nobody else on this CPU waits for
 * the main loop: no other VM runnable or halted here, the GPU not busy
 * (dev_next_fn, asked once per slice: its lock), no GPU work posted
 * during the slice (run_turn). */
static uint64_t slice_stretch(const struct vm *vm, uint64_t now)
{
	if (!stretch_tsc || !alone(vm))
		return 0;
	if (dev_next_fn && dev_next_fn(now) <= now)
		return 0;
	return stretch_tsc;
}

/* One slice of one VM: its runnable vCPUs in turn, each for at most its
 * share of the slice (all of it with one vCPU), until the slice is over
 * or the VM halts, yields or stops. The slice is what is left of the
 * VM's budget, or up to slice_lone_ms for a VM alone (sched_lone_end).
 * sl->hv: the ticks of posted work charged to the hypervisor. */
static void run_slice(struct vm *vm, struct slice *sl)
{
	uint64_t share = slice_tsc / vm->nr_vcpus;

	sl->now = sl->start = sl->out_polled = rdtsc();
	sl->lone = lone_tsc > slice_tsc &&
		   !(needs_rounds_fn && needs_rounds_fn()) && alone(vm);
	sl->end = sl->lone ? sched_lone_end(sl->start, budget[vm->id],
					    lone_tsc)
			   : sl->start + (uint64_t)budget[vm->id];
	sl->hv = 0;
	sl->other = sl->lone ? UINT64_MAX : others_next_event(vm);
	sl->stretch = slice_stretch(vm, sl->now);
	sl->stretched = sl->stretch != 0;
	if (share < floor_tsc)
		share = floor_tsc;
	for (;;) {
		struct vcpu *vc = next_vcpu(vm);

		if (!vc)
			return;
		vm_set_vcpu(vm, vc);
		if (load_vcpu(vm)) {
			vm_stop(vm, "the VMCS of its vCPU %u cannot be "
				"loaded", vc->idx);
			return;
		}
		sl->turn_end = vm->nr_vcpus == 1 ? sl->end : sl->now + share;
		if (sl->turn_end > sl->end)
			sl->turn_end = sl->end;
		/* a vCPU's turn of several ends at its share, unstretched */
		sl->timer_end = sl->turn_end == sl->end
			? sched_stretch_end(sl->end, sl->stretch) : sl->turn_end;
		if (run_turn(vm, sl) == SLICE_OVER)
			return;
		advance_vm(vm, sl->now);
		if (vm->state != VM_RUNNABLE)
			return;
	}
}

/* Every other VM that wanted the CPU during [t0, t1) was kept waiting:
 * that is its steal time. */
static void account_steal(const struct vm *ran, uint64_t t0, uint64_t t1)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (&vms[i] != ran && vms[i].state == VM_RUNNABLE &&
		    mine(&vms[i]))
			vms[i].stats.steal_tsc += t1 - t0;
}

/* A runnable vCPU of the VM has an interrupt to take. */
static bool irq_due(const struct vm *vm)
{
	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		if (vm->vcpus[i].run == VCPU_RUN &&
		    vlapic_pending(vm->vcpus[i].lapic) >= 0)
			return true;
	return false;
}

/* The next VM of this CPU's (a compact list of its VMs for sched_pick,
 * so a round's refill touches only their budgets). *cursor is a VM id. */
static struct vm *pick_next(uint32_t *cursor)
{
	struct sched_cand c[VM_MAX];
	unsigned id[VM_MAX], n = 0, start = 0;
	int i;

	for (unsigned k = 0; k < nr_vms && k < VM_MAX; k++) {
		if (!mine(&vms[k]))
			continue;
		if (k < *cursor)
			start = n + 1;
		id[n] = k;
		c[n].runnable = vms[k].state == VM_RUNNABLE;
		c[n].irq_due = c[n].runnable && irq_due(&vms[k]);
		c[n].budget = budget[k];
		n++;
	}
	if (!n)
		return NULL;
	i = sched_pick(c, n, start % n, (int64_t)slice_tsc);
	for (unsigned k = 0; k < n; k++)
		budget[id[k]] = c[k].budget;
	if (i < 0)
		return NULL;
	*cursor = id[i] + 1;
	return &vms[id[i]];
}

void sched_forget_vm(const struct vm *vm)
{
	struct percpu *p = this_cpu();
	const struct vcpu *owner = p->sched_owner;

	if (owner >= vm->vcpus && owner < vm->vcpus + VM_VCPUS_MAX)
		p->sched_owner = NULL;
}

bool sched_all_stopped(void)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (vms[i].state != VM_STOPPED)
			return false;
	return true;
}

void sched_init(unsigned slice_ms, unsigned lone_ms)
{
	slice_tsc = tsc_ms(slice_ms ? slice_ms : HVCFG_DEFAULT_SLICE_MS);
	lone_tsc = tsc_ms(lone_ms);
	floor_tsc = tsc_hz() / 1000000 * SCHED_FLOOR_US;
	if (floor_tsc > slice_tsc)
		floor_tsc = slice_tsc;
	vlapic_set_min_period(tsc_hz() / 1000000 * VLAPIC_MIN_PERIOD_US);
	com1_fifo_tsc = tsc_hz() / 1000000 * COM1_FIFO_US;
	com1_byte_tsc = tsc_hz() / 1000000 * COM1_BYTE_US;
	console_set_async(true);
}

bool sched_run_next(void)
{
	struct vm *vm;
	struct slice sl;
	uint64_t t0, t1, ran;

	console_poll();
	drain_uarts();
	advance_timers(rdtsc());
	vm = pick_next(&this_cpu()->sched_cursor);
	if (!vm)
		return false;
	t0 = rdtsc();
	vm->stats.slice_start_tsc = t0;
	run_slice(vm, &sl);
	vm_reset_if_pending(vm);	/* its exit is over: safe to reload */
	t1 = rdtsc();
	vm->stats.slice_tsc += t1 - t0;
	vm->stats.slice_start_tsc = 0;
	vm->stats.slices++;
	if (vm->state == VM_HALTED)	/* until advance_vm wakes it */
		vm->stats.halt_start_tsc = t1;
	ran = t1 - t0 - sl.hv;
	/* A slice stretched past its budget ran alone (slice_stretch): the
	 * rounds it spanned are refills, as for a lone slice; charged as a
	 * plain slice its debt would keep the VM off an idle CPU. */
	budget[vm->id] = sl.lone || sl.stretched
		? sched_charge_lone(budget[vm->id], ran, (int64_t)slice_tsc)
		: sched_charge(budget[vm->id], ran);
	account_steal(vm, t0, t1);
	return true;
}
