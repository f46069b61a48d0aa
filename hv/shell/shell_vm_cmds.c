/* Shell commands about VMs: vms, vm <id> regs|pause|resume|stop|restart,
 * exits <id>, console <id>.
 * Parse and validate first, then act (a bad argument changes nothing). */
#include "hv/console/console.h"
#include "hv/cpu/xcpu.h"
#include "hv/hv_errno.h"
#include "hv/shell/shell.h"
#include "hv/shell/shell_console.h"
#include "hv/platform/tsc.h"
#include "hv/smp.h"
#include "hv/vm/vm.h"
#include "hv/vmx/exit_reason.h"
#include "mini/stdlib.h"
#include "mini/string.h"

static const struct shell_vm_starter *starter;

void shell_vm_set_starter(const struct shell_vm_starter *s)
{
	starter = s;
}

/* A VM by id ("0") or by name ("alpha"); NULL with a message otherwise. */
static struct vm *parse_vm(const char *arg)
{
	char *end;
	unsigned long long id = strtoull(arg, &end, 10);

	if (*arg && !*end) {
		if (vm_by_id((unsigned)id))
			return vm_by_id((unsigned)id);
	} else {
		for (unsigned i = 0; i < nr_vms; i++)
			if (!strcmp(vms[i].name, arg))
				return &vms[i];
	}
	kprintf("no VM '%s' ('vms' lists them)\n", arg);
	return NULL;
}

static uint64_t total_exits(const struct vm *vm)
{
	uint64_t n = 0;

	for (unsigned r = 0; r < EXIT_REASON_COUNT; r++)
		n += vm->stats.exits[r];
	return n;
}

static uint64_t tsc_to_ms(uint64_t t)
{
	return tsc_hz() ? t / (tsc_hz() / 1000) : 0;
}

static int cmd_vms(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	if (!nr_vms) {
		kprintf("no VMs\n");
		return 0;
	}
	kprintf("  id name         state      memory      exits   run ms  "
		"checks pass/fail  cpu\n");
	for (unsigned i = 0; i < nr_vms; i++) {
		const struct vm *vm = &vms[i];

		kprintf("  %2u %-12s %-8s %6llu MiB %10llu %8llu  %llu/%llu"
			"  %u%s\n",
			vm->id, vm->name, vm_state_name(vm->state),
			(unsigned long long)(vm->mem_bytes >> 20),
			(unsigned long long)total_exits(vm),
			(unsigned long long)tsc_to_ms(vm->stats.run_tsc),
			(unsigned long long)vm->stats.tests_passed,
			(unsigned long long)vm->stats.tests_failed,
			(unsigned)vm->cpu, vm->pinned ? " (pinned)" : "");
		if (vm->state == VM_STOPPED)
			kprintf("     stopped: %s\n", vm->stop_reason);
	}
	if (starter)
		starter->list();
	return 0;
}

/* A VM on an AP is touched only by that CPU (docs/smp.md): the shell
 * posts what it wants, the AP does it between two slices and prints the
 * result. True when the VM is on an AP (the request is posted). */
static bool ask_its_cpu(struct vm *vm, uint32_t req, const char *what)
{
	uint32_t cpu = __atomic_load_n(&vm->cpu, __ATOMIC_ACQUIRE);

	if (!cpu)
		return false;
	/* said first: the AP may answer at once */
	kprintf("vm '%s': %s asked of cpu %u\n", vm->name, what, cpu);
	__atomic_fetch_or(&vm->requests, req, __ATOMIC_SEQ_CST);
	(void)xcpu_kick(smp_cpu(cpu));	/* out of its guest or its sleep */
	return true;
}

static int vm_regs(struct vm *vm)
{
	if (!ask_its_cpu(vm, VM_REQ_REGS, "regs"))
		vm_dump_regs_any(vm);
	return 0;
}

static int vm_pause(struct vm *vm)
{
	if (vm->state == VM_STOPPED) {
		kprintf("vm '%s' has stopped ('vm %s restart' boots it "
			"again)\n", vm->name, vm->name);
		return -1;
	}
	if (ask_its_cpu(vm, VM_REQ_PAUSE, "pause"))
		return 0;
	vm->state = VM_PAUSED;
	kprintf("vm '%s' paused\n", vm->name);
	return 0;
}

static int vm_resume(struct vm *vm)
{
	if (vm->state != VM_PAUSED) {
		kprintf("vm '%s' is %s, not paused\n", vm->name,
			vm_state_name(vm->state));
		return -1;
	}
	/* A VM paused while halted resumes after its HLT: a guest loops
	 * around HLT anyway (spurious wake-ups are allowed). */
	if (ask_its_cpu(vm, VM_REQ_RESUME, "resume"))
		return 0;
	vm->state = VM_RUNNABLE;
	kprintf("vm '%s' running\n", vm->name);
	return 0;
}

