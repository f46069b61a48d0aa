/* The vGPU's virtual monitor (issue 29, docs/display.md): a DisplayPort
 * monitor on port D, as GVT-g places its own, that the guest's i915 finds
 * connected and reads over port D's AUX channel (gpu/display/vdisp_aux.c:
 * DPCD by native AUX, EDID by I2C-over-AUX).
 *
 * What i915 6.1 on Skylake reads before it talks AUX to port D:
 *  - no strap: with DISPLAY_VER >= 9 it creates the DDI encoders from the
 *    VBT (its defaults without one), never from SFUSE_STRAP (the probe
 *    in tests/fixtures/i915-probe.trace, taken with the OpRegion whose VBT
 *    lists port D only, reads DDI_BUF_CTL(D) but not SFUSE_STRAP). SFUSE_STRAP's port D bit is set all the same, as
 *    GVT-g sets it, for drivers that still read it;
 *  - live status: port D's hotplug line in SDEISR (the Sunrise Point
 *    PCH's SDE_PORTD_HOTPLUG_CPT bit), read by its DP detect before any
 *    DPCD read. The monitor is plugged in from power-on; the shell can
 *    pull its cable and plug it back (vgpu_monitor_plug), which raises
 *    port D's hotplug event as the PCH does.
 * DDI_BUF_CTL(D) reads as written until the guest enables the port: its
 * enable bit would tell i915 that the port already drives a pipe.
 *
 * The modeset that follows (docs/display.md, "Modeset and vblank"):
 *  - port D's DDI buffer and DP transport: DDI_BUF_IS_IDLE follows the
 *    enable bit; DP_TP_STATUS(D) reports the idle patterns sent while
 *    DP_TP_CTL(D) sends them (i915 waits for that before enabling the
 *    pipe), and the MST status and ACT handshake of the transport;
 *  - pipes A-C: PIPECONF's state bit follows its enable bit; a running
 *    pipe has a vblank clock at the monitor's refresh (gpu/display/
 *    vdisp_pipe.c) that PIPEDSL, PIPE_FRMCOUNT and PIPE_FLIPCOUNT read;
 *    PLANE_SURF and CURBASE writes latch at the next vblank
 *    (PLANE_SURFLIVE / CURSURFLIVE), with the pipe's vblank and the
 *    planes' flip-done events in DE_PIPE_IIR(pipe).
 * The PLLs i915 enables on the way are vgpu_mmio_table.c's (LCPLL
 * request -> lock, DPLL_STATUS locked).
 *
 * Ports A-C have nothing behind them (vgpu_mmio_table.c times them out). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/display/display.h"

#include "mini/string.h"

#define SFUSE_STRAP 0xc2014
#define SFUSE_STRAP_DDID_DETECTED BIT(0)
#define SDE_PORTD_HOTPLUG_CPT BIT(23) /* SPT: port D's live status */
#define GEN9_AUX_CHANNEL_D BIT(27)    /* DE_PORT_IIR */
/* PCH_PORT_HOTPLUG (SHOTPLUG_CTL, mmio/mmio.h): per port an enable bit and a two-bit
 * status (short / long pulse), write 1 to clear: ports A 28, 25:24;
 * B 4, 1:0; C 12, 9:8; D 20, 17:16. */
#define PORTD_HOTPLUG_ENABLE BIT(20)
#define PORTD_HOTPLUG_LONG_DETECT (2u << 16)
#define PCH_HOTPLUG_STATUS_W1C (3u << 24 | 3u << 16 | 3u << 8 | 3u)
#define AUX_D_FIRST VDISP_AUX_PORT_D_CTL
#define AUX_D_LAST (VDISP_AUX_PORT_D_CTL + VDISP_AUX_SPAN - 1)

