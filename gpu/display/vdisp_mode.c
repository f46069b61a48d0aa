/* The virtual monitor's modes and the vgpu_display=WxH parser.
 *
 * Every mode is a VESA DMT timing at 60 Hz (640x480 is DMT's 59.94 Hz), so
 * a guest driver that checks a mode against its own DMT table finds it
 * there, and the pixel clock is one every Gen9 DPLL setting can reach. */
#include "gpu/display/vdisp_edid.h"
#include "mini/string.h"

#define NEG 0
#define POS (VDISP_HSYNC_POS | VDISP_VSYNC_POS)
#define NO_EST 0, 0

/* name, kHz, h active/front/sync/back, v active/front/sync/back, sync
 * polarity, established-timing byte and bit (or none), standard aspect. */
const struct vdisp_mode vdisp_modes[] = {
	{ "640x480", 25175, 640, 16, 96, 48, 480, 10, 2, 33, NEG, 35, 5, 1 },
	{ "800x600", 40000, 800, 40, 128, 88, 600, 1, 4, 23, POS, 35, 0, 1 },
	{ "1024x768", 65000, 1024, 24, 136, 160, 768, 3, 6, 29, NEG, 36, 3, 1 },
	{ "1280x720", 74250, 1280, 110, 40, 220, 720, 5, 5, 20, POS, NO_EST, 3 },
	{ "1280x1024", 108000, 1280, 48, 112, 248, 1024, 1, 3, 38, POS, NO_EST, 2 },
	{ "1920x1080", 148500, 1920, 88, 44, 148, 1080, 4, 5, 36, POS, NO_EST, 3 },
};
const size_t vdisp_mode_count = sizeof(vdisp_modes) / sizeof(vdisp_modes[0]);

/* GVT's virtual monitor defaults to 1024x768 too: every guest driver and
 * fbcon font fits it, and its framebuffer (3 MiB) fits a small GM share. */
#define DEFAULT_MODE 2

const struct vdisp_mode *vdisp_mode_default(void)
{
	return &vdisp_modes[DEFAULT_MODE];
}

const struct vdisp_mode *vdisp_mode_parse(const char *value, const char **err)
{
	/* Exact names only: "01024x768" or "1024X768" are typos, and a typo
	 * in hv.cfg should be refused, not guessed at. */
	for (size_t i = 0; value && i < vdisp_mode_count; i++)
		if (!strcmp(value, vdisp_modes[i].name))
			return &vdisp_modes[i];
	if (err)
		*err = "vgpu_display takes one of " VDISP_MODE_NAMES;
	return NULL;
}
