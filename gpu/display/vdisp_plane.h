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


/* MI_DISPLAY_FLIP (Gen9): a flip a ring asks the display engine for,
 * as the plane registers it writes (docs/display.md, "Flips from the
 * ring"). DW0 bits 12:8 select the plane (Skylake's codes: 0-2 plane 1
 * of pipes A-C, 4-6 plane 2, 7-9 plane 3), bit 22 is the async
 * indicator; DW1 bits 15:6 the pitch in PLANE_STRIDE's units, bits 2:0
 * the tiling in PLANE_CTL 12:10's code; DW2 bits 31:12 the surface,
 * bits 1:0 the flip type (0 synchronous, 1 asynchronous, 2 stereo 3D,
 * which adds a fourth dword). */
#define MI_FLIP_PLANE_SHIFT		8
#define MI_FLIP_PLANE_MASK		(0x1fu << 8)
#define MI_FLIP_ASYNC_INDICATOR		(1u << 22)
#define MI_FLIP_PITCH_SHIFT		6
#define MI_FLIP_PITCH_MASK		(0x3ffu << 6)
#define MI_FLIP_TILE_MASK		7u
#define MI_FLIP_TYPE_MASK		3u
#define MI_FLIP_TYPE_ASYNC		1u
#define MI_FLIP_TYPE_STEREO		2u
#define MI_FLIP_DWORDS			3u	/* a flip that is not stereo */
enum vdisp_flip_err {
	VDISP_FLIP_OK = 0,
	VDISP_FLIP_BAD_PLANE,		/* a plane code Skylake does not have */
	VDISP_FLIP_STEREO,		/* stereo 3D: no such monitor */
	VDISP_FLIP_BAD_TYPE,		/* flip type 3 */
	VDISP_FLIP_ASYNC_CHANGE,	/* async flips keep stride and tiling */
	VDISP_FLIP_NR_ERRS
};
struct vdisp_flip {
	uint8_t pipe;		/* 0: pipe A */
	uint8_t plane;		/* 0: plane 1 (the primary) */
	bool async;		/* DW0's indicator or DW2's flip type */
	uint32_t stride;	/* PLANE_STRIDE 9:0 */
	uint32_t tiling;	/* PLANE_CTL 12:10, in place */
	uint32_t surf;		/* PLANE_SURF 31:12 */
};
/* Decodes the three dwords into *f (cleared first): an enum vdisp_flip_err. */
int vdisp_flip_decode(uint32_t dw0, uint32_t dw1, uint32_t dw2,
		      struct vdisp_flip *f);
/* The plane's registers r after flip f, as GVT-g's emulation writes them:
 * PLANE_SURF's address, PLANE_STRIDE 9:0, PLANE_CTL's tiling field; the
 * rest kept. An async flip that would change stride or tiling is
 * refused (VDISP_FLIP_ASYNC_CHANGE) and r is left as it was. */
int vdisp_flip_apply(const struct vdisp_flip *f, struct vdisp_plane_regs *r);
/* A short reason for a flip error. */
const char *vdisp_flip_why(int err);
#endif
