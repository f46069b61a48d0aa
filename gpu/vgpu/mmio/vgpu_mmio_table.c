/* The register policy table: every range of BAR0 registers the mediator
 * knows, what a guest access to it does, and whether its initial value is
 * read from the hardware. Sorted by offset, non-overlapping (a unit test
 * checks); lookup is a binary search.
 *
 * Policies: EMULATED (vreg only), TRACKED (vreg, and on the hardware while
 * this vGPU owns it: vgpu_mmio_switch.c), PT_RO (reads from the hardware,
 * writes dropped), RO (vreg, writes dropped). Special handlers emulate the
 * registers i915 polls or handshakes with during probe (i915-guest §7).
 * Adding a register a new guest driver needs is one line here, or in the
 * part of the area whose handler it needs (gvt-facts §F4).
 *
 * This file holds the register area's own ranges; the engines' blocks and
 * GDRST (exec/vgpu_exec_regs.c), the fences and the GGTT window
 * (gtt/vgpu_gtt_regs.c), port D, the pipes and SDE's interrupt bank
 * (display/vgpu_display_regs.c) and PVINFO's PPGTT notifications
 * (ppgtt/vgpu_ppgtt_regs.c) are their areas' parts, joined with these at
 * gvt_create (gvt_regs_join, below). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "mini/stdlib.h"
#include "mini/string.h"

#define SKL_FUSE_STATUS 0x42000
#define SKL_FUSE_DONE (BIT(31) | BIT(27) | BIT(26) | BIT(25))
#define HSW_PWR_WELL_CTL1 0x45400
#define HSW_PWR_WELL_CTL4 0x4540c
#define PWR_WELL_REQ_KEEP 0xa00002aau /* bits 31,29,9,7,5,3,1 (GVT) */
#define DBUF_CTL 0x45008
#define CDCLK_CTL 0x46000
#define LCPLL1_CTL 0x46010
#define LCPLL2_CTL 0x46014
#define DPLL_STATUS 0x6c060
#define GEN6_PCODE_ERROR_MASK 0xffu
#define GEN9_PCODE_READ_MEM_LATENCY 0x6
#define SKL_PCODE_CDCLK_CONTROL 0x7
#define GEN9_PCODE_SAGV_CONTROL 0x21
#define GEN9_SAGV_DISABLE 0x0
#define GEN9_SAGV_IS_DISABLED 0x1
/* DP_AUX_CH_CTL_* and the ports' offsets: gpu/display/vdisp_aux.h. */
#define DP_AUX_CH_CTL_STICKY (DP_AUX_CH_CTL_DONE | DP_AUX_CH_CTL_TIME_OUT_ERROR | \
			      DP_AUX_CH_CTL_RECEIVE_ERROR)
#define PCH_GMBUS0 0xc5100
#define PCH_GMBUS1 0xc5104
#define PCH_GMBUS2 0xc5108
#define GMBUS_PIN_SEL_MASK 0x7u
#define GMBUS_SW_CLR_INT BIT(31)
#define GMBUS_SW_RDY BIT(30)
#define GMBUS_INUSE BIT(15)
#define GMBUS_HW_RDY BIT(11)
#define GMBUS_SATOER BIT(10) /* slave acknowledge time-out: a NAK */
#define GMBUS_ACTIVE BIT(9)
#define EDP_PSR_IMR 0x64834
#define EDP_PSR_IIR 0x64838

/* ---- special handlers ------------------------------------------------- */

static uint32_t fw_ack_of(uint32_t req)
{
	switch (req) {
	case FORCEWAKE_RENDER_GEN9: return FORCEWAKE_ACK_RENDER_GEN9;
	case FORCEWAKE_MEDIA_GEN9: return FORCEWAKE_ACK_MEDIA_GEN9;
	default: return FORCEWAKE_ACK_GT_GEN9;
	}
}

/* The guest never needs the hardware awake on its behalf: the ack mirrors
 * the request at once (GVT mul_force_wake_write). */
static int fw_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t req = gen9_masked_update(vreg(v, off), val);

	vreg_set(v, off, req);
	vreg_set(v, fw_ack_of(off), req);
	return 0;
}

