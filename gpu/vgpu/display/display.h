/* The vGPU's display (gpu/vgpu/display/, docs/display.md): port D's virtual
 * monitor, pipes and vblanks, and the physical plane's scanout window. The
 * monitor's protocols are gpu/display/'s. Private to the mediator. */
#ifndef GPU_VGPU_DISPLAY_DISPLAY_H
#define GPU_VGPU_DISPLAY_DISPLAY_H

#include "gpu/vgpu/vgpu_priv.h"

/* The area's part of the register table (vgpu_display_regs.c,
 * mmio/mmio.h): port D, the pipes, SDE's interrupt bank. */
extern const struct mmio_part display_regs_part;
/* ---- the scanout window (vgpu_scanout.c) ------------------------------- */

void vgpu_scanout_forget(struct vgpu *v);
void gvt_scanout_fini(struct gvt *gvt);


/* ---- the virtual monitor (vgpu_display.c, docs/display.md) ---- */
/* Port D's monitor and its live status, after the vreg file and the
 * interrupt registers are (re)initialised: at creation and at reset. */
void vgpu_display_init(struct vgpu *v);
/* The live bits an interrupt bank's ISR reads (SDEISR: port D's hotplug
 * line while a monitor is plugged in); 0 for every other bank. */
uint32_t vgpu_display_isr(struct vgpu *v, uint32_t isr);
/* PCH_PORT_HOTPLUG: hotplug detection enables and write-1-to-clear status. */
int vgpu_pch_hotplug_write(struct vgpu *v, uint32_t off, uint32_t val);
int vgpu_aux_d_read(struct vgpu *v, uint32_t off, uint32_t *val);
int vgpu_aux_d_write(struct vgpu *v, uint32_t off, uint32_t val);
/* Port D's DDI buffer and DisplayPort transport (DDI_BUF_CTL(D),
 * DP_TP_CTL(D), DP_TP_STATUS(D)). */
int vgpu_ddi_d_read(struct vgpu *v, uint32_t off, uint32_t *val);
int vgpu_ddi_d_write(struct vgpu *v, uint32_t off, uint32_t val);

/* Pipes A-C's register blocks (0x70000-0x72fff): PIPEDSL, PIPECONF,
 * the frame and flip counters, plane and cursor surfaces. */
int vgpu_pipe_read(struct vgpu *v, uint32_t off, uint32_t *val);
int vgpu_pipe_write(struct vgpu *v, uint32_t off, uint32_t val);
/* Every running pipe's vblanks due by now (from gvt_poll); returns at
 * once while no vGPU has a pipe on. */
void gvt_display_tick(struct gvt *gvt);
/* Re-evaluate the master and inject an MSI when due. */

#endif
