#include "hv/console/line_edit.h"
#include "mini/string.h"

#define CTRL(c) ((c) & 0x1f)
#define BS 0x08
#define DEL 0x7f
#define ESC 0x1b

void line_edit_init(struct line_edit *le,
		    void (*echo)(void *ctx, const char *s, size_t n), void *ctx)
{
	memset(le, 0, sizeof(*le));
	le->echo = echo;
	le->ctx = ctx;
}

static void echo(struct line_edit *le, const char *s, size_t n)
{
	if (le->echo)
		le->echo(le->ctx, s, n);
}

static void erase_shown(struct line_edit *le)
{
	while (le->len) {
		echo(le, "\b \b", 3);
		le->len--;
	}
}

/* Bounded copies without strlcpy: the host's glibc (before 2.38) has none,
 * and this file is host-tested against the host's C library. */
static void replace_line(struct line_edit *le, const char *s)
{
	erase_shown(le);
	le->len = strnlen(s, sizeof(le->buf) - 1);
	memcpy(le->buf, s, le->len);
	le->buf[le->len] = 0;
	echo(le, le->buf, le->len);
}

/* Called with le->buf NUL-terminated at le->len. */
static void history_store(struct line_edit *le)
{
	if (!le->len)
		return;
	memcpy(le->hist[le->hist_count % LINE_EDIT_HISTORY], le->buf,
	       le->len + 1);
	le->hist_count++;
}

/* Up (older) or down (newer) through the stored lines. */
static void history_move(struct line_edit *le, bool older)
{
	unsigned avail = le->hist_count < LINE_EDIT_HISTORY ? le->hist_count
							    : LINE_EDIT_HISTORY;

	if (older && le->hist_pos < avail)
		le->hist_pos++;
	else if (!older && le->hist_pos > 0)
		le->hist_pos--;
	else
		return;
	if (le->hist_pos == 0) {
		replace_line(le, "");
		return;
	}
	replace_line(le, le->hist[(le->hist_count - le->hist_pos) %
				  LINE_EDIT_HISTORY]);
}

/* ESC [ A / ESC [ B are the arrow keys; other sequences are swallowed. */
static void feed_escape(struct line_edit *le, char c)
{
	if (le->esc == 1) {
		le->esc = c == '[' ? 2 : 0;
		return;
	}
	if (c >= 0x40 && c <= 0x7e) { /* final byte of a CSI sequence */
		le->esc = 0;
		if (c == 'A' || c == 'B')
			history_move(le, c == 'A');
	}
}

static bool finish_line(struct line_edit *le)
{
	echo(le, "\n", 1);
	le->buf[le->len] = 0;
	history_store(le);
	le->hist_pos = 0;
	le->len = 0; /* buf keeps the text for the caller */
	return true;
}

bool line_edit_feed(struct line_edit *le, char c)
{
	bool was_cr = le->last_cr;

	le->last_cr = c == '\r';
	/* A control byte ends an escape sequence and then acts as itself
	 * (ECMA-48 executes C0 controls met inside a sequence): the Escape key
	 * followed by Enter must not lose the Enter. */
	if (le->esc && (unsigned char)c < 0x20)
		le->esc = 0;
	if (le->esc) {
		feed_escape(le, c);
		return false;
	}
	if (c == '\n' && was_cr)
		return false;
	if (c == '\r' || c == '\n')
		return finish_line(le);
	if (c == ESC) {
		le->esc = 1;
	} else if (c == BS || c == DEL) {
		if (le->len) {
			le->len--;
			echo(le, "\b \b", 3);
		}
	} else if (c == CTRL('u')) {
		erase_shown(le);
	} else if (c == CTRL('c')) {
		/* Abandon the line; an empty line tells the caller to prompt. */
		le->len = 0;
		le->buf[0] = 0;
		le->hist_pos = 0; /* next Up starts from the newest again */
		echo(le, "^C\n", 3);
		return true;
	} else if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f) {
		if (le->len + 1 >= LINE_EDIT_MAX) {
			le->dropped++;
			return false;
		}
		le->buf[le->len++] = c;
		echo(le, &c, 1);
	}
	return false;
}