/* Port D's DDI buffer and DP transport (Skylake: 0x64000 + 0x100 * port). */
#define DDI_BUF_CTL_D 0x64300
#define DDI_BUF_CTL_ENABLE BIT(31)
#define DDI_BUF_IS_IDLE BIT(7)
#define DP_TP_CTL_D 0x64340
#define DP_TP_CTL_ENABLE BIT(31)
#define DP_TP_CTL_MODE_MST BIT(27)
#define DP_TP_CTL_FORCE_ACT BIT(25)
#define DP_TP_CTL_LINK_TRAIN_MASK (7u << 8)
#define DP_TP_CTL_LINK_TRAIN_IDLE (2u << 8)
#define DP_TP_STATUS_D 0x64344
#define DP_TP_STATUS_IDLE_DONE BIT(25)
#define DP_TP_STATUS_ACT_SENT BIT(24) /* write 1 to clear */
#define DP_TP_STATUS_MODE_STATUS_MST BIT(23)

/* Pipes A-C: one 4 KiB block each from 0x70000; their transcoders'
 * timings one block each from 0x60000. */
#define PIPE_BLOCK(p) (0x70000u + 0x1000u * (p))
#define TRANS_VTOTAL(p) (0x6000cu + 0x1000u * (p))
#define TRANS_VBLANK(p) (0x60010u + 0x1000u * (p))
#define PIPECONF_ENABLE BIT(31)
#define PIPECONF_STATE_ENABLE BIT(30)
#define PIPEDSL_LINE_MASK 0x1fffu
#define GEN8_PIPE_VBLANK BIT(0)
#define GEN9_PIPE_PLANE1_FLIP_DONE BIT(3) /* planes 2, 3: bits 4, 5 */

/* The vreg file mirrors the channel's registers, so sub-dword writes
 * (merged with vreg by vgpu_mmio.c) and register dumps see what the
 * guest reads. */
static void aux_d_mirror(struct vgpu *v)
{
	uint32_t o;

	for (o = 0; o < VDISP_AUX_SPAN; o += 4)
		vreg_set(v, AUX_D_FIRST + o, vdisp_aux_read(&v->aux_d, o));
}

static void pipes_reset(struct vgpu *v)
{
	struct gvt *gvt = v->gvt;
	unsigned p;

	gvt->disp_pipes_on -= v->pipes_on <= gvt->disp_pipes_on ?
			      v->pipes_on : gvt->disp_pipes_on;
	v->pipes_on = 0;
	for (p = 0; p < VDISP_PIPES; p++)
		vdisp_pipe_reset(&v->pipe[p]);
	memset(v->scan, 0, sizeof(v->scan)); /* every plane off */
}

void vgpu_display_init(struct vgpu *v)
{
	uint32_t strap = vreg(v, SFUSE_STRAP) & ~SFUSE_STRAP_DDID_DETECTED;

	pipes_reset(v); /* the vreg file already reads every pipe off */

	/* The serial tells one vGPU's monitor from another's EDID. */
	vdisp_aux_init(&v->aux_d, v->disp_mode ? v->disp_mode :
			vdisp_mode_default(), (uint32_t)v->id);
	vdisp_aux_set_connected(&v->aux_d, v->disp_mode && !v->monitor_unplugged);
	if (v->disp_mode && !v->monitor_unplugged)
		strap |= SFUSE_STRAP_DDID_DETECTED;
	vreg_set(v, SFUSE_STRAP, strap);
	aux_d_mirror(v);
}

uint32_t vgpu_display_isr(struct vgpu *v, uint32_t isr)
{
	return isr == SDEISR && v->disp_mode && !v->monitor_unplugged
		       ? SDE_PORTD_HOTPLUG_CPT : 0;
}

/* The status bits are write-1-to-clear (i915's SPT handler writes back
 * what it read to ack them); the enables and the rest are stored. */
int vgpu_pch_hotplug_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t old = vreg(v, off);

	vreg_set(v, off, (val & ~PCH_HOTPLUG_STATUS_W1C) |
			 (old & PCH_HOTPLUG_STATUS_W1C & ~val));
	return 0;
}

