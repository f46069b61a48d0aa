/* The owner VM's picture on the box's screen (see screen_compose.h).
 *
 * Only the GOP-framebuffer path is built: the console's framebuffer
 * (hv/console/console_fb.h) is written row by row with the owner's pipe A
 * primary plane, read through the owner's own GGTT entries from its own
 * pages (vgpu_screen_read), fitted by gpu/display/vdisp_fit.c (whole-factor
 * magnification or nearest shrinking, aspect kept, black bars). A plane
 * that is off, refused, or changed in the middle of a frame shows black
 * for the rest of that frame; a stopped VM's screen is black. The owner's
 * pipe A cursor, as it latched at the frame's start, is laid over the
 * plane's rows (premultiplied ARGB, vdisp_blend_argb) before they are
 * fitted, so it is magnified or shrunk with the picture. When there
 * is no framebuffer because the hypervisor drives the GPU (the takeover
 * released it, or the GPU is the model), the physical plane is pointed at
 * the owner's surface instead (hv/gpu/screen_plane.c). */
#include "gpu/display/vdisp_fit.h"
#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/console/console_fb.h"
#include "hv/console/fbcon.h"
#include "hv/console/kbd_scancode.h"
#include "hv/cpu/x86.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/screen_compose.h"
#include "hv/gpu/screen_plane.h"
#include "hv/platform/tsc.h"
#include "hv/vm/vm.h"
#include "mini/string.h"

/* The work of one main-loop round, so that one big composition cannot
 * hold the other VMs' exits: at most 32 rows, and at most
 * COMPOSE_ROUND_PX pixels moved, a row costing the screen's width
 * (written) plus the plane's width when it reads a new source row. 32
 * rows of 1024 pixels 1:1 are 64 K; 1920 wide 1:1 fits 17 rows, a
 * 4096-wide plane shrunk onto 1024 about 12. A round always does one row
 * (the frame goes on), and resumes at the next row the round after. */
#define COMPOSE_ROWS_PER_ROUND 32u
#define COMPOSE_ROUND_PX (32u * 1024u * 2u)
/* The widest screen and plane composed (Skylake's planes are at most
 * 8192 wide, vdisp_plane.c); one row buffer each, 64 KiB in all. */
#define COMPOSE_MAX_W 8192u
/* Without the owner's vblanks (its pipe is off, or it has no vGPU any
 * more) frames come at the virtual monitor's 60 Hz. */
#define COMPOSE_PERIOD_MS 17u

static struct {
	int owner;
	bool plane;		/* shown by the physical plane, not composed */
	bool framing;		/* a frame is being composed */
	bool pending;		/* the first frame after a switch is not done */
	uint32_t y;		/* next row of the box's screen */
	int plane_err;		/* VDISP_PLANE_OK, or why this frame is black */
	struct vdisp_plane pl;	/* the frame's plane */
	struct vdisp_fit fit;
	bool cur_on;		/* the frame's cursor, checked, over the plane */
	struct vdisp_plane cur;
	int32_t cur_x, cur_y;	/* its top left in the plane's pixels */
	uint32_t row_sy;	/* source row dst_row holds, or NONE */
	uint32_t last_frames;	/* the owner's PIPE_FRMCOUNT at frame start */
	uint64_t last_start;	/* TSC at the last frame's start */
	uint64_t frame_tsc;	/* TSC ticks this frame cost so far */
	unsigned rs, gs, bs;	/* 8-bit channel shifts; direct when 8-bit */
	bool direct;
	bool xrgb;		/* the framebuffer is 0x00RRGGBB: no conversion */
	struct screen_compose_stats st;
} cs = { .owner = SCREEN_OWNER_HV,
	 .st = { .round_budget_px = COMPOSE_ROUND_PX } };

static uint32_t src_row[COMPOSE_MAX_W], dst_row[COMPOSE_MAX_W];
static uint32_t cur_row[VGPU_SCREEN_RUN];	/* the largest cursor: 256 */

static struct vgpu *vgpu_of(int vm)
{
	struct gvt *gvt = gpu_host_gvt();

	return gvt && vm >= 0 && (unsigned)vm < nr_vms ?
	       gvt_vgpu_by_vm(gvt, (uint32_t)vm) : NULL;
}

static const char *owner_name(int vm)
{
	return vm == SCREEN_OWNER_HV ? "the hypervisor console" : vms[vm].name;
}

static bool same_plane(const struct vdisp_plane *a, const struct vdisp_plane *b)
{
	return a->surf == b->surf && a->w == b->w && a->h == b->h &&
	       a->stride == b->stride && a->fmt == b->fmt &&
	       a->tiling == b->tiling && a->ox == b->ox && a->oy == b->oy;
}

