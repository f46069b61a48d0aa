/* Fitting one picture into another (issue 29, composition of the owner
 * VM's primary plane into the box's screen; docs/display.md, "The owner's
 * screen on the box's screen"). Pure: host-tested
 * (tests/unit/test_display_fit.c).
 *
 * The rule: the aspect ratio is kept and the picture is centred, the bars
 * around it black (letterbox or pillarbox). A picture that fits is
 * magnified by the largest whole factor that still fits (1 when it only
 * fits as it is), so every source pixel becomes the same k x k block and
 * nothing is distorted; a picture larger than the screen is shrunk with
 * nearest-neighbour sampling until it fits (some rows and columns are
 * dropped, none is cut off). */
#ifndef GPU_DISPLAY_VDISP_FIT_H
#define GPU_DISPLAY_VDISP_FIT_H

#include <stdbool.h>
#include <stdint.h>

#define VDISP_FIT_NONE UINT32_MAX	/* a destination pixel in a bar */

struct vdisp_fit {
	uint32_t sw, sh;	/* source picture */
	uint32_t dw, dh;	/* destination (the box's screen) */
	uint32_t x, y, w, h;	/* the picture's rectangle on the destination */
	uint32_t k;		/* whole magnification, 0 when shrunk */
};

/* Fits sw x sh into dw x dh; -1 when a size is 0 (nothing fitted). */
int vdisp_fit(struct vdisp_fit *f, uint32_t sw, uint32_t sh, uint32_t dw,
	      uint32_t dh);
/* The source row shown on destination row y, VDISP_FIT_NONE in a bar or
 * below the screen. */
uint32_t vdisp_fit_src_row(const struct vdisp_fit *f, uint32_t y);
/* Destination row dst[0 .. dw - 1] from source row src[0 .. sw - 1]
 * (0x00RRGGBB): the bars black, the picture sampled nearest. */
void vdisp_fit_row(const struct vdisp_fit *f, const uint32_t *src,
		   uint32_t *dst);

#endif