static int zero_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	(void)v;
	(void)off;
	*val = 0;
	return 0;
}

static int ggtt_flush_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	(void)off;
	if (val & GFX_FLSH_CNTL_EN)
		gpu_hw_ggtt_flush(v->gvt->hw);
	return 0;
}

/* Per-engine TLB invalidation: done on the hardware when the engine next
 * runs this vGPU's work; reads as complete at once. */
static int tlb_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	static const int eng[] = { GEN9_RCS0, GEN9_VCS0, GEN9_VCS1, GEN9_BCS0,
				   GEN9_VECS0 };
	unsigned int i = (off - GEN8_RTCR) / 4;

	if (val && i < 5)
		v->eng[eng[i]].tlb_inval = true;
	return 0;
}

/* PCODE mailbox: answer READY/no error, with GVT's fake values for the
 * requests i915 makes on Skylake (i915-guest §7 step 7). */
static int pcode_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t cmd = val & 0xff;

	if (off != GEN6_PCODE_MAILBOX) {
		vreg_set(v, off, val);
		return 0;
	}
	if (!(val & GEN6_PCODE_READY)) {
		vreg_set(v, off, val);
		return 0;
	}
	if (cmd == GEN9_PCODE_READ_MEM_LATENCY) {
		vreg_set(v, GEN6_PCODE_DATA,
			 vreg(v, GEN6_PCODE_DATA) ? 0x61514b3d : 0x1e1a1100);
		vreg_set(v, GEN6_PCODE_DATA1, 0);
	} else if (cmd == SKL_PCODE_CDCLK_CONTROL) {
		vreg_set(v, GEN6_PCODE_DATA, 1); /* ready for change */
	} else if (cmd == GEN9_PCODE_SAGV_CONTROL) {
		/* SAGV is the host's: grant the guest's disable at once and
		 * say so (i915 skl_sagv_disable waits for IS_DISABLED; without
		 * it the driver logs "Failed to disable SAGV" and warns). */
		vreg_set(v, GEN6_PCODE_DATA,
			 vreg(v, GEN6_PCODE_DATA) == GEN9_SAGV_DISABLE ?
			 GEN9_SAGV_IS_DISABLED : 0);
	}
	vreg_set(v, off, val & ~(GEN6_PCODE_READY | GEN6_PCODE_ERROR_MASK));
	return 0;
}

/* Power wells: state bit i*2 follows request bit i*2+1 (GVT). */
static int pwr_well_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t req = val & PWR_WELL_REQ_KEEP;

	vreg_set(v, off, req | (req >> 1));
	return 0;
}

/* Request bit 31 -> state/lock bit 30 (DBUF_CTL, LCPLL). */
static int req_state_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	val &= ~BIT(30);
	if (val & BIT(31))
		val |= BIT(30);
	vreg_set(v, off, val);
	return 0;
}

/* DP AUX channel control of ports A-C: a vGPU has no DP sink behind
 * them (its monitor is on port D: vgpu_display.c), so a transaction
 * (SEND_BUSY written) completes at once with a time-out, as on hardware
 * with nothing plugged in (and as GVT answers for a port without a
 * virtual monitor). DONE and the error bits are sticky, cleared
 * by writing 1. i915 (intel_dp_aux_xfer) then reports the port as not
 * connected instead of timing out on a busy bit that never clears. */
static int aux_ctl_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t sticky = vreg(v, off) & DP_AUX_CH_CTL_STICKY & ~val;

	val = (val & ~DP_AUX_CH_CTL_STICKY) | sticky;
	if (val & DP_AUX_CH_CTL_SEND_BUSY) {
		v->stats.aux_transactions++;
		val &= ~(DP_AUX_CH_CTL_SEND_BUSY | DP_AUX_CH_CTL_MESSAGE_SIZE_MASK |
			 DP_AUX_CH_CTL_RECEIVE_ERROR);
		val |= DP_AUX_CH_CTL_DONE | DP_AUX_CH_CTL_TIME_OUT_ERROR;
	}
	vreg_set(v, off, val);
	return 0;
}

