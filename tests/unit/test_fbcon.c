/* Unit tests of the framebuffer text console (hv/console/fbcon.c) and its font.
 *
 * The framebuffer is plain memory with guard bytes: the padding between a
 * row's last pixel and the next row (pitch > width * 4) and a zone after
 * the last row hold a pattern that must survive everything. Cells are read
 * back by matching their pixels against the font, as tools/fbcheck does
 * with a QEMU screen dump. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/console/fbcon.h"
#include "hv/console/fbcon_font.h"

#define GUARD 0xa5
#define FG 0x112233
#define BG 0x000000
#define RGB_MASKS 0x0000ff, 0x00ff00, 0xff0000	/* GOP RedGreenBlue... */
#define BGR_MASKS 0xff0000, 0x00ff00, 0x0000ff	/* GOP BlueGreenRed... */

static struct fbcon con;	/* ~64 KiB: not on the stack */
static uint8_t *mem;
static size_t mem_size;

static struct fbcon_fb make_fb(uint32_t w, uint32_t h, uint32_t pitch,
			       uint32_t r, uint32_t g, uint32_t b)
{
	struct fbcon_fb fb = { .width = w, .height = h, .pitch = pitch,
			       .red_mask = r, .green_mask = g, .blue_mask = b };

	free(mem);
	mem_size = (size_t)pitch * h + 64;
	mem = malloc(mem_size);
	assert_non_null(mem);
	memset(mem, GUARD, mem_size);
	fb.base = mem;
	return fb;
}

static void init_fb(uint32_t w, uint32_t h, uint32_t pitch)
{
	struct fbcon_fb fb = make_fb(w, h, pitch, RGB_MASKS);

	assert_int_equal(fbcon_init(&con, &fb, FG, BG), 0);
}

static uint32_t px(unsigned x, unsigned y)
{
	uint32_t v;

	memcpy(&v, mem + (size_t)y * con.fb.pitch + x * 4, 4);
	return v;
}

/* The character cell (row, col) shows, '\0' when it matches no glyph. */
static char cell(unsigned row, unsigned col)
{
	uint8_t bits[FONT_H];

	for (unsigned y = 0; y < FONT_H; y++) {
		bits[y] = 0;
		for (unsigned x = 0; x < FONT_W; x++) {
			uint32_t v = px(col * FONT_W + x, row * FONT_H + y);

			if (v == con.fg)
				bits[y] |= (uint8_t)(0x80 >> x);
			else if (v != con.bg)
				return 0;
		}
	}
	for (int ch = FONT_FIRST; ch <= FONT_LAST; ch++)
		if (!memcmp(font_glyph((unsigned char)ch), bits, FONT_H))
			return (char)ch;
	return 0;
}

/* Text of a row as drawn, trailing blanks cut. */
static const char *row_text(unsigned row)
{
	static char line[FBCON_MAX_COLS + 1];
	unsigned n = 0;

	for (unsigned col = 0; col < con.cols; col++) {
		line[col] = cell(row, col);
		assert_true(line[col] != 0);
		if (line[col] != ' ')
			n = col + 1;
	}
	line[n] = 0;
	return line;
}

static void put(const char *s)
{
	fbcon_write(&con, s, strlen(s));
}

/* Nothing outside the visible pixels was written. */
static void check_guards(void)
{
	uint32_t used = con.fb.width * 4;

	for (uint32_t y = 0; y < con.fb.height; y++)
		for (uint32_t b = used; b < con.fb.pitch; b++)
			assert_int_equal(mem[(size_t)y * con.fb.pitch + b], GUARD);
	for (size_t b = (size_t)con.fb.pitch * con.fb.height; b < mem_size; b++)
		assert_int_equal(mem[b], GUARD);
}

static int teardown(void **state)
{
	(void)state;
	free(mem);
	mem = NULL;
	return 0;
}

static void test_font_is_well_formed(void **state)
{
	(void)state;
	assert_int_equal(font_check(), -1);
	for (int a = FONT_FIRST; a <= FONT_LAST; a++) {
		const uint8_t *ga = font_glyph((unsigned char)a);
		unsigned ink = 0;

		for (unsigned y = 0; y < FONT_H; y++)
			ink |= ga[y];
		/* only the space is blank: a screen read back is unambiguous */
		assert_int_equal(ink == 0, a == ' ');
		for (int b = a + 1; b <= FONT_LAST; b++)
			assert_memory_not_equal(ga, font_glyph((unsigned char)b),
						FONT_H);
	}
	/* outside printable ASCII: '?' */
	assert_ptr_equal(font_glyph(0x7f), font_glyph('?'));
	assert_ptr_equal(font_glyph(0x00), font_glyph('?'));
}

