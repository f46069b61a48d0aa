/* PPM in base64 between marker lines (screen_ppm.h). */
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
	n = snprintf(line, sizeof(line), "-----BEGIN PPM %s %ux%u-----\n", nm,
		     w, h);
	emit(arg, line, (size_t)n);
	n = snprintf(line, sizeof(line), "P6\n%u %u\n255\n", w, h);
	put_bytes(o, (const uint8_t *)line, (size_t)n);
}

void ppm_pixels(struct ppm_out *o, const uint32_t *rgb, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint8_t px[3] = { (uint8_t)(rgb[i] >> 16), (uint8_t)(rgb[i] >> 8),
				  (uint8_t)rgb[i] };

		put_bytes(o, px, 3);
	}
}

void ppm_end(struct ppm_out *o)
{
	static const char end[] = "-----END PPM-----\n";

	if (o->ncarry)
		group(o, o->carry, o->ncarry);
	o->ncarry = 0;
	flush_line(o);
	o->emit(o->arg, end, sizeof(end) - 1);
}