/* GMBUS (the display's I2C controller for DDC/EDID): no monitor is behind
 * any pin of a vGPU, so a cycle the guest starts (SW_RDY) is not acked:
 * the controller reports SATOER with HW_RDY and is idle, as hardware with
 * nothing on the bus and as GVT for a port without a monitor. i915's
 * gmbus_xfer then gets -ENXIO ("NAK") at once; stored only, GMBUS2 never
 * became ready and i915 timed out and fell back to bit-banging the GPIO
 * pins (22 000 accesses per probe). i915 still retries a NAKed EDID read
 * by bit-banging (intel_hdmi_set_edid): the GPIO lines below. SW_CLR_INT
 * resets the controller. */
static int gmbus1_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t st = vreg(v, PCH_GMBUS2);

	vreg_set(v, off, val);
	if (val & GMBUS_SW_CLR_INT)
		st &= ~(GMBUS_SATOER | GMBUS_HW_RDY);
	else if ((val & GMBUS_SW_RDY) &&
		 (vreg(v, PCH_GMBUS0) & GMBUS_PIN_SEL_MASK)) {
		v->stats.gmbus_naks++;
		st = (st & ~GMBUS_ACTIVE) | GMBUS_SATOER | GMBUS_HW_RDY;
	}
	vreg_set(v, PCH_GMBUS2, st);
	return 0;
}

/* GPIO_CTL of the DDC pins (GPIO A-F, PCH 0xc5010 + 4n): the I2C lines
 * i915 bit-bangs when GMBUS gives up (intel_gmbus.c get_clock/set_clock:
 * i2c-algo-bit). Each line has a direction and an output value, written
 * only together with their mask bit, and reads its level in VAL_IN. With
 * nothing on a vGPU's buses a line is high (pulled up) unless the driver
 * itself drives it low (DIR_OUT with VAL_OUT 0), so i915's bit-banged
 * EDID read sees no ACK to its address byte and gives up at once. The
 * pull-up disable bits are plain storage; mask bits read 0. */
#define GPIO_CTL_FIRST 0xc5010
#define GPIO_CTL_LAST 0xc5024
#define GPIO_CLOCK_PULLUP_DISABLE BIT(5)
#define GPIO_DATA_PULLUP_DISABLE BIT(13)

struct gpio_line {
	uint32_t dir_mask, dir_out, val_mask, val_out, val_in;
};

static const struct gpio_line gpio_lines[] = {
	{ BIT(0), BIT(1), BIT(2), BIT(3), BIT(4) },	 /* clock */
	{ BIT(8), BIT(9), BIT(10), BIT(11), BIT(12) }, /* data */
};

static int gpio_ctl_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	uint32_t r = vreg(v, off);
	size_t i;

	for (i = 0; i < sizeof(gpio_lines) / sizeof(gpio_lines[0]); i++) {
		const struct gpio_line *l = &gpio_lines[i];

		r &= ~l->val_in;
		if (!(r & l->dir_out) || (r & l->val_out))
			r |= l->val_in; /* released or driven high: high */
	}
	*val = r;
	return 0;
}

static int gpio_ctl_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t r = vreg(v, off) & ~(GPIO_CLOCK_PULLUP_DISABLE | GPIO_DATA_PULLUP_DISABLE);
	size_t i;

	r |= val & (GPIO_CLOCK_PULLUP_DISABLE | GPIO_DATA_PULLUP_DISABLE);
	for (i = 0; i < sizeof(gpio_lines) / sizeof(gpio_lines[0]); i++) {
		const struct gpio_line *l = &gpio_lines[i];

		if (val & l->dir_mask)
			r = (r & ~l->dir_out) | (val & l->dir_out);
		if (val & l->val_mask)
			r = (r & ~l->val_out) | (val & l->val_out);
	}
	vreg_set(v, off, r & (GPIO_CLOCK_PULLUP_DISABLE | GPIO_DATA_PULLUP_DISABLE |
			      gpio_lines[0].dir_out | gpio_lines[0].val_out |
			      gpio_lines[1].dir_out | gpio_lines[1].val_out));
	return 0;
}

/* GMBUS2 is status: the guest writes INUSE to release the controller. */
static int gmbus2_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	if (val & GMBUS_INUSE)
		vreg_set(v, off, vreg(v, off) & ~GMBUS_INUSE);
	return 0;
}

