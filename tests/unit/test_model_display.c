/* gpu/model/display.c: what a monitor behind the model's pipe A sees.
 * Pixels of plane 1 read through the GGTT, linear, X- and Y-tiled
 * (tiles laid out by gpu/hw/gen9_tiling.h, written here independently of
 * the model), in each format it decodes; black outside the plane, under a
 * plane that is off, and on a page the GGTT does not map; PLANE_POS and
 * PLANE_OFFSET place it; a pipe that is off has no screen. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "gpu/hw/gen9_tiling.h"
#include "gpu/model/gen9_model.h"
#include "tests/harness/model_harness.h"

#define TRANSCONF_A 0x70008u
#define PIPESRC_A 0x6001cu
#define PLANE_CTL 0x70180u
#define PLANE_STRIDE 0x70188u
#define PLANE_POS 0x7018cu
#define PLANE_SIZE 0x70190u
#define PLANE_SURF 0x7019cu
#define PLANE_OFFSET 0x701a4u
#define ON (1u << 31)
#define XRGB8888 (4u << 24)
#define RGB565 (14u << 24)
#define XRGB2101010 (2u << 24)
#define RGBX (1u << 20)
#define TILED_X (1u << 10)
#define TILED_Y (4u << 10)
#define SW 64u	/* the screen: 64x40 */
#define SH 40u

static struct harness h;
static uint32_t surf;

static int setup(void **state)
{
	(void)state;
	assert_int_equal(h_init(&h, NULL), 0);
	surf = h_ggtt_alloc(&h, 16);
	gen9_model_write32(&h.m, TRANSCONF_A, ON);
	gen9_model_write32(&h.m, PIPESRC_A, (SW - 1) << 16 | (SH - 1));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&h);
	return 0;
}

static uint32_t rgb(uint32_t x, uint32_t y)
{
	return (x * 0x0b0301u + y * 0x010b05u + 0x203040u) & 0xffffff;
}

static void put(uint64_t off, const void *px, unsigned cpp)
{
	memcpy((uint8_t *)h_gptr(&h, surf + (uint32_t)(off & ~0xfffull)) +
	       (off & 0xfff), px, cpp);
}

/* A w x h picture of rgb() in format fmt (cpp bytes), tiling t. */
static void draw(uint32_t w, uint32_t hh, uint32_t stride, unsigned t,
		 uint32_t fmt)
{
	for (uint32_t y = 0; y < hh; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t c = rgb(x, y), v;
			unsigned cpp = fmt == RGB565 ? 2 : 4;
			uint64_t bx = (uint64_t)x * cpp;

			if (fmt == XRGB8888)
				v = c;
			else if (fmt == (XRGB8888 | RGBX))
				v = (c & 0xff) << 16 | (c & 0xff00) | c >> 16;
			else if (fmt == XRGB2101010)
				v = (c >> 16) << 22 | (c >> 8 & 0xff) << 12 |
				    (c & 0xff) << 2;
			else
				v = (c >> 19) << 11 | (c >> 10 & 0x3f) << 5 |
				    (c >> 3 & 0x1f);
			put(t == TILED_X ? gen9_tiled_xy((uint32_t)bx, y, stride, false) :
			    t == TILED_Y ? gen9_tiled_xy((uint32_t)bx, y, stride, true) :
			    (uint64_t)y * stride + bx, &v, cpp);
		}
}

static void plane(uint32_t ctl, uint32_t stride_units, uint32_t w,
		  uint32_t hh, uint32_t x, uint32_t y)
{
	gen9_model_write32(&h.m, PLANE_STRIDE, stride_units);
	gen9_model_write32(&h.m, PLANE_POS, y << 16 | x);
	gen9_model_write32(&h.m, PLANE_SIZE, (hh - 1) << 16 | (w - 1));
	gen9_model_write32(&h.m, PLANE_OFFSET, 0);
	gen9_model_write32(&h.m, PLANE_CTL, ctl);
	gen9_model_write32(&h.m, PLANE_SURF, surf);
}

