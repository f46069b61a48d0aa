/* Orchestration; see orchestrate.h. The scheduler (hv/vm/sched.c) only
 * schedules, the GPU glue (hv/gpu/) only serves the GPU, the shell
 * (hv/shell/) only reads commands: this file calls each in turn. */
#include "hv/orchestrate.h"
#include "hv/console/console.h"
#include "hv/gpu/gpu_balloon.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/gpu_lock.h"
#include "hv/gpu/screen_compose.h"
#include "hv/gpu/vgpu_dev.h"
#include "hv/platform/host_rtc.h"
#include "hv/hv_errno.h"
#include "hv/hv.h"
#include "hv/platform/platform.h"
#include "hv/shell/shell.h"
#include "hv/shell/shell_console.h"
#include "hv/smp.h"
#include "hv/platform/tsc.h"
#include "hv/vm/sched.h"
#include "hv/vm/sched_place.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mailbox.h"
#include "hv/vm/vmrpc.h"
#include "hv/vm/vpci_fw.h"
#include "hv/vtd/vtd_vms.h"
#include "hv/vm/vuart.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/idle_plan.h"
#include "hv/cpu/x86.h"
#include "hv/cpu/xcpu.h"
#include "mini/string.h"

#define PIC1_DATA		0x21
#define PIC2_DATA		0xa1
#define LAPIC_LVT_TIMER_MMIO	0xfee00320ull
#define LVT_MASK_BIT		(1u << 16)

/* The hypervisor runs with IF=0 and polls; the firmware may still have
 * left the PIC or the LAPIC timer armed, and a host interrupt arriving
 * during a guest would only cost an exit. Mask them at the source. */
static void mask_host_interrupts(void)
{
	outb(PIC1_DATA, 0xff);
	outb(PIC2_DATA, 0xff);
	if (!(rdmsr(MSR_IA32_APIC_BASE) & (1ull << 10))) { /* xAPIC mode */
		volatile uint32_t *lvt =
			(volatile uint32_t *)(uintptr_t)LAPIC_LVT_TIMER_MMIO;
		*lvt |= LVT_MASK_BIT;
	}
}

/* The configuration the VMs came from: `vm NAME start` creates the
 * autostart=no ones from it later. */
static const struct hv_config *run_cfg;

/* The first CPU a VM of hv.cfg is pinned to (cpus=), vCPU 0's; 0 if
 * none. */
static unsigned cfg_cpu(const struct hvcfg_vm *c)
{
	return c->nr_cpus ? c->cpu_list[0] : 0;
}

/* An unpinned VM's CPU: the least loaded shared one (sched_place.h),
 * the load being the vCPUs of the VMs there not stopped, `self` apart. */
static unsigned shared_cpu(const struct vm *self)
{
	static uint32_t load[SCHED_PLACE_CPUS];
	unsigned nr = smp_nr_up() < SCHED_PLACE_CPUS ? smp_nr_up()
						    : SCHED_PLACE_CPUS;
	uint64_t shared = 0;

	for (unsigned i = 0; i < nr; i++) {
		load[i] = 0;
		if (smp_cpu_shared(i))
			shared |= 1ull << i;
	}
	for (unsigned i = 0; i < nr_vms; i++)
		if (&vms[i] != self && vm_state_now(&vms[i]) != VM_STOPPED &&
		    !vms[i].pinned && vms[i].cpu < nr)
			load[vms[i].cpu] += vms[i].nr_vcpus;
	return sched_place_pick(load, nr, shared);
}

/* Each CPU of a pinned VM's list must be up and in VMX operation,
 * waiting for VMs. */
static int check_placement(const struct hvcfg_vm *c)
{
	for (unsigned i = 0; i < c->nr_cpus; i++) {
		unsigned cpu = c->cpu_list[i];
		const char *why = smp_cpu_refuses_vms(cpu);

		if (!why)
			continue;
		console_lock();		/* one line */
		kprintf("vm '%s': not started: cpus=", c->name);
		for (unsigned k = 0; k < c->nr_cpus; k++)
			kprintf("%s%u", k ? "," : "", c->cpu_list[k]);
		kprintf(" names CPU %u, %s (%u CPU%s up)\n", cpu, why,
			smp_nr_up(), smp_nr_up() == 1 ? "" : "s");
		console_unlock();
		return -HV_EINVAL;
	}
	return 0;
}

