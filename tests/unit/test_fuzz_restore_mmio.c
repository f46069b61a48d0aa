/* The fake-GPU fuzz targets (fuzz_vgpu_mmio here, and _ggtt, _gscale,
 * fuzz_ghyvi the same way) create and destroy the attacker vGPU per input
 * and zero only the pages of its RAM anyone was handed a pointer to
 * (fake_hv_track_dirty) instead of all of it (issue 13). This test runs
 * the target's real world: after any input and that restore, the
 * attacker's RAM is all zero, the physical GGTT holds exactly what it held
 * before the first input, and the mediator holds as many pages as then -
 * the world the next input meets is the freshly built one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/fuzz/fuzz_vgpu_mmio.c"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void test_world_back_after_inputs(void **state)
{
	static uint8_t buf[4096];
	struct fz_env *e = fz_env();
	uint64_t *ggtt0 = malloc(e->gpu.ggtt_entries * 8);
	uint64_t pages0 = e->hv.pages_in_use, touched = 0;
	const uint8_t *ram = e->hv.arena + e->hv.vm[1].first_page * 4096;
	int i;

	(void)state;
	assert_non_null(ggtt0);
	memcpy(ggtt0, e->ggtt, e->gpu.ggtt_entries * 8);
	for (i = 0; i < 300; i++) {
		size_t n = next() % sizeof(buf), k;

		for (k = 0; k < n; k++) /* ops biased to guest stores (4) */
			buf[k] = k % 14 == 0 && next() % 2 ? 4 : (uint8_t)next();
		LLVMFuzzerTestOneInput(buf, n);
		touched += fake_hv_zero_dirty(&e->hv, 1);
		for (k = 0; k < FZ_RAM; k++)
			if (ram[k])
				fail_msg("input %d left byte 0x%zx of its RAM", i, k);
		assert_memory_equal(e->ggtt, ggtt0, e->gpu.ggtt_entries * 8);
		assert_int_equal(e->hv.pages_in_use, pages0);
	}
	/* The inputs did touch its RAM: the restore had work to do. */
	assert_true(touched > 300);
	free(ggtt0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_world_back_after_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
