/* The physical-plane path (screen_plane.h; docs/display.md, "The
 * physical plane").
 *
 * Each main-loop round (never in a VM exit) the owner's pipe A plane 1 is
 * taken from its vGPU as it latched, checked again against the GM the
 * vGPU has now (vgpu_screen_plane: format, stride, size, the whole extent
 * inside its own GM). A plane that is the one shown and whose GGTT
 * entries the guest did not rewrite costs nothing more. A new one (a
 * flip, a new size) is mapped into the half of the scanout window the
 * plane is not reading (the owner's translated entries, its own pages
 * only) and the plane re-pointed: PLANE_SURF, plus whatever register
 * changed (pgpu_plane.c). A refused plane, an owner that stopped or lost
 * its vGPU, or the end of ownership turn the plane off and the window
 * black: the box then shows the pipe's black background, never memory
 * the owner does not own.
 *
 * The owner's pipe A cursor rides along on the physical pipe's cursor:
 * checked by its vGPU (vgpu_screen_cursor: an ARGB mode of 64, 128 or
 * 256, the image inside its GM), its image mapped into the window's
 * cursor halves, placed where it sits over the owner's plane (CURPOS
 * relative to the plane's PLANE_POS on the guest's pipe, moved to where
 * the plane lands on the box's pipe), off for a refused or disabled one
 * and whenever the plane is off. A move costs CURPOS and CURBASE, no
 * GGTT entry. */
#include "gpu/hw/pgpu_plane.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/cpu/x86.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/screen_plane.h"
#include "hv/platform/tsc.h"
#include "hv/vm/vm.h"

static struct {
	int vm;			/* the owner, or -1 */
	bool init;
	struct pgpu_plane pp;
	bool showing;		/* the plane is on at `shown` */
	struct vdisp_plane shown;
	int said;		/* the refusal last printed, 0: none */
	uint32_t plane_x, plane_y;	/* the shown plane's corner on the pipe */
	bool cur_showing;	/* the cursor is on at cur_shown */
	struct vdisp_plane cur_shown;
	uint64_t cur_gm;	/* its image in the window */
	bool announce;		/* the first show since start says so */
	struct screen_plane_stats st;
} sp = { .vm = -1 };

/* PLANE_CTL's format and order bits by enum vdisp_fmt; tiling by
 * enum vdisp_tiling, and the stride's unit. */
static const uint32_t fmt_ctl[] = {
	[VDISP_FMT_XRGB8888] = PLANE_CTL_FORMAT_XRGB_8888,
	[VDISP_FMT_XBGR8888] = PLANE_CTL_FORMAT_XRGB_8888 | PLANE_CTL_ORDER_RGBX,
	[VDISP_FMT_RGB565] = PLANE_CTL_FORMAT_RGB_565,
	[VDISP_FMT_XRGB2101010] = PLANE_CTL_FORMAT_XRGB_2101010,
	[VDISP_FMT_XBGR2101010] = PLANE_CTL_FORMAT_XRGB_2101010 |
				  PLANE_CTL_ORDER_RGBX,
	[VDISP_FMT_ARGB8888] = PLANE_CTL_FORMAT_XRGB_8888, /* alpha unused */
};
static const struct { uint32_t ctl, unit; } tiling_ctl[] = {
	[VDISP_LINEAR] = { PLANE_CTL_TILED_LINEAR, 64 },
	[VDISP_TILED_X] = { PLANE_CTL_TILED_X, 512 },
	[VDISP_TILED_Y] = { PLANE_CTL_TILED_Y, 128 },
};

static struct vgpu *owner_vgpu(void)
{
	struct gvt *gvt = gpu_host_gvt();

	return gvt && sp.vm >= 0 && (unsigned)sp.vm < nr_vms ?
	       gvt_vgpu_by_vm(gvt, (uint32_t)sp.vm) : NULL;
}

static bool same_plane(const struct vdisp_plane *a, const struct vdisp_plane *b)
{
	return a->surf == b->surf && a->w == b->w && a->h == b->h &&
	       a->stride == b->stride && a->fmt == b->fmt &&
	       a->tiling == b->tiling && a->ox == b->ox && a->oy == b->oy;
}