static int vm_power_off(struct vm *vm)
{
	if (vm->state == VM_STOPPED) {
		kprintf("vm '%s' has already stopped\n", vm->name);
		return -1;
	}
	if (ask_its_cpu(vm, VM_REQ_STOP, "stop"))
		return 0;
	vm_stop(vm, "stopped from the shell");
	return 0;
}

static int vm_reboot(struct vm *vm)
{
	if (ask_its_cpu(vm, VM_REQ_RESTART, "restart"))
		return 0;
	return vm_restart(vm, "restarted from the shell") ? -1 : 0;
}

/* `vm <vm> <action>`, or `vm <action> <vm>`: both read naturally. */
static const struct {
	const char *name;
	int (*run)(struct vm *vm);
} vm_actions[] = {
	{ "regs", vm_regs },
	{ "pause", vm_pause },
	{ "resume", vm_resume },
	{ "start", vm_resume },
	{ "stop", vm_power_off },
	{ "restart", vm_reboot },
};
#define NR_VM_ACTIONS (sizeof(vm_actions) / sizeof(vm_actions[0]))

static int find_action(const char *name)
{
	for (unsigned i = 0; i < NR_VM_ACTIONS; i++)
		if (!strcmp(vm_actions[i].name, name))
			return (int)i;
	return -1;
}

static int cmd_vm(int argc, char **argv)
{
	const char *vm_arg, *act_arg;
	struct vm *vm;
	int act;

	if (argc != 3) {
		kprintf("usage: vm <id|name> regs|pause|resume|start|stop|"
			"restart\n");
		return -1;
	}
	vm_arg = argv[1];
	act_arg = argv[2];
	if (find_action(act_arg) < 0 && find_action(vm_arg) >= 0) {
		vm_arg = argv[2];
		act_arg = argv[1];
	}
	/* A VM of hv.cfg with autostart=no is created by its first start. */
	if (!strcmp(act_arg, "start") && starter) {
		int err = starter->start(vm_arg);

		if (err != -HV_ENOENT)
			return err ? -1 : 0;
	}
	vm = parse_vm(vm_arg);
	if (!vm)
		return -1;
	act = find_action(act_arg);
	if (act < 0) {
		kprintf("unknown action '%s': regs, pause, resume, stop or "
			"restart\n", act_arg);
		return -1;
	}
	return vm_actions[act].run(vm);
}

static int cmd_exits(int argc, char **argv)
{
	const struct vm *vm;

	if (argc != 2) {
		kprintf("usage: exits <id|name>\n");
		return -1;
	}
	vm = parse_vm(argv[1]);
	if (!vm)
		return -1;
	kprintf("vm '%s': %llu exits, %llu entries, %llu interrupts "
		"injected, %llu timer expiries (%llu coalesced)\n", vm->name,
		(unsigned long long)total_exits(vm),
		(unsigned long long)vm->stats.entries,
		(unsigned long long)vm->stats.irqs_injected,
		(unsigned long long)vm->lapic.timer_fires,
		(unsigned long long)vm->lapic.timer_coalesced);
	for (unsigned r = 0; r < EXIT_REASON_COUNT; r++)
		if (vm->stats.exits[r])
			kprintf("  %2u %-22s %10llu\n", r,
				vmx_exit_reason_name(r),
				(unsigned long long)vm->stats.exits[r]);
	for (unsigned e = 0; e < VM_EV_COUNT; e++)
		if (vm->stats.events[e])
			kprintf("  %-25s %10llu\n", vm_event_name((enum vm_event)e),
				(unsigned long long)vm->stats.events[e]);
	if (vm->rtc_writes)
		kprintf("  %-25s %10llu\n", "RTC writes (dropped)",
			(unsigned long long)vm->rtc_writes);
	return 0;
}

static int cmd_console(int argc, char **argv)
{
	struct vm *vm;

	if (argc != 2) {
		kprintf("usage: console <id|name>\n");
		return -1;
	}
	vm = parse_vm(argv[1]);
	return vm ? shell_console_attach(vm) : -1;
}

static const struct shell_cmd shell_vm_cmds[] = {
	{ "vms", "", "VMs: state, memory, exits, run time", cmd_vms },
	{ "vm", "<id> regs|pause|resume|start|stop|restart",
	  "registers; pause, resume, stop or restart a VM; start one of "
	  "hv.cfg with autostart=no",
	  cmd_vm },
	{ "exits", "<id>", "a VM's exits by reason, and its bad-input counts",
	  cmd_exits },
	{ "console", "<id>", "type to a VM's UART; Ctrl-A then . detaches",
	  cmd_console },
};

void shell_vm_cmds_register(void)
{
	SHELL_REGISTER(shell_vm_cmds);
}