static int fpga_dbg_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	(void)v;
	(void)off;
	*val = 0; /* nothing is ever unclaimed on a vGPU */
	return 0;
}

static int fuse_status_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	(void)v;
	(void)off;
	*val = SKL_FUSE_DONE;
	return 0;
}

static int dpll_status_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	(void)v;
	(void)off;
	*val = 0x01010101; /* every DPLL locked */
	return 0;
}

static int fw_ack_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	(void)off;
	(void)val;
	v->stats.mmio_ro_dropped++;
	return 0;
}

/* ---- the table ---------------------------------------------------------- */

#define R(s, e, pol, fl, rd, wr, nm) { s, e, pol, fl, rd, wr, nm }
#define EMU MMIO_EMULATED
#define TRK MMIO_TRACKED
#define PTRO MMIO_PT_RO
#define RO MMIO_RO
#define SNAP MMIO_F_SNAP
#define MASK MMIO_F_MASKED

static const struct mmio_range table[] = {
	R(0x00d84, 0x00d8b, RO, 0, NULL, fw_ack_write, "forcewake acks"),
	R(0x04000, 0x0403f, EMU, SNAP, NULL, NULL, "gt misc"),
	R(0x04094, 0x04097, EMU, 0, NULL, NULL, "fault reg"),
	R(0x040e0, 0x040e7, TRK, SNAP, NULL, NULL, "ppat"),
	R(GEN8_RTCR, GEN8_VTCR + 3, EMU, 0, zero_read, tlb_write, "tlb invalidate"),
	R(0x04b10, 0x04b17, EMU, 0, NULL, NULL, "fault tlb data"),
	R(0x05200, 0x052ff, EMU, 0, NULL, NULL, "so counters"),
	R(0x07000, 0x0701f, TRK, SNAP | MASK, NULL, NULL, "cache mode / chicken"),
	R(0x07300, 0x07307, TRK, SNAP | MASK, NULL, NULL, "hdc chicken"),
	R(0x09120, 0x09123, PTRO, 0, NULL, NULL, "fuse2"),
	R(0x09134, 0x0913f, PTRO, 0, NULL, NULL, "eu disable"),
	R(0x09420, 0x09423, EMU, 0, NULL, NULL, "rstctl"),
	R(FORCEWAKE_GT_GEN9, FORCEWAKE_GT_GEN9 + 3, EMU, 0, NULL, fw_write, "fw gt"),
	R(0x0a26c, 0x0a26f, EMU, SNAP, NULL, NULL, "ctc mode"),
	R(FORCEWAKE_MEDIA_GEN9, FORCEWAKE_MEDIA_GEN9 + 3, EMU, 0, NULL, fw_write, "fw media"),
	R(FORCEWAKE_RENDER_GEN9, FORCEWAKE_RENDER_GEN9 + 3, EMU, 0, NULL, fw_write, "fw render"),
	R(0x0b020, 0x0b09f, TRK, SNAP, NULL, NULL, "l3cc"),
	R(0x0b100, 0x0b1ff, TRK, SNAP, NULL, NULL, "l3 sqc"),
	R(GUC_STATUS, GUC_STATUS + 3, RO, 0, NULL, NULL, "guc status"),
	R(0x0c800, 0x0cfff, TRK, SNAP, NULL, NULL, "mocs"),
	R(0x0e100, 0x0e1ff, TRK, SNAP | MASK, NULL, NULL, "half slice chicken"),
	R(0x0e4f0, 0x0e4ff, TRK, SNAP | MASK, NULL, NULL, "row chicken"),
	R(0x40000, 0x41fff, EMU, 0, NULL, NULL, "display misc"),
	R(SKL_FUSE_STATUS, SKL_FUSE_STATUS + 3, RO, 0, fuse_status_read, NULL, "fuse status"),
	R(0x42004, 0x422ff, EMU, 0, NULL, NULL, "display misc"),
	R(FPGA_DBG, FPGA_DBG + 3, EMU, MMIO_F_W1C, fpga_dbg_read, NULL, "fpga dbg"),
	R(0x42304, 0x441ff, EMU, 0, NULL, NULL, "display misc"),
	R(GEN8_MASTER_IRQ, GEN8_MASTER_IRQ + 3, EMU, 0, vgpu_irq_read, vgpu_irq_write, "master irq"),
	R(0x44300, 0x4433f, EMU, 0, vgpu_irq_read, vgpu_irq_write, "gt irq"),
	R(0x44400, 0x444ef, EMU, 0, vgpu_irq_read, vgpu_irq_write, "de irq"),
	R(0x444f0, 0x44fff, EMU, 0, NULL, NULL, "display misc"),
	R(0x45000, 0x45007, EMU, 0, NULL, NULL, "display misc"),
	R(DBUF_CTL, DBUF_CTL + 3, EMU, 0, NULL, req_state_write, "dbuf ctl"),
	R(0x4500c, 0x453ff, EMU, 0, NULL, NULL, "display misc"),
	R(HSW_PWR_WELL_CTL1, HSW_PWR_WELL_CTL4 + 3, EMU, 0, NULL, pwr_well_write, "power wells"),
	R(0x45410, 0x45fff, EMU, 0, NULL, NULL, "display misc"),
	R(CDCLK_CTL, CDCLK_CTL + 3, EMU, 0, NULL, NULL, "cdclk"),
	R(LCPLL1_CTL, LCPLL2_CTL + 3, EMU, 0, NULL, req_state_write, "lcpll"),
	R(0x46018, 0x6400f, EMU, 0, NULL, NULL, "display"),
	R(DP_AUX_CH_CTL_SKL(0), DP_AUX_CH_CTL_SKL(0) + 3, EMU, 0, NULL, aux_ctl_write, "aux ctl a"),
	R(0x64014, 0x6410f, EMU, 0, NULL, NULL, "display"),
	R(DP_AUX_CH_CTL_SKL(1), DP_AUX_CH_CTL_SKL(1) + 3, EMU, 0, NULL, aux_ctl_write, "aux ctl b"),
	R(0x64114, 0x6420f, EMU, 0, NULL, NULL, "display"),
	R(DP_AUX_CH_CTL_SKL(2), DP_AUX_CH_CTL_SKL(2) + 3, EMU, 0, NULL, aux_ctl_write, "aux ctl c"),
	R(0x64214, DDI_BUF_CTL_D - 1, EMU, 0, NULL, NULL, "display"),
	R(DDI_BUF_CTL_D + 4, 0x6430f, EMU, 0, NULL, NULL, "display"),
	R(VDISP_AUX_PORT_D_CTL + VDISP_AUX_SPAN, DP_TP_CTL_D - 1, EMU, 0, NULL, NULL, "display"),
	R(DP_TP_STATUS_D + 4, EDP_PSR_IMR + 3, EMU, 0, NULL, NULL, "display"),
	/* Write 1 to clear: i915 clears it with all ones at IRQ reset and
	 * then asserts it reads zero (gen3_assert_iir_is_zero). */
	R(EDP_PSR_IIR, EDP_PSR_IIR + 3, EMU, MMIO_F_W1C, NULL, NULL, "edp psr iir"),
	R(EDP_PSR_IIR + 4, 0x6c05f, EMU, 0, NULL, NULL, "display"),
	R(DPLL_STATUS, DPLL_STATUS + 3, RO, 0, dpll_status_read, NULL, "dpll status"),
	R(0x6c064, PIPE_A_FIRST - 1, EMU, 0, NULL, NULL, "display"),
	R(PIPE_C_LAST + 1, 0x77fff, EMU, 0, NULL, NULL, "display"),
	R(VGT_PVINFO_PAGE, VGT_PVINFO_PAGE + VGT_PVINFO_SIZE - 1, EMU, 0,
	  vgpu_pvinfo_read, vgpu_pvinfo_write, "pvinfo"),
	R(0x79000, 0x7ffff, EMU, 0, NULL, NULL, "display"),
	R(0x80000, 0x8ffff, EMU, 0, NULL, NULL, "dmc"),
	R(0xc2000, 0xc3fff, EMU, 0, NULL, NULL, "pch display"),
	R(0xc4010, PCH_PORT_HOTPLUG - 1, EMU, 0, NULL, NULL, "pch display"),
	/* PCH_PORT_HOTPLUG: the display area's (port D's hotplug) */
	R(PCH_PORT_HOTPLUG + 4, GPIO_CTL_FIRST - 1, EMU, 0, NULL, NULL, "pch display"),
	R(GPIO_CTL_FIRST, GPIO_CTL_LAST + 3, EMU, 0, gpio_ctl_read, gpio_ctl_write, "gpio ctl"),
	R(GPIO_CTL_LAST + 4, PCH_GMBUS0 - 1, EMU, 0, NULL, NULL, "pch display"),
	R(PCH_GMBUS0, PCH_GMBUS0 + 3, EMU, 0, NULL, mmio_default_write, "gmbus0"),
	R(PCH_GMBUS1, PCH_GMBUS1 + 3, EMU, 0, NULL, gmbus1_write, "gmbus1"),
	R(PCH_GMBUS2, PCH_GMBUS2 + 3, EMU, 0, NULL, gmbus2_write, "gmbus2"),
	R(PCH_GMBUS2 + 4, 0xcffff, EMU, 0, NULL, NULL, "pch display"),
	R(0xe0000, 0xeffff, EMU, 0, NULL, NULL, "pch display"),
	R(0x101000, 0x101007, EMU, 0, NULL, NULL, "gfx flsh misc"),
	R(GFX_FLSH_CNTL_GEN6, GFX_FLSH_CNTL_GEN6 + 3, EMU, 0, zero_read, ggtt_flush_write, "ggtt flush"),
	R(0x108000, 0x1082ff, RO, 0, NULL, NULL, "stolen mirrors"),
	R(FORCEWAKE_ACK_GT_GEN9, FORCEWAKE_ACK_GT_GEN9 + 3, RO, 0, NULL, fw_ack_write, "fw ack gt"),
	R(GEN6_PCODE_MAILBOX, GEN6_PCODE_DATA1 + 3, EMU, 0, NULL, pcode_write, "pcode"),
	R(0x140000, 0x17ffff, EMU, 0, NULL, NULL, "mchbar mirror"),
};