/* The VM goes to its CPUs (docs/smp.md): vCPU i to the (i mod n)-th of
 * its cpus= list, else all to the least loaded shared CPU. A VM with a
 * vCPU on an AP has its VMCSs cleared here, then its placement is
 * published (vm->cpu_mask, release) and each AP's scheduler takes its
 * vCPUs from there; a VM of the BSP alone stays. Says where it runs when
 * there is more than one CPU, and where each vCPU runs when it has
 * several CPUs. */
static void place(struct vm *vm, const struct hvcfg_vm *c)
{
	unsigned pinned = cfg_cpu(c);
	unsigned home = pinned ? pinned : shared_cpu(vm);
	uint32_t cpu[VM_VCPUS_MAX];
	uint8_t slot[VM_VCPUS_MAX];
	uint64_t mask = sched_place_vcpus(c->cpu_list, c->nr_cpus, home,
					  vm->nr_vcpus, cpu, slot);

	vm->pinned = pinned != 0;
	if (mask != 1 && vcpu_hand_off(vm)) {
		vm_stop(vm, "its VMCS could not be handed to CPU %u", home);
		return;
	}
	vm->nr_cpus = c->nr_cpus ? c->nr_cpus : 1;
	for (unsigned s = 0; s < vm->nr_cpus; s++)
		vm->cpus[s] = (uint8_t)(c->nr_cpus ? c->cpu_list[s] : home);
	for (unsigned i = 0; i < vm->nr_vcpus; i++) {
		vm->vcpus[i].cpu = cpu[i];
		vm->vcpus[i].slot = slot[i];
	}
	vm->cpu = home;
	__atomic_store_n(&vm->cpu_mask, mask, __ATOMIC_RELEASE);
	if (smp_nr_up() > 1)
		kprintf("vm '%s' on cpu %u (%s)\n", vm->name, home,
			pinned ? "pinned" : "shared");
	for (unsigned i = 0; vm->nr_cpus > 1 && i < vm->nr_vcpus; i++)
		kprintf("vm '%s' vcpu %u on cpu %u\n", vm->name, i, cpu[i]);
}

/* One VM of hv.cfg: created, its vGPU (which takes the least used slots
 * now: those of a torn-down vGPU among them), placed on its CPU, started. */
static int create_one(const struct hvcfg_vm *c)
{
	const struct boot_file *f = boot_find_file(hv_platform.bi, c->kernel);
	int err;

	if (!c->valid || !f)
		return -HV_EINVAL;
	err = check_placement(c);
	if (err)
		return err;
	err = vm_create(c, f->data, f->size);
	if (err) {
		kprintf("vm '%s': not started: error %d creating it\n",
			c->name, err);
		return err;
	}
	kprintf("vm '%s': id %u, %llu MiB of RAM at host %llx, kernel "
		"%s, cmdline '%s': started\n", c->name, nr_vms - 1,
		(unsigned long long)(c->memory >> 20),
		(unsigned long long)(uintptr_t)vms[nr_vms - 1].ram,
		c->kernel, c->cmdline);
	gpu_host_vgpu_create(c, nr_vms - 1);
	vpci_fw_assign(&vms[nr_vms - 1]);	/* now it has its vGPU */
	place(&vms[nr_vms - 1], c);
	return 0;
}

unsigned vms_create_from_config(const struct hv_config *cfg)
{
	if (!cfg->nr_vms)
		return 0;
	if (vmx_enable())
		return 0;
	vmx_vpid_set(cfg->vmx_vpid);
	vmx_apicv_set(cfg->vmx_apicv);
	vmx_vid_set(cfg->vmx_vid);
	vcpu_set_msr_reads(cfg->vmx_msr_reads);
	vuart_set_fifo_temt(cfg->vuart_fifo_temt);
	run_cfg = cfg;
	mask_host_interrupts();
	kprintf("tsc: %llu kHz (measured against the PIT)\n",
		(unsigned long long)(tsc_calibrate() / 1000));
	host_rtc_init();
	for (unsigned i = 0; i < cfg->nr_vms; i++) {
		const struct hvcfg_vm *c = &cfg->vms[i];

		if (c->valid && c->no_autostart) {
			kprintf("vm '%s': autostart=no: not started ('vm %s "
				"start' starts it)\n", c->name, c->name);
			continue;
		}
		(void)create_one(c);
	}
	gpu_host_place(cfg);
	return nr_vms;
}

