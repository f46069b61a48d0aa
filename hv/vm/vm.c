/* VM lifetime: creation from an hv.cfg section, stopping, counters. */
#include "hv/vm/vm.h"
#include "hv/vm/vm_mailbox.h"
#include "hv/console/console.h"
#include "hv/cpu/regs_dump.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/hv.h"
#include "hv/vm/loader_linux.h"
#include "hv/vm/loader_raw64.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm_mem.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/x86.h"
#include "mini/stdio.h"
#include "mini/string.h"

struct vm vms[VM_MAX];
unsigned nr_vms;

/* Misbehaviour of one kind is logged this many times per VM, then only
 * counted: a guest in a loop must not flood the console. */
#define VM_EVENT_LOG_LIMIT 8

static const char *const state_names[] = {
	[VM_RUNNABLE] = "running",
	[VM_HALTED] = "halted",
	[VM_PAUSED] = "paused",
	[VM_STOPPED] = "stopped",
};

static const char *const event_names[VM_EV_COUNT] = {
	[VM_EV_BAD_HYPERCALL] = "bad hypercalls",
	[VM_EV_UNKNOWN_MSR] = "unknown MSRs (#GP)",
	[VM_EV_UNCLAIMED_IO] = "unclaimed I/O ports",
	[VM_EV_UNCLAIMED_MMIO] = "unclaimed MMIO accesses",
	[VM_EV_VMX_INSN] = "VMX instructions (#UD)",
	[VM_EV_VGPU_BAD_MMIO] = "refused vGPU MMIO accesses",
	[VM_EV_VGPU_APERTURE] = "aperture accesses outside its GM",
	[VM_EV_VGPU_BAR] = "misplaced vGPU BARs",
	[VM_EV_VMRPC] = "bad guest-channel records",
	[VM_EV_BAD_CPU_STATE] = "illegal CR/MSR values (#GP)",
	[VM_EV_MMIO_FAULT] = "faulting MMIO moves (#GP/#UD/#NM/#PF)",
	[VM_EV_MMIO_UNEMULATED] = "MMIO accesses not emulated (VM stopped)",
	[VM_EV_MSI_DROPPED] = "device MSIs dropped (no vCPU, mode, vector)",
};

const char *vm_state_name(enum vm_state s)
{
	return (unsigned)s < sizeof(state_names) / sizeof(state_names[0])
		       ? state_names[s] : "?";
}

const char *vm_event_name(enum vm_event ev)
{
	return (unsigned)ev < VM_EV_COUNT ? event_names[ev] : "?";
}

struct vm *vm_by_id(unsigned id)
{
	return id < nr_vms ? &vms[id] : NULL;
}

/* The VM's initrd, or NULL (none, or not loaded: then *err is set). */
static const struct boot_file *vm_initrd(struct vm *vm, int *err)
{
	const struct hvcfg_vm *cfg = vm->cfg;
	const struct boot_file *rd;

	*err = 0;
	if (!cfg->ramdisk[0])
		return NULL;
	rd = boot_find_file(hv_platform.bi, cfg->ramdisk);
	if (!rd) {
		kprintf("vm '%s': not started: ramdisk %s was not loaded\n",
			vm->name, cfg->ramdisk);
		*err = -HV_ENOENT;
	}
	return rd;
}

/* A Linux VM whose kernel or initrd cannot boot is refused before any
 * of its memory is allocated. */
static int vm_precheck(struct vm *vm, const void *image, uint64_t size)
{
	const struct hvcfg_vm *cfg = vm->cfg;
	const struct boot_file *rd;
	int err;

	if (!loader_linux_wants(cfg->ramdisk, image, size))
		return 0;
	/* Linux starts its APs in real mode (the MADT lists one local APIC
	 * per vCPU), which needs "unrestricted guest" (docs/smp.md). */
	if (vm->nr_vcpus > 1 && !vmx_cpu.caps.has_unrestricted_guest) {
		kprintf("vm '%s': not started: vcpus=%u for a Linux guest: "
			"the CPU lacks VMX unrestricted guest, which starting "
			"its APs in real mode needs\n", vm->name, vm->nr_vcpus);
		return -HV_EINVAL;
	}
	rd = vm_initrd(vm, &err);
	if (!err)
		err = loader_linux_check(vm, image, size, cfg->memory,
					 rd ? rd->size : 0, cfg->cmdline);
	return err;
}

