/* hv/gpu/screen_compose.c against a framebuffer in memory and fake
 * vGPUs (their pictures in arrays, read as vgpu_screen_read would): the
 * owner's picture lands pixel for pixel where vdisp_fit puts it, 32 rows a
 * round and no more, the first frame before `screen VM` returns; a
 * refused plane, a plane changed mid-frame, a stopped VM compose black;
 * frames follow the owner's vblanks; the console is suspended and
 * resumed; F12 cycles the owners (VMs without a vGPU skipped, the
 * console last), F11 returns to the console; no framebuffer, no owner;
 * the owner's cursor laid over its picture (premultiplied alpha,
 * clipped at the plane's edges, magnified with it, refused: not shown). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/vgpu/vgpu.h"
#include "hv/console/console.h"
#include "hv/console/console_fb.h"
#include "hv/console/fbcon.h"
#include "hv/console/kbd_scancode.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/screen_compose.h"
#include "hv/gpu/screen_plane.h"
#include "hv/platform/tsc.h"
#include "hv/vm/vm.h"

#define ROWS_PER_ROUND 32u	/* screen_compose.c's COMPOSE_ROWS_PER_ROUND */
#define POISON 0xdeadbeefu
#define MAXPX (64 * 100)

/* ---- fakes of what the composition calls ------------------------------- */

struct vm vms[VM_MAX];
unsigned nr_vms;

struct fake_vgpu {
	bool present;
	int err;			/* what vgpu_screen_plane says */
	struct vdisp_plane pl;
	uint32_t pic[MAXPX];		/* 0x00RRGGBB, pl.w x pl.h */
	uint32_t frames;
	bool running;
	unsigned reads;
	int cur_err;			/* what vgpu_screen_cursor says */
	struct vdisp_plane cur;
	uint32_t cur_pic[64 * 64];	/* 0xAARRGGBB, cur.w x cur.h */
	unsigned cur_reads;
};
static struct fake_vgpu fv[3];
static int gvt_dummy;

struct gvt *gpu_host_gvt(void) { return (struct gvt *)&gvt_dummy; }

struct vgpu *gvt_vgpu_by_vm(struct gvt *gvt, uint32_t vm)
{
	(void)gvt;
	return vm < 3 && fv[vm].present ? (struct vgpu *)&fv[vm] : NULL;
}

int vgpu_screen_plane(struct vgpu *v, struct vdisp_plane *pl)
{
	struct fake_vgpu *f = (struct fake_vgpu *)v;

	*pl = f->pl;
	return f->err;
}

int vgpu_screen_cursor(struct vgpu *v, struct vdisp_plane *cur)
{
	struct fake_vgpu *f = (struct fake_vgpu *)v;

	*cur = f->cur;
	return f->cur_err;
}

int vgpu_screen_read(struct vgpu *v, const struct vdisp_plane *pl, uint32_t y,
		     uint32_t x0, uint32_t n, uint32_t *rgb)
{
	struct fake_vgpu *f = (struct fake_vgpu *)v;

	if (f->cur.surf && pl->surf == f->cur.surf) {
		/* the cursor: only one vgpu_screen_cursor gave, checked */
		assert_int_equal(f->cur_err, VDISP_PLANE_OK);
		assert_true(n <= VGPU_SCREEN_RUN && y < pl->h &&
			    x0 + n <= pl->w);
		memcpy(rgb, &f->cur_pic[y * pl->w + x0], n * sizeof(*rgb));
		f->cur_reads++;
		return 0;
	}
	/* Only ever the plane vgpu_screen_plane gave, checked. */
	assert_int_equal(f->err, VDISP_PLANE_OK);
	assert_int_equal(pl->surf, f->pl.surf);
	if (n > VGPU_SCREEN_RUN || y >= pl->h || x0 + n > pl->w)
		return -1;
	memcpy(rgb, &f->pic[y * pl->w + x0], n * sizeof(*rgb));
	f->reads++;
	return 0;
}

uint32_t vgpu_screen_frames(const struct vgpu *v, bool *running)
{
	const struct fake_vgpu *f = (const struct fake_vgpu *)v;

	*running = f->running;
	return f->frames;
}

/* The physical-plane path (hv/gpu/screen_plane.c, tested on its own by
 * test_screen_plane): whether it is offered, and what it was told. */