/* An 8-bit mask's shift, or -1 when the mask is not 8 contiguous bits. */
static int shift8(uint32_t mask)
{
	unsigned s = mask ? (unsigned)__builtin_ctz(mask) : 0;

	return mask && s <= 24 && mask >> s == 0xff ? (int)s : -1;
}

static void frame_formats(const struct fbcon_fb *fb)
{
	int r = shift8(fb->red_mask), g = shift8(fb->green_mask),
	    b = shift8(fb->blue_mask);

	cs.direct = r >= 0 && g >= 0 && b >= 0;
	cs.rs = (unsigned)r;
	cs.gs = (unsigned)g;
	cs.bs = (unsigned)b;
	cs.xrgb = cs.direct && r == 16 && g == 8 && b == 0;
}

static uint32_t to_fb(const struct fbcon_fb *fb, uint32_t rgb)
{
	if (!cs.direct)
		return fbcon_pixel(fb, rgb);
	return (rgb >> 16 & 0xff) << cs.rs | (rgb >> 8 & 0xff) << cs.gs |
	       (rgb & 0xff) << cs.bs;
}

/* The cursor for this frame: on the pipe at CURPOS (signed), placed in
 * the plane's pixels (the plane sits at PLANE_POS on the pipe). One
 * refused or off shows nothing; the picture under it goes on. */
static void start_cursor(struct vgpu *v)
{
	cs.cur_on = cs.plane_err == VDISP_PLANE_OK &&
		    vgpu_screen_cursor(v, &cs.cur) == VDISP_PLANE_OK &&
		    cs.cur.w <= VGPU_SCREEN_RUN;
	if (!cs.cur_on)
		return;
	cs.cur_x = (cs.cur.neg & VDISP_NEG_X ? -(int32_t)cs.cur.x :
		    (int32_t)cs.cur.x) - (int32_t)cs.pl.x;
	cs.cur_y = (cs.cur.neg & VDISP_NEG_Y ? -(int32_t)cs.cur.y :
		    (int32_t)cs.cur.y) - (int32_t)cs.pl.y;
}

/* The cursor's row over the plane's source row sy, or -1. */
static int32_t cursor_row(uint32_t sy)
{
	int32_t r = (int32_t)sy - cs.cur_y;

	return cs.cur_on && r >= 0 && r < (int32_t)cs.cur.h ? r : -1;
}

/* The cursor's pixels of source row sy laid over src_row, clipped to the
 * plane; a row it cannot read (its GM gone since) is left out. */
static void blend_cursor(struct vgpu *v, uint32_t sy)
{
	int32_t r = cursor_row(sy), x0, x1;

	if (r < 0)
		return;
	x0 = cs.cur_x < 0 ? -cs.cur_x : 0;	/* first cursor column shown */
	x1 = (int32_t)cs.pl.w - cs.cur_x;	/* one past the last */
	if (x1 > (int32_t)cs.cur.w)
		x1 = (int32_t)cs.cur.w;
	if (x0 >= x1 || vgpu_screen_read(v, &cs.cur, (uint32_t)r, (uint32_t)x0,
					 (uint32_t)(x1 - x0), cur_row))
		return;
	vdisp_blend_argb(src_row + cs.cur_x + x0, cur_row, (uint32_t)(x1 - x0));
	cs.st.cursor_rows++;
}

static void start_frame(const struct fbcon_fb *fb, struct vgpu *v)
{
	bool running;

	cs.framing = true;
	cs.y = 0;
	cs.frame_tsc = 0;
	cs.row_sy = VDISP_FIT_NONE;
	cs.last_start = rdtsc();
	cs.plane_err = v ? vgpu_screen_plane(v, &cs.pl) : VDISP_PLANE_OFF;
	if (v)
		cs.last_frames = vgpu_screen_frames(v, &running);
	if (cs.plane_err == VDISP_PLANE_OK && cs.pl.w > COMPOSE_MAX_W)
		cs.plane_err = VDISP_PLANE_BAD_SIZE;
	if (cs.plane_err != VDISP_PLANE_OK ||
	    vdisp_fit(&cs.fit, cs.pl.w, cs.pl.h, fb->width, fb->height))
		vdisp_fit(&cs.fit, 0, 0, 0, 0);	/* every row a bar */
	frame_formats(fb);
	start_cursor(v);
}

/* Source row sy of the frame's plane into dst_row, fitted and converted;
 * false when the plane is gone or changed (the frame goes black). */
