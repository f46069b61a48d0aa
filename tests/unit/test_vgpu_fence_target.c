/* The fence pool's target per backend, under the real mediator in gScale
 * mode with synthetic guests (tests/world/evguest.c):
 *  - with a physical aperture (the iGPU, gpu=model-mmio) a fence over low
 *    GM moves the range into the pool and the guest's pages onto the
 *    aperture at the pool (test_gscale_vgpu covers the mechanism);
 *  - without one (gvt_params.gscale_no_aperture: the plain model) nothing
 *    is pooled: the guest's pages keep their ladder mapping to its RAM,
 *    which keeps following its GGTT entries;
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

#include "gpu/vgpu/vgpu_priv.h"
#include "tests/world/evguest.h"

static struct model_world *MW;
static struct vgpu *V[2];
static struct evguest G[2];

static void world(bool no_aperture)
{
	struct gvt_params p = { .gscale = true,
				.gscale_no_aperture = no_aperture };

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

static void test_no_aperture_keeps_the_ladder(void **state)
{
	struct evguest *a = &G[0];
	uint64_t gm;
	uint32_t word;

	(void)state;
	world(true);
	gm = a->low_base + 16 * 4096;
	for (uint32_t x = 0; x < 4; x++) {
		evg_ram_write32(a, 0x10000 + x * 4096, 0xa0000000u + x);
		assert_int_equal(evg_bind(a, gm + x * 4096, 0x10000 + x * 4096), 0);
	}
	assert_int_equal(evg_fence(a, 0, gm, 4), 0);
	assert_int_equal(vgpu_get_stats(V[0])->fence_pool_maps, 0);
	/* The guest's range itself is what the hardware fence holds. */
	assert_int_equal(hw_fence(V[0]->fence_base) & GEN6_FENCE_START_MASK, gm);
	/* Its aperture pages still reach its own pages... */
	assert_int_equal(evg_ap_read(a, gm + 4096, &word), 0);
	assert_int_equal(word, 0xa0000001u);
	/* ... and keep following its GGTT entries. */
	evg_ram_write32(a, 0x20000, 0xa00000ffu);
	assert_int_equal(evg_bind(a, gm, 0x20000), 0);
	assert_int_equal(evg_ap_read(a, gm, &word), 0);
	assert_int_equal(word, 0xa00000ffu);
	assert_int_equal(evg_ap_hpa(a, gm), fake_hv_gpa_to_hpa(&MW->hv, 1,
							       0x20000));
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
		    MW->gvt->fence_pool.base);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_no_aperture_keeps_the_ladder, teardown),
		cmocka_unit_test_teardown(test_fences_that_overrun_are_refused, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