int vgpu_monitor_plug(struct vgpu *v, bool on)
{
	uint32_t hp = vreg(v, PCH_PORT_HOTPLUG), strap = vreg(v, SFUSE_STRAP);

	if (!v->disp_mode)
		return -GPU_EINVAL;
	if (on == !v->monitor_unplugged)
		return VGPU_HOTPLUG_ALREADY;
	v->monitor_unplugged = !on;
	vdisp_aux_set_connected(&v->aux_d, on);
	aux_d_mirror(v);
	vreg_set(v, SFUSE_STRAP, on ? strap | SFUSE_STRAP_DDID_DETECTED
				    : strap & ~SFUSE_STRAP_DDID_DETECTED);
	if (!(hp & PORTD_HOTPLUG_ENABLE))
		return VGPU_HOTPLUG_UNDETECTED;
	/* A cable plugged or pulled is a long pulse on the HPD line. */
	vreg_set(v, PCH_PORT_HOTPLUG, hp | PORTD_HOTPLUG_LONG_DETECT);
	vgpu_raise_display_irq(v, SDEISR, SDE_PORTD_HOTPLUG_CPT);
	v->stats.hotplugs++;
	return VGPU_HOTPLUG_RAISED;
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

/* ---- port D's DDI buffer and DP transport ------------------------------ */

/* DDI_BUF_IS_IDLE is the buffer's state, set while it is disabled: i915
 * waits for it after clearing the enable bit (and before retraining a
 * running link). Until the first write the register reads as the vreg
 * file holds it, so the headless probe reads what it always read. */
static int ddi_buf_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	val &= ~DDI_BUF_IS_IDLE;
	if (!(val & DDI_BUF_CTL_ENABLE))
		val |= DDI_BUF_IS_IDLE;
	vreg_set(v, off, val);
	return 0;
}

/* A FORCE_ACT on an enabled MST transport is answered at once: the
 * allocation change trigger went out. The trigger bit reads as written. */
static int dp_tp_ctl_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	uint32_t mst = DP_TP_CTL_ENABLE | DP_TP_CTL_MODE_MST;

	vreg_set(v, off, val);
	if ((val & mst) == mst && (val & DP_TP_CTL_FORCE_ACT))
		vreg_set(v, DP_TP_STATUS_D,
			 vreg(v, DP_TP_STATUS_D) | DP_TP_STATUS_ACT_SENT);
	return 0;
}

/* The link is a wire in memory: idle patterns are "sent" as soon as the
 * transport is asked for them, and i915's wait for IDLE_DONE before it
 * enables the pipe passes at its first read. */
static uint32_t dp_tp_status(struct vgpu *v)
{
	uint32_t ctl = vreg(v, DP_TP_CTL_D);
	uint32_t st = vreg(v, DP_TP_STATUS_D) & DP_TP_STATUS_ACT_SENT;

	if (!(ctl & DP_TP_CTL_ENABLE))
		return st;
	if ((ctl & DP_TP_CTL_LINK_TRAIN_MASK) == DP_TP_CTL_LINK_TRAIN_IDLE)
		st |= DP_TP_STATUS_IDLE_DONE;
	if (ctl & DP_TP_CTL_MODE_MST)
		st |= DP_TP_STATUS_MODE_STATUS_MST;
	return st;
}

int vgpu_ddi_d_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	*val = off == DP_TP_STATUS_D ? dp_tp_status(v) : vreg(v, off);
	return 0;
}

int vgpu_ddi_d_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	if (off == DDI_BUF_CTL_D)
		return ddi_buf_write(v, off, val);
	if (off == DP_TP_CTL_D)
		return dp_tp_ctl_write(v, off, val);
	if (off == DP_TP_STATUS_D) { /* status; ACT_SENT clears by 1 */
		vreg_set(v, off, vreg(v, off) & ~(val & DP_TP_STATUS_ACT_SENT));
		return 0;
	}
	vreg_set(v, off, val);
	return 0;
}

/* ---- pipes, planes and the vblank clock --------------------------------- */

static uint64_t disp_now(struct vgpu *v)
{
	const struct hv_if *hv = &v->gvt->hv;

	return hv->ops->now_ns(hv->ctx);
}