static bool read_source(struct vgpu *v, const struct fbcon_fb *fb, uint32_t sy)
{
	uint32_t x, n;

	for (x = 0; x < cs.pl.w; x += n) {
		n = cs.pl.w - x < VGPU_SCREEN_RUN ? cs.pl.w - x : VGPU_SCREEN_RUN;
		if (vgpu_screen_read(v, &cs.pl, sy, x, n, src_row + x))
			return false;
	}
	cs.st.rows_read++;
	blend_cursor(v, sy);
	vdisp_fit_row(&cs.fit, src_row, dst_row);
	for (x = 0; !cs.xrgb && x < fb->width; x++)
		dst_row[x] = to_fb(fb, dst_row[x]);
	cs.row_sy = sy;
	return true;
}

static void compose_row(struct vgpu *v, const struct fbcon_fb *fb, uint32_t y)
{
	volatile uint32_t *row = (volatile uint32_t *)((uint8_t *)fb->base +
						       (size_t)y * fb->pitch);
	uint32_t sy = vdisp_fit_src_row(&cs.fit, y), x, black = to_fb(fb, 0);

	if (sy == VDISP_FIT_NONE || (sy != cs.row_sy &&
				     !read_source(v, fb, sy))) {
		for (x = 0; x < fb->width; x++)
			row[x] = black;
		return;
	}
	for (x = 0; x < fb->width; x++)
		row[x] = dst_row[x];
}

/* What row y costs (pixels moved): the screen's width written, plus the
 * plane's width (and the cursor's, where it lies) when its source row is
 * not the one dst_row holds. */
static uint32_t row_cost(const struct fbcon_fb *fb, uint32_t y)
{
	uint32_t sy = vdisp_fit_src_row(&cs.fit, y);

	if (sy == VDISP_FIT_NONE || sy == cs.row_sy)
		return fb->width;
	return fb->width + cs.pl.w + (cursor_row(sy) >= 0 ? cs.cur.w : 0);
}

/* This round's rows from cs.y on, within the budget (at least one);
 * returns the pixels moved. */
static uint32_t compose_round(struct vgpu *v, const struct fbcon_fb *fb)
{
	uint32_t rows = 0, px = 0, c;

	while (cs.y < fb->height && rows < COMPOSE_ROWS_PER_ROUND) {
		c = row_cost(fb, cs.y);
		if (rows && px + c > cs.st.round_budget_px)
			break;
		compose_row(v, fb, cs.y++);
		px += c;
		rows++;
	}
	cs.st.rows += rows;
	return px;
}

static void note_round(uint64_t tsc, uint32_t px)
{
	cs.frame_tsc += tsc;
	cs.st.rounds++;
	cs.st.last_round_px = px;
	if (px > cs.st.max_round_px)
		cs.st.max_round_px = px;
	if (tsc > cs.st.max_round_tsc)
		cs.st.max_round_tsc = tsc;
}

void screen_compose_set_round_px(uint32_t px)
{
	cs.st.round_budget_px = px ? px : COMPOSE_ROUND_PX;
}

/* The plane this round: the frame's, checked again; a change (flip to
 * another size or place, plane off, VM stopped) blacks the rest. */
static void recheck(struct vgpu *v)
{
	struct vdisp_plane now;

	if (cs.plane_err != VDISP_PLANE_OK)
		return;
	if (!v || vgpu_screen_plane(v, &now) != VDISP_PLANE_OK ||
	    !same_plane(&now, &cs.pl)) {
		cs.plane_err = VDISP_PLANE_OFF;
		vdisp_fit(&cs.fit, 0, 0, 0, 0);
	}
}

static void end_frame(void)
{
	cs.framing = false;
	cs.st.frames++;
	cs.st.black_frames += cs.plane_err != VDISP_PLANE_OK;
	cs.st.last_tsc = cs.frame_tsc;
	cs.st.total_tsc += cs.frame_tsc;
	if (cs.frame_tsc > cs.st.max_tsc)
		cs.st.max_tsc = cs.frame_tsc;
	if (!cs.pending)
		return;
	cs.pending = false;
	if (cs.plane_err != VDISP_PLANE_OK)
		kprintf("screen: vm '%s' shows nothing (plane 1 %s): the box's "
			"screen is black; %llu TSC ticks\n", vms[cs.owner].name,
			vdisp_plane_why(cs.plane_err),
			(unsigned long long)cs.frame_tsc);
	else
		kprintf("screen: vm '%s' composed: %ux%u plane on the %ux%u "
			"screen as %ux%u at %u,%u (%s); %llu TSC ticks\n",
			vms[cs.owner].name, cs.pl.w, cs.pl.h, cs.fit.dw,
			cs.fit.dh, cs.fit.w, cs.fit.h, cs.fit.x, cs.fit.y,
			cs.fit.k ? (cs.fit.k == 1 ? "1:1" : "magnified") :
				   "shrunk",
			(unsigned long long)cs.frame_tsc);
}