static bool created(const char *name)
{
	for (unsigned i = 0; i < nr_vms; i++)
		if (!strcmp(vms[i].name, name))
			return true;
	return false;
}

/* `vm NAME start` for a VM of hv.cfg not created yet. */
static int start_configured(const char *name)
{
	uint64_t prev = vmcs_current();
	const struct hvcfg_vm *c = NULL;
	int err;

	for (unsigned i = 0; run_cfg && i < run_cfg->nr_vms; i++)
		if (!strcmp(run_cfg->vms[i].name, name))
			c = &run_cfg->vms[i];
	if (!c || created(name))
		return -HV_ENOENT;	/* the shell says what it knows */
	if (!c->valid) {
		kprintf("vm '%s': cannot be started (hv.cfg errors or a file "
			"it names is missing)\n", name);
		return -HV_EINVAL;
	}
	err = create_one(c);
	if (prev && prev != vmcs_current())
		vmcs_make_current(prev);
	return err;
}

/* For `vms`: the VMs of hv.cfg waiting for `vm NAME start`. */
static void list_not_started(void)
{
	for (unsigned i = 0; run_cfg && i < run_cfg->nr_vms; i++)
		if (run_cfg->vms[i].valid && run_cfg->vms[i].no_autostart &&
		    !created(run_cfg->vms[i].name))
			kprintf("   - %-12s not started (autostart=no): 'vm %s "
				"start'\n", run_cfg->vms[i].name,
				run_cfg->vms[i].name);
}

static const struct shell_vm_starter starter = {
	start_configured, list_not_started,
};

/* Where each VM ran and for how long, in TSC time (in an emulator its
 * clock, not the host's): from creation (or last restart) to its stop,
 * and since creation, the time spent in the guest and the time it waited
 * for its CPU. With VMs on several CPUs, the waits go away. */
static void report_time(const struct vm *vm)
{
	uint64_t ms = tsc_hz() / 1000 ? tsc_hz() / 1000 : 1;
	uint64_t up = vm->stats.stop_tsc - vm->stats.start_tsc;

	console_lock();		/* one line */
	kprintf("vm '%s' on cpu", vm->name);
	for (unsigned s = 0; s < vm->nr_cpus; s++)
		kprintf("%s%u", s ? "," : (vm->nr_cpus > 1 ? "s " : " "),
			vm->cpus[s]);
	kprintf(": up %llu ms, %llu ms in the guest, "
		"%llu ms waiting for its CPU\n",
		(unsigned long long)(up / ms),
		(unsigned long long)(vm->stats.run_tsc / ms),
		(unsigned long long)(vm->stats.steal_tsc / ms));
	console_unlock();
}

/* What the APs that ran VMs did while they had nothing to run: slept
 * in HLT (xcpu_idle_sleep) or spun, where the CPU has no TSC-deadline
 * timer. */
static void report_idle(void)
{
	for (unsigned i = 1; i < smp_nr_up(); i++) {
		const struct percpu *p = smp_cpu(i);

		if (p && p->vm_placed)
			kprintf("cpu %u: idle %s, %llu sleeps, %llu kicks "
				"taken\n", i,
				xcpu_can_sleep() ? "in HLT" : "spinning",
				(unsigned long long)p->sleeps,
				(unsigned long long)p->kicks_got);
	}
}

/* Test exit status: the number of VMs that reported a failed check or
 * exited with a non-zero status. */
static void main_loop_report(void);

