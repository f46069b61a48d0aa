/* gpu/display/vdisp_plane.c alone: what i915 writes for a 1024x768
 * XRGB8888 framebuffer passes; each hostile variant (stride 0, huge, too
 * short, unaligned surface, a surface straddling the end of the GM or in
 * another VM's GM) is refused with its own reason; the X and Y detile
 * finds a pattern written tile by tile; pixel formats convert. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/display/vdisp_plane.h"

#define MIB (1024ull * 1024)
/* A vGPU's GM as vgpu_display.c passes it: low GM, then two high ranges,
 * the second joining the first. */
static const struct vdisp_gm gm[] = {
	{ 0x00800000, 64 * MIB },	/* low: 8 MiB .. 72 MiB */
	{ 0x20000000, 16 * MIB },	/* high 0 */
	{ 0x21000000, 16 * MIB },	/* high 1, adjacent */
};
#define NGM 3u

/* i915's fbdev on the 1024x768 monitor: linear XRGB8888, 4096-byte rows. */
static struct vdisp_plane_regs fbcon(uint32_t surf)
{
	struct vdisp_plane_regs r = {
		.ctl = PLANE_CTL_ENABLE | PLANE_CTL_FORMAT_XRGB_8888 |
		       PLANE_CTL_TILED_LINEAR,
		.stride = 4096 / 64,
		.pos = 0,
		.size = (767u << 16) | 1023u,
		.offset = 0,
		.surf = surf,
	};
	return r;
}

static int validate(struct vdisp_plane_regs r, struct vdisp_plane *p)
{
	return vdisp_plane_validate(&r, gm, NGM, p);
}

static void test_good_linear(void **state)
{
	struct vdisp_plane p;

	(void)state;
	assert_int_equal(validate(fbcon(0x00800000), &p), VDISP_PLANE_OK);
	assert_int_equal(p.w, 1024);
	assert_int_equal(p.h, 768);
	assert_int_equal(p.stride, 4096);
	assert_int_equal(p.cpp, 4);
	assert_int_equal(p.fmt, VDISP_FMT_XRGB8888);
	assert_int_equal(vdisp_plane_extent(&p), 767ull * 4096 + 4096);
	/* The last 3 MiB of low GM holds it exactly. */
	assert_int_equal(validate(fbcon(0x00800000 + 61 * MIB), &p),
			 VDISP_PLANE_OK);
}

static void test_good_x_tiled_high(void **state)
{
	struct vdisp_plane_regs r = fbcon(0x20000000);
	struct vdisp_plane p;

	(void)state;
	r.ctl = PLANE_CTL_ENABLE | PLANE_CTL_FORMAT_XRGB_8888 | PLANE_CTL_TILED_X;
	r.stride = 8; /* 8 X tiles: 4096 bytes */
	assert_int_equal(validate(r, &p), VDISP_PLANE_OK);
	assert_int_equal(p.tiling, VDISP_TILED_X);
	assert_int_equal(p.stride, 4096);
	assert_int_equal(vdisp_plane_extent(&p), 768ull * 4096);
	/* Crossing from high 0 into the adjacent high 1 is inside its GM. */
	r.surf = 0x21000000 - 1 * MIB;
	assert_int_equal(validate(r, &p), VDISP_PLANE_OK);
}

static void test_disabled(void **state)
{
	struct vdisp_plane_regs r = fbcon(0x00800000);
	struct vdisp_plane p;

	(void)state;
	r.ctl &= ~PLANE_CTL_ENABLE;
	assert_int_equal(validate(r, &p), VDISP_PLANE_OFF);
	assert_false(p.on);
}

static void test_stride(void **state)
{
	struct vdisp_plane_regs r = fbcon(0x00800000);
	struct vdisp_plane p;

	(void)state;
	r.stride = 0;
	assert_int_equal(validate(r, &p), VDISP_PLANE_STRIDE_ZERO);
	r.stride = PLANE_STRIDE_MASK; /* 65472 bytes */
	assert_int_equal(validate(r, &p), VDISP_PLANE_STRIDE_HUGE);
	r.stride = 32768 / 64; /* the limit itself is fine */
	r.size = (63u << 16) | 1023u;
	assert_int_equal(validate(r, &p), VDISP_PLANE_OK);
	r.stride = 4032 / 64; /* one 64-byte unit short of a 1024-pixel row */
	assert_int_equal(validate(r, &p), VDISP_PLANE_STRIDE_SHORT);
	/* Bits above the field are not stride. */
	r.stride = (1u << 10) | (4096 / 64);
	assert_int_equal(validate(r, &p), VDISP_PLANE_OK);
	/* An offset that pushes the row past the stride. */
	r.offset = 1;
	assert_int_equal(validate(r, &p), VDISP_PLANE_STRIDE_SHORT);
}

