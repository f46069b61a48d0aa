/* hv/gpu/screen_plane.c end to end: the mediator on the software model
 * (tests/world/model_world.h, gScale on: vGPUs share GM addresses), a
 * guest's pipe A plane 1 programmed through its vGPU's BAR0, the physical
 * plane pointed at it through the scanout window (gpu/vgpu/display/vgpu_scanout.c,
 * gpu/hw/pgpu_plane.c), and the box's screen read back as a monitor sees
 * it (gen9_model_scanout). Checked: the register values for linear and
 * X-tiled surfaces, the picture pixel for pixel, a flip costing one
 * register, a GGTT rewrite re-mapped, a refused plane and a stopped VM
 * turning the plane off, and another vGPU's entries at the owner's GM
 * addresses (gScale's switch) never reaching the screen. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_tiling.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/hw/pgpu_plane.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "hv/gpu/gpu_host.h"
#include "hv/gpu/screen_plane.h"
#include "hv/vm/vm.h"
#include "tests/world/model_world.h"

#define MiB (1024ull * 1024)
#define PW 320u			/* the physical pipe: 320x200 */
#define PH 200u
#define PLANE_CTL_A 0x70180u
#define PLANE_STRIDE_A 0x70188u
#define PLANE_POS_A 0x7018cu
#define PLANE_SIZE_A 0x70190u
#define PLANE_SURF_A 0x7019cu
#define PLANE_OFFSET_A 0x701a4u
#define GGTT_PTE(gm) (0x800000u + (uint32_t)((gm) >> 12) * 8u)
#define GPA_PIC 0x400000u	/* the guest's pictures in its RAM */
#define GPA_PIC2 0x800000u

static const struct vgpu_type type = { "display", 64 * MiB, 384 * MiB, 4, 1 };

/* ---- what screen_plane.c calls of the hypervisor ------------------------ */

struct vm vms[VM_MAX];
unsigned nr_vms;
static struct model_world *mw;
static char last_line[512];
static unsigned lines;

struct gvt *gpu_host_gvt(void) { return mw ? mw->gvt : NULL; }
struct gpu_hw *gpu_host_hw(void) { return mw ? &mw->hw : NULL; }

void kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(last_line, sizeof(last_line), fmt, ap);
	va_end(ap);
	lines++;
}

/* ---- the world ----------------------------------------------------------- */

static struct vgpu *v;
static uint64_t surf0;	/* the guest's surfaces, in its low GM */

static int setup(void **state)
{
	static struct model_world w;
	struct gvt_params p = { .ext = { &gscale_ext_ops },
				.ext_params = { &gscale_on } };
	struct mw_config c = { .pool_mib = 96, .ram_mib = 256,
			       .ggtt_entries = 512u * 1024u, .params = &p };

	memset(&w, 0, sizeof(w));
	assert_int_equal(mw_init(&w, &c), 0);
	assert_int_equal(mw_add_vgpu(&w, &type, 0, 64 * MiB, &v), 0);
	mw = &w;
	nr_vms = 1;
	strcpy(vms[0].name, "alpha");
	vms[0].state = VM_RUNNABLE;
	surf0 = v->low_base + 0x40000;
	/* What the firmware lit and the takeover kept: pipe A at 320x200. */
	gen9_model_write32(&w.m, 0x70008, 1u << 31);
	gen9_model_write32(&w.m, 0x6001c, (PW - 1) << 16 | (PH - 1));
	*state = &w;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	screen_plane_stop();
	mw_stop(mw);
	mw_fini(mw);
	mw = NULL;
	return 0;
}

static void wr(uint32_t off, uint32_t val)
{
	assert_int_equal(vgpu_mmio_write(v, off, val, 4), 0);
}

static uint32_t phys(uint32_t off)
{
	return gen9_model_read32(&mw->m, off);
}

/* n guest pages at gpa behind GM gm. */
static void map_pages(uint64_t gm, uint64_t gpa, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		assert_int_equal(vgpu_mmio_write(v, GGTT_PTE(gm + i * 4096ull),
						 (gpa + i * 4096ull) | 1, 8), 0);
}

static uint32_t pic_px(uint32_t x, uint32_t y, uint32_t seed)
{
	return ((x * 7 + y * 131 + seed * 0x3501) * 2654435761u >> 8) &
	       0xffffff;
}