static void test_pixel_formats(void **state)
{
	struct fbcon_fb rgb = { .red_mask = 0x0000ff, .green_mask = 0x00ff00,
				.blue_mask = 0xff0000 };
	struct fbcon_fb bgr = { .red_mask = 0xff0000, .green_mask = 0x00ff00,
				.blue_mask = 0x0000ff };
	struct fbcon_fb r565 = { .red_mask = 0xf800, .green_mask = 0x07e0,
				 .blue_mask = 0x001f };
	struct fbcon_fb r10 = { .red_mask = 0x3ff00000, .green_mask = 0x000ffc00,
				.blue_mask = 0x000003ff };

	(void)state;
	/* byte 0 of an RGB pixel is red, of a BGR pixel blue */
	assert_int_equal(fbcon_pixel(&rgb, 0x112233), 0x332211);
	assert_int_equal(fbcon_pixel(&bgr, 0x112233), 0x112233);
	assert_int_equal(fbcon_pixel(&r565, 0xffffff), 0xffff);
	assert_int_equal(fbcon_pixel(&r565, 0x80ff00), 0x87e0);
	assert_int_equal(fbcon_pixel(&r10, 0xff0001), 0x3fc00004);
}

static void test_glyph_placement(void **state)
{
	(void)state;
	init_fb(64, 48, 64 * 4);
	assert_int_equal(con.cols, 8);
	assert_int_equal(con.rows, 3);
	put("Hi\nyo");
	/* cell (0,1) pixel by pixel: the glyph's bits in fg, the rest bg */
	for (unsigned y = 0; y < FONT_H; y++)
		for (unsigned x = 0; x < FONT_W; x++) {
			unsigned on = font_glyph('i')[y] & (0x80 >> x);

			assert_int_equal(px(FONT_W + x, y), on ? 0x332211u : 0);
		}
	assert_string_equal(row_text(0), "Hi");
	assert_string_equal(row_text(1), "yo");
	assert_string_equal(row_text(2), "");
	check_guards();
}

static void test_bgr_colours(void **state)
{
	struct fbcon_fb fb = make_fb(32, 16, 32 * 4, BGR_MASKS);

	(void)state;
	assert_int_equal(fbcon_init(&con, &fb, FG, 0x000080), 0);
	put("|");
	/* '|' has ink at column 3 of row 2, none in column 0 */
	assert_int_equal(px(3, 2), 0x112233);
	assert_int_equal(px(0, 2), 0x000080);
	assert_int_equal(cell(0, 0), '|');
	/* the init cleared every visible pixel to the background */
	assert_int_equal(px(31, 15), 0x000080);
	check_guards();
}

/* An odd size: 803x611 with 88 bytes of padding per row gives 100x38
 * cells; the 3 columns and 3 rows of pixels beyond them stay background. */
