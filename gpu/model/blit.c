/* The blitter: XY_COLOR_BLT and XY_SRC_COPY_BLT on linear surfaces, 8, 16
 * and 32 bits per pixel, any ternary raster operation (gen9-facts §6.2).
 * Surfaces are addressed through the context's PPGTT: 2D commands carry no
 * address-space bit, and with execlists every context has a PPGTT. */
#include "gpu/model/model_internal.h"

#define BLT_CHUNK 256 /* bytes moved per step */

struct blt_rect {
	int32_t x1, y1, x2, y2; /* x2, y2 exclusive */
};

static uint32_t bpp_bytes(uint32_t br13)
{
	switch ((br13 & BR13_DEPTH_MASK) >> BR13_DEPTH_SHIFT) {
	case 0: return 1;
	case 3: return 4;
	default: return 2; /* 565, 1555 */
	}
}

/* Ternary ROP: bit (P<<2 | S<<1 | D) of rop is the result for that
 * combination; applied bitwise to whole words. */
static uint32_t rop3(uint8_t rop, uint32_t p, uint32_t s, uint32_t d)
{
	uint32_t out = 0;
	unsigned int i;

	for (i = 0; i < 8; i++) {
		if (!(rop & (1u << i)))
			continue;
		out |= ((i & 4) ? p : ~p) & ((i & 2) ? s : ~s) &
		       ((i & 1) ? d : ~d);
	}
	return out;
}

/* Which bytes of a 32bpp pixel are written (BLT_WRITE_RGB / ALPHA); with
 * neither bit the whole pixel is written. */
static uint32_t write_mask(uint32_t dw0, uint32_t cpp)
{
	uint32_t m = 0;

	if (cpp != 4 || !(dw0 & BLT_WRITE_RGBA))
		return ~0u;
	if (dw0 & BLT_WRITE_RGB)
		m |= 0x00ffffffu;
	if (dw0 & BLT_WRITE_ALPHA)
		m |= 0xff000000u;
	return m;
}

static uint32_t replicate(uint32_t v, uint32_t cpp)
{
	if (cpp == 1)
		return (v & 0xff) * 0x01010101u;
	if (cpp == 2)
		return (v & 0xffff) * 0x00010001u;
	return v;
}

static bool fetch_rect(struct cs_cmd *c, uint32_t i, struct blt_rect *r)
{
	uint32_t a, b;

	if (cs_fetch(c, i, &a) || cs_fetch(c, i + 1, &b))
		return false;
	r->x1 = a & 0xffff;
	r->y1 = a >> 16;
	r->x2 = b & 0xffff;
	r->y2 = b >> 16;
	return true;
}

static int fetch_addr64(struct cs_cmd *c, uint32_t i, uint64_t *addr)
{
	uint32_t lo, hi;

	if (cs_fetch(c, i, &lo) || cs_fetch(c, i + 1, &hi))
		return -GPU_EFAULT;
	*addr = (((uint64_t)hi << 32) | lo) & GEN9_GENMASK_ULL(47, 0);
	return 0;
}

/* Combine one chunk: dst = rop(pattern, src, dst) under the write mask.
 * Sizes are multiples of 4 except for odd 8/16 bpp tails, handled by the
 * byte loop at the end. */
static void combine(uint8_t *d, const uint8_t *s, size_t n, uint8_t rop,
		    uint32_t pat, uint32_t mask)
{
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		uint32_t dv, sv = 0, out;

		__builtin_memcpy(&dv, d + i, 4);
		if (s)
			__builtin_memcpy(&sv, s + i, 4);
		out = rop3(rop, pat, sv, dv);
		dv = (out & mask) | (dv & ~mask);
		__builtin_memcpy(d + i, &dv, 4);
	}
	for (; i < n; i++) {
		uint32_t sh = 8 * (i & 3);
		uint8_t sv = s ? s[i] : 0;

		d[i] = (uint8_t)rop3(rop, pat >> sh, sv, d[i]);
	}
}

/* One row piece [off, off + n) of a blit; src may be absent (colour). */
static enum cs_result blt_chunk(struct cs_cmd *c, uint64_t dst, uint64_t src,
				bool has_src, size_t n, uint8_t rop,
				uint32_t pat, uint32_t mask)
{
	uint8_t d[BLT_CHUNK], s[BLT_CHUNK];

	if (has_src && model_gpu_rw(c->m, c->e, src, false, s, n, false))
		return CS_FAULT;
	if (model_gpu_rw(c->m, c->e, dst, false, d, n, false))
		return CS_FAULT;
	combine(d, has_src ? s : NULL, n, rop, pat, mask);
	if (model_gpu_rw(c->m, c->e, dst, false, d, n, true))
		return CS_FAULT;
	return CS_NEXT;
}

struct blt_op {
	uint64_t dst, src;
	int32_t dpitch, spitch;
	struct blt_rect r; /* destination rectangle */
	int32_t sx, sy; /* source origin */
	uint32_t cpp, pat, mask;
	uint8_t rop;
	bool has_src;
};

/* The row a blit starts at: 0, or where the same command was cut short in
 * an earlier poll of the same epoch. */
static int32_t blt_first_row(struct cs_cmd *c)
{
	struct gen9_model_engine *e = c->e;

	if (e->blt_resume.valid && e->blt_resume.epoch == e->epoch &&
	    e->blt_resume.at == model_cs_addr(e))
		return e->blt_resume.row;
	return 0;
}

