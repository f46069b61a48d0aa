/* The model's display engine: pipe A and its primary plane, scanned out
 * as a monitor behind the pipe would see them (docs/display.md, "The
 * model's display engine").
 *
 * The registers are the register file's plain storage, written as on a
 * Skylake: TRANSCONF (0x70008) enable, PIPESRC (0x6001c) the pipe's
 * source size, PLANE_CTL_1_A (0x70180) enable / format / order / tiling,
 * PLANE_STRIDE (0x70188), PLANE_POS (0x7018c), PLANE_SIZE (0x70190),
 * PLANE_SURF (0x7019c), PLANE_OFFSET (0x701a4). The model latches at once
 * (it has no vblank): what gen9_model_scanout returns is what the plane
 * registers say now. A screen pixel outside the plane, or under a plane
 * that is off, is black (the pipe's bottom colour, 0); a plane pixel is
 * read through the model's GGTT (X and Y tiles by gpu/hw/gen9_tiling.h),
 * and a page the GGTT does not map reads black, where hardware would
 * fetch whatever the entry says. Formats it decodes: XRGB/XBGR 8888,
 * RGB565, XRGB/XBGR 2101010; others read black.
 *
 * Pipe A's cursor is blended over what the plane gives, as the pipe does:
 * CURCNTR (0x70080) in a 64, 128 or 256 square ARGB mode (other modes:
 * no cursor), CURBASE (0x70084) its linear surface through the GGTT,
 * CURPOS (0x70088) where on the pipe (12-bit magnitudes with sign bits
 * 15 and 31: it may hang off the top-left edge), its alpha taken as
 * premultiplied (DRM's cursor images are), a channel clamped at 255. */
#include "gpu/hw/gen9_tiling.h"
#include "gpu/model/model_internal.h"
#include "mini/string.h"

#define MD_TRANSCONF_A	0x70008u
#define MD_PIPESRC_A	0x6001cu
#define MD_PLANE_CTL	0x70180u
#define MD_PLANE_STRIDE	0x70188u
#define MD_PLANE_POS	0x7018cu
#define MD_PLANE_SIZE	0x70190u
#define MD_PLANE_SURF	0x7019cu
#define MD_PLANE_OFFSET	0x701a4u
#define MD_CURCNTR	0x70080u
#define MD_CURBASE	0x70084u
#define MD_CURPOS	0x70088u
#define MD_ENABLE	(1u << 31)
#define MD_CUR_MODE	0x27u	/* CURCNTR's mode field */
#define MD_FMT(ctl)	((ctl) >> 24 & 0xfu)
#define MD_RGBX		(1u << 20)
#define MD_TILING(ctl)	((ctl) >> 10 & 7u)
#define MD_FMT_2101010	2u
#define MD_FMT_8888	4u
#define MD_FMT_565	14u

int gen9_model_screen(struct gen9_model *m, uint32_t *w, uint32_t *h)
{
	uint32_t src = mreg(m, MD_PIPESRC_A);

	if (!(mreg(m, MD_TRANSCONF_A) & MD_ENABLE))
		return -GPU_ENODEV;
	*w = (src >> 16 & 0xffff) + 1;
	*h = (src & 0xffff) + 1;
	return 0;
}

static uint32_t cpp_of(uint32_t ctl)
{
	switch (MD_FMT(ctl)) {
	case MD_FMT_8888:
	case MD_FMT_2101010:
		return 4;
	case MD_FMT_565:
		return 2;
	default:
		return 0;
	}
}

static uint32_t rgb_of(uint32_t ctl, uint32_t v)
{
	uint32_t r, g, b;

	switch (MD_FMT(ctl)) {
	case MD_FMT_8888:
		r = v >> 16 & 0xff, g = v >> 8 & 0xff, b = v & 0xff;
		break;
	case MD_FMT_2101010:
		r = v >> 22 & 0xff, g = v >> 12 & 0xff, b = v >> 2 & 0xff;
		break;
	case MD_FMT_565:
		r = (v >> 11 & 0x1f) * 255 / 31;
		g = (v >> 5 & 0x3f) * 255 / 63;
		b = (v & 0x1f) * 255 / 31;
		break;
	default:
		return 0;
	}
	if ((ctl & MD_RGBX) && MD_FMT(ctl) != MD_FMT_565)
		return b << 16 | g << 8 | r;
	return r << 16 | g << 8 | b;
}

/* Byte offset from PLANE_SURF of byte bx of plane row y. */
static uint64_t plane_byte(uint32_t ctl, uint32_t stride, uint32_t bx,
			   uint32_t y)
{
	switch (MD_TILING(ctl)) {
	case 1:
		return gen9_tiled_xy(bx, y, stride, false);
	case 4:
		return gen9_tiled_xy(bx, y, stride, true);
	default:
		return (uint64_t)y * stride + bx;
	}
}

