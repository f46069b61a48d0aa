/* gpu_hw_ggtt_write_range: a range of PTEs in one call, on the model (one
 * copy into its GGTT, counted per entry) and on the MMIO backend (64-bit
 * stores into BAR0 + 8 MiB, here a plain buffer), plus the per-entry
 * fallback for a backend without the bulk op. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/hw/gpu_hw.h"
#include "tests/harness/model_harness.h"

#define N 700u /* not a multiple of anything the backends might assume */

static uint64_t src[N];

static void fill(uint64_t seed)
{
	for (uint32_t i = 0; i < N; i++)
		src[i] = (seed + i) << 12 | 3;
}

static void test_model_range_write(void **state)
{
	struct harness h;
	uint64_t w0;

	(void)state;
	assert_int_equal(h_init(&h, NULL), 0);
	fill(0x1000);
	w0 = h.m.stats.ggtt_writes;
	assert_int_equal(gpu_hw_ggtt_write_range(&h.hw, 100, src, N), 0);
	for (uint32_t i = 0; i < N; i++)
		assert_int_equal(gpu_hw_ggtt_read(&h.hw, 100 + i), src[i]);
	assert_int_equal(gpu_hw_ggtt_read(&h.hw, 99), 0);
	assert_int_equal(gpu_hw_ggtt_read(&h.hw, 100 + N), 0);
	assert_int_equal(h.m.stats.ggtt_writes - w0, N);
	/* The GPU sees the new entries: translation goes through them. */
	assert_int_equal(gen9_model_ggtt_read(&h.m, 100 + N - 1), src[N - 1]);
	/* Past the end: refused whole, nothing written. */
	assert_int_equal(gpu_hw_ggtt_write_range(&h.hw, H_GGTT_ENTRIES - 10,
						 src, 11), -GPU_ERANGE);
	assert_int_equal(gpu_hw_ggtt_read(&h.hw, H_GGTT_ENTRIES - 10), 0);
	assert_int_equal(gpu_hw_ggtt_write_range(&h.hw, UINT32_MAX, src, 2),
			 -GPU_ERANGE);
	/* Exactly to the end, and an empty range. */
	assert_int_equal(gpu_hw_ggtt_write_range(&h.hw, H_GGTT_ENTRIES - 10,
						 src, 10), 0);
	assert_int_equal(gpu_hw_ggtt_read(&h.hw, H_GGTT_ENTRIES - 1), src[9]);
	assert_int_equal(gpu_hw_ggtt_write_range(&h.hw, H_GGTT_ENTRIES, src, 0),
			 0);
	h_fini(&h);
}

static void test_mmio_range_write(void **state)
{
	uint8_t *bar0 = calloc(1, GEN9_BAR0_SIZE);
	struct gpu_mmio_backend be = { .bar0 = bar0 };
	struct gpu_dma dma = { 0 };
	struct gpu_hw hw;
	struct gpu_hw_info info = { .device_id = 0x1912, .ggtt_entries = 4096 };
	const uint64_t *gtt;

	(void)state;
	assert_non_null(bar0);
	gtt = (const uint64_t *)(bar0 + GEN9_GGTT_OFFSET);
	assert_int_equal(gpu_hw_mmio_init(&hw, &be, &info, &dma), 0);
	assert_non_null(hw.ops->ggtt_write_range);
	fill(0x77000);
	assert_int_equal(gpu_hw_ggtt_write_range(&hw, 1, src, N), 0);
	assert_int_equal(gtt[0], 0);
	assert_memory_equal(&gtt[1], src, N * 8);
	assert_int_equal(gtt[N + 1], 0);
	assert_int_equal(gpu_hw_ggtt_read(&hw, N), src[N - 1]);
	/* Registers below the GGTT are untouched. */
	for (uint32_t off = 0; off < GEN9_GGTT_OFFSET; off += 4096)
		assert_int_equal(*(uint32_t *)(bar0 + off), 0);
	assert_int_equal(gpu_hw_ggtt_write_range(&hw, 4000, src, 97),
			 -GPU_ERANGE);
	assert_int_equal(gtt[4000], 0);
	assert_int_equal(gpu_hw_ggtt_write_range(&hw, 4000, src, 96), 0);
	assert_int_equal(gtt[4095], src[95]);
	free(bar0);
}

/* A backend with only the per-entry op: the wrapper loops over it. */
static uint64_t fb_gtt[64];
static unsigned fb_calls;

static uint64_t fb_read(void *ctx, uint32_t i)
{
	(void)ctx;
	return fb_gtt[i];
}

static void fb_write(void *ctx, uint32_t i, uint64_t pte)
{
	(void)ctx;
	fb_gtt[i] = pte;
	fb_calls++;
}

static void test_fallback_per_entry(void **state)
{
	static const struct gpu_hw_ops ops = { .ggtt_read = fb_read,
					       .ggtt_write = fb_write };
	struct gpu_hw hw = { .ops = &ops, .info = { .ggtt_entries = 64 } };

	(void)state;
	fill(5);
	assert_int_equal(gpu_hw_ggtt_write_range(&hw, 10, src, 50), 0);
	assert_int_equal(fb_calls, 50);
	assert_memory_equal(&fb_gtt[10], src, 50 * 8);
	assert_int_equal(fb_gtt[9], 0);
	assert_int_equal(fb_gtt[60], 0);
	assert_int_equal(gpu_hw_ggtt_write_range(&hw, 10, src, 55), -GPU_ERANGE);
	assert_int_equal(fb_calls, 50);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_range_write),
		cmocka_unit_test(test_mmio_range_write),
		cmocka_unit_test(test_fallback_per_entry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
