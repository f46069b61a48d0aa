/* The round-robin scheduler of VMs on one CPU; see sched.h. Each CPU
 * runs it over its own VMs (vm->cpu, docs/smp.md): a VM's budget, state
 * and timers are touched only by the CPU it runs on, the CPU's own
 * bookkeeping (whose state it holds, the round-robin cursor) is in its
 * per-CPU area. */
#include "hv/vm/sched.h"
#include "hv/console/console.h"
#include "hv/vm/sched_slice.h"
#include "hv/platform/tsc.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm.h"
#include "hv/vm/vmexit.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/percpu.h"
#include "hv/cpu/x86.h"

#define PREEMPT_MAX		0xffffffffull	/* the field is 32 bits */

/* COM1 at 115200 baud sends its 16-byte FIFO in 16 x 10 bits / 115200 s
 * (1.39 ms): while output waits, the running VM is interrupted that often
 * so COM1 is fed without anyone waiting for it (console.c). */
#define COM1_FIFO_US		1389u

static uint64_t slice_tsc, floor_tsc, com1_fifo_tsc;
static int64_t budget[VM_MAX];	/* TSC ticks left this round (sched_slice.h) */

_Static_assert(VM_MAX <= 32, "struct percpu's vms_taken has a bit per VM");

/* The VMs this CPU runs. vm->cpu is published by the BSP after it created
 * the VM (hv/orchestrate.c): acquire, so the AP sees the whole VM. */
static bool mine(const struct vm *vm)
{
	return __atomic_load_n(&vm->cpu, __ATOMIC_ACQUIRE) ==
	       this_cpu()->index;
}

/* Every waiting VM's timer is brought up to now: an expiry becomes an IRR
 * bit (and wakes a halted VM) instead of staying behind as a deadline in
 * the past, which would cut every other VM's slice at once. */
static void advance_timers(uint64_t now)
{
	for (unsigned i = 0; i < nr_vms; i++) {
		struct vm *vm = &vms[i];

		if ((vm->state != VM_HALTED && vm->state != VM_RUNNABLE) ||
		    !mine(vm))
			continue;
		vlapic_advance(&vm->lapic, now);
		if (vm->state == VM_HALTED && vlapic_pending(&vm->lapic) >= 0)
			vm->state = VM_RUNNABLE;
	}
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
		d = vlapic_next_event(&vm->lapic);
		if (d < t)
			t = d;
	}
	return t;
}

/* Output moves on: COM1 gets what its FIFO takes, each VM's UART buffer
 * what COM1's backlog allows. Cheap when nothing waits. */
static void output_poll(void)
{
	console_poll();
	for (unsigned i = 0; i < nr_vms; i++)
		if (vms[i].uart.tx_count && mine(&vms[i]))
			vuart_tx_drain(&vms[i], false);
}

/* When output must next be moved on, or never. */
static uint64_t output_event(uint64_t now)
{
	return console_backlog() ? now + com1_fifo_tsc : UINT64_MAX;
}

void sched_charge_work(const struct vm *vm, uint64_t ticks)
{
	budget[vm->id] = sched_charge(budget[vm->id], ticks);
}

void sched_flush_output(void)
{
	for (unsigned i = 0; i < nr_vms; i++)
		vuart_tx_drain(&vms[i], true);
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
 * CPU's: switched per CPU. */
static void switch_to(struct vm *vm)
{
	struct percpu *p = this_cpu();
	struct vm *owner = p->sched_owner;

	if (owner == vm)
		return;
	if (owner)
		vcpu_switch_out(owner);
	vcpu_switch_in(vm);
	p->sched_owner = vm;
}

/* The VMCS current here; the first time an AP runs a VM, with the host
 * state of this CPU (the BSP created the VMCS with its own). */
static int load_vmcs(struct vm *vm)
{
	struct percpu *p = this_cpu();
	uint32_t bit = 1u << vm->id;

	if (p->index == 0 || (p->vms_taken & bit))
		return vmcs_make_current(vm->vcpu.vmcs_pa);
	if (vcpu_take(vm))
		return -1;
	p->vms_taken |= bit;
	return 0;
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

/* One slice of one VM: enter, handle the exit, run posted work, repeat
 * until the slice is over or the VM halts, yields or stops. The slice is
 * what is left of the VM's budget; another VM's timer may end it, never
 * before the floor. Returns the ticks of posted work charged to the
 * hypervisor. */
static uint64_t run_slice(struct vm *vm)
{
	uint64_t now = rdtsc(), start = now, hv = 0;
	uint64_t slice_end = now + (uint64_t)budget[vm->id];

	if (load_vmcs(vm)) {
		vm_stop(vm, "its VMCS cannot be loaded");
		return 0;
	}
	switch_to(vm);
	for (;;) {
		uint64_t t0, t1, other, own;
		enum exit_action act;
		uint32_t reason;

		vlapic_advance(&vm->lapic, now);
		vcpu_prepare_events(vm);
		other = others_next_event(vm);
		own = vlapic_next_event(&vm->lapic);
		if (output_event(now) < own)
			own = output_event(now);
		set_preemption_timer(now, sched_deadline(start, slice_end,
			own, other, floor_tsc));

		t0 = rdtsc();
		if (vcpu_enter(vm))
			return hv;
		t1 = rdtsc();
		vm->stats.run_tsc += t1 - t0;
		vm->stats.entries++;
		reason = (uint32_t)vmread(VMCS_EXIT_REASON);
		act = vmexit_dispatch(vm);
		output_poll();
		now = rdtsc();
		note_exit(vm, reason, now - t1);
		now = post_exit(vm, now, &hv);
		if (act != EXIT_RESUME || vm->state != VM_RUNNABLE ||
		    vm->reset_pending)
			return hv;
		if (sched_slice_over(now, start, slice_end, other, floor_tsc))
			return hv;
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
		c[n].irq_due = c[n].runnable &&
			       vlapic_pending(&vms[k].lapic) >= 0;
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

	if (p->sched_owner == vm)
		p->sched_owner = NULL;
}

bool sched_all_stopped(void)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (vms[i].state != VM_STOPPED)
			return false;
	return true;
}

void sched_init(unsigned slice_ms)
{
	slice_tsc = tsc_ms(slice_ms ? slice_ms : HVCFG_DEFAULT_SLICE_MS);
	floor_tsc = tsc_hz() / 1000000 * SCHED_FLOOR_US;
	if (floor_tsc > slice_tsc)
		floor_tsc = slice_tsc;
	vlapic_set_min_period(tsc_hz() / 1000000 * VLAPIC_MIN_PERIOD_US);
	com1_fifo_tsc = tsc_hz() / 1000000 * COM1_FIFO_US;
	console_set_async(true);
}

bool sched_run_next(void)
{
	struct vm *vm;
	uint64_t t0, t1, hv;

	output_poll();
	advance_timers(rdtsc());
	vm = pick_next(&this_cpu()->sched_cursor);
	if (!vm)
		return false;
	t0 = rdtsc();
	vm->stats.slice_start_tsc = t0;
	hv = run_slice(vm);
	vm_reset_if_pending(vm);	/* its exit is over: safe to reload */
	t1 = rdtsc();
	vm->stats.slice_tsc += t1 - t0;
	vm->stats.slice_start_tsc = 0;
	budget[vm->id] = sched_charge(budget[vm->id], t1 - t0 - hv);
	account_steal(vm, t0, t1);
	return true;
}