/* A w x h XRGB picture at gpa, linear (stride w * 4) or X-tiled. */
static void draw(uint64_t gpa, uint32_t w, uint32_t h, uint32_t stride,
		 bool xtiled, uint32_t seed)
{
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t x = 0; x < w; x++) {
			uint32_t px = pic_px(x, y, seed) | 0xff000000u;
			uint64_t off = xtiled ? gen9_tiled_xy(x * 4, y, stride, false) :
					       (uint64_t)y * stride + x * 4;

			assert_int_equal(vgpu_write_gpa(v, gpa + off, &px, 4), 0);
		}
}

/* The guest's plane 1 (its pipe is off: it latches at once). */
static void guest_plane(uint64_t surf, uint32_t w, uint32_t h,
			uint32_t stride_units, uint32_t ctl)
{
	wr(PLANE_STRIDE_A, stride_units);
	wr(PLANE_SIZE_A, (h - 1) << 16 | (w - 1));
	wr(PLANE_OFFSET_A, 0);
	wr(PLANE_CTL_A, ctl);
	wr(PLANE_SURF_A, (uint32_t)surf);
}

/* The box's screen equals the picture centred, black around it. */
static void assert_screen(uint32_t w, uint32_t h, uint32_t seed)
{
	uint32_t row[PW], x0 = (PW - w) / 2, y0 = (PH - h) / 2;

	for (uint32_t y = 0; y < PH; y++) {
		assert_int_equal(gen9_model_scanout(&mw->m, y, 0, PW, row), 0);
		for (uint32_t x = 0; x < PW; x++) {
			bool in = x >= x0 && x < x0 + w && y >= y0 && y < y0 + h;

			if (row[x] != (in ? pic_px(x - x0, y - y0, seed) : 0))
				fail_msg("screen (%u,%u) = %06x, want %06x", x,
					 y, row[x], in ? pic_px(x - x0, y - y0,
								seed) : 0);
		}
	}
}

static void assert_black(void)
{
	uint32_t row[PW];

	for (uint32_t y = 0; y < PH; y++) {
		assert_int_equal(gen9_model_scanout(&mw->m, y, 0, PW, row), 0);
		for (uint32_t x = 0; x < PW; x++)
			assert_int_equal(row[x], 0);
	}
}

/* The window lies in the host's GM, outside every vGPU's. */
static void assert_surf_in_window(void)
{
	uint64_t s = phys(PLANE_SURF_A);

	assert_true(mw->gvt->scan_gm != 0);
	assert_true(s >= mw->gvt->scan_gm &&
		    s < mw->gvt->scan_gm + 2ull * GVT_SCANOUT_PAGES * 4096);
	assert_false(vgpu_gm_valid(v, s, 4096));
}

/* ---- tests --------------------------------------------------------------- */

/* Linear XRGB 256x64: the registers i915 would write for it (stride in
 * 64-byte units, centred on the 320x200 pipe), six register writes and
 * 16 window entries, the picture pixel for pixel. */
static void test_linear_shown(void **state)
{
	const struct screen_plane_stats *st = screen_plane_stats();

	(void)state;
	map_pages(surf0, GPA_PIC, 16);
	draw(GPA_PIC, 256, 64, 1024, false, 1);
	guest_plane(surf0, 256, 64, 1024 / 64, 0x84000000u);
	assert_true(screen_plane_available());
	screen_plane_start(0);
	assert_int_equal(phys(PLANE_CTL_A), 0x84000000u);
	assert_int_equal(phys(PLANE_STRIDE_A), 16);
	assert_int_equal(phys(PLANE_POS_A), (PH - 64) / 2 << 16 | (PW - 256) / 2);
	assert_int_equal(phys(PLANE_SIZE_A), 63u << 16 | 255u);
	assert_int_equal(phys(PLANE_OFFSET_A), 0);
	assert_surf_in_window();
	assert_int_equal(st->last_mmio, 6);
	assert_int_equal(st->last_ptes, 16);
	assert_screen(256, 64, 1);
	/* Nothing changed: a round costs no register and no entry. */
	screen_plane_poll();
	assert_int_equal(st->shows, 1);
}

/* X-tiled 128x32 (stride 512: one tile wide): PLANE_CTL's X tiling,
 * stride in 512-byte units, detiled on the screen as the guest drew it. */
static void test_xtiled_shown(void **state)
{
	(void)state;
	map_pages(surf0, GPA_PIC, 4);
	draw(GPA_PIC, 128, 32, 512, true, 2);
	guest_plane(surf0, 128, 32, 1, 0x84000000u | 1u << 10);
	screen_plane_start(0);
	assert_int_equal(phys(PLANE_CTL_A), 0x84000400u);
	assert_int_equal(phys(PLANE_STRIDE_A), 1);
	assert_screen(128, 32, 2);
}