static void test_size(void **state)
{
	struct vdisp_plane p;
	struct vdisp_plane_regs r = fbcon(0x00800000 + 40 * MIB);

	(void)state;
	memset(&p, 0, sizeof(p));
	p.on = true, p.w = 0, p.h = 10, p.stride = 64, p.cpp = 4;
	p.surf = 0x00800000;
	assert_int_equal(vdisp_plane_check(&p, gm, NGM), VDISP_PLANE_BAD_SIZE);
	r.offset = 8191u << 16; /* 8191 + 768 rows: 35 MiB, past low GM's end */
	assert_int_equal(validate(r, &p), VDISP_PLANE_OUTSIDE_GM);
}

static void test_unaligned(void **state)
{
	struct vdisp_plane p;

	(void)state;
	/* The register drops the low bits... */
	assert_int_equal(validate(fbcon(0x00800000 | 0x804), &p), VDISP_PLANE_OK);
	assert_int_equal(p.surf, 0x00800000);
	/* ...a plane built another way (a flip command) is checked all the same. */
	p.surf |= 0x40;
	assert_int_equal(vdisp_plane_check(&p, gm, NGM), VDISP_PLANE_UNALIGNED);
}

static void test_outside(void **state)
{
	struct vdisp_plane p;

	(void)state;
	/* Straddling the end of low GM by one page. */
	assert_int_equal(validate(fbcon(0x00800000 + 61 * MIB + 4096), &p),
			 VDISP_PLANE_OUTSIDE_GM);
	/* Another VM's GM (between low and high), GM 0 (the host's), the
	 * end of high 1, and the top of the 4 GiB GGTT. */
	assert_int_equal(validate(fbcon(0x10000000), &p), VDISP_PLANE_OUTSIDE_GM);
	assert_int_equal(validate(fbcon(0), &p), VDISP_PLANE_OUTSIDE_GM);
	assert_int_equal(validate(fbcon(0x22000000 - 2 * MIB), &p),
			 VDISP_PLANE_OUTSIDE_GM);
	assert_int_equal(validate(fbcon(0xfffff000), &p), VDISP_PLANE_OUTSIDE_GM);
	/* No GM at all. */
	{
		struct vdisp_plane_regs r = fbcon(0x00800000);

		assert_int_equal(vdisp_plane_validate(&r, gm, 0, &p),
				 VDISP_PLANE_OUTSIDE_GM);
	}
	assert_string_equal(vdisp_plane_why(VDISP_PLANE_OUTSIDE_GM),
			    "surface outside the VM's GM");
}

static void test_x_tiled_extent_rounds_up(void **state)
{
	struct vdisp_plane_regs r = fbcon(0x00800000 + 64 * MIB - 767 * 4096);
	struct vdisp_plane p;

	(void)state;
	/* 767 rows of 4096 bytes fit linear, but X tiles come in 8 rows. */
	r.size = (766u << 16) | 1023u;
	assert_int_equal(validate(r, &p), VDISP_PLANE_OK);
	r.ctl = PLANE_CTL_ENABLE | PLANE_CTL_FORMAT_XRGB_8888 | PLANE_CTL_TILED_X;
	r.stride = 8;
	assert_int_equal(validate(r, &p), VDISP_PLANE_OUTSIDE_GM);
}

