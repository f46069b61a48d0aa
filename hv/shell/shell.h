/* The serial console shell. Each subsystem keeps its commands in its own
 * array and registers it as a group (shell_register); the shell knows none
 * of them by name. */
#ifndef HV_SHELL_H
#define HV_SHELL_H

#include <stdbool.h>
#include <stdint.h>

#define SHELL_MAX_ARGS 8

struct shell_cmd {
	const char *name;
	const char *args; /* usage of the arguments, "" if none */
	const char *help;
	int (*run)(int argc, char **argv);
};

/* Adds a group of nr commands (kept by pointer: static storage). -1, with
 * a message, when the shell has no room for another group. */
int shell_register(const struct shell_cmd *cmds, unsigned nr);
#define SHELL_REGISTER(array) \
	shell_register(array, sizeof(array) / sizeof((array)[0]))

/* The groups of hv/shell/ (base, VM and vGPU commands), one registration
 * call each. */
void shell_base_cmds_register(void);
void shell_vm_cmds_register(void);
/* `vm NAME start` for a VM of hv.cfg that was not created at boot
 * (autostart=no), and `vms` listing those: orchestrate.c provides them.
 * start returns 0, -HV_ENOENT (no such VM waiting) or another error. */
struct shell_vm_starter {
	int (*start)(const char *name);
	void (*list)(void);
};
void shell_vm_set_starter(const struct shell_vm_starter *s);
void shell_vgpu_cmds_register(void);
void shell_vtd_cmds_register(void);

void shell_init(void);
/* Prints the prompt (after a command, or when the console detaches). */
void shell_prompt(void);
/* Polls the console for input and runs complete lines; never blocks. */
void shell_poll(void);
/* Runs one command line (also used by tests through the console). */
int shell_execute(char *line);
/* Stop reading input for `ticks` TSC ticks (the `wait` command): VMs keep
 * running; the prompt returns afterwards. */
void shell_wait_tsc(uint64_t ticks);
/* A command whose output is long (`screen dump`) runs poll once a
 * main-loop round until it returns false; meanwhile the shell reads no
 * input and shows no prompt. */
void shell_set_busy(bool (*poll)(void));
void shell_screen_cmds_register(void);
/* The loop the hypervisor idles in when no VM is runnable. */
void shell_run_forever(void) __attribute__((noreturn));

#endif