/* Every mode of the monitor's table is 60 Hz within 0.7 %, and a pipe
 * runs at the monitor's whatever the guest programs (the DPLL is not
 * modelled); a headless vGPU's pipes run at the default mode's. */
static uint64_t frame_ns(struct vgpu *v)
{
	return vdisp_mode_frame_ns(v->disp_mode ? v->disp_mode :
				   vdisp_mode_default());
}

static void pipe_power(struct vgpu *v, unsigned p, bool on)
{
	struct vdisp_pipe *pp = &v->pipe[p];

	if (on == pp->on)
		return;
	if (on) {
		vdisp_pipe_on(pp, disp_now(v), frame_ns(v));
		v->pipes_on++;
		v->gvt->disp_pipes_on++;
		return;
	}
	vdisp_pipe_off(pp);
	v->pipes_on--;
	if (v->gvt->disp_pipes_on)
		v->gvt->disp_pipes_on--;
}

/* Within a pipe's block: what a register does. NULL: the vreg file. */
struct pipe_reg {
	uint16_t off;
	uint8_t surf; /* surface index for SURF / SURFLIVE registers */
	int (*read)(struct vgpu *v, unsigned p, uint8_t s, uint32_t *val);
	int (*write)(struct vgpu *v, unsigned p, uint8_t s, uint32_t off,
		     uint32_t val);
};

/* PIPEDSL from the clock; the raw line is one behind the vblank start
 * the guest programmed (i915 adds a scan line offset of 1 for DP). */
static int dsl_read(struct vgpu *v, unsigned p, uint8_t s, uint32_t *val)
{
	uint32_t vtotal = ((vreg(v, TRANS_VTOTAL(p)) >> 16) & PIPEDSL_LINE_MASK) + 1;
	uint32_t vbl = vreg(v, TRANS_VBLANK(p)) & PIPEDSL_LINE_MASK;

	(void)s;
	*val = vdisp_pipe_line(&v->pipe[p], disp_now(v), vtotal, vbl);
	return 0;
}

static int frmcount_read(struct vgpu *v, unsigned p, uint8_t s, uint32_t *val)
{
	(void)s;
	*val = v->pipe[p].frames;
	return 0;
}

static int flipcount_read(struct vgpu *v, unsigned p, uint8_t s, uint32_t *val)
{
	(void)s;
	*val = v->pipe[p].flips;
	return 0;
}

static int surflive_read(struct vgpu *v, unsigned p, uint8_t s, uint32_t *val)
{
	*val = v->pipe[p].live[s];
	return 0;
}

static int ro_write(struct vgpu *v, unsigned p, uint8_t s, uint32_t off,
		    uint32_t val)
{
	(void)p, (void)s, (void)off, (void)val;
	v->stats.mmio_ro_dropped++;
	return 0;
}

/* The state bit follows the enable bit at once: i915 waits for it to
 * clear after disabling the pipe, and the pipe's clock starts/stops. */
static int conf_write(struct vgpu *v, unsigned p, uint8_t s, uint32_t off,
		      uint32_t val)
{
	(void)s;
	val &= ~PIPECONF_STATE_ENABLE;
	if (val & PIPECONF_ENABLE)
		val |= PIPECONF_STATE_ENABLE;
	vreg_set(v, off, val);
	pipe_power(v, p, val & PIPECONF_ENABLE);
	return 0;
}

/* ---- planes: checked when armed, scanned only when good ---------------
 *
 * PLANE_SURF (CURBASE) arms the plane's double-buffered registers: what
 * PLANE_CTL, _STRIDE, _SIZE, _OFFSET (CUR_CTL) say at that write is what
 * latches at the next vblank, as on hardware. So the primary plane and
 * the cursor are decoded and checked against the vGPU's GM at the SURF
 * write (gpu/display/vdisp_plane.c), and the verdict latches with the
 * surface. A refused plane is never read (screen dump, composition): the
 * guest's flip still completes, its flip-done event and SURFLIVE are as
 * hardware gives them, where a real monitor would show garbage we show
 * nothing. Planes 2 and 3 are stored, never scanned. */
