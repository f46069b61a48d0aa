/* gScale's low GM generations (gpu/gscale/gscale_gen.c): a switch skips
 * shared low GM chunks whose physical content has not changed since the
 * incoming vGPU last had them, or equals its shadow. Exact counts on small
 * cases, then random interleavings of guest writes, switches, predictive
 * copies and vGPU removal checked against the one property that matters:
 * after a switch the GPU sees exactly the incoming vGPU's entries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/gscale/gscale.h"
#include "tests/harness/model_harness.h"

#define LOW_FIRST 16384u
#define LOW_COUNT 2048u /* 4 chunks */
#define HIGH_FIRST 32768u
#define HIGH_COUNT 32768u
#define SLOT 4096u
#define CH GSCALE_CHUNK_ENTRIES

static struct harness H;
static struct gscale GS;
static size_t live_bytes;

static void *t_alloc(void *ctx, size_t n)
{
	(void)ctx;
	live_bytes += n;
	return calloc(1, n);
}

static void t_free(void *ctx, void *p, size_t n)
{
	(void)ctx;
	live_bytes -= n;
	free(p);
}

static uint64_t fake_now;

static uint64_t t_clock(void *ctx)
{
	(void)ctx;
	return fake_now++; /* one tick per reading */
}

static const struct gscale_mem MEM = { t_alloc, t_free, t_clock, NULL };

static void setup(bool sharing, bool predictive)
{
	struct gscale_params p = {
		.low = { LOW_FIRST, LOW_COUNT },
		.high = { HIGH_FIRST, HIGH_COUNT },
		.slot_entries = SLOT,
		.slot_sharing = sharing,
		.predictive = predictive,
	};

	live_bytes = 0;
	assert_int_equal(h_init(&H, NULL), 0);
	assert_int_equal(gscale_init(&GS, &H.hw, &p, &MEM), 0);
}

static int teardown(void **state)
{
	(void)state;
	gscale_fini(&GS);
	assert_int_equal(live_bytes, 0);
	h_fini(&H);
	return 0;
}

/* Chunk k of vGPU id's low GM: every entry = page | present. */
static void bind_low_chunk(int id, uint32_t k, uint64_t page)
{
	for (uint32_t i = 0; i < CH; i++)
		assert_int_equal(gscale_guest_write(&GS, id, LOW_FIRST + k * CH + i,
						    page | 1), 0);
}

static void assert_gpu_sees(int id)
{
	const struct gscale_vgpu *v = &GS.vgpus[id];

	for (uint32_t i = 0; i < v->low.count; i++)
		assert_int_equal(gpu_hw_ggtt_read(&H.hw, v->low.first + i),
				 gscale_shadow_read(&GS, id, v->low.first + i));
	for (uint32_t i = 0; i < v->high.count; i++)
		assert_int_equal(gpu_hw_ggtt_read(&H.hw, v->high.first + i),
				 gscale_shadow_read(&GS, id, v->high.first + i));
}

static uint64_t low_copied(int id)
{
	uint64_t n = gscale_switch_to(&GS, id);

	assert_gpu_sees(id);
	return n;
}

/* A and B each own two low chunks and a private slot. */
static void test_switch_copies_only_changed_low_chunks(void **state)
{
	int a, b;

	(void)state;
	setup(true, false);
	a = gscale_vgpu_add(&GS, 2 * CH, SLOT);
	b = gscale_vgpu_add(&GS, 2 * CH, SLOT);
	bind_low_chunk(a, 0, 0xa000);
	/* First switches: nothing of theirs is in the GGTT yet. */
	assert_int_equal(low_copied(a), 2 * CH + SLOT);
	/* B: chunk 0 differs, chunk 1 is empty in both (same content). */
	assert_int_equal(low_copied(b), CH + SLOT);
	assert_int_equal(GS.stats.low_chunks_same, 1);
	/* A again: chunk 0 was overwritten, chunk 1 never changed. */
	assert_int_equal(low_copied(a), CH);
	assert_int_equal(GS.stats.low_chunks_unchanged, 1);
	/* B binds chunk 1 while not running: it must be copied now. */
	bind_low_chunk(b, 1, 0xb000);
	assert_int_equal(low_copied(b), 2 * CH);
	/* A binds nothing and B leaves: A's chunk 1 is B's now, copied. */
	assert_int_equal(low_copied(a), 2 * CH);
	/* Nothing changed since A was switched in: a no-op. */
	assert_int_equal(gscale_switch_to(&GS, a), 0);
}

/* Identical content taken over without a copy must not leave the old
 * holder believing it is current once the new one writes. */
static void test_resident_write_invalidates_identical_holder(void **state)
{
	int a, b;

	(void)state;
	setup(true, false);
	a = gscale_vgpu_add(&GS, CH, SLOT);
	b = gscale_vgpu_add(&GS, CH, SLOT);
	bind_low_chunk(a, 0, 0x5000);
	bind_low_chunk(b, 0, 0x5000); /* the same page, e.g. a scratch page */
	assert_int_equal(low_copied(a), CH + SLOT);
	assert_int_equal(low_copied(b), SLOT);
	/* B runs and rebinds one entry: it reaches the GGTT (B owns it). */
	assert_int_equal(gscale_guest_write(&GS, b, LOW_FIRST + 7, 0x9001), 0);
	assert_int_equal(gpu_hw_ggtt_read(&H.hw, LOW_FIRST + 7), 0x9001);
	assert_int_equal(low_copied(a), CH);
	assert_int_equal(gpu_hw_ggtt_read(&H.hw, LOW_FIRST + 7), 0x5001);
}

