/* The aperture (BAR2): the CPU's window onto GGTT [0, aperture_size).
 * A CPU access at aperture offset a goes through the GGTT entry of a's
 * page, unless a valid fence register covers a: then the range is seen by
 * the CPU as linear rows of the fence's pitch, and the hardware finds each
 * byte where the fence's tiling (X or Y) put it (gen9-facts §3; the layout in
 * gpu/hw/gen9_tiling.h; no bit-6 swizzle on gen8+). This is what makes
 * gScale's fence memory pool work on hardware, and what gpu=model-mmio's
 * trapped BAR2 answers with. */
#include "gpu/hw/gen9_tiling.h"
#include "gpu/model/model_internal.h"

struct fence {
	uint64_t start, end; /* GGTT bytes [start, end) */
	uint32_t pitch;
	bool tiling_y;
};

/* The lowest-numbered valid fence covering GGTT address gm (fences that
 * overlap are a driver bug; the hardware's choice then is not documented,
 * the model's is this). */
static bool fence_at(const struct gen9_model *m, uint64_t gm, struct fence *f)
{
	for (unsigned int i = 0; i < GEN9_NUM_FENCES; i++) {
		uint64_t v = (uint64_t)mreg(m, FENCE_REG_GEN6_HI(i)) << 32 |
			     mreg(m, FENCE_REG_GEN6_LO(i));

		if (!(v & I965_FENCE_REG_VALID))
			continue;
		f->start = v & GEN6_FENCE_START_MASK;
		f->end = ((v & GEN6_FENCE_END_MASK) >> 32) + GEN9_PAGE_SIZE;
		f->pitch = (uint32_t)(((v & GEN6_FENCE_PITCH_MASK) >>
				       GEN6_FENCE_PITCH_SHIFT) + 1) * 128;
		f->tiling_y = v & (1ull << I965_FENCE_TILING_Y_SHIFT);
		if (gm >= f->start && gm < f->end)
			return true;
	}
	return false;
}

/* Bytes from linear offset lin that stay contiguous in the tiled layout:
 * to the end of the OWord (Y) or tile row (X), and of the surface row. */
static uint64_t tiled_run(const struct fence *f, uint64_t lin)
{
	uint32_t x = (uint32_t)(lin % f->pitch);
	uint32_t unit = f->tiling_y ? GEN9_TILE_Y_OWORD : GEN9_TILE_X_WIDTH;
	uint32_t run = unit - x % unit;

	return run < f->pitch - x ? run : f->pitch - x;
}

int gen9_model_aperture_rw(struct gen9_model *m, uint64_t off, void *buf,
			   size_t len, bool write)
{
	uint64_t size = m->cfg.aperture_size;
	uint8_t *p = buf;

	if (off > size || len > size - off)
		return -GPU_ERANGE;
	while (len) {
		struct fence f;
		uint64_t n = len, gm = off;

		if (fence_at(m, off, &f)) {
			uint64_t lin = off - f.start;

			n = tiled_run(&f, lin);
			n = n < len ? n : len;
			n = n < f.end - off ? n : f.end - off;
			gm = f.start + gen9_tiled_offset(lin, f.pitch, f.tiling_y);
			/* A range that is not whole tile rows puts the tail's
			 * bytes past the fence: refused here (the mediator
			 * refuses such a guest fence before it gets this far). */
			if (gm + n > f.end)
				return -GPU_EFAULT;
		} else {
			/* linear up to the next page, which may be fenced */
			uint64_t page_left = GEN9_PAGE_SIZE - (off & (GEN9_PAGE_SIZE - 1));

			n = n < page_left ? n : page_left;
		}
		if (model_ggtt_rw(m, gm, p, n, write))
			return -GPU_EFAULT;
		off += n;
		p += n;
		len -= n;
	}
	return 0;
}