static int summarize(void)
{
	int bad = 0;

	sched_flush_output();
	kprintf("hv: all %u VMs have stopped\n", nr_vms);
	for (unsigned i = 0; i < nr_vms; i++) {
		const struct vm *vm = &vms[i];

		kprintf("  %-12s %llu checks passed, %llu failed: %s\n",
			vm->name, (unsigned long long)vm->stats.tests_passed,
			(unsigned long long)vm->stats.tests_failed,
			vm->stop_reason);
		bad += vm->stats.tests_failed || vm->exit_status;
	}
	for (unsigned i = 0; i < nr_vms; i++)
		report_time(&vms[i]);
	report_idle();
	for (unsigned i = 0; i < nr_vms; i++)
		vm_report_exit_max(&vms[i]);
	for (unsigned i = 0; i < nr_vms; i++)
		gpu_host_report(i);
	gpu_host_print_concurrency();
	main_loop_report();
	return bad;
}

/* The guest channel: GM requests go to gBalloon, the layout is the
 * vGPU's. They come from the VM's own exits, on whichever CPU it runs:
 * each enters gpu/ under the mediator lock (docs/smp.md "Mediator
 * concurrency"). */
static int gm_request(unsigned vm_id, uint32_t slots)
{
	int r;

	gpu_lock();
	r = gpu_balloon_request(vm_id, slots);
	gpu_unlock();
	return r;
}

static int gm_release(unsigned vm_id, uint32_t slots)
{
	int r;

	gpu_lock();
	r = gpu_balloon_release(vm_id, slots);
	gpu_unlock();
	return r;
}

static int gm_layout(unsigned vm_id, struct vmrpc_gm_layout *l)
{
	int r;

	gpu_lock();
	r = vgpu_dev_gm_layout(vm_id, l);
	gpu_unlock();
	return r;
}

static const struct vmrpc_gm_ops balloon_gm_ops = {
	gm_request, gm_release, gm_layout,
};

/* Every command group, in the order `help` lists them. */
static void register_shell_cmds(void)
{
	shell_base_cmds_register();
	shell_vm_cmds_register();
	shell_vm_set_starter(&starter);
	shell_vgpu_cmds_register();
	shell_vtd_cmds_register();
	shell_screen_cmds_register();
}

/* `default=` in [global]: the console starts attached to that VM. The
 * parser made sure it names a section; the VM may still not have started
 * (a bad kernel), and then the shell keeps the keyboard. */
static void attach_default(const char *name)
{
	if (!name[0])
		return;
	for (unsigned i = 0; i < nr_vms; i++)
		if (!strcmp(vms[i].name, name)) {
			shell_console_attach(&vms[i]);
			return;
		}
	kprintf("console: default vm '%s' did not start; the shell keeps "
		"the console\n", name);
}

/* What the shell asked of a VM on an AP (shell_vm_cmds.c posts it in
 * vm->requests), done by that AP between slices: only the CPU running a
 * VM touches its state, its VMCS and its devices. */
static void do_requests(struct vm *vm, uint32_t r)
{
	if ((r & VM_REQ_REGS) && vm->state != VM_STOPPED) {
		console_lock();		/* the dump in one piece */
		vm_dump_regs_any(vm);
		console_unlock();
	}
	/* A VM on several CPUs: its other CPUs are kicked out of their
	 * guest (or their sleep) to see the state before their next entry. */
	if ((r & VM_REQ_PAUSE) && vm->state != VM_STOPPED) {
		__atomic_store_n(&vm->state, VM_PAUSED, __ATOMIC_RELEASE);
		vm_mailbox_kick_others(vm);
		kprintf("vm '%s' paused\n", vm->name);
	}
	if ((r & VM_REQ_RESUME) && vm->state == VM_PAUSED) {
		__atomic_store_n(&vm->state, VM_RUNNABLE, __ATOMIC_RELEASE);
		vm_mailbox_kick_others(vm);
		kprintf("vm '%s' running\n", vm->name);
	}
	if ((r & VM_REQ_STOP) && vm->state != VM_STOPPED)
		vm_stop(vm, "stopped from the shell");
	if (r & VM_REQ_RESTART)
		(void)vm_restart(vm, "restarted from the shell");
	if (r & VM_REQ_RESET)	/* a guest reset from its other CPU */
		vm_reset_if_pending(vm);
	if (r & VM_REQ_CONSOLE)
		shell_console_serve(vm);
}