static void test_odd_size_and_pitch(void **state)
{
	char line[160];

	(void)state;
	init_fb(803, 611, 803 * 4 + 88);
	assert_int_equal(con.cols, 100);
	assert_int_equal(con.rows, 38);
	for (int i = 0; i < 120; i++) {
		snprintf(line, sizeof(line), "line %d: %.*s\n", i, i,
			 "abcdefghijklmnopqrstuvwxyz0123456789"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ!@#$%^&*()"
			 "abcdefghijklmnopqrstuvwxyz0123456789"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
		put(line);
	}
	for (unsigned y = 0; y < 611; y++)
		for (unsigned x = 800; x < 803; x++)
			assert_int_equal(px(x, y), con.bg);
	for (unsigned y = 608; y < 611; y++)
		for (unsigned x = 0; x < 803; x++)
			assert_int_equal(px(x, y), con.bg);
	check_guards();
	/* the last line printed (129 characters) wrapped onto the two rows
	 * above the cursor */
	assert_int_equal(con.cx, 0);
	assert_memory_equal(row_text(con.cy - 2), "line 119: abc", 13);
	assert_memory_equal(row_text(con.cy - 1), "stuvwxyz", 8);
}

static void test_wrap(void **state)
{
	(void)state;
	init_fb(64, 64, 64 * 4);	/* 8x4 */
	put("12345678x");
	assert_string_equal(row_text(0), "12345678");
	assert_string_equal(row_text(1), "x");
	/* exactly a row of text then a new line: no empty row between */
	put("\nabcdefgh\ny");
	assert_string_equal(row_text(2), "abcdefgh");
	assert_string_equal(row_text(3), "y");
	check_guards();
}

/* 8 rows: the 9th line moves the text up by 4 rows at once. */
static void test_jump_scroll(void **state)
{
	char l[16];

	(void)state;
	init_fb(80, 128, 80 * 4);	/* 10x8 */
	assert_int_equal(con.jump, 4);
	for (int i = 0; i < 8; i++) {
		snprintf(l, sizeof(l), "L%d\n", i);
		put(l);
	}
	assert_int_equal(con.st.scrolls, 1);
	for (int r = 0; r < 4; r++) {
		snprintf(l, sizeof(l), "L%d", r + 4);
		assert_string_equal(row_text(r), l);
	}
	for (int r = 4; r < 8; r++)
		assert_string_equal(row_text(r), "");
	assert_int_equal(con.cy, 4);
	put("next");
	assert_string_equal(row_text(4), "next");
	check_guards();
}

/* A cell is drawn only when its character changes: the cost claim. */
static void test_draws_only_changes(void **state)
{
	uint64_t before;

	(void)state;
	init_fb(80, 128, 80 * 4);
	put("abc");
	assert_int_equal(con.st.glyphs, 3);
	before = con.st.glyphs;
	put("\rabd");
	assert_int_equal(con.st.glyphs - before, 1);
	assert_string_equal(row_text(0), "abd");
	/* a scroll redraws only cells whose character differs: rows 4-7 of
	 * "same" over "same" cost nothing, the cleared rows only their ink */
	init_fb(80, 128, 80 * 4);
	for (int i = 0; i < 7; i++)
		put("same\n");
	before = con.st.glyphs;
	put("same\n");		/* the 8th line feed scrolls */
	assert_int_equal(con.st.scrolls, 1);
	/* rows 0-3 keep "same"; rows 4-7 lose it: 4 x 4 cells go blank */
	assert_int_equal(con.st.glyphs - before, 4 + 16);
	check_guards();
}

static void test_controls(void **state)
{
	(void)state;
	init_fb(160, 96, 160 * 4);	/* 20x6 */
	put("a\tb\n");
	assert_string_equal(row_text(0), "a       b");
	put("ab\bX\n");
	assert_string_equal(row_text(1), "aX");
	put("\x1b[1;31mred\x1b[0m \x1b" "7ok\n");
	assert_string_equal(row_text(2), "red ok");
	put("caf\xc3\xa9 \x07!\n");	/* UTF-8 e-acute: one '?'; BEL: nothing */
	assert_string_equal(row_text(3), "caf? !");
	put("12345\rXY\n");
	assert_string_equal(row_text(4), "XY345");
	check_guards();
}

/* A 3840-wide screen uses its first FBCON_MAX_COLS columns. */
static void test_clipped_to_max_cols(void **state)
{
	char s[FBCON_MAX_COLS + 2];

	(void)state;
	init_fb(3840, 32, 3840 * 4);
	assert_int_equal(con.cols, FBCON_MAX_COLS);
	memset(s, 'w', sizeof(s) - 1);
	s[sizeof(s) - 1] = 0;
	put(s);
	/* FBCON_MAX_COLS + 1 characters: one wraps to the next row */
	assert_int_equal(cell(0, FBCON_MAX_COLS - 1), 'w');
	assert_int_equal(cell(1, 0), 'w');
	assert_int_equal(cell(1, 1), ' ');
	for (unsigned y = 0; y < 32; y++)
		for (unsigned x = FBCON_MAX_COLS * FONT_W; x < 3840; x += 7)
			assert_int_equal(px(x, y), con.bg);
	check_guards();
}

static void test_rejects_unusable(void **state)
{
	struct fbcon_fb fb;

	(void)state;
	fb = make_fb(7, 16, 64, RGB_MASKS);	/* narrower than a glyph */
	assert_int_equal(fbcon_init(&con, &fb, FG, BG), -1);
	fb = make_fb(64, 15, 256, RGB_MASKS);	/* lower than a glyph */
	assert_int_equal(fbcon_init(&con, &fb, FG, BG), -1);
	fb = make_fb(64, 16, 255, RGB_MASKS);	/* pitch < width * 4 */
	assert_int_equal(fbcon_init(&con, &fb, FG, BG), -1);
	fb = make_fb(64, 16, 256, 0, 0xff00, 0xff);	/* no red */
	assert_int_equal(fbcon_init(&con, &fb, FG, BG), -1);
	fb = make_fb(64, 16, 256, RGB_MASKS);
	fb.base = NULL;
	assert_int_equal(fbcon_init(&con, &fb, FG, BG), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_font_is_well_formed),
		cmocka_unit_test(test_pixel_formats),
		cmocka_unit_test_teardown(test_glyph_placement, teardown),
		cmocka_unit_test_teardown(test_bgr_colours, teardown),
		cmocka_unit_test_teardown(test_odd_size_and_pitch, teardown),
		cmocka_unit_test_teardown(test_wrap, teardown),
		cmocka_unit_test_teardown(test_jump_scroll, teardown),
		cmocka_unit_test_teardown(test_draws_only_changes, teardown),
		cmocka_unit_test_teardown(test_controls, teardown),
		cmocka_unit_test_teardown(test_clipped_to_max_cols, teardown),
		cmocka_unit_test_teardown(test_rejects_unusable, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
