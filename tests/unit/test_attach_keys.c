/* Unit tests of the `console <vm>` key handling (hv/shell/attach_keys.c):
 * what a typed byte stream sends to the VM and where it detaches. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/shell/attach_keys.h"

/* Feeds `in` (len bytes); collects what goes to the VM into sent and
 * returns the index of the byte that detached, or -1. */
static int run(const char *in, size_t len, char *sent, size_t *nsent)
{
	struct attach_keys k = { 0 };
	uint8_t out[ATTACH_MAX_OUT];
	unsigned n;

	*nsent = 0;
	for (size_t i = 0; i < len; i++) {
		if (attach_keys_feed(&k, (uint8_t)in[i], out, &n)) {
			assert_int_equal(n, 0);
			return (int)i;
		}
		assert_true(n <= ATTACH_MAX_OUT);
		memcpy(sent + *nsent, out, n);
		*nsent += n;
	}
	return -1;
}

static void plain_bytes_pass_through(void **state)
{
	char sent[64];
	size_t n;
	const char in[] = "echo hi\r\x03\x1d.";	/* Ctrl-C, Ctrl-] too */

	(void)state;
	assert_int_equal(run(in, sizeof(in) - 1, sent, &n), -1);
	assert_int_equal(n, sizeof(in) - 1);
	assert_memory_equal(sent, in, n);
}

static void ctrl_a_dot_detaches(void **state)
{
	char sent[64];
	size_t n;
	const char in[] = "ls\r\x01.after";

	(void)state;
	assert_int_equal(run(in, sizeof(in) - 1, sent, &n), 4);
	assert_int_equal(n, 3);
	assert_memory_equal(sent, "ls\r", 3);
}

static void ctrl_a_twice_sends_one(void **state)
{
	char sent[64];
	size_t n;
	const char in[] = "\x01\x01.";	/* literal Ctrl-A, then a dot */

	(void)state;
	assert_int_equal(run(in, sizeof(in) - 1, sent, &n), -1);
	assert_int_equal(n, 2);
	assert_memory_equal(sent, "\x01.", 2);
}

static void ctrl_a_other_sends_both(void **state)
{
	char sent[64];
	size_t n;
	const char in[] = "\x01x\x01\x01\x01.";

	(void)state;
	assert_int_equal(run(in, sizeof(in) - 1, sent, &n), 5);
	assert_int_equal(n, 3);
	assert_memory_equal(sent, "\x01x\x01", 3);
}

static void ctrl_a_waits_for_next_byte(void **state)
{
	struct attach_keys k = { 0 };
	uint8_t out[ATTACH_MAX_OUT];
	unsigned n = 7;

	(void)state;
	assert_false(attach_keys_feed(&k, 0x01, out, &n));
	assert_int_equal(n, 0);		/* held back, not lost */
	assert_true(k.esc);
	assert_true(attach_keys_feed(&k, '.', out, &n));
	assert_false(k.esc);		/* a new attach starts clean */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_bytes_pass_through),
		cmocka_unit_test(ctrl_a_dot_detaches),
		cmocka_unit_test(ctrl_a_twice_sends_one),
		cmocka_unit_test(ctrl_a_other_sends_both),
		cmocka_unit_test(ctrl_a_waits_for_next_byte),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