static bool plane_ok;
static int plane_vm = -2;
static unsigned plane_polls, plane_stops;

bool screen_plane_available(void) { return plane_ok; }
void screen_plane_start(int vm) { plane_vm = vm; }
void screen_plane_poll(void) { plane_polls++; }

void screen_plane_stop(void)
{
	plane_stops++;
	plane_vm = -2;
}

static uint32_t fbmem[100 * 64];
static struct fbcon_fb fb;
static bool fb_present, suspended;
static unsigned resumes, key;

const struct fbcon_fb *console_fb_screen(void)
{
	return fb_present ? &fb : NULL;
}

void console_fb_suspend(void) { suspended = true; }

void console_fb_resume(void)
{
	suspended = false;
	resumes++;
}

unsigned console_fb_hotkey(void)
{
	unsigned k = key;

	key = 0;
	return k;
}

uint32_t fbcon_pixel(const struct fbcon_fb *f, uint32_t rgb)
{
	(void)f;
	return rgb ^ 0x01000000u;	/* a format the test can tell apart */
}

/* A 1 kHz TSC: the 60 Hz frames of an owner whose pipe is off (17 ms)
 * are always due, so those tests need no waiting. */
uint64_t tsc_hz(void) { return 1000; }

static char last_line[512];

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_line, sizeof(last_line), fmt, ap);
	va_end(ap);
}

/* ---- helpers ------------------------------------------------------------ */

static void screen(uint32_t w, uint32_t h, uint32_t r, uint32_t g, uint32_t b)
{
	fb = (struct fbcon_fb){ .base = fbmem, .width = w, .height = h,
				.pitch = w * 4, .red_mask = r, .green_mask = g,
				.blue_mask = b };
	for (unsigned i = 0; i < sizeof(fbmem) / 4; i++)
		fbmem[i] = POISON;
	fb_present = true;
}

static void picture(unsigned vm, uint32_t w, uint32_t h, uint32_t seed)
{
	struct fake_vgpu *f = &fv[vm];

	f->present = true;
	f->err = VDISP_PLANE_OK;
	f->cur_err = VDISP_PLANE_OFF;
	f->pl = (struct vdisp_plane){ .surf = 0x100000 * (vm + 1), .w = w,
				      .h = h, .stride = w * 4, .cpp = 4,
				      .on = true };
	for (uint32_t i = 0; i < w * h; i++)
		f->pic[i] = (seed * 0x10101u + i * 2654435761u) & 0xffffff;
}

/* A w x w cursor at (x, y) on the pipe (negative: CURPOS's signs): its
 * pixels opaque red where (cx + cy) % 3 == 0, half-transparent white
 * (premultiplied 0x80808080) where 1, transparent elsewhere. */
static void cursor(unsigned vm, uint32_t w, int32_t x, int32_t y)
{
	struct fake_vgpu *f = &fv[vm];

	f->cur_err = VDISP_PLANE_OK;
	f->cur = (struct vdisp_plane){ .surf = 0x900000 * (vm + 1), .w = w,
				       .h = w, .stride = w * 4, .cpp = 4,
				       .fmt = VDISP_FMT_ARGB8888, .on = true,
				       .x = (uint32_t)(x < 0 ? -x : x),
				       .y = (uint32_t)(y < 0 ? -y : y),
				       .neg = (x < 0 ? VDISP_NEG_X : 0) |
					      (y < 0 ? VDISP_NEG_Y : 0) };
	for (uint32_t cy = 0; cy < w; cy++)
		for (uint32_t cx = 0; cx < w; cx++)
			f->cur_pic[cy * w + cx] =
				(cx + cy) % 3 == 0 ? 0xffff0000u :
				(cx + cy) % 3 == 1 ? 0x80808080u : 0;
}

/* What source pixel (x, y) of vm's picture shows with its cursor over it
 * at (cx0, cy0) in the plane's pixels (the rule written out again). */
static uint32_t under_cursor(unsigned vm, uint32_t x, uint32_t y, int32_t cx0,
			     int32_t cy0)
{
	const struct fake_vgpu *f = &fv[vm];
	uint32_t d = f->pic[y * f->pl.w + x], out = 0;
	int32_t cx = (int32_t)x - cx0, cy = (int32_t)y - cy0;

	if (cx < 0 || cy < 0 || cx >= (int32_t)f->cur.w ||
	    cy >= (int32_t)f->cur.h || (cx + cy) % 3 == 2)
		return d;
	if ((cx + cy) % 3 == 0)
		return 0xff0000;
	for (int sh = 0; sh <= 16; sh += 8) {
		uint32_t c = 0x80 + ((d >> sh & 0xff) * 127 + 127) / 255;

		out |= (c > 255 ? 255 : c) << sh;
	}
	return out;
}

