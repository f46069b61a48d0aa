/* The physical pipe's primary plane, as the hypervisor points it at the
 * owner VM's surface (issue 29 step 2, docs/display.md "The physical
 * plane"). Skylake's universal plane registers, one set per plane per
 * pipe, as i915's skl_universal_plane.c programs them: PLANE_STRIDE,
 * PLANE_POS, PLANE_SIZE, PLANE_OFFSET, PLANE_CTL, and PLANE_SURF last,
 * whose write arms the others to latch at the next vblank.
 *
 * Nothing here decides what is safe to show: the caller gives register
 * values built from a plane it checked and a surface address in GGTT
 * space it filled itself. Only registers whose value changed are
 * written (PLANE_SURF always, it arms the update), so a flip that moves
 * only the surface costs one MMIO write. */
#ifndef GPU_HW_PGPU_PLANE_H
#define GPU_HW_PGPU_PLANE_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/hw/gpu_hw.h"

#define SKL_PIPESRC(pipe)		(0x6001c + 0x1000 * (pipe))
#define SKL_PLANE1(pipe, reg)		(0x70180 + 0x1000 * (pipe) + (reg))
#define SKL_PLANE_CTL_1			0x00	/* 0x70180 on pipe A */
#define SKL_PLANE_STRIDE_1		0x08	/* 0x70188 */
#define SKL_PLANE_POS_1			0x0c	/* 0x7018c */
#define SKL_PLANE_SIZE_1		0x10	/* 0x70190 */
#define SKL_PLANE_SURF_1		0x1c	/* 0x7019c */
#define SKL_PLANE_OFFSET_1		0x24	/* 0x701a4 */
#define SKL_CURCNTR(pipe)		(0x70080 + 0x1000 * (pipe))
#define SKL_CURBASE(pipe)		(0x70084 + 0x1000 * (pipe))
#define SKL_CURPOS(pipe)		(0x70088 + 0x1000 * (pipe))
#define SKL_TRANSCONF_A			0x70008	/* as pgpu_takeover.h's SKL_TRANSCONF(0) */
#define SKL_TRANSCONF_ENABLE		(1u << 31)

/* One plane's values, in the hardware's encodings: stride in 64-byte
 * (linear) or tile-width units; pos, size and offset as y << 16 | x
 * (size as (h - 1) << 16 | (w - 1)); surf a 4 KiB-aligned GGTT address. */
struct pgpu_plane_regs {
	uint32_t ctl, stride, pos, size, offset, surf;
};

/* The pipe's cursor: CURCNTR (mode), CURPOS (sign-magnitude x, y) and
 * CURBASE (a 4 KiB-aligned GGTT address), whose write arms the others. */
struct pgpu_cursor_regs {
	uint32_t ctl, pos, base;
};

/* What the hypervisor last wrote to one pipe's plane 1 and cursor, so a
 * flip or a move writes only what changed. */
struct pgpu_plane {
	struct gpu_hw *hw;
	unsigned pipe;
	bool on, cursor_on;
	struct pgpu_plane_regs cur;
	struct pgpu_cursor_regs cursor;
	uint64_t writes;	/* MMIO register writes since init */
};

void pgpu_plane_init(struct pgpu_plane *p, struct gpu_hw *hw, unsigned pipe);
/* The pipe's source size from PIPESRC while the transcoder is enabled (the
 * mode the firmware lit, kept by the takeover); -GPU_ENODEV when the pipe
 * is off. */
int pgpu_plane_pipe_size(struct pgpu_plane *p, uint32_t *w, uint32_t *h);
/* Writes r (changed registers, then PLANE_SURF); the MMIO writes it took. */
unsigned pgpu_plane_show(struct pgpu_plane *p, const struct pgpu_plane_regs *r);
/* PLANE_CTL 0 then PLANE_SURF 0, as skl_plane_disable_arm; the writes it
 * took (0 when already off). */
unsigned pgpu_plane_off(struct pgpu_plane *p);
/* The cursor: CURCNTR and CURPOS when changed, then CURBASE (i915's
 * i9xx_cursor_update_arm order); the MMIO writes it took. */
unsigned pgpu_cursor_show(struct pgpu_plane *p, const struct pgpu_cursor_regs *r);
/* CURCNTR 0 then CURBASE 0; 0 writes when already off. */
unsigned pgpu_cursor_off(struct pgpu_plane *p);

#endif
