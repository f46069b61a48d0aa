/* Text console drawn on a linear framebuffer (the one UEFI's GOP left set
 * up): for PCs without a COM1 header. Pure renderer, no hardware access
 * besides the pixels it is given: host-tested (tests/unit/test_fbcon.c).
 *
 * Cost is what matters here, because every console byte also goes to the
 * serial port: the console keeps the text it wants on screen and the text it
 * has drawn, and draws a cell only when the two differ. A character costs
 * at most one cell (16 rows of 8 pixels); a line feed at the bottom moves
 * the text up half a screen at once (jump scroll) and redraws only the
 * cells whose character changed, instead of the whole screen per line.
 * Measured on a real console log (tools/fbcon-cost, callgrind): 2.7-2.8
 * cells and about 950 instructions per byte printed, at 800x600 to
 * 1920x1080. Pixels are only ever written, never read: framebuffers are
 * uncached or write-combined, and reading them is very slow on hardware. */
#ifndef HV_FBCON_H
#define HV_FBCON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Enough for 1920x1080 with the 8x16 font (240x67); larger screens use
 * their top-left part. */
#define FBCON_MAX_COLS 240
#define FBCON_MAX_ROWS 135

/* A 32-bit-per-pixel framebuffer. The colour masks say where red, green
 * and blue live in a pixel (GOP's PixelRedGreenBlueReserved8BitPerColor is
 * 0x0000ff/0x00ff00/0xff0000, the BGR format the other way round, and
 * PixelBitMask gives them explicitly). */
struct fbcon_fb {
	void *base;
	uint32_t width, height;	/* visible pixels */
	uint32_t pitch;		/* bytes from one row to the next */
	uint32_t red_mask, green_mask, blue_mask;
};

struct fbcon_stats {
	uint64_t bytes;		/* bytes handed to fbcon_write */
	uint64_t glyphs;	/* cells drawn */
	uint64_t scrolls;	/* jump scrolls */
};

struct fbcon {
	struct fbcon_fb fb;
	uint32_t fg, bg;	/* pixel values */
	uint32_t pixels[256][8];	/* the pixels of each glyph row (8 KiB) */
	unsigned cols, rows;
	unsigned cx, cy;	/* cx == cols: a wrap is pending */
	unsigned jump;		/* rows a scroll moves the text up by */
	uint8_t esc;		/* escape-sequence state */
	struct fbcon_stats st;
	char want[FBCON_MAX_ROWS][FBCON_MAX_COLS];
	char shown[FBCON_MAX_ROWS][FBCON_MAX_COLS];
};

/* Sets c up on fb with colours fg and bg (0xRRGGBB) and clears the screen.
 * -1 when fb cannot hold one text row or a mask is empty. */
int fbcon_init(struct fbcon *c, const struct fbcon_fb *fb, uint32_t fg_rgb,
	       uint32_t bg_rgb);
/* Prints n bytes: printable ASCII, '\n' (new line), '\r', '\b', '\t'; ANSI
 * escape sequences are skipped, other control bytes ignored, and each
 * UTF-8 character or other non-ASCII byte shows as '?'. */
void fbcon_write(struct fbcon *c, const char *s, size_t n);
/* Pixel value of 0xRRGGBB in fb's format. */
uint32_t fbcon_pixel(const struct fbcon_fb *fb, uint32_t rgb);

#endif
