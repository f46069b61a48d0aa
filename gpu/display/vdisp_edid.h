/* The virtual monitor's identity: its mode table, the vgpu_display=WxH
 * parser and the EDID 1.4 base block it hands to the guest over the DDC
 * (I2C address 0x50, read through the DP AUX channel: vdisp_aux.h).
 *
 * Freestanding: no allocation, no global state beyond const tables. */
#ifndef GPU_DISPLAY_VDISP_EDID_H
#define GPU_DISPLAY_VDISP_EDID_H

#include <stddef.h>
#include <stdint.h>

#define VDISP_EDID_SIZE 128	/* one base block, no extensions */

/* Sync polarity, as EDID's detailed timing flags carry it. */
#define VDISP_HSYNC_POS (1u << 0)
#define VDISP_VSYNC_POS (1u << 1)

/* One mode: VESA DMT timings (front porch, sync, back porch in pixels and
 * lines). est_byte/est_bit place it in EDID's established timings when it
 * has a bit there; std_aspect is its standard-timing aspect code (EDID 1.3+:
 * 0 16:10, 1 4:3, 2 5:4, 3 16:9) otherwise. */
struct vdisp_mode {
	const char *name;	/* "1024x768": what vgpu_display= takes */
	uint32_t clock_khz;
	uint16_t hactive, hfront, hsync, hback;
	uint16_t vactive, vfront, vsync, vback;
	uint8_t flags;		/* VDISP_HSYNC_POS | VDISP_VSYNC_POS */
	uint8_t est_byte, est_bit;
	uint8_t std_aspect;
};

static inline uint32_t vdisp_mode_htotal(const struct vdisp_mode *m)
{
	return (uint32_t)m->hactive + m->hfront + m->hsync + m->hback;
}

static inline uint32_t vdisp_mode_vtotal(const struct vdisp_mode *m)
{
	return (uint32_t)m->vactive + m->vfront + m->vsync + m->vback;
}

/* The table, smallest first; vdisp_mode_default() is 1024x768. */
extern const struct vdisp_mode vdisp_modes[];
extern const size_t vdisp_mode_count;
const struct vdisp_mode *vdisp_mode_default(void);

/* Every name in the table, space-separated, in table order: the tail of
 * the error vdisp_mode_parse gives (the unit test holds the two equal). */
#define VDISP_MODE_NAMES \
	"640x480 800x600 1024x768 1280x720 1280x1024 1920x1080"
/* Its ends, for an error line too short for the whole list. */
#define VDISP_MODE_FIRST "640x480"
#define VDISP_MODE_LAST "1920x1080"

/* The mode a vgpu_display= value names, or NULL with *err set to a
 * sentence naming the allowed values (static storage). */
const struct vdisp_mode *vdisp_mode_parse(const char *value, const char **err);

/* Writes the 128-byte EDID base block for mode m; serial tells one vGPU's
 * monitor from another's (EDID bytes 12-15). */
void vdisp_edid_build(uint8_t edid[VDISP_EDID_SIZE],
		      const struct vdisp_mode *m, uint32_t serial);

#endif