static uint32_t px(uint32_t x, uint32_t y)
{
	return fbmem[y * fb.width + x];
}

/* Polls until the first frame after a switch is done; the rounds it took. */
static unsigned first_frame(void)
{
	unsigned rounds = 0;

	while (screen_compose_pending()) {
		screen_compose_poll();
		assert_true(++rounds < 1000);
	}
	return rounds;
}

static int setup(void **state)
{
	(void)state;
	memset(fv, 0, sizeof(fv));
	nr_vms = 3;
	strcpy(vms[0].name, "mallory");
	strcpy(vms[1].name, "bob");
	strcpy(vms[2].name, "eve");
	key = 0;
	resumes = 0;
	screen(64, 48, 0xff0000, 0x00ff00, 0x0000ff);
	screen_compose_set_owner(SCREEN_OWNER_HV, "test");
	resumes = 0;
	return 0;
}

/* ---- tests -------------------------------------------------------------- */

/* 16x12 on 64x48: 4x, every pixel of the screen the source pixel it
 * magnifies; the console suspended; two rounds (32 rows each). */
static void test_owner_composed_exactly(void **state)
{
	(void)state;
	picture(0, 16, 12, 1);
	assert_int_equal(screen_compose_set_owner(0, "test"), 0);
	assert_true(suspended);
	assert_non_null(strstr(last_line, "belongs to vm 'mallory' (test;"));
	assert_int_equal(first_frame(), 2);
	assert_non_null(strstr(last_line, "vm 'mallory' composed: 16x12 plane "
			       "on the 64x48 screen as 64x48 at 0,0 "
			       "(magnified)"));
	for (uint32_t y = 0; y < 48; y++)
		for (uint32_t x = 0; x < 64; x++)
			assert_int_equal(px(x, y), fv[0].pic[y / 4 * 16 + x / 4]);
	/* each source row read once, not once per screen row */
	assert_int_equal(fv[0].reads, 12);
	assert_int_equal(screen_compose_owner(), 0);
}

/* A picture that only fits 1:1 is letterboxed: black bars, picture in
 * the middle; the fb's format (BGR) is honoured. */
static void test_letterbox_and_format(void **state)
{
	(void)state;
	screen(64, 48, 0x0000ff, 0x00ff00, 0xff0000);	/* BGR */
	picture(1, 40, 30, 2);
	assert_int_equal(screen_compose_set_owner(1, "test"), 0);
	first_frame();
	for (uint32_t y = 0; y < 48; y++)
		for (uint32_t x = 0; x < 64; x++) {
			bool in = x >= 12 && x < 52 && y >= 9 && y < 39;
			uint32_t rgb = in ? fv[1].pic[(y - 9) * 40 + x - 12] : 0;
			uint32_t bgr = (rgb & 0xff) << 16 | (rgb & 0xff00) |
				       rgb >> 16;

			assert_int_equal(px(x, y), bgr);
		}
	/* masks that are not 8 bits wide go through fbcon_pixel */
	screen(64, 48, 0xf800, 0x07e0, 0x001f);
	screen_compose_set_owner(SCREEN_OWNER_HV, "test");
	screen_compose_set_owner(1, "test");
	first_frame();
	assert_int_equal(px(0, 0), 0x01000000u);
	assert_int_equal(px(12, 9), fv[1].pic[0] ^ 0x01000000u);
}

/* At most 32 rows a round: a 100-row screen takes 4 rounds. */
static void test_rows_bounded(void **state)
{
	(void)state;
	screen(64, 100, 0xff0000, 0x00ff00, 0x0000ff);
	picture(0, 64, 100, 3);
	screen_compose_set_owner(0, "test");
	screen_compose_poll();
	assert_int_equal(px(0, ROWS_PER_ROUND - 1), fv[0].pic[31 * 64]);
	assert_int_equal(px(0, ROWS_PER_ROUND), POISON);
	assert_true(screen_compose_pending());
	assert_int_equal(first_frame(), 3);
}