#define PLANE_CTL_1 0x180
#define PLANE_STRIDE_1 0x188
#define PLANE_POS_1 0x18c
#define PLANE_SIZE_1 0x190
#define PLANE_SURF_1 0x19c
#define PLANE_OFFSET_1 0x1a4
#define CUR_CTL 0x080
#define CURBASE 0x084
#define CURPOS 0x088
/* Refusals logged per vGPU; the rest are counted (planes_refused). */
#define PLANES_LOGGED 16u

/* The vGPU's GM as the plane check takes it: low GM, then each high
 * range, lowest first (vgpu_gm.c keeps them sorted). */
static unsigned gm_list(const struct vgpu *v, struct vdisp_gm *gm)
{
	unsigned n = 0, r;

	gm[n].base = v->low_base, gm[n++].size = v->low_size;
	for (r = 0; r < v->nr_high && r < VGPU_MAX_RANGES; r++)
		gm[n].base = v->hr[r].base, gm[n++].size = v->hr[r].size;
	return n;
}

static int plane_check(const struct vgpu *v, const struct vdisp_plane *pl)
{
	struct vdisp_gm gm[1 + VGPU_MAX_RANGES];

	return vdisp_plane_check(pl, gm, gm_list(v, gm));
}

static void plane_arm(struct vgpu *v, unsigned p, unsigned k)
{
	struct vgpu_scan *sc = &v->scan[p][k];
	uint32_t blk = PIPE_BLOCK(p);
	int err;

	if (k == VGPU_SCAN_CURSOR) {
		err = vdisp_cursor_decode(vreg(v, blk + CUR_CTL),
					  vreg(v, blk + CURBASE),
					  vreg(v, blk + CURPOS), &sc->armed);
	} else {
		struct vdisp_plane_regs r = {
			vreg(v, blk + PLANE_CTL_1), vreg(v, blk + PLANE_STRIDE_1),
			vreg(v, blk + PLANE_POS_1), vreg(v, blk + PLANE_SIZE_1),
			vreg(v, blk + PLANE_OFFSET_1), vreg(v, blk + PLANE_SURF_1),
		};
		err = vdisp_plane_decode(&r, &sc->armed);
	}
	if (!err)
		err = plane_check(v, &sc->armed);
	sc->armed_err = (uint8_t)err;
}

/* The armed plane latched: refused ones counted, and logged with the
 * VM's name once per change of surface or reason (bounded per vGPU). */
static void plane_latch(struct vgpu *v, unsigned p, unsigned k)
{
	struct vgpu_scan *sc = &v->scan[p][k];

	sc->live = sc->armed;
	sc->live_err = sc->armed_err;
	if (sc->live_err == VDISP_PLANE_OK || sc->live_err == VDISP_PLANE_OFF) {
		sc->logged_err = VDISP_PLANE_OK;
		return;
	}
	v->stats.planes_refused++;
	if (sc->logged_err == sc->live_err && sc->logged_surf == sc->live.surf)
		return;
	sc->logged_err = sc->live_err;
	sc->logged_surf = sc->live.surf;
	if (v->planes_logged >= PLANES_LOGGED)
		return;
	v->planes_logged++;
	vgpu_warn(v, "pipe %c %s: surface 0x%llx %ux%u stride %u: %s; not "
		  "scanned out%s", 'A' + p, k == VGPU_SCAN_CURSOR ? "cursor" :
		  "plane 1", (unsigned long long)sc->live.surf, sc->live.w,
		  sc->live.h, sc->live.stride, vdisp_plane_why(sc->live_err),
		  v->planes_logged == PLANES_LOGGED ?
			  " (further ones are only counted)" : "");
}

/* Surface index of the pipe library -> scanned plane, or -1. */
static int scan_of(uint8_t s)
{
	return s == 0 ? VGPU_SCAN_PRIMARY :
	       s == VDISP_CURSOR ? VGPU_SCAN_CURSOR : -1;
}

