/* Mailboxes of the VMs on other CPUs; see vm_mailbox.h. */
#include "hv/console/console.h"
#include "hv/cpu/percpu.h"
#include "hv/cpu/xcpu.h"
#include "hv/platform/tsc.h"
#include "hv/smp.h"
#include "hv/vm/vipi.h"
#include "hv/vm/vlapic.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mailbox.h"
#include "hv/vmx/vmx.h"

#define WORDS 4	/* 256 vectors */

static uint64_t pending[VM_MAX][VM_VCPUS_MAX][WORDS];
/* Per VM and slot (the CPU of its vCPUs, vcpu->slot): something posted
 * to a vCPU of that CPU since its last drain; an INVEPT asked of it. */
static uint32_t any[VM_MAX][VM_VCPUS_MAX];
static uint32_t ept_stale[VM_MAX][VM_VCPUS_MAX];
/* Per vCPU: EV_* bits, and a SIPI's vector in the low byte (atomic). */
static uint32_t events[VM_MAX][VM_VCPUS_MAX];
#define EV_SIPI_VEC	0xffu
#define EV_SIPI		(1u << 8)
#define EV_INIT		(1u << 9)
#define EV_NMI		(1u << 10)
static struct vm_mailbox_stats stats;	/* atomic */

static void count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

bool vm_mailbox_remote(const struct vm *vm)
{
	return !vm_on_cpu(vm, this_cpu()->index);
}

bool vm_mailbox_remote_vcpu(const struct vm *vm, unsigned i)
{
	/* acquire: the vCPUs' cpu fields are written before the mask */
	(void)__atomic_load_n(&vm->cpu_mask, __ATOMIC_ACQUIRE);
	return i < VM_VCPUS_MAX && vm->vcpus[i].cpu != this_cpu()->index;
}

/* vCPU i's slot flag set, its CPU kicked out of its guest or its sleep. */
static void mark(struct vm *vm, unsigned i)
{
	const struct vcpu *vc = &vm->vcpus[i];

	__atomic_store_n(&any[vm->id][vc->slot % VM_VCPUS_MAX], 1,
			 __ATOMIC_SEQ_CST);
	(void)xcpu_kick(smp_cpu(vc->cpu));
}

int vm_mailbox_post(struct vm *vm, unsigned vcpu, uint8_t vec)
{
	if (vm->id >= VM_MAX || vcpu >= vm->nr_vcpus || vec < 16)
		return -1;
	__atomic_fetch_or(&pending[vm->id][vcpu][vec / 64],
			  1ull << (vec % 64), __ATOMIC_SEQ_CST);
	count(&stats.posted);
	mark(vm, vcpu);
	return 0;
}

/* The event word after ipi is posted onto old (see the header). */
static uint32_t event_merge(uint32_t old, const struct ipi *ipi)
{
	switch (ipi->mode) {
	case IPI_NMI:
		return old | EV_NMI;
	case IPI_INIT:
		return (old & ~(EV_SIPI | EV_SIPI_VEC)) | EV_INIT;
	default:	/* IPI_SIPI */
		return old & EV_SIPI ? old : old | EV_SIPI | ipi->vector;
	}
}

int vm_mailbox_post_ipi(struct vm *vm, unsigned vcpu, const struct ipi *ipi)
{
	uint32_t *w, old, neu;

	if (vm->id >= VM_MAX || vcpu >= vm->nr_vcpus ||
	    (ipi->mode != IPI_NMI && ipi->mode != IPI_INIT &&
	     ipi->mode != IPI_SIPI) ||
	    (ipi->mode == IPI_INIT && ipi->deassert))
		return -1;
	w = &events[vm->id][vcpu];
	old = __atomic_load_n(w, __ATOMIC_SEQ_CST);
	do {
		neu = event_merge(old, ipi);
	} while (!__atomic_compare_exchange_n(w, &old, neu, false,
					      __ATOMIC_SEQ_CST,
					      __ATOMIC_SEQ_CST));
	if (ipi->mode == IPI_SIPI && (old & EV_SIPI))
		count(&stats.sipis_merged);
	count(&stats.ipis_posted);
	mark(vm, vcpu);
	return 0;
}

static void deliver(struct vm *vm, unsigned i, uint8_t mode, uint8_t vec)
{
	struct ipi ipi = { .vector = vec, .mode = mode };

	vipi_deliver(vm, i, &ipi);
	count(&stats.ipis_drained);
}

static void drain_events(struct vm *vm, unsigned i)
{
	uint32_t ev = __atomic_exchange_n(&events[vm->id][i], 0,
					  __ATOMIC_SEQ_CST);

	if (ev & EV_INIT)
		deliver(vm, i, IPI_INIT, 0);
	if (ev & EV_SIPI)
		deliver(vm, i, IPI_SIPI, (uint8_t)(ev & EV_SIPI_VEC));
	if (ev & EV_NMI)
		deliver(vm, i, IPI_NMI, 0);
}