static const struct mmio_part own_part = {
	.area = "mmio",
	.ranges = table,
	.n = sizeof(table) / sizeof(table[0]),
};

/* ---- the join ----------------------------------------------------------- */

static bool range_ok(const struct mmio_range *r)
{
	return r->start <= r->end && !(r->start & 3) && (r->end & 3) == 3 &&
	       r->end < GEN9_MMIO_SIZE;
}

/* Insert r into the sorted t[0..n): false when it overlaps a range
 * there (*clash names it). */
static bool insert_sorted(struct mmio_range *t, uint32_t n,
			  const struct mmio_range *r,
			  const struct mmio_range **clash)
{
	uint32_t i = n;

	while (i && t[i - 1].start > r->start)
		i--;
	if ((i && t[i - 1].end >= r->start) || (i < n && r->end >= t[i].start)) {
		*clash = i && t[i - 1].end >= r->start ? &t[i - 1] : &t[i];
		return false;
	}
	memmove(&t[i + 1], &t[i], (n - i) * sizeof(*t));
	t[i] = *r;
	return true;
}

/* One hook slot of the table: filled by at most one part. */
static bool hook_once(const void *have, const void *offered)
{
	return !(have && offered);
}

static int take_hooks(struct gvt_regs *g, const struct mmio_part *p)
{
	if (!hook_once((const void *)g->window_read, (const void *)p->window_read) ||
	    !hook_once((const void *)g->window_write, (const void *)p->window_write) ||
	    !hook_once((const void *)g->g2v_ppgtt, (const void *)p->g2v_ppgtt))
		return -GPU_EINVAL;
	if (p->window_read)
		g->window_read = p->window_read;
	if (p->window_write)
		g->window_write = p->window_write;
	if (p->g2v_ppgtt)
		g->g2v_ppgtt = p->g2v_ppgtt;
	return 0;
}