static uint32_t to565(uint32_t c)
{
	uint32_t r = (c >> 19) * 255 / 31, g = (c >> 10 & 0x3f) * 255 / 63,
		 b = (c >> 3 & 0x1f) * 255 / 31;

	return r << 16 | g << 8 | b;
}

/* The whole screen: the plane at (px, py), w x hh, black elsewhere. */
static void assert_screen(uint32_t px, uint32_t py, uint32_t w, uint32_t hh,
			  uint32_t fmt)
{
	uint32_t row[SW];

	for (uint32_t y = 0; y < SH; y++) {
		assert_int_equal(gen9_model_scanout(&h.m, y, 0, SW, row), 0);
		for (uint32_t x = 0; x < SW; x++) {
			bool in = x >= px && x < px + w && y >= py && y < py + hh;
			uint32_t c = in ? rgb(x - px, y - py) : 0;

			/* 8 bits survive 2101010; 565 loses the low bits */
			if (in && fmt == RGB565)
				c = to565(c);
			if (row[x] != c)
				fail_msg("(%u,%u) %06x want %06x", x, y, row[x], c);
		}
	}
}

static void test_linear_formats(void **state)
{
	static const uint32_t fmts[] = { XRGB8888, XRGB8888 | RGBX,
					 XRGB2101010, RGB565 };

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		memset(h_gptr(&h, surf), 0, 4096);
		draw(32, 16, 128, 0, fmts[i]);
		plane(ON | fmts[i], 2, 32, 16, 5, 7);
		assert_screen(5, 7, 32, 16, fmts[i] & ~RGBX);
	}
}

/* X tiles: 512 bytes x 8 rows; a 128x16 XRGB plane is one tile wide
 * (stride 1 unit) and two tile rows. */
static void test_x_tiled(void **state)
{
	(void)state;
	draw(64, 16, 512, TILED_X, XRGB8888);
	plane(ON | XRGB8888 | TILED_X, 1, 64, 16, 0, 3);
	assert_screen(0, 3, 64, 16, XRGB8888);
}

/* Y tiles: 128 bytes x 32 rows of 16-byte columns; a 64x32 plane is two
 * tiles wide (stride 2 units of 128 bytes). */
static void test_y_tiled(void **state)
{
	(void)state;
	draw(64, 32, 256, TILED_Y, XRGB8888);
	plane(ON | XRGB8888 | TILED_Y, 2, 64, 32, 0, 8);
	assert_screen(0, 8, 64, 32, XRGB8888);
}

/* PLANE_OFFSET picks the first pixel scanned inside the surface. */
static void test_offset(void **state)
{
	uint32_t row[4];

	(void)state;
	draw(32, 16, 128, 0, XRGB8888);
	plane(ON | XRGB8888, 2, 8, 4, 0, 0);
	gen9_model_write32(&h.m, PLANE_OFFSET, 3u << 16 | 5u);
	assert_int_equal(gen9_model_scanout(&h.m, 1, 0, 4, row), 0);
	assert_int_equal(row[0], rgb(5, 4));
	assert_int_equal(row[3], rgb(8, 4));
}

