/* fbcheck SCREEN.ppm: reads the text on a screen dump of the framebuffer
 * console (QEMU's `screendump`, a binary PPM) and prints it, one line per
 * character row, trailing blanks cut.
 *
 * It is an exact OCR: the screen is cut into the console's 8x16 cells from
 * the top-left corner; a cell of one colour is a blank, a cell of two
 * colours (the screen's background, the most common colour, and one other)
 * must equal a glyph of the console's own font (hv/console/fbcon_font.c, compiled
 * in) pixel for pixel. A cell that matches nothing is printed as DEL
 * (0x7f) and counted; the exit status is 1 when there is any, 2 when the
 * file is not a PPM this tool reads. Used by the fbcon-qemu emulator case
 * (tests/emu/cases/fbcon-qemu/check). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hv/console/fbcon_font.h"

#define UNKNOWN 0x7f

struct image {
	unsigned w, h;
	uint8_t *rgb;	/* w * h * 3 bytes */
};

static uint32_t pixel(const struct image *im, unsigned x, unsigned y)
{
	const uint8_t *p = im->rgb + ((size_t)y * im->w + x) * 3;

	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* Next whitespace-separated number of a PPM header ('#' comments). */
static int header_number(FILE *f, unsigned *out)
{
	int c;

	while ((c = fgetc(f)) == '#' || (c != EOF && strchr(" \t\r\n", c)))
		if (c == '#')
			while ((c = fgetc(f)) != EOF && c != '\n')
				;
	if (c == EOF || c < '0' || c > '9')
		return -1;
	*out = 0;
	do {
		*out = *out * 10 + (unsigned)(c - '0');
		c = fgetc(f);
	} while (c >= '0' && c <= '9' && *out < 100000);
	return c == EOF ? -1 : 0;	/* one whitespace byte ends it */
}

static int read_ppm(const char *path, struct image *im)
{
	FILE *f = fopen(path, "rb");
	unsigned maxval;
	size_t n;

	if (!f)
		return -1;
	if (fgetc(f) != 'P' || fgetc(f) != '6' || header_number(f, &im->w) ||
	    header_number(f, &im->h) || header_number(f, &maxval) ||
	    maxval != 255 || !im->w || !im->h || im->w > 16384 ||
	    im->h > 16384) {
		fclose(f);
		return -1;
	}
	n = (size_t)im->w * im->h * 3;
	im->rgb = malloc(n);
	if (!im->rgb || fread(im->rgb, 1, n, f) != n) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return 0;
}

/* The most common of the colours in the top-left pixel of every cell. */
static uint32_t background(const struct image *im)
{
	uint32_t best = pixel(im, 0, 0);
	unsigned best_n = 0;

	for (unsigned y = 0; y + FONT_H <= im->h; y += FONT_H * 4)
		for (unsigned x = 0; x + FONT_W <= im->w; x += FONT_W * 4) {
			uint32_t c = pixel(im, x, y);
			unsigned n = 0;

			for (unsigned yy = 0; yy + FONT_H <= im->h; yy += FONT_H)
				for (unsigned xx = 0; xx + FONT_W <= im->w;
				     xx += FONT_W)
					n += pixel(im, xx, yy) == c;
			if (n > best_n) {
				best_n = n;
				best = c;
			}
		}
	return best;
}

static int cell_char(const struct image *im, unsigned row, unsigned col,
		     uint32_t bg)
{
	uint8_t bits[FONT_H];
	uint32_t fg = bg;
	bool have_fg = false;

	for (unsigned y = 0; y < FONT_H; y++) {
		bits[y] = 0;
		for (unsigned x = 0; x < FONT_W; x++) {
			uint32_t c = pixel(im, col * FONT_W + x,
					   row * FONT_H + y);

			if (c == bg)
				continue;
			if (have_fg && c != fg)
				return UNKNOWN;	/* a third colour */
			fg = c;
			have_fg = true;
			bits[y] |= (uint8_t)(0x80u >> x);
		}
	}
	for (int ch = FONT_FIRST; ch <= FONT_LAST; ch++)
		if (!memcmp(font_glyph((unsigned char)ch), bits, FONT_H))
			return ch;
	return UNKNOWN;
}

int main(int argc, char **argv)
{
	struct image im;
	unsigned cols, rows, unknown = 0;
	uint32_t bg;
	char *line;

	if (argc != 2) {
		fprintf(stderr, "usage: fbcheck SCREEN.ppm\n");
		return 2;
	}
	if (read_ppm(argv[1], &im)) {
		fprintf(stderr, "fbcheck: %s: not a binary PPM (P6, 8 bits)\n",
			argv[1]);
		return 2;
	}
	cols = im.w / FONT_W;
	rows = im.h / FONT_H;
	bg = background(&im);
	line = malloc(cols + 1);
	if (!line)
		return 2;
	for (unsigned r = 0; r < rows; r++) {
		unsigned end = 0;

		for (unsigned c = 0; c < cols; c++) {
			int ch = cell_char(&im, r, c, bg);

			line[c] = (char)ch;
			unknown += ch == UNKNOWN;
			if (ch != ' ')
				end = c + 1;
		}
		line[end] = 0;
		puts(line);
	}
	if (unknown)
		fprintf(stderr, "fbcheck: %u of %u cells match no glyph\n",
			unknown, cols * rows);
	free(line);
	free(im.rgb);
	return unknown ? 1 : 0;
}