static int join_part(struct gvt *gvt, const struct mmio_part *p)
{
	struct gvt_regs *g = &gvt->regs;
	const struct mmio_range *clash;
	size_t i;

	if (take_hooks(g, p)) {
		gvt_log(gvt, HV_LOG_ERR, 0, "register table: the %s area fills "
			"a hook another area filled", p->area);
		return -GPU_EINVAL;
	}
	for (i = 0; i < p->n; i++) {
		if (!range_ok(&p->ranges[i])) {
			gvt_log(gvt, HV_LOG_ERR, 0, "register table: the %s "
				"area's range %s [0x%x, 0x%x] is not dword "
				"aligned inside the registers", p->area,
				p->ranges[i].name, p->ranges[i].start,
				p->ranges[i].end);
			return -GPU_EINVAL;
		}
		if (!insert_sorted(g->tab, g->n, &p->ranges[i], &clash)) {
			gvt_log(gvt, HV_LOG_ERR, 0, "register table: the %s "
				"area's range %s [0x%x, 0x%x] overlaps %s "
				"[0x%x, 0x%x]", p->area, p->ranges[i].name,
				p->ranges[i].start, p->ranges[i].end,
				clash->name, clash->start, clash->end);
			return -GPU_EINVAL;
		}
		g->n++;
	}
	return 0;
}

