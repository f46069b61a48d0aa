/* Delivering a vCPU's IPI to its VM's vCPUs; see vipi.h. A target on
 * the sender's CPU is marked (IRR, NMI, INIT, start) and made runnable
 * here; one on another CPU (cpus= with several CPUs, docs/smp.md "A VM
 * on several CPUs") gets it through its mailbox, applied by its own CPU
 * (vm_mailbox.c), which is kicked. */
#include "hv/vm/vipi.h"
#include "hv/vm/vm_mailbox.h"
#include "hv/vm/vm.h"

/* The VM's IPI counts: its vCPUs on several CPUs send at once. */
static void count(uint64_t *c)
{
	__atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
}

/* Target t, on this CPU, may run: its slot is no longer halted, and the
 * vCPU this CPU runs of the VM (if any: an MSI can come from the
 * mediator between slices) ends its turn so t runs next. */
static void wake(struct vm *vm, struct vcpu *t)
{
	struct vcpu *cur = vm_vcpu(vm);
	enum vm_state halted = VM_HALTED;

	if (t->run == VCPU_HALTED)
		t->run = VCPU_RUN;
	if (cur != t && cur >= vm->vcpus && cur < vm->vcpus + VM_VCPUS_MAX)
		cur->kick = true;
	if (t->run != VCPU_RUN)
		return;
	__atomic_store_n(&vm->slot_halted[t->slot % VM_VCPUS_MAX], 0,
			 __ATOMIC_RELAXED);
	(void)__atomic_compare_exchange_n(&vm->state, &halted, VM_RUNNABLE,
					  false, __ATOMIC_ACQ_REL,
					  __ATOMIC_ACQUIRE);
}

/* INIT: the vCPU waits for a SIPI, its local APIC at power-on (its ID
 * kept), nothing pending. Its registers are set when it starts. */
static void init_vcpu(struct vcpu *t)
{
	t->run = VCPU_WAIT_SIPI;
	t->start_pending = false;
	t->nmi_pending = false;
	t->inject_info = 0;
	vlapic_reset(t->lapic);
}

static void apply(struct vm *vm, struct vcpu *t, const struct ipi *ipi)
{
	switch (ipi_effect(ipi, t->idx, t->run)) {
	case IPI_EFF_IRR:
		vlapic_raise(t->lapic, ipi->vector);
		wake(vm, t);
		break;
	case IPI_EFF_NMI:
		t->nmi_pending = true;
		if (t->run == VCPU_PARKED)	/* the NMI ends its HLT */
			t->run = VCPU_HALTED;
		wake(vm, t);
		break;
	case IPI_EFF_INIT:
		init_vcpu(t);
		break;
	case IPI_EFF_START:
		t->start_rip = (uint64_t)ipi->vector << 12;
		t->start_pending = true;
		t->run = VCPU_RUN;
		wake(vm, t);
		break;
	case IPI_EFF_NONE:
		return;
	case IPI_EFF_DROP:
		count(&vm->stats.ipis_dropped);
		return;
	}
	count(&vm->stats.ipis_delivered);
}

void vipi_deliver(struct vm *vm, unsigned i, const struct ipi *ipi)
{
	if (i < vm->nr_vcpus)
		apply(vm, &vm->vcpus[i], ipi);
}

/* A sibling on another CPU than the sender's takes the IPI from its
 * mailbox (its vLAPIC and run state are its CPU's to touch); one on
 * this CPU at once. */
static void send_one(struct vm *vm, unsigned i, const struct ipi *ipi,
		     bool remote)
{
	int rc;

	if (!remote) {
		apply(vm, &vm->vcpus[i], ipi);
		return;
	}
	if (ipi->mode == IPI_FIXED || ipi->mode == IPI_LOWEST) {
		rc = vm_mailbox_post(vm, i, ipi->vector);
		if (!rc)	/* its IRR bit is set at its CPU's drain */
			count(&vm->stats.ipis_delivered);
	}
	else if (ipi->mode == IPI_INIT && ipi->deassert)
		return;		/* does nothing anywhere */
	else
		rc = vm_mailbox_post_ipi(vm, i, ipi);
	if (rc)
		count(&vm->stats.ipis_dropped);	/* a mode or vector not sent */
}