static uint32_t stride_bytes(uint32_t ctl, uint32_t reg)
{
	uint32_t units = reg & 0x3ff;

	switch (MD_TILING(ctl)) {
	case 1:
		return units * GEN9_TILE_X_WIDTH;
	case 4:
		return units * GEN9_TILE_Y_WIDTH;
	default:
		return units * 64;
	}
}

/* One pixel of the plane at plane coordinates (px, py), or black. */
static uint32_t plane_pixel(struct gen9_model *m, uint32_t ctl, uint32_t px,
			    uint32_t py)
{
	uint32_t stride = stride_bytes(ctl, mreg(m, MD_PLANE_STRIDE));
	uint32_t off = mreg(m, MD_PLANE_OFFSET), cpp = cpp_of(ctl), v = 0;
	uint32_t bx = ((off & 0xffff) + px) * cpp, y = (off >> 16) + py;
	uint64_t surf = mreg(m, MD_PLANE_SURF) & 0xfffff000u;
	uint32_t tiling = MD_TILING(ctl);

	if (!cpp || !stride || (tiling != 0 && tiling != 1 && tiling != 4))
		return 0;
	/* A row wider than the stride wraps on hardware; here it is black. */
	if (bx + cpp > stride)
		return 0;
	if (model_ggtt_rw(m, surf + plane_byte(ctl, stride, bx, y), &v, cpp,
			  false))
		return 0;
	return rgb_of(ctl, v);
}

/* The cursor's side for CURCNTR's mode, 0: not drawn. */
static uint32_t cursor_side(uint32_t cntr)
{
	static const struct { uint32_t mode, side; } modes[] = {
		{ 0x27u, 64 }, { 0x22u, 128 }, { 0x23u, 256 },
	};

	for (unsigned i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if ((cntr & MD_CUR_MODE) == modes[i].mode)
			return modes[i].side;
	return 0;
}

/* One CURPOS half: a 12-bit magnitude and its sign bit (bit 15). */
static int64_t curpos(uint32_t half)
{
	int64_t v = half & 0xfffu;

	return half & 0x8000u ? -v : v;
}

/* Premultiplied src over dst, 0x00RRGGBB out. */
static uint32_t over_argb(uint32_t src, uint32_t dst)
{
	uint32_t a = src >> 24, out = 0;

	for (unsigned sh = 0; sh < 24; sh += 8) {
		uint32_t c = (src >> sh & 0xff) +
			     ((dst >> sh & 0xff) * (255u - a) + 127u) / 255u;

		out |= (c > 255u ? 255u : c) << sh;
	}
	return out;
}

/* The cursor over screen pixels x0 .. x0 + n - 1 of row y. */
static void cursor_over(struct gen9_model *m, uint32_t y, uint32_t x0,
			uint32_t n, uint32_t *rgb)
{
	uint32_t side = cursor_side(mreg(m, MD_CURCNTR));
	uint32_t pos = mreg(m, MD_CURPOS), argb;
	uint64_t base = mreg(m, MD_CURBASE) & 0xfffff000u;
	int64_t cx = curpos(pos & 0xffff), cy = (int64_t)y - curpos(pos >> 16);

	if (!side || cy < 0 || cy >= side)
		return;
	for (uint32_t i = 0; i < n; i++) {
		int64_t px = (int64_t)(x0 + i) - cx;

		if (px < 0 || px >= side ||
		    model_ggtt_rw(m, base + ((uint64_t)cy * side + (uint64_t)px) * 4,
				  &argb, 4, false))
			continue;
		rgb[i] = over_argb(argb, rgb[i]);
	}
}

int gen9_model_scanout(struct gen9_model *m, uint32_t y, uint32_t x0,
		       uint32_t n, uint32_t *rgb)
{
	uint32_t w, h, ctl = mreg(m, MD_PLANE_CTL), pos = mreg(m, MD_PLANE_POS);
	uint32_t size = mreg(m, MD_PLANE_SIZE), i;
	uint32_t plx = pos & 0xffff, ply = pos >> 16;
	uint32_t plw = (size & 0xffff) + 1, plh = (size >> 16) + 1;

	if (gen9_model_screen(m, &w, &h))
		return -GPU_ENODEV;
	if (y >= h || x0 > w || n > w - x0)
		return -GPU_EINVAL;
	for (i = 0; i < n; i++) {
		uint32_t x = x0 + i;

		rgb[i] = 0;
		if (!(ctl & MD_ENABLE) || x < plx || y < ply ||
		    x - plx >= plw || y - ply >= plh)
			continue;
		rgb[i] = plane_pixel(m, ctl, x - plx, y - ply);
	}
	cursor_over(m, y, x0, n, rgb);
	m->stats.scanout_pixels += n;
	return 0;
}