/* The pixel budget: 64-wide 1:1 rows cost 128 (64 written, 64 read), so
 * 512 a round is 4 rows; each round resumes at the next row; the frame
 * is the one an unbounded round makes, pixel for pixel. */
static void test_round_budget_resumes(void **state)
{
	static uint32_t whole[64 * 48];
	const struct screen_compose_stats *st = screen_compose_stats();
	uint64_t rounds, rows;

	(void)state;
	picture(0, 64, 48, 5);
	screen_compose_set_owner(0, "test");
	first_frame();
	memcpy(whole, fbmem, sizeof(whole));
	screen_compose_set_owner(SCREEN_OWNER_HV, "test");
	screen(64, 48, 0xff0000, 0x00ff00, 0x0000ff);	/* poisoned again */
	screen_compose_set_round_px(512);
	rounds = st->rounds;
	rows = st->rows;
	screen_compose_set_owner(0, "test");
	for (unsigned r = 1; r <= 12; r++) {
		screen_compose_poll();
		assert_int_equal(px(63, 4 * r - 1), whole[(4 * r - 1) * 64 + 63]);
		if (r < 12)
			assert_int_equal(px(0, 4 * r), POISON);
		assert_int_equal(st->last_round_px, 512);
	}
	assert_false(screen_compose_pending());
	assert_int_equal(st->rounds - rounds, 12);
	assert_int_equal(st->rows - rows, 48);
	assert_memory_equal(fbmem, whole, sizeof(whole));
	screen_compose_set_round_px(0);
}

/* A budget below one row still moves one row a round (the frame always
 * ends); a shrunk plane's rows cost their source width too: 64x96 onto
 * 48x48 (shrunk to 32x48) costs 48 + 64 a row, so 300 a round is 2. */
static void test_round_budget_floor_and_shrink(void **state)
{
	const struct screen_compose_stats *st = screen_compose_stats();
	uint64_t rounds;

	(void)state;
	screen(48, 48, 0xff0000, 0x00ff00, 0x0000ff);
	picture(0, 48, 48, 6);
	screen_compose_set_round_px(10);
	rounds = st->rounds;
	screen_compose_set_owner(0, "test");
	assert_int_equal(first_frame(), 48);
	assert_int_equal(st->rounds - rounds, 48);
	assert_int_equal(st->last_round_px, 96);
	screen_compose_set_owner(SCREEN_OWNER_HV, "test");
	picture(1, 64, 96, 7);
	screen_compose_set_round_px(300);
	screen_compose_set_owner(1, "test");
	assert_int_equal(first_frame(), 24);
	assert_non_null(strstr(last_line, "(shrunk)"));
	assert_int_equal(st->last_round_px, 2 * (48 + 64));
	screen_compose_set_round_px(0);
}

/* A refused plane (e.g. outside the VM's GM) is never read: black. */
static void test_refused_plane_black(void **state)
{
	(void)state;
	picture(2, 16, 12, 4);
	fv[2].err = VDISP_PLANE_OUTSIDE_GM;
	screen_compose_set_owner(2, "test");
	first_frame();
	assert_non_null(strstr(last_line, "vm 'eve' shows nothing (plane 1 "
			       "surface outside the VM's GM)"));
	for (uint32_t i = 0; i < 64 * 48; i++)
		assert_int_equal(fbmem[i], 0);
	assert_int_equal(fv[2].reads, 0);
	assert_int_equal(screen_compose_stats()->black_frames >= 1, 1);
}

/* The guest flips to another surface mid-frame: the rest of the frame is
 * black (never the old surface's pixels), the next frame shows the new. */
static void test_changed_mid_frame(void **state)
{
	(void)state;
	screen(64, 96, 0xff0000, 0x00ff00, 0x0000ff);
	picture(0, 64, 96, 5);
	screen_compose_set_owner(0, "test");
	screen_compose_poll();
	fv[0].pl.surf += 0x1000;
	first_frame();
	assert_int_equal(px(5, 31), fv[0].pic[31 * 64 + 5]);
	for (uint32_t y = ROWS_PER_ROUND; y < 96; y++)
		assert_int_equal(px(7, y), 0);
	/* no vblanks (pipe off): the next frame comes by time */
	for (int i = 0; i < 3; i++)
		screen_compose_poll();
	assert_int_equal(px(7, 90), fv[0].pic[90 * 64 + 7]);
}

