/* gScale mechanism (gpu/gscale) against the software Gen9 model: private
 * shadow GGTT, on-demand copying with ownership, slot placement, predictive
 * copy, scrubbing, and two vGPUs overlapping in one slot each seeing only
 * their own pages through the GPU and the aperture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/gscale/gscale.h"
#include "gpu/hw/gen9_regs.h"
#include "tests/harness/model_harness.h"

/* Harness GGTT: 64 Ki entries (256 MiB). Shared low GM at 64 MiB, 2048
 * entries; high GM from 128 MiB to the end, 16 MiB slots -> 8 slots. */
#define LOW_FIRST 16384u
#define LOW_COUNT 2048u
#define HIGH_FIRST 32768u
#define HIGH_COUNT 32768u
#define SLOT 4096u
#define V_LOW 1024u
#define V_HIGH 4096u
#define PTE_PRESENT 1ull

static struct harness H;
static struct gscale GS;
static size_t live_bytes;
static int fail_after = -1;

static void *t_alloc(void *ctx, size_t n)
{
	(void)ctx;
	if (fail_after == 0)
		return NULL;
	if (fail_after > 0)
		fail_after--;
	live_bytes += n;
	return calloc(1, n);
}

static void t_free(void *ctx, void *p, size_t n)
{
	(void)ctx;
	live_bytes -= n;
	free(p);
}

static const struct gscale_mem MEM = { t_alloc, t_free, NULL, NULL };

static struct gscale_params params(bool sharing, bool predictive,
				   uint32_t high_count)
{
	return (struct gscale_params){
		.low = { LOW_FIRST, LOW_COUNT },
		.high = { HIGH_FIRST, high_count },
		.slot_entries = SLOT,
		.slot_sharing = sharing,
		.predictive = predictive,
	};
}

static int setup_with(bool sharing, bool predictive, uint32_t high_count)
{
	struct gscale_params p = params(sharing, predictive, high_count);

	live_bytes = 0;
	fail_after = -1;
	assert_int_equal(h_init(&H, NULL), 0);
	return gscale_init(&GS, &H.hw, &p, &MEM);
}

static int teardown(void **state)
{
	(void)state;
	gscale_fini(&GS);
	assert_int_equal(live_bytes, 0);
	h_fini(&H);
	return 0;
}

/* A vGPU that maps every entry of its ranges to one page of its own. */
static int add_filled(uint64_t page)
{
	int id = gscale_vgpu_add(&GS, V_LOW, V_HIGH);
	const struct gscale_vgpu *v;

	assert_true(id >= 0);
	v = &GS.vgpus[id];
	for (uint32_t i = 0; i < v->low.count; i++)
		assert_int_equal(gscale_guest_write(&GS, id, v->low.first + i,
						    page | PTE_PRESENT), 0);
	for (uint32_t i = 0; i < v->high.count; i++)
		assert_int_equal(gscale_guest_write(&GS, id, v->high.first + i,
						    page | PTE_PRESENT), 0);
	return id;
}

static void assert_physical_is(int id)
{
	const struct gscale_vgpu *v = &GS.vgpus[id];

	for (uint32_t i = 0; i < v->low.count; i += 97)
		assert_int_equal(gpu_hw_ggtt_read(&H.hw, v->low.first + i),
				 gscale_shadow_read(&GS, id, v->low.first + i));
	for (uint32_t i = 0; i < v->high.count; i += 97)
		assert_int_equal(gpu_hw_ggtt_read(&H.hw, v->high.first + i),
				 gscale_shadow_read(&GS, id, v->high.first + i));
}

