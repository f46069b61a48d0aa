/* Serial console shell: line editing, tokenizing and the command table. */
#include "hv/shell.h"
#include "hv/console.h"
#include "hv/line_edit.h"
#include "hv/x86.h"
#include "mini/string.h"

extern const struct shell_cmd shell_cmds[];
extern const unsigned shell_nr_cmds;

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
	for (unsigned i = 0; i < shell_nr_cmds; i++)
		if (strcmp(shell_cmds[i].name, name) == 0)
			return &shell_cmds[i];
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

void shell_poll(void)
{
	uint8_t c;

	while (console_getc(&c)) {
		if (!line_edit_feed(&editor, (char)c))
			continue;
		shell_execute(editor.buf);
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

int shell_cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	for (unsigned i = 0; i < shell_nr_cmds; i++) {
		const struct shell_cmd *c = &shell_cmds[i];
		char usage[48];
		size_t n = strlcpy(usage, c->name, sizeof(usage));

		if (c->args[0] && n + 1 < sizeof(usage)) {
			usage[n] = ' ';
			strlcpy(usage + n + 1, c->args, sizeof(usage) - n - 1);
		}
		kprintf("  %-22s %s\n", usage, c->help);
	}
	return 0;
}
