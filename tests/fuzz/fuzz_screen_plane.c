/* Fuzz the physical plane's scanout window (gpu/vgpu/display/vgpu_scanout.c) in
 * gScale mode, where the attacker's and the victim's GM addresses are the
 * same and the physical GGTT holds whichever vGPU is switched in. The
 * attacker (the screen's owner) writes its pipe A plane registers and
 * GGTT entries in any order, vGPUs switch, and the hypervisor's round
 * (hv/gpu/screen_plane.c's update: the latched plane checked again, then
 * mapped when it is new or its entries were rewritten) or the end of
 * ownership come in between. Invariant, on top of fuzz_vgpu_common.c's:
 * every window entry a half holds is the black page or a page of the
 * owner's VM, never the victim's; the half last mapped covers the plane's
 * whole extent; the window lies outside both vGPUs' GM. The cursor
 * (CUR_CTL, CURBASE, CURPOS) is mapped into the window's cursor halves
 * at each round the same way, under the same invariant. */
#define FZ_GSCALE 1
#define FZ_RESTORE 1 /* the world built once, put back after each input */
#include "tests/fuzz/fuzz_vgpu_common.c"

#define PLANE_A(reg) (0x70180u + (reg))
static const uint32_t plane_regs[] = { 0x00, 0x08, 0x0c, 0x10, 0x24, 0x1c };
static const uint32_t cursor_regs[] = { 0x70080u, 0x70088u, 0x70084u };
#define CURSOR_SLOT_PAGES 64u /* vgpu_scanout.c's CURSOR_PAGES */

/* The last map's plane, to check its extent against the half. */
static struct vdisp_plane shown;
static bool showing;

static void round_(struct fz_env *e)
{
	struct vdisp_plane pl;
	uint64_t gm;
	uint32_t ptes;

	if (vgpu_screen_cursor(e->a, &pl) == VDISP_PLANE_OK)
		gvt_scanout_map_cursor(e->gvt, e->a, &pl, &gm, &ptes);
	if (vgpu_screen_plane(e->a, &pl) != VDISP_PLANE_OK) {
		if (showing)
			gvt_scanout_clear(e->gvt);
		showing = false;
		return;
	}
	if (showing && !vgpu_scanout_dirty(e->a) && pl.surf == shown.surf &&
	    pl.stride == shown.stride && pl.w == shown.w && pl.h == shown.h &&
	    pl.tiling == shown.tiling && pl.ox == shown.ox && pl.oy == shown.oy &&
	    pl.cpp == shown.cpp)
		return;
	showing = !gvt_scanout_map(e->gvt, e->a, &pl, &gm, &ptes);
	if (showing)
		shown = pl;
}

FZ_NOCOV static void check_window(struct fz_env *e)
{
	const struct gvt *g = e->gvt;
	uint32_t h, i, first;

	if (!g->scan_gm)
		return;
	if (vgpu_gm_valid(e->a, g->scan_gm, 4096) ||
	    vgpu_gm_valid(e->b, g->scan_gm, 4096))
		fz_die("scanout window inside a vGPU's GM", g->scan_gm, 0);
	for (h = 0; h < 4; h++) {
		first = (uint32_t)(g->scan_gm >> 12) + (h < 2 ? h : 2) * g->scan_half_pages +
			(h < 2 ? 0 : (h - 2) * CURSOR_SLOT_PAGES);
		if (g->scan_filled[h] > (h < 2 ? g->scan_half_pages : CURSOR_SLOT_PAGES))
			fz_die("window half overfilled", h, g->scan_filled[h]);
		for (i = 0; i < g->scan_filled[h]; i++) {
			uint64_t pte = e->ggtt[first + i];

			if (pte != g->scan_black &&
			    !fz_owned_by(e, gen8_pte_addr(pte), e->a->vm))
				fz_die("window entry not the owner's", first + i, pte);
		}
	}
	if (showing && (vdisp_plane_extent(&shown) + 4095) / 4096 >
			       g->scan_filled[g->scan_half])
		fz_die("plane extent past the mapped half", shown.surf,
		       g->scan_filled[g->scan_half]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_env *e = fz_env();
	struct fz_in in = { data, size };
	int ops = 0;

	fz_input_begin(e);
	showing = false;
	while (in.n && ops++ < 256) {
		uint8_t ctl = (uint8_t)fz_take(&in, 1);
		uint32_t idx = (uint32_t)fz_take(&in, 3);
		uint64_t val = fz_take(&in, 8);

		switch (ctl & 7) {
		case 0: case 1: /* a plane or cursor register */
			if (ctl & 0x20) {
				if ((ctl & 0x18) == 0x18 && idx % 3 == 2)
					val = e->a->low_base + (val % e->a->low_size & ~0xfffull);
				vgpu_mmio_write(e->a, cursor_regs[idx % 3], (uint32_t)val, 4);
				break;
			}
			if ((ctl & 0x18) == 0x18 && plane_regs[idx % 6] == 0x1c)
				val = e->a->low_base + (val % e->a->low_size & ~0xfffull);
			vgpu_mmio_write(e->a, PLANE_A(plane_regs[idx % 6]),
					(uint32_t)val, 4);
			break;
		case 2: case 3: { /* one of its GGTT entries */
			uint64_t pages = (e->a->low_size + e->a->high_size) >> 12;
			uint64_t gm = idx % pages < (e->a->low_size >> 12) ?
				      e->a->low_base + idx % pages * 4096 :
				      e->a->high_base + (idx % pages -
					(e->a->low_size >> 12)) * 4096;

			if (ctl & 8)
				val = (val & (FZ_RAM - 1) & ~0xfffull) | 1;
			vgpu_mmio_write(e->a, GEN9_GGTT_OFFSET + 8 * (gm >> 12),
					val, 8);
			break;
		}
		case 4: /* a vGPU switch */
			gvt_gscale_switch(e->gvt, idx & 1 ? e->a : e->b,
					  idx & 2 ? e->b : NULL);
			break;
		case 5: /* ownership ends */
			gvt_scanout_clear(e->gvt);
			showing = false;
			break;
		default: /* the hypervisor's round */
			round_(e);
			break;
		}
		check_window(e);
	}
	round_(e);
	check_window(e);
	fz_check(e);
	gvt_scanout_fini(e->gvt);
	fz_input_end(e, data, size);
	return 0;
}
