/* The vGPU's virtual monitor (issue 29, docs/display.md): a DisplayPort
 * monitor on port D, as GVT-g places its own, that the guest's i915 finds
 * connected and reads over port D's AUX channel (gpu/display/vdisp_aux.c:
 * DPCD by native AUX, EDID by I2C-over-AUX).
 *
 * What i915 6.1 on Skylake reads before it talks AUX to port D:
 *  - no strap: with DISPLAY_VER >= 9 it creates the DDI encoders from the
 *    VBT (its defaults without one), never from SFUSE_STRAP (the probe
 *    in tests/fixtures/i915-probe.trace reads DDI_BUF_CTL(A..D) but not
 *    SFUSE_STRAP). SFUSE_STRAP's port D bit is set all the same, as
 *    GVT-g sets it, for drivers that still read it;
 *  - live status: port D's hotplug line in SDEISR (the Sunrise Point
 *    PCH's SDE_PORTD_HOTPLUG_CPT bit), read by its DP detect before any
 *    DPCD read. Only the ISR is live: no hotplug event is ever raised,
 *    the monitor is plugged in from power-on.
 * DDI_BUF_CTL(D) is left alone: its enable bit would tell i915 that the
 * port already drives a pipe, a state the pipe/transcoder layer (not
 * built yet) has to back.
 *
 * Ports A-C have nothing behind them (vgpu_mmio_table.c times them out). */
#include "gpu/vgpu/vgpu_priv.h"

#include "mini/string.h"

#define SFUSE_STRAP 0xc2014
#define SFUSE_STRAP_DDID_DETECTED BIT(0)
#define SDE_PORTD_HOTPLUG_CPT BIT(23) /* SPT: port D's live status */
#define GEN9_AUX_CHANNEL_D BIT(27)    /* DE_PORT_IIR */
#define AUX_D_FIRST VDISP_AUX_PORT_D_CTL
#define AUX_D_LAST (VDISP_AUX_PORT_D_CTL + VDISP_AUX_SPAN - 1)

/* The vreg file mirrors the channel's registers, so sub-dword writes
 * (merged with vreg by vgpu_mmio.c) and register dumps see what the
 * guest reads. */
static void aux_d_mirror(struct vgpu *v)
{
	uint32_t o;

	for (o = 0; o < VDISP_AUX_SPAN; o += 4)
		vreg_set(v, AUX_D_FIRST + o, vdisp_aux_read(&v->aux_d, o));
}

void vgpu_display_init(struct vgpu *v)
{
	uint32_t strap = vreg(v, SFUSE_STRAP) & ~SFUSE_STRAP_DDID_DETECTED;

	/* The serial tells one vGPU's monitor from another's EDID. */
	vdisp_aux_init(&v->aux_d, v->disp_mode ? v->disp_mode :
			vdisp_mode_default(), (uint32_t)v->id);
	vdisp_aux_set_connected(&v->aux_d, v->disp_mode != NULL);
	if (v->disp_mode)
		strap |= SFUSE_STRAP_DDID_DETECTED;
	vreg_set(v, SFUSE_STRAP, strap);
	aux_d_mirror(v);
}

uint32_t vgpu_display_isr(struct vgpu *v, uint32_t isr)
{
	return isr == SDEISR && v->disp_mode ? SDE_PORTD_HOTPLUG_CPT : 0;
}

int vgpu_set_display(struct vgpu *v, const char *mode)
{
	const struct vdisp_mode *m = NULL;
	const char *err;

	if (!mode)
		return -GPU_EINVAL;
	if (strcmp(mode, "none") != 0) {
		m = vdisp_mode_parse(mode, &err);
		if (!m)
			return -GPU_EINVAL;
	}
	v->disp_mode = m;
	vgpu_display_init(v);
	return 0;
}

int vgpu_aux_d_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	*val = vdisp_aux_read(&v->aux_d, off - AUX_D_FIRST);
	return 0;
}

/* A send completes inside the write (vdisp_aux.h). i915 waits for
 * SEND_BUSY to clear on the AUX/GMBUS wait queue, which its DE port
 * interrupt handler wakes on any GEN9_AUX_CHANNEL_* bit; the send value
 * it writes on Skylake always asks for the interrupt, so it is raised
 * as hardware raises it (the driver's first check of the busy bit
 * already passes, so a masked or late interrupt costs it nothing). */
int vgpu_aux_d_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t before = v->aux_d.stats.transactions;
	int r = vdisp_aux_write(&v->aux_d, off - AUX_D_FIRST, val);

	v->stats.aux_transactions += v->aux_d.stats.transactions - before;
	aux_d_mirror(v);
	if (r == VDISP_AUX_RAISE_IRQ)
		vgpu_raise_display_irq(v, GEN8_DE_PORT_ISR, GEN9_AUX_CHANNEL_D);
	return 0;
}