/* Off, unmapped, pipe off, out of range. */
static void test_black_and_errors(void **state)
{
	uint32_t row[SW], w, hh;

	(void)state;
	draw(32, 16, 128, 0, XRGB8888);
	plane(XRGB8888, 2, 32, 16, 0, 0);	/* not enabled */
	assert_int_equal(gen9_model_scanout(&h.m, 0, 0, SW, row), 0);
	assert_int_equal(row[0], 0);
	/* a plane on a GGTT page that maps nothing */
	gen9_model_ggtt_write(&h.m, surf >> 12, 0);
	plane(ON | XRGB8888, 2, 32, 16, 0, 0);
	assert_int_equal(gen9_model_scanout(&h.m, 0, 0, SW, row), 0);
	assert_int_equal(row[0], 0);
	assert_int_equal(gen9_model_scanout(&h.m, SH, 0, 1, row), -GPU_EINVAL);
	assert_int_equal(gen9_model_scanout(&h.m, 0, SW - 1, 2, row), -GPU_EINVAL);
	assert_int_equal(gen9_model_screen(&h.m, &w, &hh), 0);
	assert_int_equal(w, SW);
	assert_int_equal(hh, SH);
	gen9_model_write32(&h.m, TRANSCONF_A, 0);
	assert_int_equal(gen9_model_screen(&h.m, &w, &hh), -GPU_ENODEV);
	assert_int_equal(gen9_model_scanout(&h.m, 0, 0, 1, row), -GPU_ENODEV);
}

/* Pipe A's cursor (CURCNTR 64x64 ARGB, CURBASE, CURPOS with a negative
 * x): blended over the plane and the black around it, opaque pixels
 * replacing, a transparent one leaving what is below, a half-alpha one
 * mixing (premultiplied); cut at the pipe's edges; gone when CURCNTR's
 * mode is off or not an ARGB one. */
#define CURCNTR 0x70080u
#define CURBASE 0x70084u
#define CURPOS 0x70088u

static uint32_t cursor_px(uint32_t cx, uint32_t cy)
{
	if (cx == 61)
		return 0x80400000u;	/* half alpha, premultiplied dark red */
	return (cx + cy) % 2 ? 0 : 0xff00ff00u; /* opaque green, clear */
}

static void test_cursor(void **state)
{
	uint32_t row[SW], cur = surf + 0x8000u;

	(void)state;
	draw(32, 16, 128, 0, XRGB8888);
	plane(ON | XRGB8888, 2, 32, 16, 0, 0);
	for (uint32_t cy = 0; cy < 64; cy++)
		for (uint32_t cx = 0; cx < 64; cx++) {
			uint32_t v = cursor_px(cx, cy);

			put(0x8000u + (cy * 64 + cx) * 4, &v, 4);
		}
	gen9_model_write32(&h.m, CURPOS, 10u << 16 | 0x8000u | 60u); /* (-60, 10) */
	gen9_model_write32(&h.m, CURBASE, cur);
	gen9_model_write32(&h.m, CURCNTR, 0x27u);	/* 64x64 ARGB */
	for (uint32_t y = 0; y < SH; y++) {
		assert_int_equal(gen9_model_scanout(&h.m, y, 0, SW, row), 0);
		for (uint32_t x = 0; x < SW; x++) {
			uint32_t below = x < 32 && y < 16 ? rgb(x, y) : 0, want = below;

			if (y >= 10 && x < 4) {
				uint32_t c = cursor_px(x + 60, y - 10);

				if (c == 0x80400000u) {
					uint32_t r = 0x40 + ((below >> 16) * 127 + 127) / 255,
						 g = ((below >> 8 & 0xff) * 127 + 127) / 255,
						 b = ((below & 0xff) * 127 + 127) / 255;

					want = r << 16 | g << 8 | b;
				} else if (c) {
					want = c & 0xffffff;
				}
			}
			if (row[x] != want)
				fail_msg("(%u,%u) %06x want %06x", x, y, row[x], want);
		}
	}
	/* A mode that is not ARGB, then off: the plane alone. */
	gen9_model_write32(&h.m, CURCNTR, 0x04u);
	assert_screen(0, 0, 32, 16, XRGB8888);
	gen9_model_write32(&h.m, CURCNTR, 0);
	assert_screen(0, 0, 32, 16, XRGB8888);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_linear_formats, setup, teardown),
		cmocka_unit_test_setup_teardown(test_x_tiled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_y_tiled, setup, teardown),
		cmocka_unit_test_setup_teardown(test_offset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_black_and_errors, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cursor, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
