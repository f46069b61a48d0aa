/* The round-robin scheduler of VMs on one CPU; see sched.h. */
#include "hv/vm/sched.h"
#include "hv/tsc.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm.h"
#include "hv/vm/vmexit.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/x86.h"

#define PREEMPT_MAX		0xffffffffull	/* the field is 32 bits */

static uint64_t slice_tsc;
static struct vm *cpu_owner;	/* whose MSRs and FPU state the CPU holds */

/* Halted VMs whose timer fired (or that got a self-IPI) are runnable. */
static void wake_halted(uint64_t now)
{
	for (unsigned i = 0; i < nr_vms; i++) {
		struct vm *vm = &vms[i];

		if (vm->state != VM_HALTED)
			continue;
		vlapic_advance(&vm->lapic, now);
		if (vlapic_pending(&vm->lapic) >= 0)
			vm->state = VM_RUNNABLE;
	}
}

/* Earliest virtual-timer deadline of any VM but `self` that may run. */
static uint64_t others_next_event(const struct vm *self)
{
	uint64_t t = UINT64_MAX;

	for (unsigned i = 0; i < nr_vms; i++) {
		const struct vm *vm = &vms[i];
		uint64_t d;

		if (vm == self || vm->state == VM_STOPPED ||
		    vm->state == VM_PAUSED)
			continue;
		d = vlapic_next_event(&vm->lapic);
		if (d < t)
			t = d;
	}
	return t;
}

static void set_preemption_timer(uint64_t now, uint64_t deadline)
{
	uint64_t ticks = deadline > now
		? (deadline - now) >> vmx_cpu.preempt_shift : 0;

	vmwrite(VMCS_PREEMPTION_TIMER_VALUE,
		ticks > PREEMPT_MAX ? PREEMPT_MAX : ticks);
}

static void switch_to(struct vm *vm)
{
	if (cpu_owner == vm)
		return;
	if (cpu_owner)
		vcpu_switch_out(cpu_owner);
	vcpu_switch_in(vm);
	cpu_owner = vm;
}

/* One slice of one VM: enter, handle the exit, repeat until the slice is
 * over or the VM halts, yields or stops. */
static void run_slice(struct vm *vm)
{
	uint64_t now = rdtsc(), slice_end = now + slice_tsc;

	if (vmcs_make_current(vm->vcpu.vmcs_pa)) {
		vm_stop(vm, "its VMCS cannot be loaded");
		return;
	}
	switch_to(vm);
	for (;;) {
		uint64_t deadline = slice_end, t0, t1, other;
		enum exit_action act;

		vlapic_advance(&vm->lapic, now);
		vcpu_prepare_events(vm);
		if (vlapic_next_event(&vm->lapic) < deadline)
			deadline = vlapic_next_event(&vm->lapic);
		other = others_next_event(vm);
		if (other < deadline)
			deadline = other;
		set_preemption_timer(now, deadline);

		t0 = rdtsc();
		if (vcpu_enter(vm))
			return;
		t1 = rdtsc();
		vm->stats.run_tsc += t1 - t0;
		vm->stats.entries++;
		act = vmexit_dispatch(vm);
		if (act != EXIT_RESUME || vm->state != VM_RUNNABLE)
			return;
		now = rdtsc();
		if (now >= slice_end || now >= other)
			return;
	}
}

/* Every other VM that wanted the CPU during [t0, t1) was kept waiting:
 * that is its steal time. */
static void account_steal(const struct vm *ran, uint64_t t0, uint64_t t1)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (&vms[i] != ran && vms[i].state == VM_RUNNABLE)
			vms[i].stats.steal_tsc += t1 - t0;
}

static struct vm *pick_next(unsigned *cursor)
{
	for (unsigned n = 0; n < nr_vms; n++) {
		struct vm *vm = &vms[(*cursor + n) % nr_vms];

		if (vm->state == VM_RUNNABLE) {
			*cursor = (vm->id + 1) % nr_vms;
			return vm;
		}
	}
	return NULL;
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
}

bool sched_run_next(void)
{
	static unsigned cursor;
	struct vm *vm;
	uint64_t t0;

	wake_halted(rdtsc());
	vm = pick_next(&cursor);
	if (!vm)
		return false;
	t0 = rdtsc();
	run_slice(vm);
	account_steal(vm, t0, rdtsc());
	return true;
}