static int surf_write(struct vgpu *v, unsigned p, uint8_t s, uint32_t off,
		      uint32_t val)
{
	int k = scan_of(s);

	vreg_set(v, off, val);
	if (k >= 0)
		plane_arm(v, p, (unsigned)k);
	vdisp_pipe_arm(&v->pipe[p], s, val & PLANE_SURF_ADDR_MASK);
	/* A stopped pipe latches at once (vdisp_pipe.h). */
	if (k >= 0 && !(v->pipe[p].armed & (1u << s)))
		plane_latch(v, p, (unsigned)k);
	return 0;
}

int vgpu_screen_plane(struct vgpu *v, struct vdisp_plane *pl)
{
	const struct vgpu_scan *sc = &v->scan[0][VGPU_SCAN_PRIMARY];

	*pl = sc->live;
	if (sc->live_err)
		return sc->live_err;
	/* Its GM may have changed since (a balloon, a move): check again. */
	return plane_check(v, pl);
}

int vgpu_screen_cursor(struct vgpu *v, struct vdisp_plane *cur)
{
	const struct vgpu_scan *sc = &v->scan[0][VGPU_SCAN_CURSOR];

	*cur = sc->live;
	if (sc->live_err)
		return sc->live_err;
	return plane_check(v, cur);
}

uint32_t vgpu_screen_frames(const struct vgpu *v, bool *running)
{
	*running = v->pipe[0].on;
	return v->pipe[0].frames;
}

/* The guest's pages through its own GGTT entries (vgpu_gm_rw refuses
 * anything outside its GM); a page it has not mapped reads as black. */
int vgpu_screen_read(struct vgpu *v, const struct vdisp_plane *pl, uint32_t y,
		     uint32_t x0, uint32_t n, uint32_t *rgb)
{
	uint8_t buf[VGPU_SCREEN_RUN * 4];
	uint32_t bx = x0 * pl->cpp, end, i;

	if (n > VGPU_SCREEN_RUN || y >= pl->h || x0 > pl->w || n > pl->w - x0 ||
	    !pl->cpp)
		return -GPU_EINVAL;
	end = (x0 + n) * pl->cpp;
	while (bx < end) {
		uint32_t run = vdisp_plane_run(pl, bx);

		run = run < end - bx ? run : end - bx;
		if (vgpu_gm_rw(v, pl->surf + vdisp_plane_byte(pl, bx, y),
			       buf + bx - x0 * pl->cpp, run, false))
			memset(buf + bx - x0 * pl->cpp, 0, run);
		bx += run;
	}
	for (i = 0; i < n; i++)
		rgb[i] = vdisp_pixel_rgb(pl->fmt, buf + i * pl->cpp);
	return 0;
}

/* Plane registers read when PLANE_SURF / CURBASE arms the plane. */
static int store_write(struct vgpu *v, unsigned p, uint8_t s, uint32_t off,
		       uint32_t val)
{
	(void)p, (void)s;
	vreg_set(v, off, val);
	return 0;
}

static const struct pipe_reg pipe_regs[] = {
	{ 0x000, 0, dsl_read, ro_write },		/* PIPEDSL */
	{ 0x008, 0, NULL, conf_write },			/* PIPECONF */
	{ 0x040, 0, frmcount_read, ro_write },		/* PIPE_FRMCOUNT_G4X */
	{ 0x044, 0, flipcount_read, ro_write },		/* PIPE_FLIPCOUNT_G4X */
	{ CUR_CTL, 0, NULL, store_write },
	{ 0x084, VDISP_CURSOR, NULL, surf_write },	/* CURBASE */
	{ CURPOS, 0, NULL, store_write },
	{ 0x0ac, VDISP_CURSOR, surflive_read, ro_write }, /* CURSURFLIVE */
	{ PLANE_CTL_1, 0, NULL, store_write },
	{ PLANE_STRIDE_1, 0, NULL, store_write },
	{ PLANE_POS_1, 0, NULL, store_write },
	{ PLANE_SIZE_1, 0, NULL, store_write },
	{ 0x19c, 0, NULL, surf_write },			/* PLANE_SURF(1) */
	{ PLANE_OFFSET_1, 0, NULL, store_write },
	{ 0x1ac, 0, surflive_read, ro_write },		/* PLANE_SURFLIVE(1) */
	{ 0x29c, 1, NULL, surf_write },			/* PLANE_SURF(2) */
	{ 0x2ac, 1, surflive_read, ro_write },		/* PLANE_SURFLIVE(2) */
	{ 0x39c, 2, NULL, surf_write },			/* PLANE_SURF(3) */
	{ 0x3ac, 2, surflive_read, ro_write },		/* PLANE_SURFLIVE(3) */
};