static void test_on_demand_copy_with_ownership(void **state)
{
	int a, b;

	(void)state;
	assert_int_equal(setup_with(true, false, HIGH_COUNT), 0);
	a = add_filled(h_alloc_page(&H));
	b = add_filled(h_alloc_page(&H));
	/* Spread on different slots, overlapping in low GM. */
	assert_int_not_equal(GS.vgpus[a].slot, GS.vgpus[b].slot);
	assert_int_equal(GS.vgpus[a].low.first, GS.vgpus[b].low.first);

	/* Writes before any switch stay in the shadows. */
	assert_int_equal(GS.stats.guest_writes_hw, 0);
	assert_int_equal(gscale_switch_to(&GS, a), V_LOW + V_HIGH);
	assert_physical_is(a);
	assert_int_equal(gscale_switch_to(&GS, b), V_LOW + V_HIGH);
	assert_physical_is(b);
	/* Back to a: its slot is still resident, only low GM moves. */
	assert_int_equal(gscale_switch_to(&GS, a), V_LOW);
	assert_physical_is(a);
	/* Switching to the running vGPU costs nothing. */
	assert_int_equal(gscale_switch_to(&GS, a), 0);
	assert_int_equal(GS.stats.switches, 3);
	assert_int_equal(GS.stats.entries_copied, 3 * V_LOW + 2 * V_HIGH);
}

static void test_basic_stacks_and_copies_everything(void **state)
{
	int a, b;

	(void)state;
	assert_int_equal(setup_with(false, false, HIGH_COUNT), 0);
	a = add_filled(h_alloc_page(&H));
	b = add_filled(h_alloc_page(&H));
	assert_int_equal(GS.vgpus[a].slot, 0);
	assert_int_equal(GS.vgpus[b].slot, 0);
	for (int round = 0; round < 3; round++) {
		assert_int_equal(gscale_switch_to(&GS, a), V_LOW + V_HIGH);
		assert_int_equal(gscale_switch_to(&GS, b), V_LOW + V_HIGH);
	}
	assert_physical_is(b);
}

static void test_resident_write_reaches_hardware(void **state)
{
	int a, b;
	uint32_t idx;

	(void)state;
	assert_int_equal(setup_with(true, false, HIGH_COUNT), 0);
	a = add_filled(h_alloc_page(&H));
	b = add_filled(h_alloc_page(&H));
	gscale_switch_to(&GS, a);
	idx = GS.vgpus[a].high.first + 5;
	/* a owns its slot: the write goes through. */
	assert_int_equal(gscale_guest_write(&GS, a, idx, 0x1234000 | 1), 0);
	assert_int_equal(gpu_hw_ggtt_read(&H.hw, idx), 0x1234000 | 1);
	/* b writes the shared low GM while a owns it: shadow only. */
	idx = GS.vgpus[b].low.first + 3;
	assert_int_equal(gscale_guest_write(&GS, b, idx, 0x5678000 | 1), 0);
	assert_int_not_equal(gpu_hw_ggtt_read(&H.hw, idx), 0x5678000 | 1);
	gscale_switch_to(&GS, b);
	assert_int_equal(gpu_hw_ggtt_read(&H.hw, idx), 0x5678000 | 1);
}

static void test_write_outside_ranges_rejected(void **state)
{
	int a;
	uint64_t before;

	(void)state;
	assert_int_equal(setup_with(true, false, HIGH_COUNT), 0);
	a = add_filled(h_alloc_page(&H));
	gscale_switch_to(&GS, a);
	before = gpu_hw_ggtt_read(&H.hw, 100);
	assert_int_equal(gscale_guest_write(&GS, a, 100, 0xdead000 | 1),
			 -GPU_EINVAL);
	assert_int_equal(gscale_guest_write(&GS, a,
					    GS.vgpus[a].high.first + V_HIGH,
					    0xdead000 | 1), -GPU_EINVAL);
	assert_int_equal(gscale_guest_write(&GS, 77, LOW_FIRST, 1),
			 -GPU_EINVAL);
	assert_int_equal(GS.stats.writes_rejected, 3);
	assert_int_equal(gpu_hw_ggtt_read(&H.hw, 100), before);
}

