/* Restarting a VM in place; see vm_restart in vm.h.
 *
 * In place on purpose: the VM keeps its RAM pages, its EPT and its VMCS,
 * so a restart allocates and frees nothing (no leak, nothing another VM
 * could lose to fragmentation) and touches no other VM. What a power
 * cycle would clear is cleared: RAM (then reloaded from the boot files),
 * the UART, the local APIC, the IOAPIC, PCI address latch, test device,
 * guest channel, and the vCPU; registered devices (vdev.h) are reset
 * through their own reset hooks. */
#include "hv/console/console.h"
#include "hv/hv.h"
#include "hv/hv_errno.h"
#include "hv/platform/tsc.h"
#include "hv/vm/sched.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vpci_fw.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mailbox.h"
#include "hv/cpu/xcpu.h"
#include "hv/smp.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/x86.h"
#include "mini/stdio.h"
#include "mini/string.h"

static void devices_reset(struct vm *vm)
{
	vuart_reset(vm);
	for (unsigned i = 0; i < vm->nr_vcpus; i++)
		vlapic_reset(&vm->lapics[i]);
	vioapic_reset(&vm->ioapic);
	vm->pci_addr = 0;
	vm->rtc_index = 0;
	vm->testdev_scratch = vm->testdev_count = 0;
	memset(vm->testdev_mem, 0, sizeof(vm->testdev_mem));
	memset(&vm->vmrpc, 0, sizeof(vm->vmrpc));
	vm->linux_guest = false;	/* the loader decides again */
	vm->ap_real_mode = false;
}

static int reload(struct vm *vm)
{
	const struct boot_file *f = boot_find_file(hv_platform.bi,
						   vm->cfg->kernel);
	struct vcpu_boot_state bs;
	int err;

	if (!f)
		return -HV_ENOENT;
	devices_reset(vm);
	memset(vm->ram, 0, vm->mem_bytes);
	err = vm_load(vm, f->data, f->size, &bs);
	if (!err)
		vpci_fw_region(vm);	/* the OpRegion, cleared with the RAM */
	return err ? err : vcpu_reset(vm, &bs);
}

/* A VM on several CPUs restarts on its home CPU (vCPU 0's, vm->cpu)
 * once its other CPUs are out of its guest and have handed their vCPUs'
 * VMCSs back (sched_hand_back, hv/vm/sched.c): RAM, devices and vCPUs
 * are then this CPU's alone. Kicked, they do it at their next scheduling
 * step; waited for at most HANDBACK_MS, else the VM is stopped (said
 * with the CPU). 0 when the others are out (or there are none). */
#define HANDBACK_MS 100

static int gather(struct vm *vm, const char *why)
{
	uint64_t t0 = rdtsc(), left;
	uint32_t others = 0;

	if (vm->nr_cpus <= 1)
		return 0;
	for (unsigned s = 1; s < vm->nr_cpus; s++)
		others |= 1u << s;
	__atomic_store_n(&vm->restarting, 1, __ATOMIC_SEQ_CST);
	__atomic_store_n(&vm->handback, others, __ATOMIC_SEQ_CST);
	vm_mailbox_kick_others(vm);
	while ((left = __atomic_load_n(&vm->handback, __ATOMIC_ACQUIRE))) {
		if (rdtsc() - t0 > tsc_ms(HANDBACK_MS)) {
			__atomic_store_n(&vm->restarting, 0, __ATOMIC_RELEASE);
			vm_stop(vm, "%s; not restarted: cpu %u did not leave "
				"its vCPUs within %u ms", why,
				vm->cpus[__builtin_ctz(left)], HANDBACK_MS);
			return -HV_EBUSY;
		}
		cpu_relax();
	}
	return 0;
}

/* The restart is over (done or given up): the other CPUs may run the
 * VM's vCPUs again; vCPU 0's slot runs at once. */
static void gathered(struct vm *vm)
{
	for (unsigned s = 0; s < vm->nr_cpus && s < VM_VCPUS_MAX; s++)
		__atomic_store_n(&vm->slot_halted[s], s != 0, __ATOMIC_RELAXED);
	__atomic_store_n(&vm->restarting, 0, __ATOMIC_RELEASE);
	vm_mailbox_kick_others(vm);
}

static int restart_gathered(struct vm *vm, const char *why, uint64_t prev)
{
	const struct vdev *failed;
	char note[64];
	int err;

	/* Its devices are power-cycled with it (the vGPU: reset, GGTT and
	 * fences cleared, BARs unprogrammed, as the new guest's firmware
	 * expects). */
	vdev_reset_note(vm, note, sizeof(note));
	failed = vdev_reset_all(vm);
	if (failed) {
		vm_stop(vm, "%s; not restarted: its %s failed for good", why,
			failed->name);
		return -HV_EINVAL;
	}
	kprintf("vm '%s': restarting%s: %s\n", vm->name, note, why);
	err = reload(vm);
	if (prev && prev != vm_vcpu(vm)->vmcs_pa)
		vmcs_make_current(prev);
	if (err) {
		vm_stop(vm, "restart failed: error %d reloading it", err);
		return err;
	}
	/* The CPU may still hold the old guest's MSRs and FPU state: the
	 * next switch loads the fresh ones instead of saving those. */
	sched_forget_vm(vm);
	vm->restarts++;
	vm->quick_resets = 0;	/* the guest's own resets count from here */
	vm_stats_new_life(&vm->stats, rdtsc());
	vm->stop_reason[0] = '\0';
	vm->exit_status = 0;
	__atomic_store_n(&vm->slot_halted[0], 0, __ATOMIC_RELAXED);
	__atomic_store_n(&vm->state, VM_RUNNABLE, __ATOMIC_RELEASE);
	return 0;
}

int vm_restart(struct vm *vm, const char *why)
{
	uint64_t prev = vmcs_current();
	int err;

	vm->reset_pending = false;
	if (gather(vm, why))
		return -HV_EBUSY;
	err = restart_gathered(vm, why, prev);
	if (vm->nr_cpus > 1)
		gathered(vm);
	return err;
}

void vm_request_reset(struct vm *vm, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(vm->reset_reason, sizeof(vm->reset_reason), fmt, ap);
	va_end(ap);
	vm->reset_pending = true;
}

void vm_reset_if_pending(struct vm *vm)
{
	uint64_t up = rdtsc() - vm->stats.start_tsc;
	unsigned quick;

	if (!vm->reset_pending || vm->state == VM_STOPPED)
		return;
	if (vm->nr_cpus > 1 && this_cpu()->index != vm->cpu) {
		/* vCPU 0's CPU restarts it (gather); until then this CPU
		 * runs none of its vCPUs (reset_pending, hv/vm/sched.c). */
		__atomic_fetch_or(&vm->requests, VM_REQ_RESET,
				  __ATOMIC_RELEASE);
		(void)xcpu_kick(smp_cpu(vm->cpu));
		return;
	}
	quick = up < tsc_ms(VM_RESET_LOOP_MS) ? vm->quick_resets + 1 : 0;
	if (quick >= VM_RESET_LOOP_MAX) {
		vm->reset_pending = false;
		vm_stop(vm, "%s: %u resets in a row, each within %u s of its "
			"boot: a reset loop, not restarted", vm->reset_reason,
			quick, VM_RESET_LOOP_MS / 1000);
		return;
	}
	if (!vm_restart(vm, vm->reset_reason))
		vm->quick_resets = quick;
}
