/* The framebuffer console's font: 8x16 pixel glyphs for printable ASCII
 * (0x20-0x7e), drawn for this project (see hv/console/fbcon_font.c), shared by the
 * hypervisor and the host tool that reads screens back (tools/fbcheck.c). */
#ifndef HV_FBCON_FONT_H
#define HV_FBCON_FONT_H

#include <stdint.h>

#define FONT_W 8
#define FONT_H 16
#define FONT_FIRST 0x20
#define FONT_LAST 0x7e
#define FONT_GLYPHS (FONT_LAST - FONT_FIRST + 1)

/* Row y of glyph c, bit 7 = leftmost pixel; c outside the printable range
 * gives '?'. */
const uint8_t *font_glyph(unsigned char c);

/* Checks the art the table is written in: returns -1 when every glyph has
 * 16 rows of 8 '.'/'#', else the index of the first glyph that does not. */
int font_check(void);

#endif
