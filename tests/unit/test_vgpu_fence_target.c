/* The fence pool's target per backend, under the real mediator in gScale
 * mode with synthetic guests (tests/world/evguest.c):
 *  - with a physical aperture (the iGPU, gpu=model-mmio) a fence over low
 *    GM moves the range into the pool and the guest's pages onto the
 *    aperture at the pool (test_gscale_vgpu covers the mechanism);
 *  - without one (gScale's no_aperture setting: the plain model) nothing
 *    is pooled: the fenced pages leave the guest's EPT and the mediator
 *    detiles each access against the vGPU's own GGTT entries and fence
 *    (X and Y, checked against gpu/hw/gen9_tiling.h; issue 28 §5); the
 *    ladder returns when the fence goes;
 *  - a guest fence whose pitch is not whole tiles, or whose range is not
 *    whole rows of tiles, is refused (its tail would detile past its end,
 *    into the next pooled range): it reaches the hardware invalid. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/hw/gen9_tiling.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tests/world/evguest.h"

static struct model_world *MW;
static struct vgpu *V[2];
static struct evguest G[2];

static void world(bool no_aperture)
{
	static struct gscale_settings gs;
	struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { NULL, &gs } };

	gs = (struct gscale_settings){ .on = true, .no_aperture = no_aperture };

	MW = calloc(1, sizeof(*MW));
	assert_non_null(MW);
	assert_int_equal(evg_world(MW, (struct mw_config){ .params = &p }, 2,
				   V, G), 2);
	/* V[0] owns the GPU: its fences go to the hardware at once. */
	gvt_mmio_switch(MW->gvt, NULL, V[0]);
	gvt_gscale_switch(MW->gvt, V[0], NULL);
	MW->gvt->owner = V[0];
}

static int teardown(void **state)
{
	(void)state;
	mw_stop(MW);
	assert_int_equal(MW->hv.pages_in_use, 0);
	mw_fini(MW);
	free(MW);
	return 0;
}

static uint64_t hw_fence(unsigned int i)
{
	return (uint64_t)gpu_hw_read32(&MW->hw, FENCE_REG_GEN6_HI(i)) << 32 |
	       gpu_hw_read32(&MW->hw, FENCE_REG_GEN6_LO(i));
}

/* Guest fence i raw, in i915's order. */
static void fence_raw(struct vgpu *v, unsigned int i, uint64_t f)
{
	assert_int_equal(vgpu_mmio_write(v, FENCE_REG_GEN6_LO(i), 0, 4), 0);
	assert_int_equal(vgpu_mmio_write(v, FENCE_REG_GEN6_HI(i),
					 (uint32_t)(f >> 32), 4), 0);
	assert_int_equal(vgpu_mmio_write(v, FENCE_REG_GEN6_LO(i), (uint32_t)f,
					 4), 0);
}

static uint64_t fence_val(uint64_t gm, uint32_t pages, uint32_t pitch,
			  bool y)
{
	return gm | ((gm + pages * 4096ull - 4096) << 32) |
	       ((uint64_t)(pitch / 128 - 1) << GEN6_FENCE_PITCH_SHIFT) |
	       (y ? 2 : 0) | I965_FENCE_REG_VALID;
}

/* Backing page x of the fenced range is guest RAM at RAM0 + x * 4 KiB. */
#define RAM0 0x10000ull
#define PAGES 8u

static uint32_t pattern(uint64_t lin)
{
	return 0x5ee00000u ^ (uint32_t)(lin * 2654435761u);
}

/* Through a valid fence on the plain model: the pages leave the guest's
 * EPT, and what the guest reads and writes there is the fence's tiling
 * of its own pages, byte for byte where gen9_tiling.h puts it. */