/* A new frame at each vblank of the owner's pipe A, or at 60 Hz while
 * it has none; never more than one in progress. */
static bool frame_due(struct vgpu *v)
{
	bool running = false;
	uint32_t f = v ? vgpu_screen_frames(v, &running) : 0;

	if (cs.pending)
		return true;
	if (running)
		return f != cs.last_frames;
	return rdtsc() - cs.last_start >= tsc_ms(COMPOSE_PERIOD_MS);
}

int screen_compose_set_owner(int vm, const char *by)
{
	const struct fbcon_fb *fb = console_fb_screen();

	if (vm == cs.owner) {
		kprintf("screen: the box's screen already belongs to %s%s%s\n",
			vm == SCREEN_OWNER_HV ? "" : "vm '", owner_name(vm),
			vm == SCREEN_OWNER_HV ? "" : "'");
		return 0;
	}
	if (vm != SCREEN_OWNER_HV && !vgpu_of(vm)) {
		kprintf("screen: vm '%s' has no vGPU: it has no screen to "
			"show\n", vms[vm].name);
		return -1;
	}
	if (vm != SCREEN_OWNER_HV && (!fb || fb->width > COMPOSE_MAX_W) &&
	    !screen_plane_available()) {
		kprintf("screen: the box's screen is neither a framebuffer the "
			"hypervisor draws (console=fb, before the GPU is taken "
			"over) nor a lit pipe of a GPU it drives: vm '%s' cannot "
			"be shown\n", vms[vm].name);
		return -1;
	}
	cs.owner = vm;
	cs.st.switches++;
	cs.framing = false;
	/* No framebuffer to compose into (or one wider than the row
	 * buffers): the physical plane, which the check above found. */
	cs.plane = vm != SCREEN_OWNER_HV && (!fb || fb->width > COMPOSE_MAX_W);
	cs.pending = vm != SCREEN_OWNER_HV && !cs.plane;
	kprintf("screen: the box's screen belongs to %s%s%s (%s; F12: next "
		"owner, F11: the console)\n", vm == SCREEN_OWNER_HV ? "" :
		"vm '", owner_name(vm), vm == SCREEN_OWNER_HV ? "" : "'", by);
	if (cs.plane) {
		screen_plane_start(vm);
		return 0;
	}
	screen_plane_stop();
	if (vm == SCREEN_OWNER_HV)
		console_fb_resume();
	else
		console_fb_suspend();
	return 0;
}

void screen_compose_boot(const char *vm_name)
{
	unsigned i;

	if (!vm_name[0])
		return;
	for (i = 0; i < nr_vms && strcmp(vms[i].name, vm_name); i++)
		;
	if (i == nr_vms)
		kprintf("screen: display_owner vm '%s' did not start: the "
			"box's screen stays the hypervisor console's\n",
			vm_name);
	else
		screen_compose_set_owner((int)i, "hv.cfg display_owner");
}

int screen_compose_owner(void)
{
	return cs.owner;
}

bool screen_compose_pending(void)
{
	return cs.pending;
}

const struct screen_compose_stats *screen_compose_stats(void)
{
	return &cs.st;
}

/* F12: the next VM with a vGPU after the owner, the console after the
 * last; F11: the console. */
static void hotkey(unsigned key)
{
	int vm = SCREEN_OWNER_HV;

	if (key == KBD_HOTKEY_NEXT)
		for (vm = cs.owner + 1; vm < (int)nr_vms && !vgpu_of(vm); vm++)
			;
	if (vm >= (int)nr_vms)
		vm = SCREEN_OWNER_HV;
	if (screen_compose_set_owner(vm, "hotkey") && key == KBD_HOTKEY_NEXT)
		screen_compose_set_owner(SCREEN_OWNER_HV, "hotkey");
}

void screen_compose_poll(void)
{
	const struct fbcon_fb *fb = console_fb_screen();
	unsigned key = console_fb_hotkey();
	struct vgpu *v;
	uint64_t t0;
	uint32_t px;

	if (key)
		hotkey(key);
	if (cs.owner == SCREEN_OWNER_HV)
		return;
	if (cs.plane) {
		screen_plane_poll();
		return;
	}
	if (!fb) {	/* released: the GPU was taken over */
		cs.pending = false;
		screen_compose_set_owner(SCREEN_OWNER_HV, "no framebuffer");
		return;
	}
	v = vgpu_of(cs.owner);
	if (!cs.framing && !frame_due(v))
		return;
	t0 = rdtsc();
	if (!cs.framing)
		start_frame(fb, v);
	else
		recheck(v);
	px = compose_round(v, fb);
	note_round(rdtsc() - t0, px);
	if (cs.y == fb->height)
		end_frame();
}
