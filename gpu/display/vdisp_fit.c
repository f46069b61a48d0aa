/* Fitting one picture into another (see vdisp_fit.h). */
#include "gpu/display/vdisp_fit.h"

int vdisp_fit(struct vdisp_fit *f, uint32_t sw, uint32_t sh, uint32_t dw,
	      uint32_t dh)
{
	uint32_t kx, ky;

	*f = (struct vdisp_fit){ .sw = sw, .sh = sh, .dw = dw, .dh = dh };
	if (!sw || !sh || !dw || !dh)
		return -1;
	kx = dw / sw;
	ky = dh / sh;
	f->k = kx < ky ? kx : ky;
	if (f->k) {
		f->w = sw * f->k;
		f->h = sh * f->k;
	} else if ((uint64_t)sw * dh >= (uint64_t)sh * dw) {
		/* Wider than the screen's shape: full width, bars above. */
		f->w = dw;
		f->h = (uint32_t)((uint64_t)sh * dw / sw);
	} else {
		f->h = dh;
		f->w = (uint32_t)((uint64_t)sw * dh / sh);
	}
	f->w = f->w ? f->w : 1;
	f->h = f->h ? f->h : 1;
	f->x = (dw - f->w) / 2;
	f->y = (dh - f->h) / 2;
	return 0;
}

uint32_t vdisp_fit_src_row(const struct vdisp_fit *f, uint32_t y)
{
	if (!f->h || y < f->y || y - f->y >= f->h)
		return VDISP_FIT_NONE;
	return (uint32_t)((uint64_t)(y - f->y) * f->sh / f->h);
}

void vdisp_fit_row(const struct vdisp_fit *f, const uint32_t *src,
		   uint32_t *dst)
{
	uint32_t x, sx = 0, acc = 0;

	for (x = 0; x < f->x; x++)
		dst[x] = 0;
	if (f->k == 1) {	/* 1:1: a copy */
		for (x = 0; x < f->w; x++)
			dst[f->x + x] = src[x];
	} else if (f->k) {	/* whole factor: each source pixel k times */
		for (x = 0; x < f->w; x += f->k, sx++)
			for (acc = 0; acc < f->k; acc++)
				dst[f->x + x + acc] = src[sx];
	}
	/* Nearest: source column (x * sw) / w, stepped without a division. */
	for (x = f->k ? f->w : 0; x < f->w; x++) {
		dst[f->x + x] = src[sx];
		acc += f->sw;
		while (acc >= f->w) {
			acc -= f->w;
			sx++;
		}
	}
	for (x = f->x + f->w; x < f->dw; x++)
		dst[x] = 0;
}