/* Removing the vGPU whose content is physically there scrubs it; a vGPU
 * that had the same content must not skip its copy afterwards. */
static void test_scrub_forgets_generations(void **state)
{
	int a, b;

	(void)state;
	setup(true, false);
	a = gscale_vgpu_add(&GS, CH, SLOT);
	b = gscale_vgpu_add(&GS, CH, SLOT);
	bind_low_chunk(a, 0, 0x5000);
	bind_low_chunk(b, 0, 0x5000);
	low_copied(a);
	low_copied(b);
	gscale_vgpu_remove(&GS, b);
	assert_int_equal(gpu_hw_ggtt_read(&H.hw, LOW_FIRST), 0);
	assert_int_equal(low_copied(a), CH);
}

/* Random interleavings: several vGPUs of mixed sizes, guest writes drawn
 * from a few pages (so identical chunks happen), switches, predictive
 * copies, removals and re-creation. */
static uint64_t rng = 88172645463325252ull;

static uint32_t rnd(uint32_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng % n);
}

static int add_random(void)
{
	static const uint32_t lows[] = { CH, 2 * CH, 4 * CH };

	return gscale_vgpu_add(&GS, lows[rnd(3)], SLOT * (1 + rnd(2)));
}

static void random_write(int id)
{
	const struct gscale_vgpu *v = &GS.vgpus[id];
	uint64_t page = (uint64_t)rnd(3) << 12;
	uint32_t idx;

	if (rnd(4)) {
		uint32_t k = rnd(v->low.count / CH);

		if (rnd(3) == 0) { /* a whole chunk: identical ones appear */
			bind_low_chunk(id, k, page);
			return;
		}
		idx = v->low.first + k * CH + rnd(CH);
	} else {
		idx = v->high.first + rnd(v->high.count);
	}
	assert_int_equal(gscale_guest_write(&GS, id, idx, page | 1), 0);
}

static void interleave(bool sharing, bool predictive, int steps)
{
	int ids[6];
	int n = 6;

	setup(sharing, predictive);
	for (int i = 0; i < n; i++)
		assert_true((ids[i] = add_random()) >= 0);
	for (int s = 0; s < steps; s++) {
		int id = ids[rnd(n)];
		uint32_t op = rnd(10);

		if (op < 5) {
			random_write(id);
		} else if (op < 9) {
			gscale_switch_to(&GS, id);
			assert_gpu_sees(id);
			gscale_prefetch(&GS, ids[rnd(n)]);
			assert_gpu_sees(id); /* ahead-copies never disturb it */
		} else {
			int k = rnd(n);

			gscale_vgpu_remove(&GS, ids[k]);
			assert_true((ids[k] = add_random()) >= 0);
		}
		if (GS.current >= 0 && rnd(8) == 0)
			assert_gpu_sees(GS.current);
	}
	assert_true(GS.stats.low_chunks_same > 0);
	assert_true(GS.stats.low_chunks_unchanged > 0);
}

static void test_random_interleavings_sharing(void **state)
{
	(void)state;
	interleave(true, true, 3000);
}

static void test_random_interleavings_basic(void **state)
{
	(void)state;
	interleave(false, false, 3000);
}

/* Predictive copy stops when the next switch is due: the test clock
 * advances one tick per reading, so a deadline admits a known number of
 * chunks; the rest is copied at the switch and counted there. */
static void test_prefetch_bounded_by_deadline(void **state)
{
	int a, b;
	uint64_t ahead, at_switch;

	(void)state;
	setup(true, true);
	a = gscale_vgpu_add(&GS, CH, SLOT);
	b = gscale_vgpu_add(&GS, CH, SLOT);
	gscale_switch_to(&GS, a);
	/* Readings: the start, then one before each chunk: 3 chunks fit. */
	ahead = gscale_prefetch_until(&GS, b, fake_now + 4);
	assert_int_equal(ahead, 3 * CH);
	assert_int_equal(GS.stats.prefetch_cut, 1);
	assert_int_equal(GS.stats.entries_prefetched, 3 * CH);
	assert_gpu_sees(a);
	at_switch = gscale_switch_to(&GS, b);
	/* The rest of its slot; its low GM is as empty as a's: no copy. */
	assert_int_equal(at_switch, SLOT - 3 * CH);
	assert_gpu_sees(b);
	/* Nothing left to copy for a: no cut. For a new vGPU, a deadline
	 * already past copies nothing at all. */
	assert_int_equal(gscale_prefetch_until(&GS, a, 0), 0);
	assert_int_equal(GS.stats.prefetch_cut, 1);
	assert_int_equal(gscale_prefetch_until(&GS,
					       gscale_vgpu_add(&GS, CH, SLOT), 0),
			 0);
	assert_int_equal(GS.stats.prefetch_cut, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(
			test_switch_copies_only_changed_low_chunks, teardown),
		cmocka_unit_test_teardown(
			test_resident_write_invalidates_identical_holder,
			teardown),
		cmocka_unit_test_teardown(test_scrub_forgets_generations,
					  teardown),
		cmocka_unit_test_teardown(test_random_interleavings_sharing,
					  teardown),
		cmocka_unit_test_teardown(test_random_interleavings_basic,
					  teardown),
		cmocka_unit_test_teardown(test_prefetch_bounded_by_deadline,
					  teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
