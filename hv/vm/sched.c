/* The round-robin scheduler of VMs on one CPU; see sched.h. Each CPU
 * runs it over its own VMs (vm->cpu_mask, docs/smp.md) and, of each, over
 * its own vCPUs only (vcpu->cpu): a VM on several CPUs (cpus=1,2) is
 * scheduled per (VM, CPU), its slot: a budget, a halted flag, a vCPU
 * cursor each, touched only by that CPU, as are its vCPUs' timers. The
 * CPU's own bookkeeping (whose state it holds, the round-robin cursor) is
 * in its per-CPU area. A VM with several vCPUs on one CPU runs them in
 * turn in its slice: each runnable one for its share of the slice, until
 * it halts or an IPI wakes another ("Several vCPUs" in docs/smp.md); the
 * budget is the (VM, CPU)'s, so its vCPUs there, IPIs and all, share
 * what one VM gets on that CPU. */
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
/* TSC ticks left this round (sched_slice.h), per VM and slot (its CPU). */
static int64_t budget[VM_MAX][VM_VCPUS_MAX];
/* The vCPU last run, per VM and slot (next_vcpu's round robin). */
static unsigned cursor[VM_MAX][VM_VCPUS_MAX];


/* The VMs this CPU runs. vm->cpu_mask is published by the BSP after it
 * created the VM (hv/orchestrate.c): acquire, so the AP sees the whole
 * VM. */
static bool mine(const struct vm *vm)
{
	return vm_on_cpu(vm, this_cpu()->index);
}

/* This CPU's slot of a VM of it (0 for a VM of one CPU). */
static unsigned slot_here(const struct vm *vm)
{
	int s = vm_slot_of(vm, this_cpu()->index);

	return s > 0 ? (unsigned)s : 0;
}

/* vCPU i of the VM runs here. */
static bool own(const struct vm *vm, unsigned i)
{
	return vm->vcpus[i].cpu == this_cpu()->index;
}

/* The VM can run on this CPU: neither stopped nor paused, and one of its
 * vCPUs here is runnable (its slot not halted). */
static bool runnable_here(const struct vm *vm, unsigned slot)
{
	return vm_state_now(vm) == VM_RUNNABLE &&
	       !__atomic_load_n(&vm->slot_halted[slot], __ATOMIC_RELAXED) &&
	       !(slot && (__atomic_load_n(&vm->restarting, __ATOMIC_ACQUIRE) ||
			  __atomic_load_n(&vm->reset_pending,
					  __ATOMIC_ACQUIRE)));
}

/* A counter of the VM that its CPUs add to (docs/smp.md "A VM on
 * several CPUs": stats are atomic). */
static void stat_add(uint64_t *c, uint64_t v)
{
	__atomic_fetch_add(c, v, __ATOMIC_RELAXED);
}

/* The VM's state from its slots' halted flags: RUNNABLE while one slot
 * is not halted, HALTED when all are; never over STOPPED or PAUSED (a
 * compare-exchange: another CPU may stop it meanwhile). With several
 * CPUs it says what some CPU last saw (the shell's `vms`, the reports);
 * each CPU schedules by its own slot's flag. */
static void publish_state(struct vm *vm)
{
	enum vm_state old = vm_state_now(vm), neu = VM_HALTED;

	for (unsigned s = 0; s < vm->nr_cpus && s < VM_VCPUS_MAX; s++)
		if (!__atomic_load_n(&vm->slot_halted[s], __ATOMIC_RELAXED))
			neu = VM_RUNNABLE;
	while ((old == VM_RUNNABLE || old == VM_HALTED) && old != neu &&
	       !__atomic_compare_exchange_n(&vm->state, &old, neu, false,
					    __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE))
		;
}

static bool vcpu_wakes(const struct vcpu *vc)
{
	return vc->nmi_pending || vlapic_pending(vc->lapic) >= 0;
}

