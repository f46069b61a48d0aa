/* The model's aperture window with fences: a CPU access through the
 * aperture lands where the fence's tiling puts it, checked against an
 * independent statement of the Gen9 layouts (igt's x_ptr / y_ptr walk:
 * tile origin from the tile's row and column, then the byte inside). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/hw/gen9_tiling.h"
#include "gpu/hw/pgpu.h"
#include "tests/harness/model_harness.h"

static struct harness H;
static struct pgpu P;

static int setup(void **state)
{
	(void)state;
	if (h_init(&H, NULL))
		return -1;
	return pgpu_init(&P, &H.hw);
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

/* The reference: X tiles 512x8 bytes row-major; Y tiles 128x32 bytes as
 * eight 16-byte columns of 32 rows. */
static uint64_t ref_x(uint32_t x, uint32_t y, uint32_t stride)
{
	uint64_t tile = (y / 8) * (stride / 512) + x / 512;

	return tile * 4096 + (y % 8) * 512 + x % 512;
}

static uint64_t ref_y(uint32_t x, uint32_t y, uint32_t stride)
{
	uint64_t tile = (y / 32) * (stride / 128) + x / 128;
	uint32_t col = (x % 128) / 16;

	return tile * 4096 + col * 512 + (y % 32) * 16 + x % 16;
}

static void test_tiling_layouts(void **state)
{
	(void)state;
	for (uint32_t y = 0; y < 70; y += 3)
		for (uint32_t x = 0; x < 2048; x += 7) {
			assert_int_equal(gen9_tiled_xy(x, y, 2048, false),
					 ref_x(x, y, 2048));
			assert_int_equal(gen9_tiled_xy(x, y, 2048, true),
					 ref_y(x, y, 2048));
		}
	/* A few by hand: Y (40, 3), stride 256 -> column 2, row 3. */
	assert_int_equal(gen9_tiled_xy(40, 3, 256, true), 2 * 512 + 3 * 16 + 8);
	/* X (600, 5), stride 1024 -> second tile, row 5. */
	assert_int_equal(gen9_tiled_xy(600, 5, 1024, false), 4096 + 5 * 512 + 88);
	/* Linear offset form. */
	assert_int_equal(gen9_tiled_offset(5 * 1024 + 600, 1024, false),
			 4096 + 5 * 512 + 88);
}

/* Every byte of an 8-row X surface and a 32-row Y surface written
 * linearly through the fenced aperture lands at its tiled place; reads
 * through the fence see the linear picture again; unfenced aperture stays
 * linear. Accesses of 1, 3, 8 and 64 bytes cross OWord and tile edges. */
static void check_surface(bool tiling_y, uint32_t stride, uint32_t pages)
{
	uint32_t size = pages * 4096, gm = h_ggtt_alloc(&H, pages);
	static uint8_t lin[16384], back[16384];
	static const size_t chunks[] = { 1, 3, 8, 64 };
	uint8_t *mem = h_gptr(&H, gm);
	size_t off = 0, k = 0;

	assert_true(size <= sizeof(lin));
	for (uint32_t i = 0; i < size; i++)
		lin[i] = (uint8_t)(i * 7 + i / 251);
	assert_int_equal(pgpu_fence_write(&P, 5, pgpu_fence_encode(gm, size,
								   stride,
								   tiling_y)), 0);
	while (off < size) {
		size_t n = chunks[k++ % 4];

		n = n < size - off ? n : size - off;
		assert_int_equal(gpu_hw_aperture_rw(&H.hw, gm + off, lin + off,
						    n, true), 0);
		off += n;
	}
	for (uint32_t i = 0; i < size; i++)
		assert_int_equal(mem[gen9_tiled_offset(i, stride, tiling_y)],
				 lin[i]);
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, gm, back, size, false), 0);
	assert_memory_equal(back, lin, size);
	/* Fence off: the same aperture range is the plain pages again. */
	assert_int_equal(pgpu_fence_write(&P, 5, 0), 0);
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, gm, back, size, false), 0);
	assert_memory_equal(back, mem, size);
}

static void test_fenced_aperture_detiles_x(void **state)
{
	(void)state;
	check_surface(false, 1024, 2); /* 2 tiles wide, 1 tile row */
	check_surface(false, 512, 4);  /* 1 tile wide, 4 tile rows */
}

static void test_fenced_aperture_detiles_y(void **state)
{
	(void)state;
	check_surface(true, 256, 2);
	check_surface(true, 128, 4);
}

/* A fence that is not whole tile rows would put its last bytes past its
 * end: the model refuses those bytes rather than reach the next pages. */
static void test_partial_tile_row_is_refused(void **state)
{
	uint32_t gm = h_ggtt_alloc(&H, 2);
	uint32_t v = 0x12345678;

	(void)state;
	/* X, stride 2048: one tile row is 4 pages; the fence has 1. */
	assert_int_equal(pgpu_fence_write(&P, 2, pgpu_fence_encode(gm, 4096,
								   2048, false)), 0);
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, gm, &v, 4, true), 0);
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, gm + 600, &v, 4, true),
			 -GPU_EFAULT); /* (600, 0) is in the fence's 2nd tile */
	assert_int_equal(*(uint32_t *)h_gptr(&H, gm + 4096), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tiling_layouts),
		cmocka_unit_test_setup_teardown(test_fenced_aperture_detiles_x, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fenced_aperture_detiles_y, setup, teardown),
		cmocka_unit_test_setup_teardown(test_partial_tile_row_is_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
