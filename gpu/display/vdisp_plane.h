/* A display plane as the guest programmed it, decoded and checked before
 * anything reads through it (docs/display.md, "Planes and scanout").
 *
 * The guest's registers are only numbers until they are checked: a
 * surface address anywhere in the GGTT, a stride of 0 or of 64 KiB, a
 * size that runs past the end of the guest's graphics memory. Decoding
 * turns PLANE_CTL / PLANE_STRIDE / PLANE_SIZE / PLANE_OFFSET / PLANE_SURF
 * (or CUR_CTL / CURBASE) into bytes and pixels; the check says whether
 * every byte the plane would scan lies inside the GM ranges the caller
 * names (the vGPU's own: its low GM and its high ranges). A plane that
 * fails is never read; the caller says why, once.
 *
 * Pixels of a checked plane are found with vdisp_plane_byte (X and Y
 * tiling through gpu/hw/gen9_tiling.h, the same layout the aperture
 * detiler uses) and converted with vdisp_pixel_rgb. */
#ifndef GPU_DISPLAY_VDISP_PLANE_H
#define GPU_DISPLAY_VDISP_PLANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Skylake universal plane registers (one set per plane per pipe). */
#define PLANE_CTL_ENABLE		(1u << 31)
#define PLANE_CTL_FORMAT_MASK		(0xfu << 24)
#define PLANE_CTL_FORMAT_XRGB_2101010	(2u << 24)
#define PLANE_CTL_FORMAT_XRGB_8888	(4u << 24)
#define PLANE_CTL_FORMAT_RGB_565	(14u << 24)
#define PLANE_CTL_ORDER_RGBX		(1u << 20)
#define PLANE_CTL_TILED_MASK		(7u << 10)
#define PLANE_CTL_TILED_LINEAR		(0u << 10)
#define PLANE_CTL_TILED_X		(1u << 10)
#define PLANE_CTL_TILED_Y		(4u << 10)
#define PLANE_CTL_ROTATE_MASK		3u
#define PLANE_STRIDE_MASK		0x3ffu	/* units: 64 B linear, tile width tiled */
#define PLANE_SURF_ADDR_MASK		0xfffff000u
/* The cursor (CUR_CTL's mode field): 64, 128 or 256 pixels square, ARGB. */
#define MCURSOR_MODE_MASK		0x27u
#define MCURSOR_MODE_DISABLE		0u
#define MCURSOR_MODE_128_ARGB_AX	0x22u
#define MCURSOR_MODE_256_ARGB_AX	0x23u
#define MCURSOR_MODE_64_ARGB_AX		0x27u
#define CURBASE_ADDR_MASK		0xfffff000u

/* Skylake's limits as i915 applies them: 8192 pixels a side, a stride of
 * at most 32 KiB. Anything larger is not a mode this monitor has. */
#define VDISP_PLANE_MAX_SIDE		8192u
#define VDISP_PLANE_MAX_STRIDE		32768u

enum vdisp_fmt {
	VDISP_FMT_XRGB8888 = 1,	/* also ARGB: alpha ignored */
	VDISP_FMT_XBGR8888,
	VDISP_FMT_RGB565,
	VDISP_FMT_XRGB2101010,
	VDISP_FMT_XBGR2101010,
	VDISP_FMT_ARGB8888,	/* the cursor: alpha kept, premultiplied as
				 * DRM's cursor images are */
};

enum vdisp_tiling { VDISP_LINEAR, VDISP_TILED_X, VDISP_TILED_Y };

/* The outcome of decode + check: 0 fine, otherwise why it is refused.
 * VDISP_PLANE_OFF is not an error: nothing to scan. */
enum vdisp_plane_err {
	VDISP_PLANE_OK = 0,
	VDISP_PLANE_OFF,
	VDISP_PLANE_BAD_FORMAT,
	VDISP_PLANE_BAD_TILING,
	VDISP_PLANE_ROTATED,
	VDISP_PLANE_STRIDE_ZERO,
	VDISP_PLANE_STRIDE_HUGE,
	VDISP_PLANE_STRIDE_SHORT,	/* a row does not fit in the stride */
	VDISP_PLANE_BAD_SIZE,
	VDISP_PLANE_UNALIGNED,
	VDISP_PLANE_OUTSIDE_GM,
	VDISP_PLANE_NR_ERRS
};

struct vdisp_plane {
	uint64_t surf;		/* GM address of the surface */
	uint32_t stride;	/* bytes from one row to the next */
	uint32_t w, h;		/* pixels scanned */
	uint32_t ox, oy;	/* first pixel scanned inside the surface */
	uint32_t x, y;		/* where on the pipe (PLANE_POS / CURPOS) */
	uint8_t fmt;		/* enum vdisp_fmt */
	uint8_t cpp;		/* bytes per pixel */
	uint8_t tiling;		/* enum vdisp_tiling */
	bool on;
	uint8_t neg;		/* cursor: CURPOS's sign bits (VDISP_NEG_X/Y) */
};
#define VDISP_NEG_X 1u
#define VDISP_NEG_Y 2u

/* A plane's registers, as the guest wrote them. */
struct vdisp_plane_regs {
	uint32_t ctl, stride, pos, size, offset, surf;
};

/* One range of graphics memory the plane may read: [base, base + size). */
struct vdisp_gm {
	uint64_t base, size;
};

/* Universal plane: decodes r into *p (cleared first); returns an
 * enum vdisp_plane_err for what the registers alone say. */
int vdisp_plane_decode(const struct vdisp_plane_regs *r, struct vdisp_plane *p);
/* Cursor from CUR_CTL, CURBASE and CURPOS (linear ARGB, stride = width * 4). */
int vdisp_cursor_decode(uint32_t ctl, uint32_t base, uint32_t pos,
			struct vdisp_plane *p);
/* Bytes from p->surf to just past the last byte the plane scans (whole
 * tile rows for a tiled surface). */
uint64_t vdisp_plane_extent(const struct vdisp_plane *p);
/* The size and alignment checks, then the extent: every byte inside the
 * union of gm[0..n) (ranges sorted by base; adjacent ones join). */
int vdisp_plane_check(const struct vdisp_plane *p, const struct vdisp_gm *gm,
		      unsigned n);
/* Decode, then check. */
int vdisp_plane_validate(const struct vdisp_plane_regs *r,
			 const struct vdisp_gm *gm, unsigned n,
			 struct vdisp_plane *p);
/* A short reason for an error ("surface outside the VM's GM"). */
const char *vdisp_plane_why(int err);

/* Offset from p->surf of byte bx of scanned row y (bx counts from the
 * plane's first scanned pixel; pixel x is bytes x * cpp .. + cpp - 1). */
uint64_t vdisp_plane_byte(const struct vdisp_plane *p, uint32_t bx, uint32_t y);
/* Bytes from byte bx of row y that stay contiguous in memory (to the end
 * of the tile's row, or of the scanned row). */
uint32_t vdisp_plane_run(const struct vdisp_plane *p, uint32_t bx);
/* One pixel of format fmt at px (little-endian, as the plane reads it)
 * as 0x00RRGGBB, 8 bits a channel (0xAARRGGBB for VDISP_FMT_ARGB8888). */
uint32_t vdisp_pixel_rgb(uint8_t fmt, const uint8_t *px);
/* The cursor over the planes below it, as the pipe blends them: each of
 * n premultiplied 0xAARRGGBB pixels of argb laid over dst's 0x00RRGGBB
 * (dst = argb + dst * (255 - alpha) / 255, a channel at most 255). */
void vdisp_blend_argb(uint32_t *dst, const uint32_t *argb, uint32_t n);

#endif