static void test_ctl(void **state)
{
	struct vdisp_plane_regs r = fbcon(0x00800000);
	struct vdisp_plane p;

	(void)state;
	r.ctl = PLANE_CTL_ENABLE | (1u << 24); /* not a format we read */
	assert_int_equal(validate(r, &p), VDISP_PLANE_BAD_FORMAT);
	r.ctl = PLANE_CTL_ENABLE | PLANE_CTL_FORMAT_XRGB_8888 | (5u << 10); /* Yf */
	assert_int_equal(validate(r, &p), VDISP_PLANE_BAD_TILING);
	r.ctl = PLANE_CTL_ENABLE | PLANE_CTL_FORMAT_XRGB_8888 | 2u; /* 180 */
	assert_int_equal(validate(r, &p), VDISP_PLANE_ROTATED);
	r.ctl = PLANE_CTL_ENABLE | PLANE_CTL_FORMAT_RGB_565;
	r.stride = 2048 / 64;
	assert_int_equal(validate(r, &p), VDISP_PLANE_OK);
	assert_int_equal(p.cpp, 2);
	r.ctl = PLANE_CTL_ENABLE | PLANE_CTL_FORMAT_XRGB_8888 | PLANE_CTL_ORDER_RGBX;
	r.stride = 4096 / 64;
	assert_int_equal(validate(r, &p), VDISP_PLANE_OK);
	assert_int_equal(p.fmt, VDISP_FMT_XBGR8888);
}

static void test_cursor(void **state)
{
	struct vdisp_plane p;

	(void)state;
	assert_int_equal(vdisp_cursor_decode(0, 0x00800000, 0, &p), VDISP_PLANE_OFF);
	assert_int_equal(vdisp_cursor_decode(MCURSOR_MODE_64_ARGB_AX, 0x00801000,
					     (20u << 16) | 10u, &p),
			 VDISP_PLANE_OK);
	assert_int_equal(p.w, 64);
	assert_int_equal(p.stride, 256);
	assert_int_equal(p.x, 10);
	assert_int_equal(p.y, 20);
	assert_int_equal(vdisp_plane_check(&p, gm, NGM), VDISP_PLANE_OK);
	assert_int_equal(vdisp_cursor_decode(MCURSOR_MODE_256_ARGB_AX,
					     0x00800000 + 64 * MIB - 4096, 0, &p),
			 VDISP_PLANE_OK);
	assert_int_equal(vdisp_plane_check(&p, gm, NGM), VDISP_PLANE_OUTSIDE_GM);
	assert_int_equal(vdisp_cursor_decode(0x04, 0x00800000, 0, &p),
			 VDISP_PLANE_BAD_FORMAT);
	/* CURPOS's signs kept apart (a cursor half off the top left) */
	assert_int_equal(vdisp_cursor_decode(MCURSOR_MODE_64_ARGB_AX, 0x00801000,
					     1u << 31 | 7u << 16 | 1u << 15 | 5u,
					     &p),
			 VDISP_PLANE_OK);
	assert_int_equal(p.x, 5);
	assert_int_equal(p.y, 7);
	assert_int_equal(p.neg, VDISP_NEG_X | VDISP_NEG_Y);
	assert_int_equal(p.fmt, VDISP_FMT_ARGB8888);
}

/* Premultiplied ARGB over a picture: opaque replaces, transparent keeps,
 * half mixes, an image that is not premultiplied is clamped. */
static void test_blend(void **state)
{
	uint32_t dst[5] = { 0x102030, 0x102030, 0xffffff, 0x000000, 0xfefefe };
	const uint32_t cur[5] = { 0xff445566, 0x00000000, 0x80400000,
				  0x80808080, 0x10ffffff };

	(void)state;
	vdisp_blend_argb(dst, cur, 5);
	assert_int_equal(dst[0], 0x445566);
	assert_int_equal(dst[1], 0x102030);
	assert_int_equal(dst[2], 0xbf7f7f);	/* 0x40 + 127, 0 + 127 */
	assert_int_equal(dst[3], 0x808080);
	assert_int_equal(dst[4], 0xffffff);	/* 0xff + 0xee: clamped */
	assert_int_equal(vdisp_pixel_rgb(VDISP_FMT_ARGB8888,
					 (const uint8_t[]){ 1, 2, 3, 0x80 }),
			 0x80030201);
}

/* Writes a surface of w x h pixels (cpp 4) in the given layout the way
 * the GPU lays it out (gen9_tiling.h's formula, written out here again
 * for X: tile = 512 B x 8 rows, tiles left to right), each pixel holding
 * y << 16 | x, then reads it back row by row through the plane's runs. */