/* The GPU executes a GGTT store to the same graphics address for each
 * resident vGPU: the value lands in that vGPU's page only. */
static void gpu_store(uint32_t gaddr, uint32_t value)
{
	struct h_ctx c;
	uint32_t cmd[] = { MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT, gaddr, 0,
			   value, MI_BATCH_BUFFER_END, 0 };

	h_engine_start(&H, GEN9_BCS0);
	h_ctx_create(&H, &c, GEN9_BCS0, 0, 9);
	h_emitn(&H, &c, cmd, 6);
	h_ctx_commit(&H, &c);
	h_elsp(&H, GEN9_BCS0, h_desc(&c), 0);
	h_run(&H, 4);
}

static void test_two_vgpus_share_a_slot_each_sees_its_own(void **state)
{
	uint64_t pa, pb;
	uint32_t gaddr, word;
	int a, b;

	(void)state;
	/* One slot only: both vGPUs must share it. */
	assert_int_equal(setup_with(true, false, SLOT), 0);
	pa = h_alloc_page(&H);
	pb = h_alloc_page(&H);
	a = add_filled(pa);
	b = add_filled(pb);
	assert_int_equal(GS.vgpus[a].high.first, GS.vgpus[b].high.first);
	gaddr = (GS.vgpus[a].high.first + 10) * 4096u;

	gscale_switch_to(&GS, a);
	gpu_store(gaddr + 16, 0xaaaa5555);
	gscale_switch_to(&GS, b);
	gpu_store(gaddr + 16, 0xbbbb6666);
	assert_int_equal(((uint32_t *)h_ptr(&H, pa))[4], 0xaaaa5555);
	assert_int_equal(((uint32_t *)h_ptr(&H, pb))[4], 0xbbbb6666);

	/* The CPU path through the aperture (low GM) sees the resident one. */
	((uint32_t *)h_ptr(&H, pa))[0] = 0x11110000;
	((uint32_t *)h_ptr(&H, pb))[0] = 0x22220000;
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, LOW_FIRST * 4096ull, &word,
					    4, false), 0);
	assert_int_equal(word, 0x22220000);
	gscale_switch_to(&GS, a);
	assert_int_equal(gpu_hw_aperture_rw(&H.hw, LOW_FIRST * 4096ull, &word,
					    4, false), 0);
	assert_int_equal(word, 0x11110000);
}

static void test_slot_placement_spreads_then_shares(void **state)
{
	int ids[10];

	(void)state;
	assert_int_equal(setup_with(true, false, HIGH_COUNT), 0);
	for (int i = 0; i < 8; i++) {
		ids[i] = gscale_vgpu_add(&GS, V_LOW, V_HIGH);
		assert_int_equal(GS.vgpus[ids[i]].slot, (uint32_t)i);
	}
	ids[8] = gscale_vgpu_add(&GS, V_LOW, V_HIGH);
	ids[9] = gscale_vgpu_add(&GS, V_LOW, 2 * V_HIGH);
	assert_int_equal(GS.vgpus[ids[8]].slot, 0);
	/* A two-slot vGPU takes the leftmost pair without slot 0 (which has
	 * two users already): each of its slots now has two. */
	assert_int_equal(GS.vgpus[ids[9]].slot, 1);
	assert_int_equal(GS.slot_users[1], 2);
	assert_int_equal(GS.slot_users[2], 2);
	/* Too large for the high GM: refused. */
	assert_int_equal(gscale_vgpu_add(&GS, V_LOW, HIGH_COUNT + SLOT),
			 -GPU_EINVAL);
	assert_int_equal(gscale_vgpu_add(&GS, LOW_COUNT + 512, V_HIGH),
			 -GPU_EINVAL);
}