static void detile_case(uint32_t pitch, bool y)
{
	struct evguest *a = &G[0];
	uint64_t gm = a->low_base + 32 * 4096, lin, tiled;
	uint32_t word;
	uint64_t q;

	for (uint32_t x = 0; x < PAGES; x++)
		assert_int_equal(evg_bind(a, gm + x * 4096, RAM0 + x * 4096), 0);
	assert_int_equal(evg_ap_read(a, gm, &word), 0);	/* ladder-mapped */
	assert_int_not_equal(evg_ap_hpa(a, gm), 0);
	fence_raw(V[0], 0, fence_val(gm, PAGES, pitch, y));
	assert_int_equal(vgpu_get_stats(V[0])->fence_pool_maps, 0);
	for (uint32_t x = 0; x < PAGES; x++)
		assert_int_equal(evg_ap_hpa(a, gm + x * 4096), 0);
	/* a pattern written through the aperture, dword by dword... */
	for (lin = 0; lin < PAGES * 4096ull; lin += 4)
		assert_int_equal(evg_ap_write(a, gm + lin, pattern(lin)), 0);
	/* ...lies tiled in the backing pages... */
	for (lin = 0; lin < PAGES * 4096ull; lin += 4) {
		tiled = gen9_tiled_offset(lin, pitch, y);
		if (evg_ram_read32(a, RAM0 + tiled) != pattern(lin))
			fail_msg("pitch %u %s: linear %llx not at tiled %llx",
				 pitch, y ? "Y" : "X", (unsigned long long)lin,
				 (unsigned long long)tiled);
	}
	/* ...and reads back through the aperture, also 8 bytes at once */
	for (lin = 0; lin < PAGES * 4096ull; lin += 4) {
		assert_int_equal(evg_ap_read(a, gm + lin, &word), 0);
		assert_int_equal(word, pattern(lin));
	}
	for (lin = 0; lin < PAGES * 4096ull; lin += 8) {
		assert_int_equal(vgpu_aperture_rw(V[0], gm + lin, &q, 8, false),
				 0);
		assert_int_equal(q, pattern(lin) |
					    (uint64_t)pattern(lin + 4) << 32);
	}
	/* the GPU's (linear, tiled) view written directly shows detiled */
	evg_ram_write32(a, RAM0 + gen9_tiled_offset(4100, pitch, y), 0xabcd);
	assert_int_equal(evg_ap_read(a, gm + 4100, &word), 0);
	assert_int_equal(word, 0xabcd);
	/* a GGTT entry rebound under the fence: still unmapped, followed */
	evg_ram_write32(a, 0x40000 + gen9_tiled_offset(16, pitch, y) % 4096,
			0x1234);
	assert_int_equal(evg_bind(a, gm + (gen9_tiled_offset(16, pitch, y) &
					   ~4095ull), 0x40000), 0);
	assert_int_equal(evg_ap_hpa(a, gm), 0);
	assert_int_equal(evg_ap_read(a, gm + 16, &word), 0);
	assert_int_equal(word, 0x1234);
	assert_int_equal(evg_bind(a, gm + (gen9_tiled_offset(16, pitch, y) &
					   ~4095ull),
				  RAM0 + (gen9_tiled_offset(16, pitch, y) &
					  ~4095ull)), 0);
	/* the fence gone: the ladder again, linear bytes */
	fence_raw(V[0], 0, 0);
	assert_int_equal(evg_ap_read(a, gm + 4100, &word), 0);
	assert_int_equal(word, evg_ram_read32(a, RAM0 + 4100));
	assert_int_not_equal(evg_ap_hpa(a, gm + 4096), 0);
	assert_int_equal(vgpu_aperture_rw(V[0], gm, &q, 8, false),
			 -GPU_EINVAL);
	assert_true(vgpu_get_stats(V[0])->ap_detiled >= PAGES * 1024);
}

static void test_no_aperture_detiles_x(void **state)
{
	(void)state;
	world(true);
	detile_case(512, false);	/* one X tile wide */
	detile_case(2048, false);	/* four: rows of 16 KiB */
}

static void test_no_aperture_detiles_y(void **state)
{
	(void)state;
	world(true);
	detile_case(128, true);		/* one Y tile wide */
	detile_case(512, true);		/* four: rows of 16 KiB */
}

/* A page without a GGTT entry under the fence: ones, writes dropped;
 * a fence over another vGPU's GM is not detiled for this one. */
static void test_no_aperture_holes(void **state)
{
	struct evguest *a = &G[0];
	uint64_t gm = a->low_base + 32 * 4096, q = 0;

	(void)state;
	world(true);
	assert_int_equal(evg_bind(a, gm, RAM0), 0);
	fence_raw(V[0], 0, fence_val(gm, 2, 128, true));
	assert_int_equal(vgpu_aperture_rw(V[0], gm + 4096, &q, 8, false), 0);
	assert_int_equal(q, ~0ull);
	assert_int_equal(vgpu_aperture_rw(V[0], gm + 4096, &q, 8, true), 0);
	assert_int_equal(vgpu_aperture_rw(V[0], gm + 8192, &q, 8, false),
			 -GPU_EINVAL);
	assert_int_equal(vgpu_aperture_rw(V[1], gm, &q, 8, false),
			 -GPU_EINVAL);
}

static void test_fences_that_overrun_are_refused(void **state)
{
	struct evguest *a = &G[0];
	uint64_t gm;

	(void)state;
	world(false);
	gm = a->low_base + 64 * 4096;
	for (uint32_t x = 0; x < 8; x++)
		assert_int_equal(evg_bind(a, gm + x * 4096, 0x10000 + x * 4096), 0);
	/* X tiles are 512 wide: a 256-byte pitch is not whole tiles. */
	fence_raw(V[0], 0, fence_val(gm, 4, 256, false));
	assert_int_equal(hw_fence(V[0]->fence_base) & I965_FENCE_REG_VALID, 0);
	/* X, pitch 2048: a tile row is 16 KiB; 3 pages is not whole rows. */
	fence_raw(V[0], 0, fence_val(gm, 3, 2048, false));
	assert_int_equal(hw_fence(V[0]->fence_base) & I965_FENCE_REG_VALID, 0);
	assert_int_equal(vgpu_get_stats(V[0])->fence_pool_maps, 0);
	/* Whole rows of whole tiles (Y, pitch 256: rows of 8 KiB): pooled. */
	fence_raw(V[0], 0, fence_val(gm, 4, 256, true));
	assert_int_equal(hw_fence(V[0]->fence_base) & I965_FENCE_REG_VALID, 1);
	assert_int_equal(vgpu_get_stats(V[0])->fence_pool_maps, 1);
	assert_true((hw_fence(V[0]->fence_base) & GEN6_FENCE_START_MASK) >=
		    gscale_gvt_of(MW->gvt)->fence_pool.base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_no_aperture_detiles_x, teardown),
		cmocka_unit_test_teardown(test_no_aperture_detiles_y, teardown),
		cmocka_unit_test_teardown(test_no_aperture_holes, teardown),
		cmocka_unit_test_teardown(test_fences_that_overrun_are_refused, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
