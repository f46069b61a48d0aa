/* Unit tests of the serial console line editor (hv/console/line_edit.c).
 *
 * The echo callback appends to a capture buffer, so each test states the
 * exact bytes a terminal would have received. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/console/line_edit.h"

#define ERASE1 "\b \b"
#define UP "\x1b[A"
#define DOWN "\x1b[B"

static struct line_edit le;
static char echoed[16384];
static size_t echoed_len;
static int echo_calls;

static void capture(void *ctx, const char *s, size_t n)
{
	assert_ptr_equal(ctx, &echoed);
	assert_true(echoed_len + n < sizeof(echoed));
	memcpy(echoed + echoed_len, s, n);
	echoed_len += n;
	echoed[echoed_len] = 0;
	echo_calls++;
}

static void clear_echo(void)
{
	echoed_len = 0;
	echoed[0] = 0;
}

static int setup(void **state)
{
	(void)state;
	clear_echo();
	echo_calls = 0;
	line_edit_init(&le, capture, &echoed);
	return 0;
}

/* Feeds s (n bytes); returns how many lines completed. */
static int feedn(const char *s, size_t n)
{
	int lines = 0;

	for (size_t i = 0; i < n; i++)
		if (line_edit_feed(&le, s[i]))
			lines++;
	return lines;
}

static int feed(const char *s)
{
	return feedn(s, strlen(s));
}

/* Feeds s, which must complete exactly one line with its last byte, and
 * checks the line's text. */
static void feed_line(const char *s, const char *want)
{
	size_t n = strlen(s);

	assert_int_equal(feedn(s, n - 1), 0);
	assert_true(line_edit_feed(&le, s[n - 1]));
	assert_string_equal(le.buf, want);
}

static void check_echo(const char *want)
{
	if (echoed_len != strlen(want) || memcmp(echoed, want, echoed_len)) {
		print_error("echo got  (%zu): ", echoed_len);
		for (size_t i = 0; i < echoed_len; i++)
			print_error(echoed[i] >= 0x20 && echoed[i] < 0x7f ? "%c"
									  : "\\x%02x",
				    (unsigned char)echoed[i]);
		print_error("\necho want (%zu): ", strlen(want));
		for (size_t i = 0; want[i]; i++)
			print_error(want[i] >= 0x20 && want[i] < 0x7f ? "%c"
								      : "\\x%02x",
				    (unsigned char)want[i]);
		print_error("\n");
		fail();
	}
	clear_echo();
}

static void test_type_and_enter(void **state)
{
	(void)state;
	assert_int_equal(feed("help"), 0);
	assert_int_equal(le.len, 4);
	check_echo("help");
	assert_true(line_edit_feed(&le, '\r'));
	assert_string_equal(le.buf, "help");
	assert_int_equal(le.len, 0);
	check_echo("\n");
	/* The next line starts empty. */
	feed_line("ls\n", "ls");
	check_echo("ls\n");
}

static void test_crlf_counted_once(void **state)
{
	(void)state;
	assert_int_equal(feed("a\r\n"), 1);
	assert_string_equal(le.buf, "a");
	check_echo("a\n");
	/* The LF after the CR did nothing; the next line is unaffected. */
	feed_line("b\r", "b");
	assert_int_equal(feed("\n"), 0);
	check_echo("b\n");
	/* CR CR: two lines, the second empty. */
	assert_int_equal(feed("c\r\r"), 2);
	assert_string_equal(le.buf, "");
	check_echo("c\n\n");
	/* (the LF right after that CR is swallowed) */
	assert_int_equal(feed("\n"), 0);
	/* LF LF: two lines; LF CR: two lines (only CR LF is a pair). */
	assert_int_equal(feed("\n\n"), 2);
	assert_int_equal(feed("\n\r"), 2);
	assert_int_equal(feed("\n"), 0);
	/* CR, a character, LF: the LF is not swallowed. */
	assert_int_equal(feed("\rx"), 1);
	feed_line("\n", "x");
	/* CR LF LF: the second LF is a line of its own. */
	assert_int_equal(feed("y\r\n\n"), 2);
	assert_string_equal(le.buf, "");
}

static void test_empty_enter(void **state)
{
	(void)state;
	feed_line("\r", "");
	check_echo("\n");
	assert_int_equal(le.hist_count, 0); /* empty lines are not history */
}

static void test_backspace(void **state)
{
	(void)state;
	/* At the start of the line: nothing to erase, nothing echoed. */
	assert_int_equal(feed("\b\x7f\b"), 0);
	assert_int_equal(le.len, 0);
	check_echo("");
	feed("abc");
	assert_int_equal(feed("\b"), 0);
	assert_int_equal(le.len, 2);
	check_echo("abc" ERASE1);
	assert_int_equal(feed("\x7f"), 0); /* DEL does the same */
	check_echo(ERASE1);
	feed("Z");
	feed_line("\r", "aZ");
	check_echo("Z\n");
	/* More backspaces than characters stop at the start. */
	feed("xy\b\b\b\b");
	check_echo("xy" ERASE1 ERASE1);
	feed_line("q\r", "q");
}

