/* The serial console shell. Commands live in one table; subsystems add their
 * own entries there. */
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

void shell_init(void);
/* Polls the console for input and runs complete lines; never blocks. */
void shell_poll(void);
/* Runs one command line (also used by tests through the console). */
int shell_execute(char *line);
/* Stop reading input for `ticks` TSC ticks (the `wait` command): VMs keep
 * running; the prompt returns afterwards. */
void shell_wait_tsc(uint64_t ticks);
/* The loop the hypervisor idles in when no VM is runnable. */
void shell_run_forever(void) __attribute__((noreturn));

#endif
