/* A picture as text on the console: its pixels run-length coded, in
 * base64 between two marker lines,
 *     -----BEGIN RLE <name> <w>x<h>-----
 *     gP8AAP8AAIEAAAA... (64 characters a line)
 *     -----END RLE-----
 * The coded bytes are PackBits over 3-byte RGB pixels in raster order: a
 * byte c < 128 is a run, the next pixel c + 1 times; c >= 128 is c - 127
 * literal pixels that follow. A screen of text (mostly background) is a
 * tenth of the raw size, a full picture at most 1/384 larger. Written a
 * few pixels at a time, so a caller can spread a large picture over many
 * rounds of the main loop (hv/shell/shell_screen_cmds.c).
 * tools/console2png turns every block of a console log into a PNG. Pure:
 * the caller gives the sink; host-tested (tests/unit/test_screen_ppm.c). */
#ifndef HV_SHELL_SCREEN_PPM_H
#define HV_SHELL_SCREEN_PPM_H

#include <stddef.h>
#include <stdint.h>

#define PPM_LINE_CHARS 64u /* base64 characters a line: 48 bytes */
#define PPM_RUN_MAX 128u   /* pixels in one run or literal */

typedef void (*ppm_emit_fn)(void *arg, const char *s, size_t n);

struct ppm_out {
	ppm_emit_fn emit;
	void *arg;
	uint8_t carry[3];	/* bytes waiting for a full base64 group */
	unsigned ncarry;
	char line[PPM_LINE_CHARS + 1];
	unsigned col;		/* characters in line */
	uint64_t bytes;		/* coded bytes so far */
	uint64_t pixels;	/* pixels coded so far */
	uint32_t run_px;	/* the pending run's pixel */
	unsigned run;		/* its length, 0: none */
	uint32_t lit[PPM_RUN_MAX];	/* pending literal pixels */
	unsigned nlit;
};

/* The BEGIN line. name: printable, no spaces (it is cut at the first
 * one). */
void ppm_begin(struct ppm_out *o, ppm_emit_fn emit, void *arg,
	       const char *name, uint32_t w, uint32_t h);
/* n pixels, each 0x00RRGGBB, in raster order. */
void ppm_pixels(struct ppm_out *o, const uint32_t *rgb, size_t n);
/* The pending run or literal, the last group (padded), the last line
 * and the END line. */
void ppm_end(struct ppm_out *o);

#endif