static void take_requests(unsigned cpu)
{
	for (unsigned i = 0; i < nr_vms; i++) {
		struct vm *vm = &vms[i];
		uint32_t r;

		if (!vm_on_cpu(vm, cpu) || vm->cpu != cpu)
			continue;
		r = __atomic_exchange_n(&vm->requests, 0, __ATOMIC_ACQUIRE);
		if (r)
			do_requests(vm, r);
	}
}

/* Something for this CPU to do: a VM of it not stopped, or a request
 * (the VM's home CPU, vCPU 0's, takes those). */
static bool has_work(unsigned cpu)
{
	for (unsigned i = 0; i < nr_vms; i++) {
		const struct vm *vm = &vms[i];

		if (vm_handback_asked(vm, cpu))
			return true;
		if (vm_on_cpu(vm, cpu) &&
		    (vm_state_now(vm) != VM_STOPPED ||
		     __atomic_load_n(&vm->requests, __ATOMIC_ACQUIRE)))
			return true;
	}
	return false;
}

/* Work posted to this CPU's VMs by another CPU since its last step. */
static bool has_mail(unsigned cpu)
{
	for (unsigned i = 0; i < nr_vms; i++) {
		const struct vm *vm = &vms[i];

		if (vm_on_cpu(vm, cpu) &&
		    (vm_handback_asked(vm, cpu) ||
		     __atomic_load_n(&vm->requests, __ATOMIC_SEQ_CST) ||
		     vm_mailbox_waiting(vm)))
			return true;
	}
	return false;
}

/* Nothing of this CPU's is runnable: sleep (xcpu_idle_sleep) until its
 * VMs' next timer deadline, the GPU's next need (dev_next, the BSP's;
 * asked after the idle mark, so an AP that queues GPU work after the
 * answer sees the mark and kicks) or IDLE_CAP_US, whichever comes first,
 * or until another CPU posts and kicks (hv/cpu/xcpu.h); idle_plan.h
 * decides. The cap bounds what a wake
 * source nobody asks could be late by: the shell's input, the GPU's
 * vblank, balloon and placement ticks, COM1's drain (its 16-byte FIFO
 * lasts 1.4 ms at 115200 baud). Returns the ticks slept, 0 if it did
 * not (it spun once). */
#define IDLE_CAP_US 1000
#define IDLE_MIN_US 5	/* shorter is not worth arming the timer */

static uint64_t cpu_idle(struct percpu *p, uint64_t (*dev_next)(uint64_t))
{
	struct idle_in in = {
		.cap = tsc_hz() / 1000000 * IDLE_CAP_US,
		.min = tsc_hz() / 1000000 * IDLE_MIN_US,
		.can_sleep = xcpu_can_sleep(),
	};
	uint64_t until;

	if (in.can_sleep) {
		xcpu_idle_begin();	/* from here a poster kicks us */
		in.now = rdtsc();
		in.mail = has_mail(p->index);
		in.vm_next = sched_next_event();
		in.dev_next = dev_next ? dev_next(in.now) : UINT64_MAX;
	}
	until = idle_plan_until(&in);
	if (!until) {
		if (in.can_sleep)
			xcpu_idle_end();
		cpu_relax();
		return 0;
	}
	xcpu_idle_sleep(until);
	return rdtsc() - in.now;
}

static void ap_idle(struct percpu *p)
{
	(void)cpu_idle(p, NULL);
}

/* An AP's main loop (smp_run_on_aps): its VMs only, no shell, no GPU.
 * busy is set while it has work: once every VM of it has stopped (and
 * printed so) it stays clear, and the BSP's test-exit summary, which
 * waits for that, comes after this CPU's last line. */
static void __attribute__((noreturn)) ap_loop(struct percpu *p)
{
	for (;;) {
		bool ran = false;

		if (has_work(p->index)) {
			__atomic_store_n(&p->busy, 1, __ATOMIC_SEQ_CST);
			take_requests(p->index);
			ran = sched_run_next();
		}
		__atomic_store_n(&p->busy, 0, __ATOMIC_RELEASE);
		if (!ran)
			ap_idle(p);
	}
}

