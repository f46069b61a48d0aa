/* Plane registers decoded and checked against the vGPU's GM
 * (vdisp_plane.h). */
#include "gpu/display/vdisp_plane.h"

#include "gpu/hw/gen9_tiling.h"
#include "mini/string.h"

#define GM_PAGE 4096u

/* PLANE_CTL's format field -> format and bytes per pixel; the RGBX order
 * bit swaps red and blue of the 32-bit formats (i915 sets it for XBGR). */
static const struct {
	uint32_t field;
	uint8_t fmt, fmt_rgbx, cpp;
} formats[] = {
	{ PLANE_CTL_FORMAT_XRGB_8888, VDISP_FMT_XRGB8888, VDISP_FMT_XBGR8888, 4 },
	{ PLANE_CTL_FORMAT_XRGB_2101010, VDISP_FMT_XRGB2101010,
	  VDISP_FMT_XBGR2101010, 4 },
	{ PLANE_CTL_FORMAT_RGB_565, VDISP_FMT_RGB565, VDISP_FMT_RGB565, 2 },
};

/* PLANE_CTL's tiling field -> layout and the unit of PLANE_STRIDE. Yf
 * and the compressed layouts are refused: the scanout cannot read them. */
static const struct {
	uint32_t field;
	uint8_t tiling;
	uint32_t stride_unit;
} tilings[] = {
	{ PLANE_CTL_TILED_LINEAR, VDISP_LINEAR, 64 },
	{ PLANE_CTL_TILED_X, VDISP_TILED_X, GEN9_TILE_X_WIDTH },
	{ PLANE_CTL_TILED_Y, VDISP_TILED_Y, GEN9_TILE_Y_WIDTH },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const whys[VDISP_PLANE_NR_ERRS] = {
	[VDISP_PLANE_OK] = "ok",
	[VDISP_PLANE_OFF] = "disabled",
	[VDISP_PLANE_BAD_FORMAT] = "pixel format not scanned out",
	[VDISP_PLANE_BAD_TILING] = "tiling not scanned out",
	[VDISP_PLANE_ROTATED] = "rotation not scanned out",
	[VDISP_PLANE_STRIDE_ZERO] = "stride 0",
	[VDISP_PLANE_STRIDE_HUGE] = "stride above 32 KiB",
	[VDISP_PLANE_STRIDE_SHORT] = "a row is wider than the stride",
	[VDISP_PLANE_BAD_SIZE] = "size 0 or above 8192",
	[VDISP_PLANE_UNALIGNED] = "surface not page aligned",
	[VDISP_PLANE_OUTSIDE_GM] = "surface outside the VM's GM",
};

const char *vdisp_plane_why(int err)
{
	return err >= 0 && err < VDISP_PLANE_NR_ERRS ? whys[err] : "?";
}

static int decode_format(uint32_t ctl, struct vdisp_plane *p)
{
	size_t i;

	for (i = 0; i < N(formats); i++)
		if ((ctl & PLANE_CTL_FORMAT_MASK) == formats[i].field) {
			p->fmt = ctl & PLANE_CTL_ORDER_RGBX ? formats[i].fmt_rgbx
							    : formats[i].fmt;
			p->cpp = formats[i].cpp;
			return VDISP_PLANE_OK;
		}
	return VDISP_PLANE_BAD_FORMAT;
}

static int decode_tiling(uint32_t ctl, uint32_t stride_reg,
			 struct vdisp_plane *p)
{
	size_t i;

	for (i = 0; i < N(tilings); i++)
		if ((ctl & PLANE_CTL_TILED_MASK) == tilings[i].field) {
			p->tiling = tilings[i].tiling;
			p->stride = (stride_reg & PLANE_STRIDE_MASK) *
				    tilings[i].stride_unit;
			return VDISP_PLANE_OK;
		}
	return VDISP_PLANE_BAD_TILING;
}

int vdisp_plane_decode(const struct vdisp_plane_regs *r, struct vdisp_plane *p)
{
	int err;

	memset(p, 0, sizeof(*p));
	if (!(r->ctl & PLANE_CTL_ENABLE))
		return VDISP_PLANE_OFF;
	p->on = true;
	p->surf = r->surf & PLANE_SURF_ADDR_MASK;
	p->w = (r->size & 0x1fffu) + 1;
	p->h = ((r->size >> 16) & 0x1fffu) + 1;
	p->x = r->pos & 0x1fffu;
	p->y = (r->pos >> 16) & 0x1fffu;
	p->ox = r->offset & 0x1fffu;
	p->oy = (r->offset >> 16) & 0x1fffu;
	err = decode_format(r->ctl, p);
	if (!err)
		err = decode_tiling(r->ctl, r->stride, p);
	if (!err && (r->ctl & PLANE_CTL_ROTATE_MASK))
		err = VDISP_PLANE_ROTATED;
	return err;
}

int vdisp_cursor_decode(uint32_t ctl, uint32_t base, uint32_t pos,
			struct vdisp_plane *p)
{
	static const struct { uint32_t mode, side; } cursors[] = {
		{ MCURSOR_MODE_64_ARGB_AX, 64 },
		{ MCURSOR_MODE_128_ARGB_AX, 128 },
		{ MCURSOR_MODE_256_ARGB_AX, 256 },
	};
	size_t i;

	memset(p, 0, sizeof(*p));
	if ((ctl & MCURSOR_MODE_MASK) == MCURSOR_MODE_DISABLE)
		return VDISP_PLANE_OFF;
	p->on = true;
	p->surf = base & CURBASE_ADDR_MASK;
	p->x = pos & 0xfffu;	/* magnitude; the signs (bits 15, 31) apart */
	p->y = (pos >> 16) & 0xfffu;
	p->neg = (pos >> 15 & 1u ? VDISP_NEG_X : 0u) |
		 (pos >> 31 ? VDISP_NEG_Y : 0u);
	p->fmt = VDISP_FMT_ARGB8888;
	p->cpp = 4;
	p->tiling = VDISP_LINEAR;
	for (i = 0; i < N(cursors); i++)
		if ((ctl & MCURSOR_MODE_MASK) == cursors[i].mode) {
			p->w = p->h = cursors[i].side;
			p->stride = p->w * 4;
			return VDISP_PLANE_OK;
		}
	return VDISP_PLANE_BAD_FORMAT;
}

static uint32_t tile_rows(const struct vdisp_plane *p)
{
	return p->tiling == VDISP_TILED_X ? GEN9_TILE_X_HEIGHT :
	       p->tiling == VDISP_TILED_Y ? GEN9_TILE_Y_HEIGHT : 1;
}

uint64_t vdisp_plane_extent(const struct vdisp_plane *p)
{
	uint64_t rows = (uint64_t)p->oy + p->h;
	uint32_t th = tile_rows(p);

	if (p->tiling != VDISP_LINEAR) /* whole tile rows */
		return (rows + th - 1) / th * th * p->stride;
	return (rows - 1) * p->stride + ((uint64_t)p->ox + p->w) * p->cpp;
}

static int check_shape(const struct vdisp_plane *p)
{
	if (!p->w || !p->h || p->w > VDISP_PLANE_MAX_SIDE ||
	    p->h > VDISP_PLANE_MAX_SIDE || p->ox >= VDISP_PLANE_MAX_SIDE ||
	    p->oy >= VDISP_PLANE_MAX_SIDE)
		return VDISP_PLANE_BAD_SIZE;
	if (!p->stride)
		return VDISP_PLANE_STRIDE_ZERO;
	if (p->stride > VDISP_PLANE_MAX_STRIDE)
		return VDISP_PLANE_STRIDE_HUGE;
	if (((uint64_t)p->ox + p->w) * p->cpp > p->stride)
		return VDISP_PLANE_STRIDE_SHORT;
	if (p->surf % GM_PAGE || p->stride % p->cpp)
		return VDISP_PLANE_UNALIGNED;
	return VDISP_PLANE_OK;
}

/* [start, end) inside the union of the sorted ranges: the range holding
 * start, then each range that begins exactly where the last one ends. */
static bool inside(uint64_t start, uint64_t end, const struct vdisp_gm *gm,
		   unsigned n)
{
	uint64_t reach = 0;
	unsigned i;
	bool in = false;

	for (i = 0; i < n; i++) {
		if (!gm[i].size)
			continue;
		if (!in && start >= gm[i].base && start - gm[i].base < gm[i].size) {
			in = true;
			reach = gm[i].base + gm[i].size;
		} else if (in && gm[i].base == reach) {
			reach += gm[i].size;
		} else if (in) {
			break;
		}
		if (in && end <= reach)
			return true;
	}
	return false;
}

int vdisp_plane_check(const struct vdisp_plane *p, const struct vdisp_gm *gm,
		      unsigned n)
{
	int err;

	if (!p->on)
		return VDISP_PLANE_OFF;
	err = check_shape(p);
	if (err)
		return err;
	if (!inside(p->surf, p->surf + vdisp_plane_extent(p), gm, n))
		return VDISP_PLANE_OUTSIDE_GM;
	return VDISP_PLANE_OK;
}

int vdisp_plane_validate(const struct vdisp_plane_regs *r,
			 const struct vdisp_gm *gm, unsigned n,
			 struct vdisp_plane *p)
{
	int err = vdisp_plane_decode(r, p);

	return err ? err : vdisp_plane_check(p, gm, n);
}

uint64_t vdisp_plane_byte(const struct vdisp_plane *p, uint32_t bx, uint32_t y)
{
	uint32_t sx = p->ox * p->cpp + bx, sy = p->oy + y;

	if (p->tiling == VDISP_LINEAR)
		return (uint64_t)sy * p->stride + sx;
	return gen9_tiled_xy(sx, sy, p->stride, p->tiling == VDISP_TILED_Y);
}

uint32_t vdisp_plane_run(const struct vdisp_plane *p, uint32_t bx)
{
	uint32_t sx = p->ox * p->cpp + bx, left = p->w * p->cpp - bx, run;

	if (p->tiling == VDISP_LINEAR)
		return left;
	run = p->tiling == VDISP_TILED_X ? GEN9_TILE_X_WIDTH - sx % GEN9_TILE_X_WIDTH
					 : GEN9_TILE_Y_OWORD - sx % GEN9_TILE_Y_OWORD;
	return run < left ? run : left;
}

static uint32_t le32(const uint8_t *b)
{
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

/* Three 8-bit channels (the callers cut 10-bit ones to their top 8 and
 * widen 5/6-bit ones by repeating their top bits, so full scale stays
 * full scale) as 0x00RRGGBB. */
static uint32_t rgb(uint32_t r, uint32_t g, uint32_t b)
{
	return (r & 0xff) << 16 | (g & 0xff) << 8 | (b & 0xff);
}

uint32_t vdisp_pixel_rgb(uint8_t fmt, const uint8_t *px)
{
	uint32_t v, r, g, b;

	switch (fmt) {
	case VDISP_FMT_XRGB8888:
		return le32(px) & 0xffffffu;
	case VDISP_FMT_XBGR8888:
		v = le32(px);
		return rgb(v, v >> 8, v >> 16);
	case VDISP_FMT_RGB565:
		v = px[0] | (uint32_t)px[1] << 8;
		r = v >> 11 & 0x1f, g = v >> 5 & 0x3f, b = v & 0x1f;
		return rgb(r << 3 | r >> 2, g << 2 | g >> 4, b << 3 | b >> 2);
	case VDISP_FMT_XRGB2101010:
		v = le32(px);
		return rgb(v >> 22, v >> 12, v >> 2);
	case VDISP_FMT_XBGR2101010:
		v = le32(px);
		return rgb(v >> 2, v >> 12, v >> 22);
	case VDISP_FMT_ARGB8888:
		return le32(px);
	default:
		return 0;
	}
}

/* One channel: c over d with the cover's alpha a (c premultiplied). An
 * image that is not premultiplied can carry c > a: the sum is clamped. */
static uint32_t over(uint32_t c, uint32_t d, uint32_t a)
{
	uint32_t v = c + (d * (255u - a) + 127u) / 255u;

	return v > 255u ? 255u : v;
}

void vdisp_blend_argb(uint32_t *dst, const uint32_t *argb, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t s = argb[i], a = s >> 24, d = dst[i];

		if (a == 0 && (s & 0xffffffu) == 0)
			continue;	/* transparent: most of a cursor */
		dst[i] = over(s >> 16 & 0xff, d >> 16 & 0xff, a) << 16 |
			 over(s >> 8 & 0xff, d >> 8 & 0xff, a) << 8 |
			 over(s & 0xff, d & 0xff, a);
	}
}

/* ---- MI_DISPLAY_FLIP ----------------------------------------------------- */

/* Skylake's plane select codes (DW0 12:8): plane k of pipe p is code
 * k == 0 ? p : 3 * k + p + 1 (0-2, 4-6, 7-9); 3 and 10-31 name nothing. */
static int flip_plane(uint32_t code, struct vdisp_flip *f)
{
	if (code <= 2) {
		f->pipe = (uint8_t)code, f->plane = 0;
		return VDISP_FLIP_OK;
	}
	if (code < 4 || code > 9)
		return VDISP_FLIP_BAD_PLANE;
	f->plane = (uint8_t)((code - 1) / 3);
	f->pipe = (uint8_t)((code - 1) % 3);
	return VDISP_FLIP_OK;
}

int vdisp_flip_decode(uint32_t dw0, uint32_t dw1, uint32_t dw2,
		      struct vdisp_flip *f)
{
	uint32_t type = dw2 & MI_FLIP_TYPE_MASK;

	memset(f, 0, sizeof(*f));
	if (flip_plane((dw0 & MI_FLIP_PLANE_MASK) >> MI_FLIP_PLANE_SHIFT, f))
		return VDISP_FLIP_BAD_PLANE;
	if (type == MI_FLIP_TYPE_STEREO)
		return VDISP_FLIP_STEREO;
	if (type == MI_FLIP_TYPE_MASK)
		return VDISP_FLIP_BAD_TYPE;
	f->async = type == MI_FLIP_TYPE_ASYNC || (dw0 & MI_FLIP_ASYNC_INDICATOR);
	f->stride = (dw1 & MI_FLIP_PITCH_MASK) >> MI_FLIP_PITCH_SHIFT;
	f->tiling = (dw1 & MI_FLIP_TILE_MASK) << 10;
	f->surf = dw2 & PLANE_SURF_ADDR_MASK;
	return VDISP_FLIP_OK;
}

int vdisp_flip_apply(const struct vdisp_flip *f, struct vdisp_plane_regs *r)
{
	if (f->async && ((r->stride & PLANE_STRIDE_MASK) != f->stride ||
			 (r->ctl & PLANE_CTL_TILED_MASK) != f->tiling))
		return VDISP_FLIP_ASYNC_CHANGE;
	r->surf = (r->surf & ~PLANE_SURF_ADDR_MASK) | f->surf;
	r->stride = (r->stride & ~PLANE_STRIDE_MASK) | f->stride;
	r->ctl = (r->ctl & ~PLANE_CTL_TILED_MASK) | f->tiling;
	return VDISP_FLIP_OK;
}

const char *vdisp_flip_why(int err)
{
	static const char *const whys[VDISP_FLIP_NR_ERRS] = {
		[VDISP_FLIP_OK] = "ok",
		[VDISP_FLIP_BAD_PLANE] = "MI_DISPLAY_FLIP for a plane Skylake does not have",
		[VDISP_FLIP_STEREO] = "stereo 3D MI_DISPLAY_FLIP (no such monitor)",
		[VDISP_FLIP_BAD_TYPE] = "MI_DISPLAY_FLIP of an undefined flip type",
		[VDISP_FLIP_ASYNC_CHANGE] = "async MI_DISPLAY_FLIP changing stride or tiling",
	};

	return err >= 0 && err < VDISP_FLIP_NR_ERRS ? whys[err] : "?";
}
