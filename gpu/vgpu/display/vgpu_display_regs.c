/* The display area's part of the register table (mmio/mmio.h): port D's
 * DDI buffer and DP transport, its AUX channel to the virtual monitor, the
 * pipes (vgpu_display.c), and SDE's interrupt bank, whose ISR reads the
 * monitor's live hotplug line. Joined with the other areas' parts at
 * gvt_create (vgpu_create.c); the display ranges around these are the
 * register area's own (mmio/vgpu_mmio_table.c). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/display/display.h"

/* SDE's bank is the interrupt tree's (mmio/vgpu_irq.c) but for its ISR:
 * live where the monitor is plugged in (vgpu_display_isr). */
static int sde_irq_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	if (off == SDEISR) {
		*val = vgpu_display_isr(v, off);
		return 0;
	}
	return vgpu_irq_read(v, off, val);
}

static const struct mmio_range display_ranges[] = {
	{ DDI_BUF_CTL_D, DDI_BUF_CTL_D + 3, MMIO_EMULATED, 0,
	  vgpu_ddi_d_read, vgpu_ddi_d_write, "ddi buf d" },
	{ VDISP_AUX_PORT_D_CTL, VDISP_AUX_PORT_D_CTL + VDISP_AUX_SPAN - 1,
	  MMIO_EMULATED, 0, vgpu_aux_d_read, vgpu_aux_d_write, "aux d monitor" },
	{ DP_TP_CTL_D, DP_TP_STATUS_D + 3, MMIO_EMULATED, 0,
	  vgpu_ddi_d_read, vgpu_ddi_d_write, "dp tp d" },
	{ PIPE_A_FIRST, PIPE_C_LAST, MMIO_EMULATED, 0,
	  vgpu_pipe_read, vgpu_pipe_write, "pipes" },
	{ SDEISR, SDEIER + 3, MMIO_EMULATED, 0, sde_irq_read, vgpu_irq_write,
	  "sde irq" },
	{ PCH_PORT_HOTPLUG, PCH_PORT_HOTPLUG + 3, MMIO_EMULATED, 0, NULL,
	  vgpu_pch_hotplug_write, "pch port hotplug" },
};

const struct mmio_part display_regs_part = {
	.area = "display",
	.ranges = display_ranges,
	.n = sizeof(display_ranges) / sizeof(display_ranges[0]),
};