#define PIPE_REGS (sizeof(pipe_regs) / sizeof(pipe_regs[0]))

static const struct pipe_reg *pipe_reg_of(uint32_t off, unsigned *p)
{
	uint32_t in = (off - PIPE_BLOCK(0)) & 0xfffu;
	size_t i;

	*p = (off - PIPE_BLOCK(0)) >> 12;
	if (*p >= VDISP_PIPES)
		return NULL;
	for (i = 0; i < PIPE_REGS; i++)
		if (pipe_regs[i].off == in)
			return &pipe_regs[i];
	return NULL;
}

int vgpu_pipe_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	unsigned p;
	const struct pipe_reg *r = pipe_reg_of(off, &p);

	if (r && r->read)
		return r->read(v, p, r->surf, val);
	*val = vreg(v, off);
	return 0;
}

int vgpu_pipe_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	unsigned p;
	const struct pipe_reg *r = pipe_reg_of(off, &p);

	if (r && r->write)
		return r->write(v, p, r->surf, off, val);
	/* Watermarks, DDB, scalers, planes 2-3...: stored, never scanned. */
	vgpu_mmio_store_only(v, off, val);
	return 0;
}

/* A vblank: the pipe's VBLANK event, and a flip-done event for each
 * universal plane whose surface latched (the cursor has none), into
 * DE_PIPE_IIR(p) unless DE_PIPE_IMR(p) masks them. */
static void deliver(struct vgpu *v, unsigned p, const struct vdisp_tick *t)
{
	uint32_t planes = t->flipped & ((1u << VDISP_PLANES) - 1);
	uint32_t bits = GEN8_PIPE_VBLANK;
	unsigned s;

	for (s = 0; s < VDISP_PLANES; s++)
		if (planes & (1u << s))
			bits |= GEN9_PIPE_PLANE1_FLIP_DONE << s;
	v->stats.vblanks += t->vblanks;
	for (s = 0; s < VDISP_SURFACES; s++)
		if (t->flipped & (1u << s)) {
			int k = scan_of((uint8_t)s);

			v->stats.flips++;
			if (k >= 0)
				plane_latch(v, p, (unsigned)k);
		}
	vgpu_raise_display_irq(v, GEN8_DE_PIPE_ISR(p), bits);
}

static uint32_t display_tick(struct vgpu *v, uint64_t now)
{
	unsigned p;

	if (!v->pipes_on)
		return 0;
	for (p = 0; p < VDISP_PIPES; p++) {
		struct vdisp_tick t = vdisp_pipe_tick(&v->pipe[p], now);

		if (t.vblanks)
			deliver(v, p, &t);
	}
	return v->pipes_on;
}

/* From gvt_poll: O(1) per running pipe whatever the gap since the last
 * call (vdisp_pipe_tick); nothing at all while every pipe is off. */
void gvt_display_tick(struct gvt *gvt)
{
	uint32_t on = 0;
	uint64_t now;
	int id;

	if (!gvt->disp_pipes_on)
		return;
	now = gvt->hv.ops->now_ns(gvt->hv.ctx);
	for (id = 1; id <= GVT_MAX_VGPUS; id++)
		if (gvt->vgpu[id])
			on += display_tick(gvt->vgpu[id], now);
	gvt->disp_pipes_on = on;
}