/* A Linux bzImage (with its initrd, if any) or a raw 64-bit image. */
int vm_load(struct vm *vm, const void *image, uint64_t size,
	    struct vcpu_boot_state *bs)
{
	const struct hvcfg_vm *cfg = vm->cfg;
	const struct boot_file *rd;
	int err;

	if (!loader_linux_wants(cfg->ramdisk, image, size))
		return loader_raw64_load(vm, image, size, cfg->cmdline, bs);
	rd = vm_initrd(vm, &err);
	if (err)
		return err;
	vm->linux_guest = true;
	vm->ap_real_mode = true;
	return loader_linux_load(vm, image, size, rd ? rd->data : NULL,
				 rd ? rd->size : 0, cfg->cmdline, bs);
}

int vm_create(const struct hvcfg_vm *cfg, const void *image, uint64_t size)
{
	struct vm *vm;
	struct vcpu_boot_state bs;
	int err;

	if (nr_vms == VM_MAX)
		return -HV_ENOSPC;
	vm = &vms[nr_vms];
	memset(vm, 0, sizeof(*vm));
	vm->dev_lock = (struct rlock)RLOCK_INIT;
	vm->ept_lock = (struct rlock)RLOCK_INIT;
	vm->id = nr_vms;
	vm->cfg = cfg;
	strlcpy(vm->name, cfg->name, sizeof(vm->name));
	vm->nr_vcpus = cfg->vcpus ? cfg->vcpus : 1;
	if (vm->nr_vcpus > VM_VCPUS_MAX)
		return -HV_EINVAL;	/* hv.cfg refuses it already */
	for (unsigned i = 0; i < vm->nr_vcpus; i++) {
		vm->vcpus[i].idx = i;
		vm->vcpus[i].lapic = &vm->lapics[i];
		vm->lapics[i].id = i;
		vlapic_reset(&vm->lapics[i]);	/* the loader may choose
						 * vCPU 0's mode */
	}
	vm_set_vcpu(vm, &vm->vcpus[0]);
	vioapic_reset(&vm->ioapic);
	err = vm_precheck(vm, image, size);
	if (err)
		return err;
	err = vm_mem_init(vm, cfg->memory);
	if (!err)
		err = vm_devices_init(vm);
	if (!err)
		err = vm_load(vm, image, size, &bs);
	if (!err)
		err = vcpu_init(vm, &bs);
	if (err) {
		vm_mem_destroy(vm);
		return err;
	}
	vm->stats.start_tsc = rdtsc();
	vm->state = VM_RUNNABLE;
	nr_vms++;
	return 0;
}

/* Where its device MSIs went (hv/vm/vipi.c), if it had any. */
static void msi_report(const struct vm *vm)
{
	uint64_t n = vm->stats.events[VM_EV_MSI_DROPPED];

	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		n += vm->vcpus[i].msis;
	if (!n)
		return;
	console_lock();		/* one line */
	kprintf("vm '%s': device MSIs:", vm->name);
	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		kprintf("%s %llu to vCPU %u", i ? "," : "",
			(unsigned long long)vm->vcpus[i].msis, i);
	kprintf("; %llu dropped\n",
		(unsigned long long)vm->stats.events[VM_EV_MSI_DROPPED]);
	console_unlock();
}

/* What the guest wrote to its UART goes out before the stop line. The
 * device lock is not taken here: the mediator stops a VM from inside its
 * own lock (hv/gpu/gpu_host.c recover_vgpus), which an exit holding the
 * device lock may wait for (order: device, then mediator). So: under the
 * lock when this CPU holds it (a port, MMIO or hypercall exit: the test
 * guest's exit hypercall); for a VM of one CPU as before (only its CPU
 * writes the UART); for a VM on several CPUs otherwise not at all: its
 * bytes go out with the scheduler's next drain (under the lock), after
 * the stop line (docs/smp.md "A VM on several CPUs"). */