/* Out of this poll's byte budget before row k: remember k and stall, so
 * the next poll re-executes this command from there. */
static enum cs_result blt_yield(struct cs_cmd *c, int32_t k)
{
	struct gen9_model_engine *e = c->e;

	e->blt_resume.valid = true;
	e->blt_resume.epoch = e->epoch;
	e->blt_resume.at = model_cs_addr(e);
	e->blt_resume.row = k;
	e->stats.blit_yields++;
	return CS_STALL;
}

/* One row of the rectangle, in BLT_CHUNK pieces. */
static enum cs_result blt_row(struct cs_cmd *c, const struct blt_op *op,
			      uint64_t d, uint64_t s, size_t row,
			      bool backwards)
{
	size_t done = 0;

	while (done < row) {
		size_t n = row - done < BLT_CHUNK ? row - done : BLT_CHUNK;
		size_t at = backwards ? row - done - n : done;

		if (blt_chunk(c, d + at, s + at, op->has_src, n, op->rop,
			      op->pat, op->mask) != CS_NEXT)
			return CS_FAULT;
		done += n;
	}
	return CS_NEXT;
}

/* Rows are walked bottom-up and right-to-left when the destination lies
 * above the source, so overlapping copies behave like memmove. At least
 * one row runs per poll, so a blit always progresses. */
static enum cs_result blt_run(struct cs_cmd *c, const struct blt_op *op)
{
	int32_t h = op->r.y2 - op->r.y1;
	size_t row = (size_t)(uint32_t)(op->r.x2 - op->r.x1) * op->cpp;
	uint64_t d0 = op->dst + (int64_t)op->r.y1 * op->dpitch +
		      (uint64_t)op->r.x1 * op->cpp;
	uint64_t s0 = op->src + (int64_t)op->sy * op->spitch +
		      (uint64_t)op->sx * op->cpp;
	bool backwards = op->has_src && d0 > s0;
	int32_t k, first;

	if (op->r.x2 <= op->r.x1 || op->r.y2 <= op->r.y1)
		return CS_NEXT; /* empty rectangle: nothing drawn */
	first = blt_first_row(c);
	for (k = first; k < h; k++) {
		int32_t y = backwards ? h - 1 - k : k;

		if (k > first && c->e->blt_budget < row)
			return blt_yield(c, k);
		if (blt_row(c, op, d0 + (int64_t)y * op->dpitch,
			    s0 + (int64_t)y * op->spitch, row,
			    backwards) != CS_NEXT)
			return CS_FAULT;
		c->e->blt_budget -= row < c->e->blt_budget ? row
							   : c->e->blt_budget;
	}
	c->e->blt_resume.valid = false;
	c->e->stats.blit_pixels += (uint64_t)h * (op->r.x2 - op->r.x1);
	return CS_NEXT;
}

static enum cs_result xy_color_blt(struct cs_cmd *c)
{
	struct blt_op op = { 0 };
	uint32_t br13, colour;

	if (c->len < 7)
		return CS_NEXT;
	if (cs_fetch(c, 1, &br13) || !fetch_rect(c, 2, &op.r) ||
	    fetch_addr64(c, 4, &op.dst) || cs_fetch(c, 6, &colour))
		return CS_FAULT;
	op.cpp = bpp_bytes(br13);
	op.dpitch = (int16_t)(br13 & BR13_PITCH_MASK);
	op.rop = (br13 & BR13_ROP_MASK) >> BR13_ROP_SHIFT;
	op.pat = replicate(colour, op.cpp);
	op.mask = write_mask(c->dw0, op.cpp);
	return blt_run(c, &op);
}

static enum cs_result xy_src_copy_blt(struct cs_cmd *c)
{
	struct blt_op op = { 0 };
	uint32_t br13, spitch, sorg;

	if (c->len < 10)
		return CS_NEXT;
	if (cs_fetch(c, 1, &br13) || !fetch_rect(c, 2, &op.r) ||
	    fetch_addr64(c, 4, &op.dst) || cs_fetch(c, 6, &sorg) ||
	    cs_fetch(c, 7, &spitch) || fetch_addr64(c, 8, &op.src))
		return CS_FAULT;
	op.cpp = bpp_bytes(br13);
	op.dpitch = (int16_t)(br13 & BR13_PITCH_MASK);
	op.spitch = (int16_t)(spitch & BR13_PITCH_MASK);
	op.sx = sorg & 0xffff;
	op.sy = sorg >> 16;
	op.rop = (br13 & BR13_ROP_MASK) >> BR13_ROP_SHIFT;
	op.mask = write_mask(c->dw0, op.cpp);
	op.has_src = true;
	return blt_run(c, &op);
}

enum cs_result cs_blit(struct cs_cmd *c)
{
	uint32_t op = BLT_OPCODE(c->dw0);

	/* Tiled surfaces (and fast copy) need the tiling layouts, which the
	 * model does not implement: count and skip rather than corrupt. */
	if ((op == BLT_OP_COLOR || op == BLT_OP_SRC_COPY) &&
	    !(c->dw0 & (BLT_SRC_TILED | BLT_DST_TILED))) {
		enum cs_result r = op == BLT_OP_COLOR ? xy_color_blt(c)
						      : xy_src_copy_blt(c);
		return r;
	}
	c->e->stats.unsupported++;
	return CS_NEXT;
}