static void test_ctrl_u(void **state)
{
	(void)state;
	feed("abc");
	clear_echo();
	assert_int_equal(feed("\x15"), 0);
	assert_int_equal(le.len, 0);
	check_echo(ERASE1 ERASE1 ERASE1);
	feed("\x15"); /* on an empty line: nothing */
	check_echo("");
	feed_line("xy\r", "xy");
	check_echo("xy\n");
}

static void test_ctrl_c(void **state)
{
	(void)state;
	feed("reboot");
	clear_echo();
	assert_true(line_edit_feed(&le, 0x03));
	assert_string_equal(le.buf, "");
	assert_int_equal(le.len, 0);
	check_echo("^C\n");
	assert_int_equal(le.hist_count, 0); /* an abandoned line is not kept */
	/* On an empty line too. */
	assert_true(line_edit_feed(&le, 0x03));
	assert_string_equal(le.buf, "");
	feed_line("ok\r", "ok");
}

static void test_other_controls_ignored(void **state)
{
	(void)state;
	feed("a\x01\x02\x04\x07\t\x0c\x1f");
	feed("\x80\xff\xc3\xa9"); /* 8-bit bytes are not printable ASCII */
	feed_line("b\r", "ab");
	check_echo("ab\n");
	assert_int_equal(le.dropped, 0);
}

static void test_line_full(void **state)
{
	char want[LINE_EDIT_MAX];

	(void)state;
	for (int i = 0; i < 200; i++)
		assert_false(line_edit_feed(&le, (char)('a' + i % 26)));
	assert_int_equal(le.len, LINE_EDIT_MAX - 1);
	assert_int_equal(le.dropped, 200 - (LINE_EDIT_MAX - 1));
	assert_int_equal(echoed_len, LINE_EDIT_MAX - 1); /* drops not echoed */
	for (int i = 0; i < LINE_EDIT_MAX - 1; i++)
		want[i] = (char)('a' + i % 26);
	want[LINE_EDIT_MAX - 1] = 0;
	clear_echo();
	/* Room again after a backspace. */
	feed("\b!");
	check_echo(ERASE1 "!");
	want[LINE_EDIT_MAX - 2] = '!';
	feed_line("?\r", want);
	assert_int_equal(le.dropped, 200 - (LINE_EDIT_MAX - 1) + 1);
	assert_int_equal(strlen(le.buf), LINE_EDIT_MAX - 1);
	/* Enter still works on a full line, and the next one is empty. */
	feed_line("z\r", "z");
}

static void test_escape_swallowed(void **state)
{
	(void)state;
	feed("a");
	/* Right/left arrows, a function key, a modified arrow, Home/End. */
	feed("\x1b[C\x1b[D\x1b[15~\x1b[1;5D\x1b[H\x1b[F");
	/* ESC + one byte (Alt-x style): both swallowed. */
	feed("\x1bx");
	feed("b");
	feed_line("\r", "ab");
	check_echo("ab\n");
	assert_int_equal(le.esc, 0);
	/* Up with no history does nothing. */
	setup(NULL);
	feed(UP DOWN);
	check_echo("");
	assert_int_equal(le.len, 0);
}

/* A lone ESC (the Escape key) must not eat the Enter that follows it. */
static void test_escape_then_enter(void **state)
{
	(void)state;
	feed("ls\x1b");
	assert_true(line_edit_feed(&le, '\r'));
	assert_string_equal(le.buf, "ls");
	check_echo("ls\n");
	/* An interrupted CSI: controls still act (ECMA-48 executes C0 controls
	 * inside a control sequence); the sequence is abandoned. */
	feed("ab\x1b[1");
	feed("\b");
	feed_line("c\r", "ac");
	check_echo("ab" ERASE1 "c\n");
	/* ESC ESC [ A: the second ESC starts the arrow sequence afresh. */
	feed("\x1b" UP);
	check_echo("ac");
	feed_line("\r", "ac");
	/* Ctrl-C right after ESC still abandons the line. */
	feed("zz\x1b");
	assert_true(line_edit_feed(&le, 0x03));
	assert_string_equal(le.buf, "");
}

static void test_history_basic(void **state)
{
	(void)state;
	feed_line("one\r", "one");
	feed_line("two\r", "two");
	clear_echo();
	feed(UP);
	check_echo("two");
	assert_int_equal(le.len, 3);
	feed(UP);
	check_echo(ERASE1 ERASE1 ERASE1 "one");
	feed(UP); /* nothing older */
	check_echo("");
	assert_string_equal((le.buf[le.len] = 0, le.buf), "one");
	feed(DOWN);
	check_echo(ERASE1 ERASE1 ERASE1 "two");
	feed(DOWN); /* back to the (empty) new line */
	check_echo(ERASE1 ERASE1 ERASE1);
	assert_int_equal(le.len, 0);
	feed(DOWN); /* nothing newer */
	check_echo("");
	/* Recall and run a line: it is stored again as the newest. */
	feed(UP UP);
	clear_echo();
	feed_line("\r", "one");
	check_echo("\n");
	feed(UP);
	check_echo("one");
	feed(UP);
	check_echo(ERASE1 ERASE1 ERASE1 "two");
	feed_line("\r", "two");
}