/* The registers for pl at window address gm on a pw x ph pipe: centred
 * when smaller (the pipe's background around it), its top-left part
 * when larger (no scaler: docs/display.md). */
static void plane_regs(const struct vdisp_plane *pl, uint64_t gm, uint32_t pw,
		       uint32_t ph, struct pgpu_plane_regs *r)
{
	uint32_t w = pl->w < pw ? pl->w : pw, h = pl->h < ph ? pl->h : ph;

	r->ctl = PLANE_CTL_ENABLE | fmt_ctl[pl->fmt] | tiling_ctl[pl->tiling].ctl;
	r->stride = pl->stride / tiling_ctl[pl->tiling].unit;
	r->pos = (ph - h) / 2 << 16 | (pw - w) / 2;
	r->size = (h - 1) << 16 | (w - 1);
	r->offset = pl->oy << 16 | pl->ox;
	r->surf = (uint32_t)gm;
}

static void cursor_off(void)
{
	if (sp.init && sp.pp.cursor_on) {
		sp.st.mmio_writes += pgpu_cursor_off(&sp.pp);
		sp.st.cursor_offs++;
	}
	sp.cur_showing = false;
}

static void plane_off(void)
{
	struct gvt *gvt = gpu_host_gvt();

	cursor_off();
	if (!sp.showing && !(sp.init && sp.pp.on))
		return;
	if (sp.init && sp.pp.on) {
		sp.st.mmio_writes += pgpu_plane_off(&sp.pp);
		sp.st.offs++;
	}
	if (gvt)
		gvt_scanout_clear(gvt);
	sp.showing = false;
}

/* Says once per reason why the owner shows nothing. */
static void refuse(int err, const char *why)
{
	plane_off();
	if (sp.said == err)
		return;
	sp.said = err;
	sp.st.refused++;
	kprintf("screen: vm '%s' shows nothing (%s): the box's plane is off\n",
		vms[sp.vm].name, why);
}

#define ERR_STOPPED (-100)
#define ERR_MAP (-101)
#define ERR_PIPE (-102)

static void show(struct vgpu *v, const struct vdisp_plane *pl)
{
	struct pgpu_plane_regs r;
	uint64_t t0 = rdtsc(), gm, t;
	uint32_t pw, ph, ptes;
	unsigned n;
	int err;

	if (pgpu_plane_pipe_size(&sp.pp, &pw, &ph)) {
		refuse(ERR_PIPE, "pipe A is not lit");
		return;
	}
	err = gvt_scanout_map(gpu_host_gvt(), v, pl, &gm, &ptes);
	if (err) {
		refuse(ERR_MAP, err == -GPU_ENOSPC ?
		       "plane 1 larger than the scanout window" :
		       "plane 1 outside its GM");
		return;
	}
	plane_regs(pl, gm, pw, ph, &r);
	sp.plane_x = r.pos & 0xffff;
	sp.plane_y = r.pos >> 16;
	n = pgpu_plane_show(&sp.pp, &r);
	t = rdtsc() - t0;
	sp.shown = *pl;
	sp.showing = true;
	sp.st.shows++;
	sp.st.mmio_writes += n;
	sp.st.ptes += ptes;
	sp.st.last_mmio = n;
	sp.st.last_ptes = ptes;
	sp.st.last_tsc = t;
	sp.st.total_tsc += t;
	if (t > sp.st.max_tsc)
		sp.st.max_tsc = t;
	if (sp.said || sp.announce || n > 1)
		kprintf("screen: vm '%s' on the box's plane: %ux%u at GM 0x%llx "
			"through window 0x%llx on the %ux%u pipe; %u registers, "
			"%u GGTT entries, %llu TSC ticks\n", vms[sp.vm].name,
			pl->w, pl->h, (unsigned long long)pl->surf,
			(unsigned long long)gm, pw, ph, n, ptes,
			(unsigned long long)t);
	sp.said = 0;
	sp.announce = false;
}

/* One CURPOS half: a 12-bit magnitude and its sign bit (15). */
static uint32_t curpos_half(int64_t c)
{
	uint64_t m = (uint64_t)(c < 0 ? -c : c);

	return (c < 0 ? 0x8000u : 0u) | (uint32_t)(m > 0xfff ? 0xfff : m);
}

