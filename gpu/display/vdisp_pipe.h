/* One display pipe's timing: the vblank clock of a running pipe, its
 * frame and flip counters, and the double-buffered plane surfaces that
 * latch at vblank (docs/display.md, "Pipes, planes and vblank").
 *
 * Time comes from the caller (nanoseconds, monotonic), so the library
 * has no clock of its own: the mediator passes hv_ops' now_ns, the tests
 * a number they choose. A pipe that is off has no schedule and costs
 * nothing; vdisp_pipe_tick on it returns at once.
 *
 * The vGPU wires pipes A-C's registers here (gpu/vgpu/display/vgpu_display.c). */
#ifndef GPU_DISPLAY_VDISP_PIPE_H
#define GPU_DISPLAY_VDISP_PIPE_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/display/vdisp_edid.h"

#define VDISP_PIPES		3	/* Skylake: pipes A, B, C */
#define VDISP_PLANES		3	/* universal planes 1-3 of a pipe */
#define VDISP_CURSOR		VDISP_PLANES	/* surface index of the cursor */
#define VDISP_SURFACES		(VDISP_PLANES + 1)
/* A tick that finds more vblanks due than this (the caller ran late)
 * counts this many: the guest sees a late frame, never a burst. */
#define VDISP_CATCHUP_MAX	4u

struct vdisp_pipe {
	bool on;
	uint64_t period_ns;	/* one frame */
	uint64_t next_ns;	/* when the next vblank starts */
	uint32_t frames;	/* PIPE_FRMCOUNT */
	uint32_t flips;		/* PIPE_FLIPCOUNT: primary plane latches */
	uint32_t live[VDISP_SURFACES];	/* PLANE_SURFLIVE / CURSURFLIVE */
	uint32_t armed_surf[VDISP_SURFACES];
	uint8_t armed;		/* bit s: surface s latches at the next vblank */
};

/* What one tick delivered. */
struct vdisp_tick {
	uint32_t vblanks;	/* 0: nothing happened */
	uint8_t flipped;	/* bit s: surface s latched (plane s+1; bit 3 cursor) */
};

/* One frame of mode m in nanoseconds (DMT timings: about 16.7 ms). */
uint64_t vdisp_mode_frame_ns(const struct vdisp_mode *m);

void vdisp_pipe_reset(struct vdisp_pipe *p);
/* The pipe starts at now, at the start of a vblank; the first vblank
 * event is one period later. Turning on a running pipe changes nothing. */
void vdisp_pipe_on(struct vdisp_pipe *p, uint64_t now, uint64_t period_ns);
/* Stops the clock; counters and live surfaces keep their values. An
 * armed surface latches now: with no vblank to wait for, a disabled
 * pipe's registers take effect at once. */
void vdisp_pipe_off(struct vdisp_pipe *p);
/* A write of surface s (PLANE_SURF of plane s+1, or CURBASE): latched at
 * the next vblank while the pipe runs, at once while it is off. A second
 * write before the vblank replaces the first. s out of range: ignored. */
void vdisp_pipe_arm(struct vdisp_pipe *p, unsigned s, uint32_t surf);
/* Delivers the vblanks due by now: at most VDISP_CATCHUP_MAX counted,
 * armed surfaces latched once. O(1) whatever the gap. */
struct vdisp_tick vdisp_pipe_tick(struct vdisp_pipe *p, uint64_t now);
/* The scan line at now (PIPEDSL), given the transcoder's vertical total
 * and first vblank line as the guest programmed them: vbl_start at each
 * vblank, counting up through vtotal - 1 and wrapping to 0. 0 when off
 * or when the timings make no sense (vtotal 0). */
uint32_t vdisp_pipe_line(const struct vdisp_pipe *p, uint64_t now,
			 uint32_t vtotal, uint32_t vbl_start);

#endif