static void test_predictive_copy_avoids_running_vgpu(void **state)
{
	int a, b;

	(void)state;
	assert_int_equal(setup_with(true, true, HIGH_COUNT), 0);
	a = add_filled(h_alloc_page(&H));
	b = add_filled(h_alloc_page(&H));
	gscale_switch_to(&GS, a);
	/* b's slot is free to fill; the low GM a is using is not. */
	assert_int_equal(gscale_prefetch(&GS, b), V_HIGH);
	/* a keeps its low GM while b is prefetched. */
	for (uint32_t i = 0; i < V_LOW; i += 64)
		assert_int_equal(gpu_hw_ggtt_read(&H.hw, LOW_FIRST + i),
				 gscale_shadow_read(&GS, a, LOW_FIRST + i));
	assert_int_equal(gscale_switch_to(&GS, b), V_LOW);
	assert_physical_is(b);
	assert_int_equal(GS.stats.entries_prefetched, V_HIGH);
}

static void test_remove_scrubs_physical_entries(void **state)
{
	int a;
	uint32_t hi;

	(void)state;
	assert_int_equal(setup_with(true, false, HIGH_COUNT), 0);
	a = add_filled(h_alloc_page(&H));
	hi = GS.vgpus[a].high.first;
	gscale_switch_to(&GS, a);
	assert_int_not_equal(gpu_hw_ggtt_read(&H.hw, hi), 0);
	gscale_vgpu_remove(&GS, a);
	assert_int_equal(gpu_hw_ggtt_read(&H.hw, hi), 0);
	assert_int_equal(gpu_hw_ggtt_read(&H.hw, LOW_FIRST), 0);
	assert_int_equal(GS.current, -1);
	assert_int_equal(GS.slot_users[0], 0);
}

static void test_allocation_failure_leaves_nothing(void **state)
{
	(void)state;
	assert_int_equal(setup_with(true, false, HIGH_COUNT), 0);
	fail_after = 1; /* low shadow succeeds, high shadow fails */
	assert_int_equal(gscale_vgpu_add(&GS, V_LOW, V_HIGH), -GPU_ENOMEM);
	fail_after = -1;
	assert_int_equal(GS.slot_users[0], 0);
	assert_false(GS.vgpus[0].present);
}

static void test_bad_params_refused(void **state)
{
	struct gscale_params p = params(true, false, HIGH_COUNT);

	(void)state;
	assert_int_equal(h_init(&H, NULL), 0);
	p.low.first = 100; /* not chunk aligned */
	assert_int_equal(gscale_init(&GS, &H.hw, &p, &MEM), -GPU_EINVAL);
	p = params(true, false, HIGH_COUNT);
	p.high.count = 1u << 20; /* beyond the GGTT */
	assert_int_equal(gscale_init(&GS, &H.hw, &p, &MEM), -GPU_EINVAL);
	p = params(true, false, HIGH_COUNT);
	p.high.first = LOW_FIRST; /* overlaps low */
	assert_int_equal(gscale_init(&GS, &H.hw, &p, &MEM), -GPU_EINVAL);
	memset(&GS, 0, sizeof(GS));
	live_bytes = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_on_demand_copy_with_ownership,
					  teardown),
		cmocka_unit_test_teardown(test_basic_stacks_and_copies_everything,
					  teardown),
		cmocka_unit_test_teardown(test_resident_write_reaches_hardware,
					  teardown),
		cmocka_unit_test_teardown(test_write_outside_ranges_rejected,
					  teardown),
		cmocka_unit_test_teardown(
			test_two_vgpus_share_a_slot_each_sees_its_own, teardown),
		cmocka_unit_test_teardown(test_slot_placement_spreads_then_shares,
					  teardown),
		cmocka_unit_test_teardown(test_predictive_copy_avoids_running_vgpu,
					  teardown),
		cmocka_unit_test_teardown(test_remove_scrubs_physical_entries,
					  teardown),
		cmocka_unit_test_teardown(test_allocation_failure_leaves_nothing,
					  teardown),
		cmocka_unit_test_teardown(test_bad_params_refused, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