static void flush_uart(struct vm *vm)
{
	if (vm->nr_cpus <= 1 || rlock_held(&vm->dev_lock, this_cpu()->index))
		vuart_flush(vm);
}

void vm_stop(struct vm *vm, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(vm->stop_reason, sizeof(vm->stop_reason), fmt, ap);
	va_end(ap);
	flush_uart(vm);
	vm->stats.stop_tsc = rdtsc();
	__atomic_store_n(&vm->state, VM_STOPPED, __ATOMIC_RELEASE);
	/* Its vCPUs on other CPUs: out of their guest, and they see the
	 * state before their next entry (hv/vm/sched.c after_exit). */
	vm_mailbox_kick_others(vm);
	kprintf("vm '%s': stopped: %s\n", vm->name, vm->stop_reason);
	if (vm->nr_vcpus > 1)
		kprintf("vm '%s': %u vCPUs; IPIs: %llu sent, %llu delivered, "
			"%llu dropped; PAUSE-loop exits: %llu\n", vm->name,
			vm->nr_vcpus,
			(unsigned long long)vm->stats.ipis_sent,
			(unsigned long long)vm->stats.ipis_delivered,
			(unsigned long long)vm->stats.ipis_dropped,
			(unsigned long long)vm->stats.exits[EXIT_REASON_PAUSE]);
	msi_report(vm);
	if (vm->linux_guest)
		vm_report(vm);
}

void vm_event(struct vm *vm, enum vm_event ev, const char *fmt, ...)
{
	uint64_t n = ++vm->stats.events[ev];
	va_list ap;

	if (n > VM_EVENT_LOG_LIMIT)
		return;
	console_lock();		/* one line, whichever CPU prints too */
	kprintf("vm '%s': ", vm->name);
	va_start(ap, fmt);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("%s\n", n == VM_EVENT_LOG_LIMIT
				? " (further ones are only counted)" : "");
	console_unlock();
}

static void dump_vcpu_regs(struct vm *vm, const struct vcpu *vc)
{
	const struct guest_regs *r = &vc->regs;
	uint64_t gpr[16];

	kprintf("vm '%s' registers:\n", vm->name);
	kprintf("  rip=%016llx rsp=%016llx rflags=%016llx\n",
		(unsigned long long)vmread(VMCS_GUEST_RIP),
		(unsigned long long)vmread(VMCS_GUEST_RSP),
		(unsigned long long)vmread(VMCS_GUEST_RFLAGS));
	memcpy(gpr, r->gpr, sizeof(gpr));
	gpr[4] = vmread(VMCS_GUEST_RSP);	/* the VMCS holds the live rsp */
	print_gprs(gpr);
	kprintf("  cr0=%016llx cr3=%016llx cr4=%016llx efer=%llx\n",
		(unsigned long long)vmread(VMCS_CR0_READ_SHADOW),
		(unsigned long long)vmread(VMCS_GUEST_CR3),
		(unsigned long long)vmread(VMCS_CR4_READ_SHADOW),
		(unsigned long long)vmread(VMCS_GUEST_IA32_EFER));
	kprintf("  cs=%04llx ss=%04llx interruptibility=%llx activity=%llx\n",
		(unsigned long long)vmread(VMCS_GUEST_CS_SELECTOR),
		(unsigned long long)vmread(VMCS_GUEST_SS_SELECTOR),
		(unsigned long long)vmread(VMCS_GUEST_INTERRUPTIBILITY),
		(unsigned long long)vmread(VMCS_GUEST_ACTIVITY_STATE));
}

void vm_dump_regs(struct vm *vm)
{
	dump_vcpu_regs(vm, vm_vcpu(vm));
}

/* From the shell, on whichever CPU: the vCPU that ran last (the
 * scheduler's cursor), not this CPU's. */
void vm_dump_regs_any(struct vm *vm)
{
	const struct vcpu *vc = &vm->vcpus[vm->vcpu_cursor % vm->nr_vcpus];
	uint64_t prev = vmcs_current();

	if (vmcs_make_current(vc->vmcs_pa))
		return;
	dump_vcpu_regs(vm, vc);
	if (prev)
		vmcs_make_current(prev);
}
