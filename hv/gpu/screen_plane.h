/* The owner VM's screen on the box's screen when the hypervisor drives
 * the GPU (gpu=hw, gpu=model-mmio, gpu=model): the physical pipe A's
 * primary plane pointed at the owner's surface through the scanout
 * window of host GGTT (gpu/vgpu/display/vgpu_scanout.c), zero copy (issue 29
 * step 2; docs/display.md, "The physical plane"). hv/gpu/screen_compose.c
 * chooses this path when there is no GOP framebuffer to compose into. */
#ifndef HV_GPU_SCREEN_PLANE_H
#define HV_GPU_SCREEN_PLANE_H

#include <stdbool.h>
#include <stdint.h>

struct screen_plane_stats {
	uint64_t shows;		/* plane (re)programmed at a surface */
	uint64_t offs;		/* plane turned off */
	uint64_t refused;	/* the owner's plane refused: off */
	uint64_t mmio_writes;	/* plane registers written */
	uint64_t ptes;		/* window entries written */
	uint64_t last_tsc, max_tsc, total_tsc;	/* per show */
	uint32_t last_mmio, last_ptes;	/* the last show's */
	uint64_t cursor_shows;	/* cursor (re)programmed: a move or new image */
	uint64_t cursor_offs;	/* cursor off: refused, off, or the plane off */
};

/* Is there a lit physical pipe A to show a VM on? (The mediator is up and
 * the firmware left the pipe enabled: the takeover keeps it.) */
bool screen_plane_available(void);
/* vms[vm] (a VM with a vGPU) is the owner from now on: its plane shown
 * at once, or the plane off with the reason printed. */
void screen_plane_start(int vm);
/* No VM owns the screen: the plane off, the window black. */
void screen_plane_stop(void);
/* One main-loop round: follow the owner's flips, GGTT writes, refusals
 * and stop. */
void screen_plane_poll(void);
const struct screen_plane_stats *screen_plane_stats(void);

#endif
