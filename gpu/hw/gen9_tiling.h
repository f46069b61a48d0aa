/* Gen9 X and Y tiling: where byte (x, y) of a tiled surface lives.
 *
 * A tile is 4 KiB. X: 512 bytes wide, 8 rows, row-major inside the tile.
 * Y (legacy Y-major): 128 bytes wide, 32 rows, made of 16-byte-wide
 * columns (OWords) of 32 rows each, column after column. Tiles follow each
 * other left to right along a tile row of stride / tile width tiles, tile
 * rows top to bottom. This is the layout igt's x_ptr / y_ptr write
 * (lib/intel_bufops.c) and that a fence register makes the aperture undo
 * for CPU accesses (gen9-facts §3). Gen8+ has no bit-6 swizzling (i915 reads
 * no swizzle registers there), so none is applied. */
#ifndef GPU_HW_GEN9_TILING_H
#define GPU_HW_GEN9_TILING_H

#include <stdbool.h>
#include <stdint.h>

#define GEN9_TILE_SIZE 4096u
#define GEN9_TILE_X_WIDTH 512u
#define GEN9_TILE_X_HEIGHT 8u
#define GEN9_TILE_Y_WIDTH 128u
#define GEN9_TILE_Y_HEIGHT 32u
#define GEN9_TILE_Y_OWORD 16u

/* Offset inside the tiled surface of byte x of row y. stride: bytes per
 * row, a multiple of the tile width. */
static inline uint64_t gen9_tiled_xy(uint32_t x, uint32_t y, uint32_t stride,
				     bool tiling_y)
{
	uint32_t tw = tiling_y ? GEN9_TILE_Y_WIDTH : GEN9_TILE_X_WIDTH;
	uint32_t th = tiling_y ? GEN9_TILE_Y_HEIGHT : GEN9_TILE_X_HEIGHT;
	uint64_t tile = (uint64_t)(y / th) * (stride / tw) + x / tw;
	uint32_t tx = x % tw, ty = y % th, in;

	if (tiling_y)
		in = tx / GEN9_TILE_Y_OWORD * (GEN9_TILE_Y_OWORD * th) +
		     ty * GEN9_TILE_Y_OWORD + tx % GEN9_TILE_Y_OWORD;
	else
		in = ty * tw + tx;
	return tile * GEN9_TILE_SIZE + in;
}

/* The same for a linear offset (what the CPU sees through a fence). */
static inline uint64_t gen9_tiled_offset(uint64_t linear, uint32_t stride,
					 bool tiling_y)
{
	return gen9_tiled_xy((uint32_t)(linear % stride),
			     (uint32_t)(linear / stride), stride, tiling_y);
}

#endif