void vipi_device_irq(struct vm *vm, uint8_t vector, bool logical,
		     uint8_t dest, bool lowest)
{
	const struct vlapic *lapics[VM_VCPUS_MAX];
	struct ipi ipi = {
		.vector = vector, .mode = lowest ? IPI_LOWEST : IPI_FIXED,
		.shorthand = IPI_DEST, .logical = logical, .dest = dest,
		.x2apic = vlapic_x2apic_mode(&vm->lapics[0]),
	};
	uint32_t set;

	if (vm->nr_vcpus == 1 && !vm_mailbox_remote_vcpu(vm, 0)) {
		vlapic_raise(&vm->lapic, vector);
		return;
	}
	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		lapics[i] = &vm->lapics[i];
	set = ipi_targets(&ipi, 0, lapics, vm->nr_vcpus);
	if (!set)
		set = 1;	/* nobody named: vCPU 0, as with one vCPU */
	for (unsigned i = 0; set; i++, set >>= 1) {
		struct vcpu *t = &vm->vcpus[i];

		if (!(set & 1) || t->run == VCPU_WAIT_SIPI)
			continue;
		if (vm_mailbox_remote_vcpu(vm, i)) {	/* its CPU raises it */
			(void)vm_mailbox_post(vm, i, vector);
			continue;
		}
		vlapic_raise(t->lapic, vector);
		wake(vm, t);
	}
}

static const char *const msi_names[] = {
	[MSI_DELIVERED] = "delivered",
	[MSI_NOT_FEE] = "its address is not 0xFEExxxxx",
	[MSI_MODE] = "its delivery mode is not fixed or lowest priority",
	[MSI_VECTOR] = "its vector is below 16",
	[MSI_NOBODY] = "its destination names no started vCPU",
};

const char *msi_result_name(enum msi_result r)
{
	return (unsigned)r < sizeof(msi_names) / sizeof(msi_names[0])
		       ? msi_names[r] : "?";
}

enum msi_result vipi_msi(struct vm *vm, uint64_t addr, uint32_t data)
{
	const struct vlapic *lapics[VM_VCPUS_MAX];
	struct ipi ipi, fixed;
	uint32_t set, started = 0;
	bool any = false;

	if (!msi_decode(addr, data, vlapic_x2apic_mode(&vm->lapics[0]), &ipi))
		return MSI_NOT_FEE;
	if (ipi.mode != IPI_FIXED && ipi.mode != IPI_LOWEST)
		return MSI_MODE;
	if (ipi.vector < 16)
		return MSI_VECTOR;
	for (unsigned i = 0; i < vm->nr_vcpus; i++) {
		lapics[i] = &vm->lapics[i];
		if (vm->vcpus[i].run != VCPU_WAIT_SIPI)
			started |= 1u << i;
	}
	/* Every vCPU named, then lowest priority among the started ones. */
	fixed = ipi;
	fixed.mode = IPI_FIXED;
	set = ipi_targets(&fixed, 0, lapics, vm->nr_vcpus) & started;
	if (ipi.mode == IPI_LOWEST)
		set &= -set;
	for (unsigned i = 0; set; i++, set >>= 1) {
		struct vcpu *t = &vm->vcpus[i];

		if (!(set & 1))
			continue;
		t->msis++;
		any = true;
		if (vm_mailbox_remote_vcpu(vm, i)) {	/* its own CPU
							 * raises it */
			(void)vm_mailbox_post(vm, i, (uint8_t)ipi.vector);
			continue;
		}
		vlapic_raise(t->lapic, ipi.vector);
		wake(vm, t);
	}
	return any ? MSI_DELIVERED : MSI_NOBODY;
}

void vipi_send(struct vm *vm)
{
	struct vlapic *l = vm_vcpu(vm)->lapic;
	const struct vlapic *lapics[VM_VCPUS_MAX];
	struct ipi ipi;
	uint32_t set;

	if (!l->icr_sent)
		return;
	l->icr_sent = false;
	count(&vm->stats.ipis_sent);
	ipi_decode(l->icr, vlapic_x2apic_mode(l), &ipi);
	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		lapics[i] = &vm->lapics[i];
	set = ipi_targets(&ipi, vm_vcpu(vm)->idx, lapics, vm->nr_vcpus);
	if (!set)
		count(&vm->stats.ipis_dropped);	/* nobody there */
	/* Each target by its own CPU: one on the sender's at once, one on
	 * another CPU through its mailbox (docs/smp.md). */
	for (unsigned i = 0; set; i++, set >>= 1)
		if (set & 1)
			send_one(vm, i, &ipi, vm_mailbox_remote_vcpu(vm, i));
}
