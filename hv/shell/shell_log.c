/* `log`: the console log ring (hv/console/log_ring.c), replayed on the console. On a
 * PC without a serial port the screen shows only its last rows and has no
 * scroll-back: `log N SKIP` pages back through the ring from the keyboard
 * (log 40, log 40 40, log 40 80, ...). */
#include "hv/console/console.h"
#include "hv/shell/shell.h"
#include "mini/stdlib.h"

static bool parse_count(const char *s, unsigned *out)
{
	char *end;
	unsigned long long v = strtoull(s, &end, 10);

	if (!s[0] || *end || v > 1000000)
		return false;
	*out = (unsigned)v;
	return true;
}

/* Prints [from, to) of a snapshot of the ring straight to the sinks. */
static void replay(const struct log_ring *r, size_t from, size_t to)
{
	char chunk[128];
	size_t n;

	while (from < to &&
	       (n = log_ring_read(r, from, chunk,
				  to - from < sizeof(chunk) ? to - from
							    : sizeof(chunk))) > 0) {
		kprintf("%.*s", (int)n, chunk);
		from += n;
	}
}

int shell_cmd_log(int argc, char **argv)
{
	const struct log_ring *r = console_ring();
	/* Snapshot the length first: printing appends to the ring itself.
	 * The last line is the command's own echo, not part of the log. */
	size_t used = log_ring_used(r);
	size_t end = log_ring_line_start(r, used, 1);
	unsigned lines = 0, skip = 0;

	if (argc > 3 || (argc > 1 && !parse_count(argv[1], &lines)) ||
	    (argc > 2 && !parse_count(argv[2], &skip)) || (argc > 1 && !lines)) {
		kprintf("usage: log [lines [skip]]   (the last lines, ending "
			"skip lines before the end)\n");
		return -1;
	}
	if (argc == 1) {
		replay(r, 0, used);
		return 0;
	}
	end = log_ring_line_start(r, end, skip);
	replay(r, log_ring_line_start(r, end, lines), end);
	return 0;
}