/* A stopped VM (its vGPU gone) shows black. */
static void test_stopped_vm_black(void **state)
{
	(void)state;
	picture(0, 16, 12, 6);
	screen_compose_set_owner(0, "test");
	first_frame();
	fv[0].present = false;
	for (int i = 0; i < 8; i++)
		screen_compose_poll();
	for (uint32_t i = 0; i < 64 * 48; i++)
		assert_int_equal(fbmem[i], 0);
}

/* With the owner's pipe running, a frame starts only when its frame
 * counter moved: at most one per vblank. */
static void test_vblank_paced(void **state)
{
	uint64_t n;

	(void)state;
	picture(0, 16, 12, 7);
	fv[0].running = true;
	screen_compose_set_owner(0, "test");
	first_frame();
	n = screen_compose_stats()->frames;
	for (int i = 0; i < 10; i++)
		screen_compose_poll();
	assert_int_equal(screen_compose_stats()->frames, n);
	fv[0].frames++;
	screen_compose_poll();
	screen_compose_poll();
	assert_int_equal(screen_compose_stats()->frames, n + 1);
	for (int i = 0; i < 10; i++)
		screen_compose_poll();
	assert_int_equal(screen_compose_stats()->frames, n + 1);
}

/* Back to the console: resumed (it redraws), nothing composed any more. */
static void test_back_to_console(void **state)
{
	(void)state;
	picture(0, 16, 12, 8);
	screen_compose_set_owner(0, "test");
	first_frame();
	assert_int_equal(screen_compose_set_owner(SCREEN_OWNER_HV, "shell"), 0);
	assert_false(suspended);
	assert_int_equal(resumes, 1);
	assert_non_null(strstr(last_line, "belongs to the hypervisor console "
			       "(shell;"));
	fbmem[0] = POISON;
	for (int i = 0; i < 8; i++)
		screen_compose_poll();
	assert_int_equal(fbmem[0], POISON);
}

/* F12: mallory, bob, (eve has no vGPU), the console; F11: the console. */
static void test_hotkeys(void **state)
{
	(void)state;
	picture(0, 16, 12, 9);
	picture(1, 16, 12, 10);
	key = KBD_HOTKEY_NEXT;
	screen_compose_poll();
	assert_int_equal(screen_compose_owner(), 0);
	assert_non_null(strstr(last_line, "belongs to vm 'mallory' (hotkey;"));
	first_frame();
	key = KBD_HOTKEY_NEXT;
	screen_compose_poll();
	assert_int_equal(screen_compose_owner(), 1);
	first_frame();
	key = KBD_HOTKEY_NEXT;
	screen_compose_poll();
	assert_int_equal(screen_compose_owner(), SCREEN_OWNER_HV);
	key = KBD_HOTKEY_NEXT;
	screen_compose_poll();
	key = KBD_HOTKEY_CONSOLE;
	screen_compose_poll();
	assert_int_equal(screen_compose_owner(), SCREEN_OWNER_HV);
	assert_false(suspended);
}

/* No framebuffer (the GPU taken over): a VM cannot own the screen, F12
 * stays on the console; a VM without a vGPU cannot either. */
static void test_refusals(void **state)
{
	(void)state;
	picture(0, 16, 12, 11);
	assert_int_equal(screen_compose_set_owner(2, "test"), -1);
	assert_non_null(strstr(last_line, "vm 'eve' has no vGPU"));
	fb_present = false;
	assert_int_equal(screen_compose_set_owner(0, "test"), -1);
	assert_non_null(strstr(last_line, "nor a lit pipe of a GPU it drives"));
	key = KBD_HOTKEY_NEXT;
	screen_compose_poll();
	assert_int_equal(screen_compose_owner(), SCREEN_OWNER_HV);
	assert_false(suspended);
	/* released while a VM owns it: back to the console */
	fb_present = true;
	screen_compose_set_owner(0, "test");
	fb_present = false;
	screen_compose_poll();
	assert_int_equal(screen_compose_owner(), SCREEN_OWNER_HV);
	assert_false(screen_compose_pending());
}

/* No framebuffer but a lit pipe of a GPU the hypervisor drives: the
 * owner goes to the physical plane, at once (no frame to wait for),
 * rounds poll it, nothing is composed, F11 stops it. */