static void test_history_edit_recalled(void **state)
{
	(void)state;
	feed_line("cat\r", "cat");
	feed(UP "s");
	clear_echo();
	feed_line("\r", "cats");
	/* The stored entry itself was not changed by the edit. */
	feed(UP UP);
	clear_echo();
	feed_line("\r", "cat");
	clear_echo();
	/* Typing, then Up: the typed text is erased and replaced. */
	feed("xyz" UP);
	check_echo("xyz" ERASE1 ERASE1 ERASE1 "cat");
	feed_line("\r", "cat");
}

static void test_history_bounded(void **state)
{
	char line[16], want[16];

	(void)state;
	for (int i = 0; i < LINE_EDIT_HISTORY + 4; i++) {
		snprintf(line, sizeof(line), "cmd%d\r", i);
		snprintf(want, sizeof(want), "cmd%d", i);
		feed_line(line, want);
	}
	/* Up walks newest first through exactly LINE_EDIT_HISTORY lines. */
	for (int i = 0; i < LINE_EDIT_HISTORY; i++) {
		feed(UP);
		snprintf(want, sizeof(want), "cmd%d", LINE_EDIT_HISTORY + 3 - i);
		assert_int_equal(le.len, strlen(want));
		assert_memory_equal(le.buf, want, le.len);
	}
	clear_echo();
	feed(UP); /* the oldest ones were overwritten */
	check_echo("");
	snprintf(want, sizeof(want), "cmd%d", 4);
	assert_memory_equal(le.buf, want, strlen(want));
	/* And Down all the way back to the empty line. */
	for (int i = 0; i < LINE_EDIT_HISTORY - 1; i++) {
		feed(DOWN);
		snprintf(want, sizeof(want), "cmd%d", 5 + i);
		assert_int_equal(le.len, strlen(want));
		assert_memory_equal(le.buf, want, le.len);
	}
	feed(DOWN);
	assert_int_equal(le.len, 0);
	feed_line("\r", "");
}

/* Finishing or abandoning a line while browsing restarts browsing at the
 * newest entry. */
static void test_history_reset_after_line(void **state)
{
	(void)state;
	feed_line("a1\r", "a1");
	feed_line("a2\r", "a2");
	feed_line("a3\r", "a3");
	feed(UP UP);
	feed_line("x\r", "a2x"); /* history: a1 a2 a3 a2x */
	feed(UP);
	assert_int_equal(le.len, 3);
	assert_memory_equal(le.buf, "a2x", 3);
	feed(UP UP);
	assert_memory_equal(le.buf, "a2", 2);
	/* Ctrl-C while browsing: the next Up starts from the newest. */
	feed("\x03");
	clear_echo();
	feed(UP);
	check_echo("a2x");
	/* Ctrl-U while browsing keeps the position (the line is just
	 * cleared); Enter on the empty line resets it. */
	feed(UP "\x15");
	assert_int_equal(le.len, 0);
	feed_line("\r", "");
	clear_echo();
	feed(UP);
	check_echo("a2x");
}

static void test_long_history_line(void **state)
{
	char big[LINE_EDIT_MAX + 10];

	(void)state;
	memset(big, 'q', sizeof(big));
	big[sizeof(big) - 2] = '\r';
	big[sizeof(big) - 1] = 0;
	assert_int_equal(feed(big), 1);
	assert_int_equal(strlen(le.buf), LINE_EDIT_MAX - 1);
	clear_echo();
	feed(UP);
	assert_int_equal(le.len, LINE_EDIT_MAX - 1);
	assert_int_equal(echoed_len, LINE_EDIT_MAX - 1);
	feed("w"); /* full */
	assert_int_equal(le.len, LINE_EDIT_MAX - 1);
}

static void test_no_echo_callback(void **state)
{
	(void)state;
	line_edit_init(&le, NULL, NULL);
	feed("abc\bd\x15xy" UP);
	assert_int_equal(feed("\r"), 1);
	assert_string_equal(le.buf, "xy");
	feed(UP);
	assert_int_equal(feed("\x03"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_type_and_enter, setup),
		cmocka_unit_test_setup(test_crlf_counted_once, setup),
		cmocka_unit_test_setup(test_empty_enter, setup),
		cmocka_unit_test_setup(test_backspace, setup),
		cmocka_unit_test_setup(test_ctrl_u, setup),
		cmocka_unit_test_setup(test_ctrl_c, setup),
		cmocka_unit_test_setup(test_other_controls_ignored, setup),
		cmocka_unit_test_setup(test_line_full, setup),
		cmocka_unit_test_setup(test_escape_swallowed, setup),
		cmocka_unit_test_setup(test_escape_then_enter, setup),
		cmocka_unit_test_setup(test_history_basic, setup),
		cmocka_unit_test_setup(test_history_edit_recalled, setup),
		cmocka_unit_test_setup(test_history_bounded, setup),
		cmocka_unit_test_setup(test_history_reset_after_line, setup),
		cmocka_unit_test_setup(test_long_history_line, setup),
		cmocka_unit_test_setup(test_no_echo_callback, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
