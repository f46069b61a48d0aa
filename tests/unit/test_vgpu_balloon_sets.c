/* The hypervisor runs what the balloon study measures for "ours" (issue
 * 17): a guest that takes a list of ranges is grown and shrunk by
 * vgpu_balloon_set (hv/gpu/gpu_balloon.c's applier for it), which must
 * choose exactly the slots the study's applier (bpol_apply_nc:
 * ncs_expand / ncs_reduce with the monitor's utilization as weights)
 * chooses on the same layout, action after action, except where the
 * mediator's limit of 8 ranges refuses a change (counted, the study's
 * layout then left as the mediator's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "gpu/gballoon/gballoon.h"
#include "gpu/gscale/gscale.h"
#include "gpu/policy/ncslots.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define N 6
#define VM_RAM (4 * MiB)

static const struct vgpu_type type = { "sets", 8 * MiB, 64 * MiB, 2, 1 };

static uint64_t rnd_state = 17;

static uint32_t rnd(uint32_t n)
{
	rnd_state = rnd_state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(rnd_state >> 33) % n;
}

static struct ncs_set set_of(struct vgpu *v)
{
	struct vgpu_slot_run runs[VGPU_MAX_RANGES];
	uint32_t n = vgpu_slot_runs(v, runs, VGPU_MAX_RANGES);
	struct ncs_set s;

	memset(&s, 0, sizeof(s));
	for (uint32_t r = 0; r < n; r++)
		for (uint32_t x = runs[r].first; x < runs[r].first + runs[r].count; x++)
			ncs_add(&s, x);
	return s;
}

static void test_same_slots_as_the_study(void **state)
{
	struct mw_config c = { .pool_mib = 96, .ram_mib = 4 * N };
	static const struct dymgpu_params dp = { .off = true };
	struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { &dp, &gscale_on } };
	static struct ncs_layout study;
	uint32_t weight[SLOTS_MAX_VGPUS] = { 0 }; /* no work: utilization 0 */
	struct model_world mw;
	struct vgpu *v[N];
	uint32_t done = 0, too_many = 0, refused = 0, max_runs = 1;

	(void)state;
	c.params = &p;
	assert_int_equal(mw_init(&mw, &c), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(mw_add_vgpu(&mw, &type, i + 1, VM_RAM, &v[i]), 0);
	memset(&study, 0, sizeof(study));
	study.m = gvt_gscale(mw.gvt)->nr_slots;
	study.n = SLOTS_MAX_VGPUS;
	for (int i = 0; i < N; i++)
		study.set[v[i]->gs_id] = set_of(v[i]);
	for (int step = 0; step < 400; step++) {
		int i = (int)rnd(N), k = v[i]->gs_id;
		int32_t delta = (int32_t)rnd(3) + 1;
		struct ncs_set before = study.set[k];
		uint32_t runs = 0;
		int want, got;

		/* Shrink half the time, and always past 8 slots (memory). */
		if ((rnd(2) || ncs_count(&before) + (uint32_t)delta > 8) &&
		    ncs_count(&before) > (uint32_t)delta)
			delta = -delta;
		want = delta > 0 ? ncs_expand(&study, (uint32_t)k, (uint32_t)delta,
					      weight, NULL)
				 : ncs_reduce(&study, (uint32_t)k, (uint32_t)-delta,
					      weight, NULL);
		got = vgpu_balloon_set(v[i], delta, &runs);
		if (!want && got == -GPU_E2BIG) {
			assert_true(runs > VGPU_MAX_RANGES);
			study.set[k] = before;	/* the mediator did not */
			too_many++;
		} else if (want) {
			assert_int_not_equal(got, 0);
			refused++;
		} else {
			assert_int_equal(got, 0);
			done++;
			max_runs = runs > max_runs ? runs : max_runs;
		}
		for (int j = 0; j < N; j++) {
			struct ncs_set s = set_of(v[j]);

			assert_memory_equal(&s, &study.set[v[j]->gs_id], sizeof(s));
		}
	}
	printf("400 actions: %u applied as the study applies them (up to %u "
	       "ranges), %u refused by both, %u beyond 8 ranges refused by the "
	       "mediator\n", done, max_runs, refused, too_many);
	assert_true(done > 200 && max_runs > 1);
	mw_stop(&mw);
	mw_fini(&mw);
}

/* A grant that would give a ninth range is refused and changes nothing. */
static void test_ninth_range_refused(void **state)
{
	struct mw_config c = { .pool_mib = 96, .ram_mib = 4 * N };
	static const struct dymgpu_params dp = { .off = true };
	struct gvt_params p = { .ext = { &dymgpu_ext_ops, &gscale_ext_ops },
				.ext_params = { &dp, &gscale_on } };
	struct vgpu_slot_run even[8], odd1[4], odd2[4], got[VGPU_MAX_RANGES];
	struct model_world mw;
	struct vgpu *v[N];
	uint32_t runs = 0;

	(void)state;
	c.params = &p;
	assert_int_equal(mw_init(&mw, &c), 0);
	for (int i = 0; i < N; i++)
		assert_int_equal(mw_add_vgpu(&mw, &type, i + 1, VM_RAM, &v[i]), 0);
	for (uint32_t i = 0; i < 8; i++)
		even[i] = (struct vgpu_slot_run){ 2 * i, 1 };
	for (uint32_t i = 0; i < 4; i++) {
		odd1[i] = (struct vgpu_slot_run){ 2 * i + 1, 1 };
		odd2[i] = (struct vgpu_slot_run){ 2 * i + 9, 1 };
	}
	assert_int_equal(vgpu_set_high_runs(v[0], even, 8), 0);
	assert_int_equal(vgpu_set_high_runs(v[1], odd1, 4), 0);
	assert_int_equal(vgpu_set_high_runs(v[2], odd2, 4), 0);
	/* Every free slot is away from vGPU 0's: a ninth run. */
	assert_int_equal(vgpu_balloon_set(v[0], 1, &runs), -GPU_E2BIG);
	assert_int_equal(runs, 9);
	assert_int_equal(vgpu_slot_runs(v[0], got, VGPU_MAX_RANGES), 8);
	assert_memory_equal(got, even, sizeof(even));
	/* Shrinking still works (the most shared slot goes). */
	assert_int_equal(vgpu_balloon_set(v[0], -1, &runs), 0);
	assert_int_equal(runs, 7);
	mw_stop(&mw);
	mw_fini(&mw);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_slots_as_the_study),
		cmocka_unit_test(test_ninth_range_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