/* One CPU of the VM (slot s) asked to flush and waited for. */
static bool flush_slot(struct vm *vm, unsigned s)
{
	struct percpu *p = smp_cpu(vm->cpus[s]);
	uint32_t *w = &ept_stale[vm->id][s];

	if (!p)
		return true;	/* not up: nothing cached to fear */
	__atomic_store_n(w, 1, __ATOMIC_SEQ_CST);
	count(&stats.flushes_asked);
	/* Kicked if it is in the guest or asleep; a CPU outside its guest
	 * flushes before entering, so the wait ends at once. A kick that
	 * could not be sent leaves a CPU in its guest: waited for the same. */
	(void)xcpu_kick(p);
	/* The kick's exit: until then the guest may still use what was
	 * taken away (a write-protect, an unmap). On a time-out the caller
	 * keeps the detached tables (vm_mem.c flush) until a later flush
	 * is seen through, or the VM's EPT is destroyed. */
	if (xcpu_wait_out(p, w, tsc_hz() / 100))
		return true;
	kprintf("vm '%s': cpu %u did not leave the guest within 10 ms of an "
		"EPT change; it flushes at its next entry, the detached "
		"tables are kept until then\n", vm->name, p->index);
	return false;
}

bool vm_mailbox_ept_flush(struct vm *vm)
{
	unsigned me = this_cpu()->index;
	bool ok = true;

	if (vm->id >= VM_MAX)
		return true;
	/* Every CPU the VM runs on: this one at once, the others by their
	 * mailbox, each waited for (bounded) in turn. */
	for (unsigned s = 0; s < vm->nr_cpus && s < VM_VCPUS_MAX; s++) {
		if (vm->cpus[s] == me)
			vmx_invept(vm->eptp);
		else
			ok &= flush_slot(vm, s);
	}
	return ok;
}

/* vCPU i's posted vectors into its vLAPIC; none for a vCPU waiting for
 * a SIPI (it takes no interrupt: a fixed IPI to it is dropped, as on its
 * own CPU, hv/vm/vipi_route.c ipi_effect). */
static void drain_vcpu(struct vm *vm, unsigned i)
{
	bool waiting = vm->vcpus[i].run == VCPU_WAIT_SIPI;

	for (unsigned w = 0; w < WORDS; w++) {
		uint64_t bits = __atomic_exchange_n(&pending[vm->id][i][w], 0,
						    __ATOMIC_SEQ_CST);

		while (bits) {
			unsigned b = (unsigned)__builtin_ctzll(bits);

			bits &= bits - 1;
			if (waiting)
				continue;
			vlapic_raise(&vm->lapics[i], (int)(w * 64 + b));
			count(&stats.drained);
		}
	}
}

/* Slot s's mail: its INVEPT, then its vCPUs' events and vectors. */
static void drain_slot(struct vm *vm, unsigned s)
{
	if (__atomic_load_n(&ept_stale[vm->id][s], __ATOMIC_SEQ_CST)) {
		vmx_invept(vm->eptp);
		__atomic_store_n(&ept_stale[vm->id][s], 0, __ATOMIC_SEQ_CST);
		count(&stats.flushes_done);
	}
	/* Every entry comes here: one load when nothing was posted. */
	if (!__atomic_load_n(&any[vm->id][s], __ATOMIC_SEQ_CST))
		return;
	__atomic_store_n(&any[vm->id][s], 0, __ATOMIC_SEQ_CST);
	for (unsigned i = 0; i < vm->nr_vcpus; i++) {
		if (vm->vcpus[i].slot != s)
			continue;	/* another CPU's to take */
		drain_events(vm, i);
		drain_vcpu(vm, i);
	}
}

void vm_mailbox_drain(struct vm *vm)
{
	int s = vm_slot_of(vm, this_cpu()->index);

	if (vm->id < VM_MAX && s >= 0)
		drain_slot(vm, (unsigned)s);
}

bool vm_mailbox_waiting(const struct vm *vm)
{
	int s = vm_slot_of(vm, this_cpu()->index);

	return vm->id < VM_MAX && s >= 0 &&
	       (__atomic_load_n(&any[vm->id][s], __ATOMIC_SEQ_CST) ||
		__atomic_load_n(&ept_stale[vm->id][s], __ATOMIC_SEQ_CST));
}

void vm_mailbox_enter(struct vm *vm)
{
	unsigned s = vm_vcpu(vm)->slot % VM_VCPUS_MAX;	/* its CPU's: here */

	xcpu_guest_enter();
	/* Every entry comes here: the two words looked at in place, and the
	 * drain (a call with a six-register frame, 28 instructions on the
	 * exit bench's CPUID round trip) only when something is waiting. */
	if (vm->id < VM_MAX &&
	    (__atomic_load_n(&any[vm->id][s], __ATOMIC_SEQ_CST) |
	     __atomic_load_n(&ept_stale[vm->id][s], __ATOMIC_SEQ_CST)))
		drain_slot(vm, s);
}

void vm_mailbox_kick_others(struct vm *vm)
{
	unsigned me = this_cpu()->index;

	for (unsigned s = 0; s < vm->nr_cpus && s < VM_VCPUS_MAX; s++)
		if (vm->cpus[s] != me)
			(void)xcpu_kick(smp_cpu(vm->cpus[s]));
}

const struct vm_mailbox_stats *vm_mailbox_stats(void)
{
	return &stats;
}