static void detile_pattern(uint32_t ctl_tiling, uint32_t stride_units,
			   uint32_t stride, uint32_t ox, uint32_t oy)
{
	uint32_t w = 200, h = 40, x, y;
	size_t bytes = (size_t)stride * 64;
	uint8_t *surf = calloc(1, bytes);
	struct vdisp_plane_regs r = fbcon(0x00800000);
	struct vdisp_plane p;

	assert_non_null(surf);
	for (y = 0; y < 64; y++)
		for (x = 0; x < stride / 4; x++) {
			uint32_t v = y << 16 | x, bx = x * 4, off;

			if (ctl_tiling == PLANE_CTL_TILED_X)
				off = (y / 8 * (stride / 512) + bx / 512) * 4096 +
				      y % 8 * 512 + bx % 512;
			else /* Y: 128 B x 32 rows of 16-byte columns */
				off = (y / 32 * (stride / 128) + bx / 128) * 4096 +
				      bx % 128 / 16 * 512 + y % 32 * 16 + bx % 16;
			memcpy(surf + off, &v, 4);
		}
	r.ctl = PLANE_CTL_ENABLE | PLANE_CTL_FORMAT_XRGB_8888 | ctl_tiling;
	r.stride = stride_units;
	r.size = (h - 1) << 16 | (w - 1);
	r.offset = oy << 16 | ox;
	assert_int_equal(validate(r, &p), VDISP_PLANE_OK);
	assert_true(vdisp_plane_extent(&p) <= bytes);
	for (y = 0; y < h; y++) {
		uint32_t bx = 0;

		while (bx < w * 4) {
			uint32_t run = vdisp_plane_run(&p, bx), i;
			uint64_t at = vdisp_plane_byte(&p, bx, y);

			assert_true(run > 0 && run % 4 == 0);
			assert_true(at + run <= bytes);
			for (i = 0; i < run; i += 4) {
				uint32_t v;

				memcpy(&v, surf + at + i, 4);
				assert_int_equal(v, (oy + y) << 16 |
						     (ox + (bx + i) / 4));
			}
			bx += run;
		}
	}
	free(surf);
}

static void test_detile_x(void **state)
{
	(void)state;
	detile_pattern(PLANE_CTL_TILED_X, 2, 1024, 0, 0);
	detile_pattern(PLANE_CTL_TILED_X, 2, 1024, 37, 5); /* panned */
}

static void test_detile_y(void **state)
{
	(void)state;
	detile_pattern(PLANE_CTL_TILED_Y, 8, 1024, 3, 2);
}

static void test_detile_linear(void **state)
{
	struct vdisp_plane_regs r = fbcon(0x00800000);
	struct vdisp_plane p;

	(void)state;
	r.offset = (2u << 16) | 3u;
	r.size = (9u << 16) | 9u;
	assert_int_equal(validate(r, &p), VDISP_PLANE_OK);
	assert_int_equal(vdisp_plane_byte(&p, 8, 1), 3 * 4096 + 3 * 4 + 8);
	assert_int_equal(vdisp_plane_run(&p, 8), 10 * 4 - 8);
}

static void test_pixels(void **state)
{
	const uint8_t xrgb[4] = { 0x33, 0x22, 0x11, 0xff };
	const uint8_t white565[2] = { 0xff, 0xff }, red565[2] = { 0x00, 0xf8 };
	uint32_t v = 0x3ffu << 20 | 0x200u << 10 | 0x004u; /* r max, g half, b 1 */
	uint8_t x2101010[4];

	(void)state;
	memcpy(x2101010, &v, 4);
	assert_int_equal(vdisp_pixel_rgb(VDISP_FMT_XRGB8888, xrgb), 0x112233);
	assert_int_equal(vdisp_pixel_rgb(VDISP_FMT_XBGR8888, xrgb), 0x332211);
	assert_int_equal(vdisp_pixel_rgb(VDISP_FMT_RGB565, white565), 0xffffff);
	assert_int_equal(vdisp_pixel_rgb(VDISP_FMT_RGB565, red565), 0xff0000);
	assert_int_equal(vdisp_pixel_rgb(VDISP_FMT_XRGB2101010, x2101010),
			 0xff8001);
	assert_int_equal(vdisp_pixel_rgb(0, xrgb), 0);
}