/* A flip to another surface of the same size: one register (PLANE_SURF,
 * to the other half of the window), the new picture. */
static void test_flip_repoints(void **state)
{
	const struct screen_plane_stats *st = screen_plane_stats();
	uint64_t surf1 = surf0 + 0x100000;
	uint32_t first;

	(void)state;
	map_pages(surf0, GPA_PIC, 16);
	map_pages(surf1, GPA_PIC2, 16);
	draw(GPA_PIC, 256, 64, 1024, false, 3);
	draw(GPA_PIC2, 256, 64, 1024, false, 4);
	guest_plane(surf0, 256, 64, 16, 0x84000000u);
	screen_plane_start(0);
	first = phys(PLANE_SURF_A);
	wr(PLANE_SURF_A, (uint32_t)surf1);
	screen_plane_poll();
	assert_int_equal(st->last_mmio, 1);
	assert_int_not_equal(phys(PLANE_SURF_A), first);
	assert_surf_in_window();
	assert_screen(256, 64, 4);
	/* and back */
	wr(PLANE_SURF_A, (uint32_t)surf0);
	screen_plane_poll();
	assert_int_equal(phys(PLANE_SURF_A), first);
	assert_screen(256, 64, 3);
}

/* What a flip of a 1024x768 XRGB frame costs on this path: PLANE_SURF
 * and the 768 window entries of its 3 MiB (docs/display.md, "Measured
 * on the physical plane"); cropped to the 320x200 pipe. */
static void test_flip_cost_1024x768(void **state)
{
	const struct screen_plane_stats *st = screen_plane_stats();
	uint64_t surf1 = surf0 + 0x400000;

	(void)state;
	map_pages(surf0, GPA_PIC, 768);
	map_pages(surf1, GPA_PIC2, 768);
	guest_plane(surf0, 1024, 768, 4096 / 64, 0x84000000u);
	screen_plane_start(0);
	assert_int_equal(st->last_mmio, 6);
	assert_int_equal(st->last_ptes, 768);
	assert_int_equal(phys(PLANE_SIZE_A), (PH - 1) << 16 | (PW - 1));
	assert_int_equal(phys(PLANE_POS_A), 0);
	wr(PLANE_SURF_A, (uint32_t)surf1);
	screen_plane_poll();
	assert_int_equal(st->last_mmio, 1);
	assert_int_equal(st->last_ptes, 768);
	/* A smaller plane after it: the rest of that half goes black. */
	guest_plane(surf0, 256, 64, 16, 0x84000000u);
	screen_plane_poll();
	screen_plane_poll();
	guest_plane(surf1, 256, 64, 16, 0x84000000u);
	screen_plane_poll();
	assert_int_equal(st->last_ptes, 768);	/* 16 + 752 back to black */
	for (uint32_t i = 16; i < 768; i++)
		assert_int_equal(gen9_model_ggtt_read(&mw->m,
				 (phys(PLANE_SURF_A) >> 12) + i), mw->gvt->scan_black);
}

/* The guest points a page of the shown surface elsewhere in its RAM:
 * the window follows at the next round. */
static void test_ggtt_rewrite_followed(void **state)
{
	uint32_t px = 0xff123456u, row[PW];

	(void)state;
	map_pages(surf0, GPA_PIC, 16);
	draw(GPA_PIC, 256, 64, 1024, false, 5);
	guest_plane(surf0, 256, 64, 16, 0x84000000u);
	screen_plane_start(0);
	for (unsigned i = 0; i < 1024; i++)
		assert_int_equal(vgpu_write_gpa(v, GPA_PIC2 + i * 4, &px, 4), 0);
	map_pages(surf0, GPA_PIC2, 1);	/* rows 0-3 */
	assert_true(vgpu_scanout_dirty(v));
	screen_plane_poll();
	assert_int_equal(gen9_model_scanout(&mw->m, (PH - 64) / 2, (PW - 256) / 2,
					    4, row), 0);
	assert_int_equal(row[0], 0x123456);
	assert_int_equal(row[3], 0x123456);
}

/* gScale: while another vGPU runs, the GGTT entries at the owner's GM
 * addresses are that vGPU's. The plane reads through the window, so the
 * screen still shows the owner's pages. */
static void test_other_vgpus_entries_never_shown(void **state)
{
	uint32_t first = (uint32_t)(surf0 >> 12);

	(void)state;
	map_pages(surf0, GPA_PIC, 16);
	draw(GPA_PIC, 256, 64, 1024, false, 6);
	guest_plane(surf0, 256, 64, 16, 0x84000000u);
	screen_plane_start(0);
	/* Another vGPU switched in: its pages (here: the black page's
	 * neighbour, any page not the owner's) at the owner's GM. */
	for (uint32_t i = 0; i < 16; i++)
		gen9_model_ggtt_write(&mw->m, first + i,
				      mw->gvt->scan_black ^ 0x1000);
	assert_screen(256, 64, 6);
}

