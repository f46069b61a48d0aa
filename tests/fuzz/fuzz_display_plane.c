/* libFuzzer target for the plane check (gpu/display/vdisp_plane.c): every
 * value a guest writes to PLANE_CTL / STRIDE / POS / SIZE / OFFSET /
 * SURF or CUR_CTL / CURBASE / CURPOS reaches it when PLANE_SURF or
 * CURBASE arms the plane (gpu/vgpu/display/vgpu_display.c).
 *
 * Input: 24 bytes of plane registers (6 little-endian dwords), one byte
 * choosing plane or cursor, then up to 4 GM ranges of 8 bytes (base and
 * size in pages, 32 bits each), sorted and made disjoint here as the
 * vGPU's are.
 *
 * When the check accepts the plane: the extent lies inside the ranges,
 * and the first and last byte of every run of every row the scanout reads
 * (vdisp_plane_byte / vdisp_plane_run, detiled) fall inside the extent;
 * runs are never empty and cover each row exactly. ASan/UBSan watch the
 * arithmetic. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/display/vdisp_plane.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)
#define PAGE 4096ull

static uint32_t le32(const uint8_t *b)
{
	return b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
	       (uint32_t)b[3] << 24;
}

static bool in_gm(uint64_t a, const struct vdisp_gm *gm, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (a >= gm[i].base && a - gm[i].base < gm[i].size)
			return true;
	return false;
}

/* Rows sampled: all of a small plane, the first, last and a few between
 * of a large one (the check is per row; the fuzzer needs speed). */
static void check_rows(const struct vdisp_plane *p, const struct vdisp_gm *gm,
		       unsigned n)
{
	uint64_t ext = vdisp_plane_extent(p);
	uint32_t step = p->h > 16 ? p->h / 8 : 1;

	for (uint32_t y = 0;; y += step) {
		if (y >= p->h)
			y = p->h - 1;
		uint32_t bx = 0, rowb = p->w * p->cpp;

		while (bx < rowb) {
			uint32_t run = vdisp_plane_run(p, bx);
			uint64_t at = vdisp_plane_byte(p, bx, y);

			CHECK(run > 0 && run <= rowb - bx);
			CHECK(at + run <= ext);
			CHECK(in_gm(p->surf + at, gm, n));
			CHECK(in_gm(p->surf + at + run - 1, gm, n));
			bx += run;
			if (p->tiling == VDISP_LINEAR)
				CHECK(bx == rowb);
		}
		if (y == p->h - 1)
			break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct vdisp_plane_regs r;
	struct vdisp_gm gm[4];
	struct vdisp_plane p;
	uint64_t at = 0;
	unsigned n = 0;
	int err;

	if (size < 25)
		return 0;
	r.ctl = le32(data);
	r.stride = le32(data + 4);
	r.pos = le32(data + 8);
	r.size = le32(data + 12);
	r.offset = le32(data + 16);
	r.surf = le32(data + 20);
	for (size_t o = 25; o + 8 <= size && n < 4; o += 8) {
		uint64_t gap = (le32(data + o) % 0x10000) * PAGE;
		uint64_t len = (le32(data + o + 4) % 0x10000) * PAGE;

		gm[n].base = at + gap;
		gm[n].size = len;
		at = gm[n].base + len;
		n++;
	}
	if (data[24] & 1)
		err = vdisp_cursor_decode(r.ctl, r.surf, r.pos, &p);
	else
		err = vdisp_plane_decode(&r, &p);
	if (!err)
		err = vdisp_plane_check(&p, gm, n);
	CHECK(err >= 0 && err < VDISP_PLANE_NR_ERRS);
	CHECK(vdisp_plane_why(err)[0] != '?');
	if (err)
		return 0;
	CHECK(p.stride > 0 && p.stride <= VDISP_PLANE_MAX_STRIDE);
	CHECK(p.surf % PAGE == 0);
	CHECK(in_gm(p.surf, gm, n));
	CHECK(in_gm(p.surf + vdisp_plane_extent(&p) - 1, gm, n));
	check_rows(&p, gm, n);
	return 0;
}
