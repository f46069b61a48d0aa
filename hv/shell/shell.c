/* Serial console shell: line editing, tokenizing and the registered
 * command groups. */
#include "hv/shell/shell.h"
#include "hv/console/console.h"
#include "hv/console/line_edit.h"
#include "hv/shell/shell_console.h"
#include "hv/cpu/x86.h"
#include "mini/string.h"

/* The command groups, in the order they were registered: help lists them
 * in it and lookup searches them in it. Each subsystem registers its own
 * group (hv/orchestrate.c calls the registrations at boot). */
#define SHELL_MAX_GROUPS 8

static struct {
	const struct shell_cmd *cmds;
	unsigned nr;
} groups[SHELL_MAX_GROUPS];
static unsigned nr_groups;

int shell_register(const struct shell_cmd *cmds, unsigned nr)
{
	if (nr_groups == SHELL_MAX_GROUPS) {
		kprintf("shell: no room for the command group of '%s' (at most "
			"%d groups)\n", nr ? cmds[0].name : "?", SHELL_MAX_GROUPS);
		return -1;
	}
	groups[nr_groups].cmds = cmds;
	groups[nr_groups].nr = nr;
	nr_groups++;
	return 0;
}

#define PROMPT "hv> "

static struct line_edit editor;

static void echo_to_console(void *ctx, const char *s, size_t n)
{
	(void)ctx;
	console_write(s, n);
}

void shell_init(void)
{
	line_edit_init(&editor, echo_to_console, NULL);
	kprintf("\nType 'help' for the shell commands.\n" PROMPT);
}

static int tokenize(char *line, char **argv)
{
	int argc = 0;

	while (*line) {
		while (*line == ' ' || *line == '\t')
			*line++ = 0;
		if (!*line)
			break;
		if (argc == SHELL_MAX_ARGS)
			return -1;
		argv[argc++] = line;
		while (*line && *line != ' ' && *line != '\t')
			line++;
	}
	return argc;
}

static const struct shell_cmd *find_cmd(const char *name)
{
	for (unsigned g = 0; g < nr_groups; g++)
		for (unsigned i = 0; i < groups[g].nr; i++)
			if (strcmp(groups[g].cmds[i].name, name) == 0)
				return &groups[g].cmds[i];
	return NULL;
}

int shell_execute(char *line)
{
	char *argv[SHELL_MAX_ARGS];
	int argc = tokenize(line, argv);
	const struct shell_cmd *cmd;

	if (argc < 0) {
		kprintf("too many arguments (at most %d)\n", SHELL_MAX_ARGS - 1);
		return -1;
	}
	if (argc == 0)
		return 0;
	cmd = find_cmd(argv[0]);
	if (!cmd) {
		kprintf("unknown command '%s'; 'help' lists them\n", argv[0]);
		return -1;
	}
	return cmd->run(argc, argv);
}

/* `wait`: the shell reads nothing more (and shows no prompt) until this
 * TSC value, while the VMs and the GPU run on. 0 = not waiting. */
static uint64_t wait_until;

void shell_wait_tsc(uint64_t ticks)
{
	wait_until = rdtsc() + ticks;
	if (!wait_until)
		wait_until = 1;
}

/* A command's work spread over main-loop rounds (shell_set_busy): while
 * set, the shell reads no input and shows no prompt; it runs each round
 * until it returns false. */
static bool (*busy)(void);

void shell_set_busy(bool (*poll)(void))
{
	busy = poll;
}

static bool shell_busy(void)
{
	if (!busy)
		return false;
	if (busy())
		return true;
	busy = NULL;
	kprintf(PROMPT);
	return true; /* the prompt is out: input from the next round */
}

void shell_prompt(void)
{
	kprintf(PROMPT);
}

void shell_poll(void)
{
	uint8_t c;

	if (shell_console_poll())
		return;	/* the keyboard is a VM's */

	if (wait_until) {
		if (rdtsc() < wait_until)
			return;
		wait_until = 0;
		kprintf(PROMPT);
	}
	if (shell_busy())
		return;
	while (console_getc(&c)) {
		if (!line_edit_feed(&editor, (char)c))
			continue;
		shell_execute(editor.buf);
		if (shell_console_attached())
			return;	/* no prompt: the rest is typed to the VM */
		if (wait_until || busy)
			return;	/* the prompt comes when the wait is over */
		kprintf(PROMPT);
	}
}

void shell_run_forever(void)
{
	for (;;) {
		shell_poll();
		cpu_relax();
	}
}

static void print_usage(const struct shell_cmd *c)
{
	char usage[48];
	size_t n = strlcpy(usage, c->name, sizeof(usage));

	if (c->args[0] && n + 1 < sizeof(usage)) {
		usage[n] = ' ';
		strlcpy(usage + n + 1, c->args, sizeof(usage) - n - 1);
	}
	kprintf("  %-22s %s\n", usage, c->help);
}

int shell_cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (unsigned g = 0; g < nr_groups; g++)
		for (unsigned i = 0; i < groups[g].nr; i++)
			print_usage(&groups[g].cmds[i]);
	return 0;
}