/* Refused when armed (stride 0, a surface past its GM): the plane goes
 * off, the window black, one line says why; a good plane again shows. */
static void test_refused_plane_off(void **state)
{
	const struct screen_plane_stats *st = screen_plane_stats();
	uint64_t past = v->low_base + v->low_size, refused0 = st->refused;

	(void)state;
	map_pages(surf0, GPA_PIC, 16);
	draw(GPA_PIC, 256, 64, 1024, false, 7);
	guest_plane(surf0, 256, 64, 16, 0x84000000u);
	screen_plane_start(0);
	guest_plane(past, 256, 64, 16, 0x84000000u);
	lines = 0;
	screen_plane_poll();
	assert_int_equal(phys(PLANE_CTL_A), 0);
	assert_int_equal(phys(PLANE_SURF_A), 0);
	assert_non_null(strstr(last_line, "outside the VM's GM"));
	assert_non_null(strstr(last_line, "'alpha'"));
	assert_int_equal(mw->gvt->scan_filled[0] + mw->gvt->scan_filled[1], 0);
	assert_black();
	screen_plane_poll();	/* said once */
	assert_int_equal(lines, 1);
	assert_int_equal(st->refused, refused0 + 1);
	guest_plane(surf0, 256, 64, 0, 0x84000000u);	/* stride 0 */
	screen_plane_poll();
	assert_int_equal(phys(PLANE_CTL_A), 0);
	assert_black();
	guest_plane(surf0, 256, 64, 16, 0x84000000u);
	screen_plane_poll();
	assert_screen(256, 64, 7);
}

/* The owner stops: off. Ownership ends: off, the window black. */
static void test_stop_and_release(void **state)
{
	(void)state;
	map_pages(surf0, GPA_PIC, 16);
	draw(GPA_PIC, 256, 64, 1024, false, 8);
	guest_plane(surf0, 256, 64, 16, 0x84000000u);
	screen_plane_start(0);
	vms[0].state = VM_STOPPED;
	screen_plane_poll();
	assert_int_equal(phys(PLANE_CTL_A), 0);
	assert_black();
	vms[0].state = VM_RUNNABLE;
	screen_plane_poll();
	assert_screen(256, 64, 8);
	screen_plane_stop();
	assert_int_equal(phys(PLANE_CTL_A), 0);
	assert_int_equal(mw->gvt->scan_src, NULL);
	assert_black();
}

/* The owner's vGPU destroyed while shown: its entries leave the window
 * before its pages go (vgpu_destroy), the plane then turns off. */
static void test_vgpu_destroyed(void **state)
{
	uint32_t idx;

	(void)state;
	map_pages(surf0, GPA_PIC, 16);
	draw(GPA_PIC, 256, 64, 1024, false, 9);
	guest_plane(surf0, 256, 64, 16, 0x84000000u);
	screen_plane_start(0);
	idx = phys(PLANE_SURF_A) >> 12;
	vgpu_destroy(v);
	for (uint32_t i = 0; i < 16; i++)
		assert_int_equal(gen9_model_ggtt_read(&mw->m, idx + i),
				 mw->gvt->scan_black);
	assert_black();
	screen_plane_poll();	/* no vGPU: off */
	assert_int_equal(phys(PLANE_CTL_A), 0);
	v = NULL;
}

/* A pipe the firmware left off: no physical plane to offer. */
static void test_pipe_off_unavailable(void **state)
{
	(void)state;
	gen9_model_write32(&mw->m, 0x70008, 0);
	assert_false(screen_plane_available());
}

/* The owner's cursor on the physical pipe's cursor (docs/display.md "The
 * physical plane"): its 64x64 ARGB image mapped into the window's cursor
 * half, placed where it sits over the plane (CURPOS relative to the
 * plane's corner), blended by the model's display engine over the plane
 * and the black around it; a move costs CURPOS and CURBASE and no entry;
 * one off the top-left keeps its sign; an image outside the VM's GM, or
 * the plane turned off, turns the cursor off. */
#define CUR_CTL_A 0x70080u
#define CURBASE_A 0x70084u
#define CURPOS_A 0x70088u
#define GPA_CUR 0xc00000u

static uint32_t cur_px(uint32_t x, uint32_t y)
{
	return (x + y) % 3 ? 0 : 0xff000000u | pic_px(x, y, 9);
}

