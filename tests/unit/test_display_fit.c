/* gpu/display/vdisp_fit.c alone: the rectangle a picture gets on the
 * box's screen (1:1, whole-factor magnified, shrunk; centred with black
 * bars), every destination pixel compared with the source pixel it must
 * show, bounds (no read past the source row, every destination pixel
 * written), and sizes of 0 refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/display/vdisp_fit.h"

#define POISON 0xdeadbeefu

/* A source pixel that names its place: never 0, so bars are told apart. */
static uint32_t src_px(uint32_t x, uint32_t y)
{
	return 0x800000u | (y & 0x7ff) << 11 | (x & 0x7ff);
}

/* Composes the whole destination as the hypervisor does (row by row) and
 * checks each pixel against the picture's rectangle and nearest sampling. */
static void check_all(uint32_t sw, uint32_t sh, uint32_t dw, uint32_t dh)
{
	struct vdisp_fit f;
	/* one guard pixel after each row */
	uint32_t *src = malloc((sw + 1) * sizeof(*src));
	uint32_t *dst = malloc((dw + 1) * sizeof(*dst));

	assert_int_equal(vdisp_fit(&f, sw, sh, dw, dh), 0);
	assert_true(f.x + f.w <= dw && f.y + f.h <= dh);
	/* centred: the bars differ by at most one pixel */
	assert_true(dw - f.w - 2 * f.x <= 1 && dh - f.h - 2 * f.y <= 1);
	for (uint32_t y = 0; y < dh; y++) {
		uint32_t sy = vdisp_fit_src_row(&f, y);
		bool in_y = y >= f.y && y < f.y + f.h;

		assert_int_equal(sy != VDISP_FIT_NONE, in_y);
		if (!in_y)
			continue;
		assert_true(sy < sh);
		assert_int_equal(sy, (uint64_t)(y - f.y) * sh / f.h);
		for (uint32_t x = 0; x < sw; x++)
			src[x] = src_px(x, sy);
		src[sw] = POISON;
		for (uint32_t x = 0; x <= dw; x++)
			dst[x] = POISON;
		vdisp_fit_row(&f, src, dst);
		assert_int_equal(dst[dw], POISON);	/* nothing past the row */
		for (uint32_t x = 0; x < dw; x++) {
			bool in_x = x >= f.x && x < f.x + f.w;
			uint32_t sx = in_x ? (uint32_t)((uint64_t)(x - f.x) *
							sw / f.w) : 0;

			assert_int_equal(dst[x], in_x ? src_px(sx, sy) : 0);
		}
	}
	free(src);
	free(dst);
}

/* The test guest's 256x64 on a 1024x768 screen: 4x, 1024x256, centred. */
static void test_magnify_whole(void **state)
{
	struct vdisp_fit f;

	(void)state;
	assert_int_equal(vdisp_fit(&f, 256, 64, 1024, 768), 0);
	assert_int_equal(f.k, 4);
	assert_int_equal(f.w, 1024);
	assert_int_equal(f.h, 256);
	assert_int_equal(f.x, 0);
	assert_int_equal(f.y, 256);
	check_all(256, 64, 1024, 768);
	/* 3x fits 800x600 (768x192), 4x does not */
	assert_int_equal(vdisp_fit(&f, 256, 64, 800, 600), 0);
	assert_int_equal(f.k, 3);
	assert_int_equal(f.x, 16);
	assert_int_equal(f.y, 204);
	check_all(256, 64, 800, 600);
}

/* Same size: 1:1, no bars, every pixel its own. */
static void test_same_size(void **state)
{
	struct vdisp_fit f;

	(void)state;
	assert_int_equal(vdisp_fit(&f, 1024, 768, 1024, 768), 0);
	assert_int_equal(f.k, 1);
	assert_true(f.x == 0 && f.y == 0 && f.w == 1024 && f.h == 768);
	check_all(1024, 768, 1024, 768);
}

/* Fits only 1:1: letterboxed (640x480 on 1024x768, 1280x720 on
 * 1920x1080 is 1x too) */
static void test_letterbox_1to1(void **state)
{
	struct vdisp_fit f;

	(void)state;
	assert_int_equal(vdisp_fit(&f, 640, 480, 1024, 768), 0);
	assert_true(f.k == 1 && f.x == 192 && f.y == 144 && f.w == 640);
	check_all(640, 480, 1024, 768);
	check_all(1280, 720, 1920, 1080);
}

/* Larger than the screen: shrunk, aspect kept. 1920x1080 on 1024x768 is
 * wider: full width, 576 rows, bars above and below; 1280x1024 on
 * 1024x768 is taller: full height, 960 columns, bars left and right. */
static void test_shrink(void **state)
{
	struct vdisp_fit f;

	(void)state;
	assert_int_equal(vdisp_fit(&f, 1920, 1080, 1024, 768), 0);
	assert_true(f.k == 0 && f.w == 1024 && f.h == 576 && f.x == 0 &&
		    f.y == 96);
	check_all(1920, 1080, 1024, 768);
	assert_int_equal(vdisp_fit(&f, 1280, 1024, 1024, 768), 0);
	assert_true(f.k == 0 && f.h == 768 && f.w == 960 && f.x == 32 &&
		    f.y == 0);
	check_all(1280, 1024, 1024, 768);
	check_all(1024, 768, 800, 600);
}

/* Extreme shapes stay inside and never reach 0 pixels. */
static void test_bounds(void **state)
{
	struct vdisp_fit f;

	(void)state;
	assert_int_equal(vdisp_fit(&f, 8192, 1, 640, 480), 0);
	assert_true(f.w == 640 && f.h == 1 && f.y == 239);
	check_all(8192, 1, 640, 480);
	assert_int_equal(vdisp_fit(&f, 1, 8192, 640, 480), 0);
	assert_true(f.h == 480 && f.w == 1 && f.x == 319);
	check_all(1, 8192, 640, 480);
	check_all(1, 1, 7, 5);
	check_all(3, 2, 1, 1);
	check_all(7, 3, 5, 5);
}

static void test_zero_refused(void **state)
{
	struct vdisp_fit f;

	(void)state;
	assert_int_equal(vdisp_fit(&f, 0, 64, 1024, 768), -1);
	assert_int_equal(vdisp_fit(&f, 64, 0, 1024, 768), -1);
	assert_int_equal(vdisp_fit(&f, 64, 64, 0, 768), -1);
	assert_int_equal(vdisp_fit(&f, 64, 64, 1024, 0), -1);
	/* a failed fit shows nothing: every row is a bar */
	assert_int_equal(vdisp_fit_src_row(&f, 0), VDISP_FIT_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_magnify_whole),
		cmocka_unit_test(test_same_size),
		cmocka_unit_test(test_letterbox_1to1),
		cmocka_unit_test(test_shrink),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_zero_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
