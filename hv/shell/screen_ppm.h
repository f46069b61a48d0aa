/* A picture as text on the console: a binary PPM (P6) in base64 between
 * two marker lines,
 *     -----BEGIN PPM <name> <w>x<h>-----
 *     UDYKMTAyNCA3NjgKMjU1Cg... (64 characters a line)
 *     -----END PPM-----
 * written a few pixels at a time, so a caller can spread a large picture
 * over many rounds of the main loop (hv/shell/shell_screen_cmds.c).
 * tools/console2png turns every block of a console log into a PNG. Pure:
 * the caller gives the sink; host-tested (tests/unit/test_screen_ppm.c). */
#ifndef HV_SHELL_SCREEN_PPM_H
#define HV_SHELL_SCREEN_PPM_H

#include <stddef.h>
#include <stdint.h>

#define PPM_LINE_CHARS 64u /* base64 characters a line: 48 bytes */

typedef void (*ppm_emit_fn)(void *arg, const char *s, size_t n);

struct ppm_out {
	ppm_emit_fn emit;
	void *arg;
	uint8_t carry[3];	/* bytes waiting for a full base64 group */
	unsigned ncarry;
	char line[PPM_LINE_CHARS + 1];
	unsigned col;		/* characters in line */
	uint64_t bytes;		/* PPM bytes encoded so far */
};

/* The BEGIN line and the PPM header. name: printable, no spaces (it is
 * cut at the first one). */
void ppm_begin(struct ppm_out *o, ppm_emit_fn emit, void *arg,
	       const char *name, uint32_t w, uint32_t h);
/* n pixels, each 0x00RRGGBB, in raster order. */
void ppm_pixels(struct ppm_out *o, const uint32_t *rgb, size_t n);
/* The last group (padded), the last line and the END line. */
void ppm_end(struct ppm_out *o);

#endif