static void assert_cursor_screen(int32_t cx, int32_t cy)
{
	uint32_t row[PW], x0 = (PW - 256) / 2, y0 = (PH - 64) / 2;

	for (uint32_t y = 0; y < PH; y++) {
		assert_int_equal(gen9_model_scanout(&mw->m, y, 0, PW, row), 0);
		for (uint32_t x = 0; x < PW; x++) {
			bool in = x >= x0 && x < x0 + 256 && y >= y0 && y < y0 + 64;
			int32_t kx = (int32_t)x - (int32_t)x0 - cx;
			int32_t ky = (int32_t)y - (int32_t)y0 - cy;
			uint32_t want = in ? pic_px(x - x0, y - y0, 1) : 0;

			if (kx >= 0 && kx < 64 && ky >= 0 && ky < 64 &&
			    cur_px((uint32_t)kx, (uint32_t)ky))
				want = cur_px((uint32_t)kx, (uint32_t)ky) & 0xffffff;
			if (row[x] != want)
				fail_msg("screen (%u,%u) = %06x, want %06x", x, y,
					 row[x], want);
		}
	}
}

static void test_cursor_shown(void **state)
{
	const struct screen_plane_stats *st = screen_plane_stats();
	uint64_t cur = surf0 + 0x10000, ptes;

	(void)state;
	map_pages(surf0, GPA_PIC, 16);
	draw(GPA_PIC, 256, 64, 1024, false, 1);
	map_pages(cur, GPA_CUR, 4);
	for (uint32_t y = 0; y < 64; y++)
		for (uint32_t x = 0; x < 64; x++) {
			uint32_t px = cur_px(x, y);

			assert_int_equal(vgpu_write_gpa(v, GPA_CUR + (y * 64 + x) * 4ull,
							&px, 4), 0);
		}
	guest_plane(surf0, 256, 64, 1024 / 64, 0x84000000u);
	wr(CURPOS_A, 10u << 16 | 20u);
	wr(CUR_CTL_A, 0x27u);			/* 64x64 ARGB */
	wr(CURBASE_A, (uint32_t)cur);
	screen_plane_start(0);
	assert_int_equal(phys(CUR_CTL_A), 0x27u);
	assert_int_equal(phys(CURPOS_A), ((PH - 64) / 2 + 10) << 16 | ((PW - 256) / 2 + 20));
	assert_true(phys(CURBASE_A) >= mw->gvt->scan_gm);
	assert_false(vgpu_gm_valid(v, phys(CURBASE_A), 4096));
	assert_int_equal(st->cursor_shows, 1);
	assert_cursor_screen(20, 10);
	/* A move: CURPOS and CURBASE, no entry. */
	ptes = st->ptes;
	wr(CURPOS_A, 40u << 16 | 200u);
	wr(CURBASE_A, (uint32_t)cur);
	screen_plane_poll();
	assert_int_equal(st->cursor_shows, 2);
	assert_int_equal(st->ptes, ptes);
	assert_cursor_screen(200, 40);
	/* Off the plane's top-left: x -5, y -7 (sign bits 15 and 31). */
	wr(CURPOS_A, 0x80000000u | 7u << 16 | 0x8000u | 5u);
	wr(CURBASE_A, (uint32_t)cur);
	screen_plane_poll();
	assert_cursor_screen(-5, -7);
	/* Nothing changed: no register. */
	screen_plane_poll();
	assert_int_equal(st->cursor_shows, 3);
	/* An image outside the VM's GM: off, the plane alone. */
	wr(CURBASE_A, 0x1000u);
	screen_plane_poll();
	assert_int_equal(phys(CUR_CTL_A), 0);
	assert_int_equal(st->cursor_offs, 1);
	assert_screen(256, 64, 1);
	/* Back, then the plane off: both off. */
	wr(CURBASE_A, (uint32_t)cur);
	screen_plane_poll();
	assert_int_equal(phys(CUR_CTL_A), 0x27u);
	wr(PLANE_CTL_A, 0);
	wr(PLANE_SURF_A, (uint32_t)surf0);
	screen_plane_poll();
	assert_int_equal(phys(CUR_CTL_A), 0);
	assert_black();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_linear_shown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_xtiled_shown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flip_repoints, setup, teardown),
		cmocka_unit_test_setup_teardown(test_flip_cost_1024x768, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ggtt_rewrite_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_other_vgpus_entries_never_shown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused_plane_off, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_and_release, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vgpu_destroyed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipe_off_unavailable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cursor_shown, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
