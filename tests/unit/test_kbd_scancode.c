/* Unit tests of the set-1 scancode decoder (hv/console/kbd_scancode.c): what a
 * terminal would send for key presses on a US keyboard, as QEMU's PS/2
 * keyboard and a PC's i8042 (translation on) deliver them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/console/kbd_scancode.h"

static struct kbd_state st;
static char typed[64];
static size_t ntyped;

static void feed(const uint8_t *codes, size_t n)
{
	uint8_t out[KBD_OUT_MAX];

	for (size_t i = 0; i < n; i++) {
		unsigned k = kbd_scancode(&st, codes[i], out);

		assert_true(k <= KBD_OUT_MAX);
		assert_true(ntyped + k < sizeof(typed));
		memcpy(typed + ntyped, out, k);
		ntyped += k;
	}
	typed[ntyped] = 0;
}

#define FEED(...) do { \
	const uint8_t c_[] = { __VA_ARGS__ }; \
	feed(c_, sizeof(c_)); \
} while (0)

static int setup(void **state)
{
	(void)state;
	memset(&st, 0, sizeof(st));
	ntyped = 0;
	typed[0] = 0;
	return 0;
}

/* "log 5" Enter: make and break codes as a keyboard sends them. */
static void test_plain_keys(void **state)
{
	(void)state;
	FEED(0x26, 0xa6, 0x18, 0x98, 0x22, 0xa2, 0x39, 0xb9, 0x06, 0x86,
	     0x1c, 0x9c);
	assert_string_equal(typed, "log 5\r");
}

static void test_shift_and_caps(void **state)
{
	(void)state;
	/* left shift + h, release shift, i; right shift + 1 */
	FEED(0x2a, 0x23, 0xa3, 0xaa, 0x17, 0x97, 0x36, 0x02, 0x82, 0xb6);
	assert_string_equal(typed, "Hi!");
	/* caps lock toggles letters only; shift inverts it */
	FEED(0x3a, 0xba, 0x1e, 0x9e, 0x02, 0x82, 0x2a, 0x1e, 0x9e, 0xaa,
	     0x3a, 0xba, 0x1e, 0x9e);
	assert_string_equal(typed, "Hi!A1aa");
}

static void test_ctrl_letters(void **state)
{
	(void)state;
	/* Ctrl-A (console detach prefix), Ctrl-C; right Ctrl is E0 1D */
	FEED(0x1d, 0x1e, 0x9e, 0x9d, 0xe0, 0x1d, 0x2e, 0xae, 0xe0, 0x9d, 0x2e);
	assert_int_equal(ntyped, 3);
	assert_memory_equal(typed, "\x01\x03" "c", 3);
}

static void test_extended_keys(void **state)
{
	(void)state;
	/* up, left, keypad Enter, Delete; E0 2A (fake shift) types nothing */
	FEED(0xe0, 0x48, 0xe0, 0xc8, 0xe0, 0x4b, 0xe0, 0x1c, 0xe0, 0x53,
	     0xe0, 0x2a, 0x1f, 0xe0, 0xaa);
	assert_string_equal(typed, "\x1b[A\x1b[D\r\x1b[3~s");
}

static void test_pause_and_unknown(void **state)
{
	(void)state;
	/* Pause (E1 1D 45 E1 9D C5) and F1 (0x3b), then 'x' */
	FEED(0xe1, 0x1d, 0x45, 0xe1, 0x9d, 0xc5, 0x3b, 0xbb, 0x7f, 0x2d);
	assert_string_equal(typed, "x");
}

static void test_punctuation(void **state)
{
	(void)state;
	/* - = [ ] ; ' ` \ , . / and their shifted forms */
	FEED(0x0c, 0x0d, 0x1a, 0x1b, 0x27, 0x28, 0x29, 0x2b, 0x33, 0x34, 0x35);
	FEED(0x2a, 0x0c, 0x0d, 0x1a, 0x1b, 0x27, 0x28, 0x29, 0x2b, 0x33, 0x34,
	     0x35, 0xaa, 0x0e, 0x0f);
	assert_string_equal(typed, "-=[];'`\\,./_+{}:\"~|<>?\b\t");
}

/* F11 and F12 are the screen-owner hotkeys (hv/gpu/screen_compose.c):
 * no terminal bytes, the press recorded once, releases ignored. */
static void test_hotkeys(void **state)
{
	(void)state;
	FEED(0x58);			/* F12 */
	assert_int_equal(st.hotkey, KBD_HOTKEY_NEXT);
	st.hotkey = 0;
	FEED(0xd8, 0x26, 0xa6);		/* F12 up, l */
	assert_int_equal(st.hotkey, 0);
	FEED(0x57, 0xd7);		/* F11 down and up */
	assert_int_equal(st.hotkey, KBD_HOTKEY_CONSOLE);
	assert_string_equal(typed, "l");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_plain_keys, setup),
		cmocka_unit_test_setup(test_shift_and_caps, setup),
		cmocka_unit_test_setup(test_ctrl_letters, setup),
		cmocka_unit_test_setup(test_extended_keys, setup),
		cmocka_unit_test_setup(test_pause_and_unknown, setup),
		cmocka_unit_test_setup(test_punctuation, setup),
		cmocka_unit_test_setup(test_hotkeys, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
