/* Run-length coded pixels in base64 between marker lines (screen_ppm.h). */
#include "hv/shell/screen_ppm.h"

#include "mini/stdio.h"
#include "mini/string.h"

static const char b64[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void flush_line(struct ppm_out *o)
{
	if (!o->col)
		return;
	o->line[o->col] = '\n';
	o->emit(o->arg, o->line, o->col + 1);
	o->col = 0;
}

static void put4(struct ppm_out *o, const char c[4])
{
	memcpy(o->line + o->col, c, 4);
	o->col += 4;
	if (o->col == PPM_LINE_CHARS)
		flush_line(o);
}

/* Three bytes -> four characters; n < 3 pads with '='. */
static void group(struct ppm_out *o, const uint8_t *b, unsigned n)
{
	uint32_t v = (uint32_t)b[0] << 16 | (n > 1 ? (uint32_t)b[1] << 8 : 0) |
		     (n > 2 ? b[2] : 0);
	char c[4] = { b64[v >> 18 & 63], b64[v >> 12 & 63],
		      n > 1 ? b64[v >> 6 & 63] : '=', n > 2 ? b64[v & 63] : '=' };

	put4(o, c);
}

static void put_bytes(struct ppm_out *o, const uint8_t *b, size_t n)
{
	o->bytes += n;
	while (n) {
		o->carry[o->ncarry++] = *b++;
		n--;
		if (o->ncarry == 3) {
			group(o, o->carry, 3);
			o->ncarry = 0;
		}
	}
}

static void put_pixel(struct ppm_out *o, uint32_t px)
{
	uint8_t b[3] = { (uint8_t)(px >> 16), (uint8_t)(px >> 8), (uint8_t)px };

	put_bytes(o, b, 3);
}

static void flush_run(struct ppm_out *o)
{
	uint8_t c = (uint8_t)(o->run - 1);

	if (!o->run)
		return;
	put_bytes(o, &c, 1);
	put_pixel(o, o->run_px);
	o->run = 0;
}

static void flush_lit(struct ppm_out *o)
{
	uint8_t c = (uint8_t)(127 + o->nlit);
	unsigned i;

	if (!o->nlit)
		return;
	put_bytes(o, &c, 1);
	for (i = 0; i < o->nlit; i++)
		put_pixel(o, o->lit[i]);
	o->nlit = 0;
}

/* One pixel into the pending run or literal: two equal pixels end a
 * literal and start a run. */
static void code_pixel(struct ppm_out *o, uint32_t px)
{
	if (o->run) {
		if (px == o->run_px && o->run < PPM_RUN_MAX) {
			o->run++;
			return;
		}
		flush_run(o);
	}
	if (o->nlit && o->lit[o->nlit - 1] == px) {
		o->nlit--;
		flush_lit(o);
		o->run_px = px;
		o->run = 2;
		return;
	}
	o->lit[o->nlit++] = px;
	if (o->nlit == PPM_RUN_MAX)
		flush_lit(o);
}

void ppm_begin(struct ppm_out *o, ppm_emit_fn emit, void *arg,
	       const char *name, uint32_t w, uint32_t h)
{
	char line[96], nm[32];
	size_t i;
	int n;

	memset(o, 0, sizeof(*o));
	o->emit = emit;
	o->arg = arg;
	for (i = 0; name[i] && name[i] != ' ' && i + 1 < sizeof(nm); i++)
		nm[i] = name[i] > ' ' && name[i] < 0x7f ? name[i] : '_';
	nm[i] = 0;
	n = snprintf(line, sizeof(line), "-----BEGIN RLE %s %ux%u-----\n", nm,
		     w, h);
	emit(arg, line, (size_t)n);
}

void ppm_pixels(struct ppm_out *o, const uint32_t *rgb, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		code_pixel(o, rgb[i] & 0xffffffu);
	o->pixels += n;
}

void ppm_end(struct ppm_out *o)
{
	static const char end[] = "-----END RLE-----\n";

	flush_run(o);
	flush_lit(o);
	if (o->ncarry)
		group(o, o->carry, o->ncarry);
	o->ncarry = 0;
	flush_line(o);
	o->emit(o->arg, end, sizeof(end) - 1);
}