/* The VM's vCPUs on this CPU, their timers brought up to now: an expiry
 * becomes an IRR bit (and wakes a halted vCPU) instead of staying behind
 * as a deadline in the past, which would cut every other VM's slice at
 * once. The (VM, CPU) is runnable while one of its vCPUs here is; a
 * halted vCPU runs again only for an interrupt or NMI (a HLT with one
 * pending does not halt, exit_misc.c). Halted time is the home slot's
 * (slot 0: a VM of one CPU as before). */
static void advance_vm(struct vm *vm, uint64_t now)
{
	unsigned slot = slot_here(vm);
	enum vm_state st = vm_state_now(vm);
	bool any = false;

	if (st != VM_HALTED && st != VM_RUNNABLE)
		return;
	vm_mailbox_drain(vm);	/* an MSI from another CPU wakes it */
	for (unsigned i = 0; i < vm->nr_vcpus; i++) {
		struct vcpu *vc = &vm->vcpus[i];

		if (!own(vm, i) || vc->run == VCPU_WAIT_SIPI)
			continue;
		vlapic_advance(vc->lapic, now);
		if (vc->run == VCPU_HALTED && vcpu_wakes(vc))
			vc->run = VCPU_RUN;
		any |= vc->run == VCPU_RUN;
	}
	__atomic_store_n(&vm->slot_halted[slot], !any, __ATOMIC_RELAXED);
	publish_state(vm);
	if (any && slot == 0 && vm->stats.halt_start_tsc) {
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

/* Earliest virtual-timer deadline of the VM's vCPUs on this CPU but
 * `skip` (the others' timers are their CPUs'). */
static uint64_t vm_next_event(const struct vm *vm, const struct vcpu *skip)
{
	uint64_t t = UINT64_MAX;

	for (unsigned i = 0; i < vm->nr_vcpus; i++) {
		uint64_t d;

		if (&vm->vcpus[i] == skip || !own(vm, i))
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

		if (vm == self || !mine(vm) || vm_state_now(vm) == VM_STOPPED ||
		    vm_state_now(vm) == VM_PAUSED ||
		    budget[i][slot_here(vm)] <= 0)
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

		if (!mine(vm) || vm_state_now(vm) == VM_STOPPED ||
		    vm_state_now(vm) == VM_PAUSED)
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

/* To its home slot (vCPU 0's CPU). */
void sched_charge_work(const struct vm *vm, uint64_t ticks)
{
	budget[vm->id][0] = sched_charge(budget[vm->id][0], ticks);
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
		stat_add(&vm->stats.exit_tsc[reason & 0xffff], ticks);
	if (ticks > __atomic_load_n(&vm->stats.exit_max_tsc,
				    __ATOMIC_RELAXED)) {
		/* Two CPUs of one VM: the larger wins, its reason beside
		 * it (a report reads both after the VM stopped). */
		__atomic_store_n(&vm->stats.exit_max_tsc, ticks,
				 __ATOMIC_RELAXED);
		__atomic_store_n(&vm->stats.exit_max_reason, reason & 0xffff,
				 __ATOMIC_RELAXED);
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
	unsigned slot;		/* this CPU's slot of the VM */
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
	bool kick = vc->kick;

	vc->kick = false;
	/* Its HLT (exit_misc.c said so in vc->run, per vCPU: a sibling on
	 * another CPU runs on), with one vCPU too: it waits for an
	 * interrupt (advance_vm). A parked AP (HLT with interrupts off)
	 * stays parked. */
	if (act == EXIT_YIELD &&
	    (vc->run == VCPU_HALTED || vc->run == VCPU_PARKED)) {
		advance_vm(vm, sl->now);
		return runnable_here(vm, sl->slot) ? TURN_OVER : SLICE_OVER;
	}
	if (act != EXIT_RESUME || vm_state_now(vm) != VM_RUNNABLE ||
	    vm->reset_pending ||
	    __atomic_load_n(&vm->restarting, __ATOMIC_ACQUIRE))
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
		stat_add(&vm->stats.run_tsc, t1 - t0);
		stat_add(&vm->stats.entries, 1);
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

/* The VM's next runnable vCPU on this CPU after the last one to run
 * here, or NULL. The shell's register dump shows the home slot's. */
static struct vcpu *next_vcpu(struct vm *vm, unsigned slot)
{
	unsigned *c = &cursor[vm->id][slot];

	for (unsigned k = 1; k <= vm->nr_vcpus; k++) {
		unsigned i = (*c + k) % vm->nr_vcpus;

		if (own(vm, i) && vm->vcpus[i].run == VCPU_RUN) {
			*c = i;
			if (slot == 0)
				vm->vcpu_cursor = i;
			return &vm->vcpus[i];
		}
	}
	return NULL;
}

/* How many of the VM's vCPUs run on this CPU. */
static unsigned own_vcpus(const struct vm *vm)
{
	unsigned n = 0;

	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		n += own(vm, i);
	return n ? n : 1;
}

/* Every other VM of this CPU is stopped or paused: nothing to switch
 * to, and nobody whose timer or interrupt (a halted VM's) must cut the
 * slice. A resume from the shell waits for the slice's end. */
static bool alone(const struct vm *vm)
{
	for (unsigned i = 0; i < nr_vms; i++) {
		enum vm_state st = vm_state_now(&vms[i]);

		if (&vms[i] != vm && (st == VM_RUNNABLE || st == VM_HALTED) &&
		    mine(&vms[i]))
			return false;
	}
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
	unsigned here = own_vcpus(vm);
	uint64_t share = slice_tsc / here;
	int64_t left = budget[vm->id][sl->slot];

	sl->now = sl->start = sl->out_polled = rdtsc();
	sl->lone = lone_tsc > slice_tsc &&
		   !(needs_rounds_fn && needs_rounds_fn()) && alone(vm);
	sl->end = sl->lone ? sched_lone_end(sl->start, left, lone_tsc)
			   : sl->start + (uint64_t)left;
	sl->hv = 0;
	sl->other = sl->lone ? UINT64_MAX : others_next_event(vm);
	sl->stretch = slice_stretch(vm, sl->now);
	sl->stretched = sl->stretch != 0;
	if (share < floor_tsc)
		share = floor_tsc;
	for (;;) {
		struct vcpu *vc = next_vcpu(vm, sl->slot);

		if (!vc)
			return;
		vm_set_vcpu(vm, vc);
		if (load_vcpu(vm)) {
			vm_stop(vm, "the VMCS of its vCPU %u cannot be "
				"loaded", vc->idx);
			return;
		}
		sl->turn_end = here == 1 ? sl->end : sl->now + share;
		if (sl->turn_end > sl->end)
			sl->turn_end = sl->end;
		/* a vCPU's turn of several ends at its share, unstretched */
		sl->timer_end = sl->turn_end == sl->end
			? sched_stretch_end(sl->end, sl->stretch) : sl->turn_end;
		if (run_turn(vm, sl) == SLICE_OVER)
			return;
		advance_vm(vm, sl->now);
		if (!runnable_here(vm, sl->slot))
			return;
	}
}

/* Every other VM that wanted the CPU during [t0, t1) was kept waiting:
 * that is its steal time. */
static void account_steal(const struct vm *ran, uint64_t t0, uint64_t t1)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (&vms[i] != ran && mine(&vms[i]) &&
		    runnable_here(&vms[i], slot_here(&vms[i])))
			stat_add(&vms[i].stats.steal_tsc, t1 - t0);
}

/* A runnable vCPU of the VM on this CPU has an interrupt to take. */
static bool irq_due(const struct vm *vm)
{
	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		if (own(vm, i) && vm->vcpus[i].run == VCPU_RUN &&
		    vlapic_pending(vm->vcpus[i].lapic) >= 0)
			return true;
	return false;
}

/* The next VM of this CPU's (a compact list of its VMs for sched_pick,
 * so a round's refill touches only their budgets). *cursor is a VM id. */
static struct vm *pick_next(uint32_t *cursor, unsigned *slot)
{
	struct sched_cand c[VM_MAX];
	unsigned id[VM_MAX], sl[VM_MAX], n = 0, start = 0;
	int i;

	for (unsigned k = 0; k < nr_vms && k < VM_MAX; k++) {
		if (!mine(&vms[k]))
			continue;
		if (k < *cursor)
			start = n + 1;
		id[n] = k;
		sl[n] = slot_here(&vms[k]);
		c[n].runnable = runnable_here(&vms[k], sl[n]);
		c[n].irq_due = c[n].runnable && irq_due(&vms[k]);
		c[n].budget = budget[k][sl[n]];
		n++;
	}
	if (!n)
		return NULL;
	i = sched_pick(c, n, start % n, (int64_t)slice_tsc);
	for (unsigned k = 0; k < n; k++)
		budget[id[k]][sl[k]] = c[k].budget;
	if (i < 0)
		return NULL;
	*cursor = id[i] + 1;
	*slot = sl[i];
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
		if (vm_state_now(&vms[i]) != VM_STOPPED)
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

/* This CPU's vCPUs of a VM that restarts on its home CPU: their VMCSs
 * cleared here (the home CPU rewrites them, and this CPU takes them
 * again, vcpu_take, when it next runs them), the CPU state it holds of
 * them forgotten, then its slot's bit cleared (release: the home CPU
 * sees the VMCLEARs done). */
void sched_hand_back(void)
{
	unsigned me = this_cpu()->index;

	for (unsigned i = 0; i < nr_vms; i++) {
		struct vm *vm = &vms[i];
		int slot = vm_slot_of(vm, me);

		if (slot <= 0 || !(__atomic_load_n(&vm->handback,
						    __ATOMIC_ACQUIRE) >> slot & 1))
			continue;
		for (unsigned k = 0; k < vm->nr_vcpus; k++) {
			struct vcpu *vc = &vm->vcpus[k];

			if (vc->cpu != me)
				continue;
			if (vc->taken)
				(void)vmcs_release(vc->vmcs_pa);
			vc->taken = false;
			vc->launched = false;
		}
		sched_forget_vm(vm);
		__atomic_fetch_and(&vm->handback, ~(1u << slot),
				   __ATOMIC_RELEASE);
	}
}

bool sched_run_next(void)
{
	struct vm *vm;
	struct slice sl;
	uint64_t t0, t1, ran;
	bool home;

	sched_hand_back();
	console_poll();
	drain_uarts();
	advance_timers(rdtsc());
	vm = pick_next(&this_cpu()->sched_cursor, &sl.slot);
	if (!vm)
		return false;
	home = sl.slot == 0;
	t0 = rdtsc();
	if (home)
		vm->stats.slice_start_tsc = t0;
	run_slice(vm, &sl);
	vm_reset_if_pending(vm);	/* its exit is over: safe to reload */
	t1 = rdtsc();
	/* The VM's slice and halted time are its home slot's (a VM of one
	 * CPU: all of it); its other CPUs count guest time and exits. */
	if (home) {
		vm->stats.slice_tsc += t1 - t0;
		vm->stats.slice_start_tsc = 0;
		vm->stats.slices++;
		if (vm->slot_halted[0] && vm_state_now(vm) != VM_STOPPED)
			vm->stats.halt_start_tsc = t1;	/* until it wakes */
	}
	ran = t1 - t0 - sl.hv;
	/* A slice stretched past its budget ran alone (slice_stretch): the
	 * rounds it spanned are refills, as for a lone slice; charged as a
	 * plain slice its debt would keep the VM off an idle CPU. */
	budget[vm->id][sl.slot] = sl.lone || sl.stretched
		? sched_charge_lone(budget[vm->id][sl.slot], ran,
				    (int64_t)slice_tsc)
		: sched_charge(budget[vm->id][sl.slot], ran);
	account_steal(vm, t0, t1);
	return true;
}