/* MI_DISPLAY_FLIP's fields as Skylake defines them: the plane codes
 * (0-2, 4-6, 7-9), the pitch, the tiling code, the surface, the flip
 * type and the async indicator; what a flip writes into the plane's
 * registers, and an async flip that would change stride or tiling. */
static void test_flip_decode(void **state)
{
	static const struct { uint32_t code; int pipe, plane; } codes[] = {
		{ 0, 0, 0 }, { 1, 1, 0 }, { 2, 2, 0 }, { 4, 0, 1 }, { 5, 1, 1 },
		{ 6, 2, 1 }, { 7, 0, 2 }, { 8, 1, 2 }, { 9, 2, 2 },
	};
	const uint32_t hdr = (0x14u << 23) | 1;
	struct vdisp_plane_regs r = { 0x84000000u, 0x10, 0, 0, 0, 0x100000 };
	struct vdisp_flip f;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		assert_int_equal(vdisp_flip_decode(hdr | codes[i].code << 8, 0, 0, &f), 0);
		assert_int_equal(f.pipe, codes[i].pipe);
		assert_int_equal(f.plane, codes[i].plane);
	}
	for (i = 10; i < 32; i++)
		assert_int_equal(vdisp_flip_decode(hdr | (uint32_t)i << 8, 0, 0, &f),
				 VDISP_FLIP_BAD_PLANE);
	assert_int_equal(vdisp_flip_decode(hdr | 3u << 8, 0, 0, &f), VDISP_FLIP_BAD_PLANE);
	/* pitch 0x20 (64 B units), X-tiled, surface, synchronous */
	assert_int_equal(vdisp_flip_decode(hdr, 0x20u << 6 | 1, 0x2345f000, &f), 0);
	assert_int_equal(f.stride, 0x20);
	assert_int_equal(f.tiling, PLANE_CTL_TILED_X);
	assert_int_equal(f.surf, 0x2345f000);
	assert_false(f.async);
	assert_int_equal(vdisp_flip_apply(&f, &r), 0);
	assert_int_equal(r.surf, 0x2345f000);
	assert_int_equal(r.stride, 0x20);
	assert_int_equal(r.ctl, 0x84000000u | PLANE_CTL_TILED_X);
	/* flip types: async (1), stereo (2), undefined (3); the indicator */
	assert_int_equal(vdisp_flip_decode(hdr, 0x20u << 6 | 1, 0x1001, &f), 0);
	assert_true(f.async);
	assert_int_equal(vdisp_flip_apply(&f, &r), 0); /* same stride, tiling */
	assert_int_equal(r.surf, 0x1000);
	assert_int_equal(vdisp_flip_decode(hdr | 1u << 22, 0x10u << 6, 0x2000, &f), 0);
	assert_true(f.async);
	assert_int_equal(vdisp_flip_apply(&f, &r), VDISP_FLIP_ASYNC_CHANGE);
	assert_int_equal(r.surf, 0x1000); /* untouched */
	assert_int_equal(vdisp_flip_decode(hdr, 0, 0x1002, &f), VDISP_FLIP_STEREO);
	assert_int_equal(vdisp_flip_decode(hdr, 0, 0x1003, &f), VDISP_FLIP_BAD_TYPE);
	assert_string_equal(vdisp_flip_why(VDISP_FLIP_STEREO),
			    "stereo 3D MI_DISPLAY_FLIP (no such monitor)");
	assert_string_equal(vdisp_flip_why(-1), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_linear),
		cmocka_unit_test(test_good_x_tiled_high),
		cmocka_unit_test(test_disabled),
		cmocka_unit_test(test_stride),
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_unaligned),
		cmocka_unit_test(test_outside),
		cmocka_unit_test(test_x_tiled_extent_rounds_up),
		cmocka_unit_test(test_ctl),
		cmocka_unit_test(test_cursor),
		cmocka_unit_test(test_detile_x),
		cmocka_unit_test(test_detile_y),
		cmocka_unit_test(test_detile_linear),
		cmocka_unit_test(test_pixels),
		cmocka_unit_test(test_blend),
		cmocka_unit_test(test_flip_decode),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