static int64_t signed_of(uint32_t mag, bool neg)
{
	return neg ? -(int64_t)mag : (int64_t)mag;
}

/* The owner's cursor over its plane pl (shown): mapped again when its
 * image changed or the guest rewrote an entry of it (remap), moved when
 * its place changed, off when refused or disabled. */
static void cursor_update(struct vgpu *v, const struct vdisp_plane *pl,
			  bool remap)
{
	struct vdisp_plane cur;
	struct pgpu_cursor_regs r;
	uint32_t ptes = 0;
	int64_t x, y;

	if (vgpu_screen_cursor(v, &cur) != VDISP_PLANE_OK) {
		cursor_off();
		return;
	}
	if (remap || !sp.cur_showing || cur.surf != sp.cur_shown.surf ||
	    cur.w != sp.cur_shown.w) {
		if (gvt_scanout_map_cursor(gpu_host_gvt(), v, &cur, &sp.cur_gm,
					   &ptes)) {
			cursor_off();
			return;
		}
		sp.st.ptes += ptes;
	}
	x = (int64_t)sp.plane_x + signed_of(cur.x, cur.neg & VDISP_NEG_X) - pl->x;
	y = (int64_t)sp.plane_y + signed_of(cur.y, cur.neg & VDISP_NEG_Y) - pl->y;
	r.ctl = cur.w == 64 ? MCURSOR_MODE_64_ARGB_AX :
		cur.w == 128 ? MCURSOR_MODE_128_ARGB_AX : MCURSOR_MODE_256_ARGB_AX;
	r.pos = curpos_half(y) << 16 | curpos_half(x);
	r.base = (uint32_t)sp.cur_gm;
	if (sp.cur_showing && !ptes && sp.pp.cursor_on &&
	    r.pos == sp.pp.cursor.pos && r.ctl == sp.pp.cursor.ctl)
		return;
	sp.st.mmio_writes += pgpu_cursor_show(&sp.pp, &r);
	sp.st.cursor_shows++;
	sp.cur_shown = cur;
	sp.cur_showing = true;
}

static void update(void)
{
	struct vgpu *v = owner_vgpu();
	struct vdisp_plane pl;
	bool dirty;
	int err;

	if (!v || vms[sp.vm].state == VM_STOPPED) {
		refuse(ERR_STOPPED, "stopped, or no vGPU");
		return;
	}
	err = vgpu_screen_plane(v, &pl);
	if (err) {
		refuse(err, err == VDISP_PLANE_OFF ? "plane 1 off" :
		       vdisp_plane_why(err));
		return;
	}
	dirty = vgpu_scanout_dirty(v);
	if (!sp.showing || !same_plane(&pl, &sp.shown) || dirty)
		show(v, &pl);
	if (sp.showing)
		cursor_update(v, &pl, dirty);
}

bool screen_plane_available(void)
{
	struct gpu_hw *hw = gpu_host_hw();
	uint32_t w, h;

	if (!hw)
		return false;
	if (!sp.init) {
		pgpu_plane_init(&sp.pp, hw, 0);
		sp.init = true;
	}
	return pgpu_plane_pipe_size(&sp.pp, &w, &h) == 0;
}

void screen_plane_start(int vm)
{
	struct gvt *gvt = gpu_host_gvt();

	if (!screen_plane_available())
		return;
	/* From the console: what the plane holds is not known (the takeover,
	 * a reset), so the first show writes every register. */
	if (sp.vm < 0 && !sp.pp.on)
		pgpu_plane_init(&sp.pp, gpu_host_hw(), 0);
	/* Nothing of the last owner stays in either half of the window. */
	if (gvt && sp.vm != vm)
		gvt_scanout_clear(gvt);
	sp.vm = vm;
	sp.said = 0;
	sp.announce = true;
	sp.showing = false;
	sp.cur_showing = false;
	update();
}

void screen_plane_stop(void)
{
	if (sp.vm < 0)
		return;
	sp.vm = -1;
	plane_off();
}

void screen_plane_poll(void)
{
	if (sp.vm >= 0)
		update();
}

const struct screen_plane_stats *screen_plane_stats(void)
{
	return &sp.st;
}