static void test_plane_path(void **state)
{
	(void)state;
	picture(0, 16, 12, 12);
	picture(1, 16, 12, 13);
	fb_present = false;
	plane_ok = true;
	plane_polls = plane_stops = 0;
	assert_int_equal(screen_compose_set_owner(0, "test"), 0);
	assert_int_equal(plane_vm, 0);
	assert_false(screen_compose_pending());
	screen_compose_poll();
	screen_compose_poll();
	assert_int_equal(plane_polls, 2);
	assert_int_equal(fv[0].reads, 0);
	key = KBD_HOTKEY_NEXT;	/* F12: bob, on the plane too */
	screen_compose_poll();
	assert_int_equal(plane_vm, 1);
	key = KBD_HOTKEY_CONSOLE;
	screen_compose_poll();
	assert_int_equal(screen_compose_owner(), SCREEN_OWNER_HV);
	assert_int_equal(plane_stops, 1);
	plane_ok = false;
}

/* 16x12 magnified 4x; an 8x8 cursor at pipe (-3, 9): clipped at the
 * plane's left and bottom edges, blended, magnified with the picture. */
static void test_cursor_over_plane(void **state)
{
	uint64_t rows0 = screen_compose_stats()->cursor_rows;

	(void)state;
	picture(0, 16, 12, 5);
	cursor(0, 8, -3, 9);
	assert_int_equal(screen_compose_set_owner(0, "test"), 0);
	first_frame();
	for (uint32_t y = 0; y < 48; y++)
		for (uint32_t x = 0; x < 64; x++)
			assert_int_equal(px(x, y),
					 under_cursor(0, x / 4, y / 4, -3, 9));
	/* rows 9..11 of the plane hold cursor rows 0..2, read once each */
	assert_int_equal(fv[0].cur_reads, 3);
	assert_int_equal(screen_compose_stats()->cursor_rows - rows0, 3);
	assert_int_equal(px(0, 36), 0xff0000);	/* cursor (3,0): red */
}

/* A plane placed at (4, 2) on the pipe moves the cursor's place in it;
 * a refused cursor shows nothing and the picture goes on. */
static void test_cursor_plane_pos_and_refused(void **state)
{
	(void)state;
	screen(16, 12, 0xff0000, 0x00ff00, 0x0000ff);
	picture(1, 16, 12, 6);
	fv[1].pl.x = 4;
	fv[1].pl.y = 2;
	cursor(1, 8, 10, 6);		/* plane pixels (6, 4) */
	assert_int_equal(screen_compose_set_owner(1, "test"), 0);
	first_frame();
	for (uint32_t y = 0; y < 12; y++)
		for (uint32_t x = 0; x < 16; x++)
			assert_int_equal(px(x, y),
					 under_cursor(1, x, y, 6, 4));
	fv[1].cur_err = VDISP_PLANE_OUTSIDE_GM;
	fv[1].cur_reads = 0;
	assert_int_equal(screen_compose_set_owner(SCREEN_OWNER_HV, "t"), 0);
	assert_int_equal(screen_compose_set_owner(1, "test"), 0);
	first_frame();
	assert_int_equal(fv[1].cur_reads, 0);
	for (uint32_t y = 0; y < 12; y++)
		for (uint32_t x = 0; x < 16; x++)
			assert_int_equal(px(x, y), fv[1].pic[y * 16 + x]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_owner_composed_exactly, setup),
		cmocka_unit_test_setup(test_letterbox_and_format, setup),
		cmocka_unit_test_setup(test_rows_bounded, setup),
		cmocka_unit_test_setup(test_round_budget_resumes, setup),
		cmocka_unit_test_setup(test_round_budget_floor_and_shrink,
				       setup),
		cmocka_unit_test_setup(test_refused_plane_black, setup),
		cmocka_unit_test_setup(test_changed_mid_frame, setup),
		cmocka_unit_test_setup(test_stopped_vm_black, setup),
		cmocka_unit_test_setup(test_vblank_paced, setup),
		cmocka_unit_test_setup(test_back_to_console, setup),
		cmocka_unit_test_setup(test_hotkeys, setup),
		cmocka_unit_test_setup(test_refusals, setup),
		cmocka_unit_test_setup(test_plane_path, setup),
		cmocka_unit_test_setup(test_cursor_over_plane, setup),
		cmocka_unit_test_setup(test_cursor_plane_pos_and_refused, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