/* The shell's commands read and change the vGPUs (vgpus, ggtt, ppgtt,
 * place, screen ...): the whole stage under the mediator lock, so each
 * command sees the mediator between two entries of the VMs' CPUs. */
static void shell_poll_locked(void)
{
	gpu_lock();
	shell_poll();
	gpu_unlock();
}

/* The BSP's main loop between slices, stage by stage, in order: what
 * each costs per round is printed with the summary (main_loop_report),
 * the figures behind the hypervisor's share outside the VMs' slices in
 * docs/performance.md. */
static const struct {
	const char *name;
	void (*run)(void);
} loop_stages[] = {
	{ "shell", shell_poll_locked },
	{ "vtd", vtd_poll },	/* before the GPU runs: stopped VMs' RAM is gone */
	{ "gpu_poll", gpu_host_poll },
	{ "teardown", vdev_teardown_stopped },	/* stopped VMs' vGPUs */
	{ "gpu_tick", gpu_host_tick },
};
#define NR_LOOP_STAGES	(sizeof(loop_stages) / sizeof(loop_stages[0]))
static uint64_t loop_stage_tsc[NR_LOOP_STAGES], loop_rounds;
/* The BSP's idle rounds: spun, or slept in HLT, and for how long. */
static uint64_t bsp_spins, bsp_sleeps, bsp_slept_tsc;

static void bsp_idle(void)
{
	uint64_t t = cpu_idle(this_cpu(), gpu_host_next_event);

	if (t) {
		bsp_sleeps++;
		bsp_slept_tsc += t;
	} else {
		bsp_spins++;
	}
}

static void main_loop_round(void)
{
	uint64_t t = rdtsc();

	for (unsigned i = 0; i < NR_LOOP_STAGES; i++) {
		uint64_t t1;

		loop_stages[i].run();
		t1 = rdtsc();
		loop_stage_tsc[i] += t1 - t;
		t = t1;
	}
	loop_rounds++;
}

static void main_loop_report(void)
{
	kprintf("hv: main loop: %llu rounds; TSC ticks per round:",
		(unsigned long long)loop_rounds);
	for (unsigned i = 0; i < NR_LOOP_STAGES; i++)
		kprintf(" %s %llu", loop_stages[i].name,
			(unsigned long long)(loop_rounds ? loop_stage_tsc[i] /
							   loop_rounds : 0));
	kprintf("\n");
	kprintf("hv: cpu 0 idle: %llu sleeps, %llu ms asleep, %llu rounds "
		"spun\n", (unsigned long long)bsp_sleeps,
		(unsigned long long)(bsp_slept_tsc /
				     (tsc_hz() / 1000 ? tsc_hz() / 1000 : 1)),
		(unsigned long long)bsp_spins);
}

void hv_run(const struct hv_config *cfg)
{
	bool exit_when_stopped = cfg->test_exit == HVCFG_EXIT_VMS;
	bool reported = false;

	vmrpc_set_gm_ops(&balloon_gm_ops);
	register_shell_cmds();
	gpu_lock();
	screen_compose_boot(cfg->display_owner);	/* before the prompt */
	gpu_unlock();
	shell_init();
	attach_default(cfg->default_vm);
	sched_init(cfg->slice_ms, cfg->slice_lone_ms);
	sched_set_post_exit(gpu_host_after_exit);
	sched_set_needs_rounds(gpu_host_needs_rounds);
	sched_set_stretch(cfg->slice_stretch_ms, gpu_host_next_event);
	xcpu_init();	/* the kick of a CPU whose VM got mail */
	smp_run_on_aps(ap_loop);
	for (;;) {
		main_loop_round();
		if (sched_run_next())
			continue;
		if (exit_when_stopped && !reported && sched_all_stopped() &&
		    smp_aps_idle()) {
			reported = true;
			platform_test_exit(summarize());
		}
		bsp_idle();
	}
}
