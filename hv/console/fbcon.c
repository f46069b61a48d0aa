/* Framebuffer text console (see fbcon.h for the cost model). */
#include "hv/console/fbcon.h"
#include "hv/console/fbcon_font.h"
#include "mini/string.h"

enum { ESC_NONE, ESC_START, ESC_CSI };

/* An 8-bit colour component scaled into the field that mask selects. */
static uint32_t field(uint32_t mask, uint32_t v8)
{
	unsigned shift = 0, width = 0;

	while (mask && !(mask & 1)) {
		mask >>= 1;
		shift++;
	}
	while (mask & 1) {
		mask >>= 1;
		width++;
	}
	if (width < 8)
		v8 >>= 8 - width;
	else
		v8 <<= width - 8;
	return v8 << shift;
}

uint32_t fbcon_pixel(const struct fbcon_fb *fb, uint32_t rgb)
{
	return field(fb->red_mask, (rgb >> 16) & 0xff) |
	       field(fb->green_mask, (rgb >> 8) & 0xff) |
	       field(fb->blue_mask, rgb & 0xff);
}

static uint32_t *pixel_row(const struct fbcon *c, unsigned y)
{
	return (uint32_t *)((uint8_t *)c->fb.base + (size_t)y * c->fb.pitch);
}

/* A glyph row is 8 bits, which index a ready-made row of 8 pixels: a row
 * is four 64-bit copies and no branches (tools/fbcon-cost). */
static void draw_cell(struct fbcon *c, unsigned row, unsigned col, char ch)
{
	const uint8_t *g = font_glyph((unsigned char)ch);
	uint8_t *p = (uint8_t *)pixel_row(c, row * FONT_H) + col * FONT_W * 4;

	for (unsigned y = 0; y < FONT_H; y++, p += c->fb.pitch)
		__builtin_memcpy(p, c->pixels[g[y]], FONT_W * 4);
	c->shown[row][col] = ch;
	c->st.glyphs++;
}

static void sync_cell(struct fbcon *c, unsigned row, unsigned col)
{
	if (c->want[row][col] != c->shown[row][col])
		draw_cell(c, row, col, c->want[row][col]);
}

/* The text moves up by c->jump rows; only cells that now show another
 * character are drawn. */
static void scroll(struct fbcon *c)
{
	unsigned keep = c->rows - c->jump;

	memmove(c->want[0], c->want[c->jump], (size_t)keep * FBCON_MAX_COLS);
	memset(c->want[keep], ' ', (size_t)c->jump * FBCON_MAX_COLS);
	for (unsigned r = 0; r < c->rows; r++)
		for (unsigned col = 0; col < c->cols; col++)
			sync_cell(c, r, col);
	c->cy = keep;
	c->st.scrolls++;
}

static void new_line(struct fbcon *c)
{
	c->cx = 0;
	if (++c->cy == c->rows)
		scroll(c);
}

static void put_char(struct fbcon *c, char ch)
{
	if (c->cx == c->cols)
		new_line(c);
	c->want[c->cy][c->cx] = ch;
	sync_cell(c, c->cy, c->cx);
	c->cx++;
}

/* ESC [ parameters final: a CSI sequence ends with a byte 0x40-0x7e. Other
 * ESC sequences are taken as two bytes. None of them is drawn. */
static bool in_escape(struct fbcon *c, unsigned char b)
{
	switch (c->esc) {
	case ESC_START:
		c->esc = b == '[' ? ESC_CSI : ESC_NONE;
		return true;
	case ESC_CSI:
		if (b >= 0x40 && b <= 0x7e)
			c->esc = ESC_NONE;
		return true;
	default:
		if (b != 0x1b)
			return false;
		c->esc = ESC_START;
		return true;
	}
}

static void put_byte(struct fbcon *c, unsigned char b)
{
	if (in_escape(c, b))
		return;
	if (b >= FONT_FIRST && b <= FONT_LAST) {
		put_char(c, (char)b);
	} else if (b == '\n') {
		new_line(c);
	} else if (b == '\r') {
		c->cx = 0;
	} else if (b == '\b') {
		if (c->cx)
			c->cx--;
	} else if (b == '\t') {
		do
			put_char(c, ' ');
		while (c->cx % 8 && c->cx < c->cols);
	} else if (b >= 0xc0) {
		put_char(c, '?');	/* a UTF-8 lead byte: one '?' per char */
	}
	/* 0x80-0xbf (UTF-8 continuation bytes) and other controls: nothing */
}

void fbcon_write(struct fbcon *c, const char *s, size_t n)
{
	c->st.bytes += n;
	for (size_t i = 0; i < n; i++)
		put_byte(c, (unsigned char)s[i]);
}

static void clear_screen(struct fbcon *c)
{
	for (unsigned y = 0; y < c->fb.height; y++) {
		volatile uint32_t *p = pixel_row(c, y);

		for (unsigned x = 0; x < c->fb.width; x++)
			p[x] = c->bg;
	}
	memset(c->want, ' ', sizeof(c->want));
	memset(c->shown, ' ', sizeof(c->shown));
}

int fbcon_init(struct fbcon *c, const struct fbcon_fb *fb, uint32_t fg_rgb,
	       uint32_t bg_rgb)
{
	memset(c, 0, sizeof(*c));
	if (!fb->base || fb->width < FONT_W || fb->height < FONT_H ||
	    fb->pitch < fb->width * 4 || !fb->red_mask || !fb->green_mask ||
	    !fb->blue_mask)
		return -1;
	c->fb = *fb;
	c->fg = fbcon_pixel(fb, fg_rgb);
	c->bg = fbcon_pixel(fb, bg_rgb);
	/* pixels[b]: the 8 pixels of glyph row bits b (bit 7 = leftmost) */
	for (unsigned b = 0; b < 256; b++)
		for (unsigned x = 0; x < FONT_W; x++)
			c->pixels[b][x] = b & (0x80u >> x) ? c->fg : c->bg;
	c->cols = fb->width / FONT_W;
	c->rows = fb->height / FONT_H;
	if (c->cols > FBCON_MAX_COLS)
		c->cols = FBCON_MAX_COLS;
	if (c->rows > FBCON_MAX_ROWS)
		c->rows = FBCON_MAX_ROWS;
	c->jump = c->rows > 1 ? c->rows / 2 : 1;
	clear_screen(c);
	return 0;
}