/* page_first (vgpu_priv.h): one pass over the sorted table. */
static void index_pages(struct gvt_regs *g)
{
	uint32_t p, i = 0;

	for (p = 0; p <= GVT_REGS_PAGES; p++) {
		while (i < g->n && g->tab[i].end < p << GVT_REGS_PAGE_SHIFT)
			i++;
		g->page_first[p] = (uint16_t)i;
	}
}

int gvt_regs_join(struct gvt *gvt, const struct mmio_part *const *parts,
		  size_t n)
{
	struct gvt_regs *g = &gvt->regs;
	size_t total = own_part.n, i;
	int ret;

	for (i = 0; i < n; i++)
		total += parts[i]->n;
	g->pages = (uint32_t)((total * sizeof(*g->tab) + VGPU_PAGE - 1) /
			      VGPU_PAGE);
	g->tab = gvt_pages(gvt, g->pages, NULL);
	if (!g->tab)
		return -GPU_ENOMEM;
	ret = join_part(gvt, &own_part);
	for (i = 0; !ret && i < n; i++)
		ret = join_part(gvt, parts[i]);
	if (!ret && !g->window_read != !g->window_write) {
		gvt_log(gvt, HV_LOG_ERR, 0, "register table: the GGTT window "
			"has a read hook without a write hook or the reverse");
		ret = -GPU_EINVAL;
	}
	if (!ret && g->n > UINT16_MAX) {
		gvt_log(gvt, HV_LOG_ERR, 0, "register table: %u ranges, more "
			"than its page index holds", g->n);
		ret = -GPU_EINVAL;
	}
	if (!ret)
		index_pages(g);
	return ret;
}

void gvt_regs_fini(struct gvt *gvt)
{
	struct gvt_regs *g = &gvt->regs;

	if (g->tab)
		gvt_free_pages(gvt, g->tab, g->pages);
	memset(g, 0, sizeof(*g));
}

const struct mmio_range *mmio_table(const struct gvt *gvt, size_t *n)
{
	*n = gvt->regs.n;
	return gvt->regs.tab;
}

/* A binary search of the few ranges the page index leaves (a handful on
 * the hot pages, against ten rounds of a bsearch over the whole table
 * with a call a round; issue 31's empty request does ~25 lookups). */
const struct mmio_range *mmio_lookup(const struct gvt *gvt, uint32_t off)
{
	const struct gvt_regs *g = &gvt->regs;
	uint32_t lo, hi, mid, p = off >> GVT_REGS_PAGE_SHIFT;

	if (off >= GEN9_MMIO_SIZE)
		return NULL;
	lo = g->page_first[p];
	hi = g->page_first[p + 1] + 1u;
	if (hi > g->n)
		hi = g->n;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (off < g->tab[mid].start)
			hi = mid;
		else if (off > g->tab[mid].end)
			lo = mid + 1;
		else
			return &g->tab[mid];
	}
	return NULL;
}
