/* Host replay of the render context's workaround batches (issue 28): the
 * indirect context batch i915 6.1 builds on Skylake
 * (tests/harness/i915_shapes.c i915_gen9_indirectctx_bb) and a
 * per-context batch, named in the guest's context image, go through the
 * real mediator and the software Gen9 model. Checked: both scanned and
 * copied into the pool, the shadow context names the copies (never the
 * guest's pages), the model runs them at the restore - the indirect one
 * exactly its size, the per-context one to its end - and their effects
 * land (registers, a store); a bad one (a register outside the
 * allow-list, an address outside the vGPU, a command past the size, a
 * batch end in the indirect one) refuses the workload, with the other
 * VM's work untouched. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmds.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_world.h"

#define BATCH_VA 0x7e0000000000ull
#define VM_A 1
#define VM_B 2
#define PER_MARK 0x9e4c0001u
#define PAST_MARK 0xbad00badu
#define MI_USE_GGTT (1u << 22)

/* The workaround page (GGTT, two pages as i915's CTX_WA_BB_SIZE is one
 * and the per-context batch needs a page-aligned address): the indirect
 * batch at 0, the per-context one at 4096, its store target and the
 * "must not run" target after it, the GT scratch at 8192. */
#define PER_OFF 4096u
#define PER_TARGET 0x400u
#define PAST_TARGET 0x404u
#define SCRATCH_OFF 8192u

struct env {
	struct model_world mw; /* first: iw_state_new */
	struct iw_guest a, b;
	uint32_t wa_gm;
	uint64_t wa_gpa;
};

static int setup(void **state)
{
	struct env *e = iw_state_new(sizeof(*e), 64, 32);
	uint32_t bb[2] = { MI_BATCH_BUFFER_END, MI_NOOP };

	iw_guest_up(&e->mw, &e->a, VM_A);
	iw_guest_up(&e->mw, &e->b, VM_B);
	e->a.batch_gpa = iw_map(&e->a, BATCH_VA, 1);
	e->b.batch_gpa = iw_map(&e->b, BATCH_VA, 1);
	fake_hv_guest_write(&e->mw.hv, VM_A, e->a.batch_gpa, bb, sizeof(bb));
	fake_hv_guest_write(&e->mw.hv, VM_B, e->b.batch_gpa, bb, sizeof(bb));
	e->wa_gpa = gi_alloc_pages(&e->a.g, 3);
	e->wa_gm = gi_gm_alloc(&e->a.g, 3 * 4096, false);
	gi_ggtt_bind(&e->a.g, e->wa_gm, e->wa_gpa, 3);
	*state = e;
	return 0;
}

static void put(struct env *e, uint32_t off, const uint32_t *dw, uint32_t n)
{
	fake_hv_guest_write(&e->mw.hv, VM_A, e->wa_gpa + off, dw, 4 * n);
}

/* The three workaround dwords of VM A's render context image. */
static void image(struct env *e, uint32_t ictx, uint32_t off, uint32_t per)
{
	uint64_t st = e->a.g.ctx[e->a.ctx[GEN9_RCS0]].lrca_gpa + LRC_STATE_OFFSET;

	gi_write32(&e->a.g, st + CTX_RCS_INDIRECT_CTX * 4, ictx);
	gi_write32(&e->a.g, st + CTX_RCS_INDIRECT_CTX_OFFSET * 4, off);
	gi_write32(&e->a.g, st + CTX_BB_PER_CTX_PTR * 4, per);
}

/* i915's indirect batch (48 dwords), then - past its size - a store that
 * must never run; the per-context batch stores PER_MARK and ends. */
static uint32_t write_i915_batches(struct env *e)
{
	uint32_t past[5] = { MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT,
			     e->wa_gm + PER_OFF + PAST_TARGET, 0, PAST_MARK,
			     MI_BATCH_BUFFER_END };
	uint32_t per[5] = { MI_STORE_DWORD_IMM_GEN4 | MI_USE_GGTT,
			    e->wa_gm + PER_OFF + PER_TARGET, 0, PER_MARK,
			    MI_BATCH_BUFFER_END };
	struct i915_cs cs;

	i915_cs_reset(&cs);
	i915_gen9_indirectctx_bb(&cs, e->wa_gm + SCRATCH_OFF);
	assert_int_equal(cs.n, 48);
	put(e, 0, cs.dw, cs.n);
	put(e, 4 * cs.n, past, 5);
	put(e, PER_OFF, per, 5);
	return cs.n;
}

static uint32_t *shadow_state(struct env *e)
{
	return (uint32_t *)(e->a.v->eng[GEN9_RCS0].sctx.va + LRC_STATE_OFFSET);
}

static void run_a(struct env *e)
{
	iw_submit(&e->a, GEN9_RCS0, BATCH_VA);
	assert_int_equal(gi_wait_idle(&e->a.g, GEN9_RCS0, 50), 0);
}

/* i915's shape: scanned, copied, named by the shadow context, run. */
static void test_i915_indirect_and_per_ctx_run(void **state)
{
	struct env *e = *state;
	struct vgpu *v = e->a.v;
	uint32_t n = write_i915_batches(e), *st = shadow_state(e);
	uint32_t ictx_gm, per_gm;
	uint64_t ran = e->mw.m.engine[GEN9_RCS0].stats.wa_batches;

	uint64_t cmds0 = v->stats.cmds_scanned;

	image(e, e->wa_gm | (4 * n / 64),
	      I915_GEN9_INDIRECT_CTX_OFFSET_DEFAULT << 6,
	      (e->wa_gm + PER_OFF) | 1);
	run_a(e);
	/* measured: what one submission's workaround batches cost (the
	 * indirect batch's 24 commands - 15 of them padding MI_NOOPs - and
	 * the per-context batch's 2, besides the ring's and the user
	 * batch's 14); bytes copied are the scanner's 256-byte reads */
	print_message("wa: %llu bytes copied, %llu commands scanned in all\n",
		      (unsigned long long)v->stats.wa_bytes,
		      (unsigned long long)(v->stats.cmds_scanned - cmds0));
	assert_true(v->stats.wa_bytes >= 4 * n + 8);
	assert_int_equal(v->stats.workloads_rejected, 0);
	assert_false(vgpu_failed(v));
	assert_int_equal(v->stats.wa_scanned, 2);
	assert_int_equal(v->stats.wa_run, 1);
	assert_int_equal(v->stats.wa_refused, 0);
	/* the shadow context names copies outside the vGPU's GM, the
	 * indirect one with the guest's size and offset */
	ictx_gm = st[CTX_RCS_INDIRECT_CTX] & CTX_INDIRECT_ADDR_MASK;
	per_gm = st[CTX_BB_PER_CTX_PTR] & CTX_PER_CTX_ADDR_MASK;
	assert_int_equal(st[CTX_RCS_INDIRECT_CTX] & CTX_INDIRECT_SIZE_MASK, 3);
	assert_int_equal(st[CTX_RCS_INDIRECT_CTX_OFFSET], 0x26u << 6);
	assert_int_equal(st[CTX_BB_PER_CTX_PTR] & CTX_PER_CTX_VALID, 1);
	assert_true(ictx_gm != e->wa_gm && per_gm != e->wa_gm + PER_OFF);
	assert_false(vgpu_gm_valid(v, ictx_gm, 4));
	assert_false(vgpu_gm_valid(v, per_gm, 4));
	/* the model ran both at the restore: the per-context store landed,
	 * the store past the indirect batch's size did not, the registers
	 * hold i915's masked values */
	assert_int_equal(e->mw.m.engine[GEN9_RCS0].stats.wa_batches - ran, 2);
	assert_int_equal(gi_read32(&e->a.g, e->wa_gpa + PER_OFF + PER_TARGET),
			 PER_MARK);
	assert_int_equal(gi_read32(&e->a.g, e->wa_gpa + PER_OFF + PAST_TARGET), 0);
	assert_int_equal(gen9_model_read32(&e->mw.m, I915_FF_SLICE_CHICKEN) & 2, 2);
	assert_int_equal(gen9_model_read32(&e->mw.m, I915_3D_CHICKEN3) & 0x1000,
			 0x1000);
	assert_int_equal(v->stats.user_faults, 0);
	/* a second request runs them again (a full restore each time) */
	run_a(e);
	assert_int_equal(v->stats.wa_scanned, 4);
	assert_int_equal(v->stats.wa_run, 2);
	assert_int_equal(e->mw.m.engine[GEN9_RCS0].stats.wa_batches - ran, 4);
	assert_int_equal(v->stats.workloads_rejected, 0);
}

/* Without pointers (other engines, i915 before its default state)
 * nothing is scanned and the shadow context names nothing. */
static void test_no_wa_batches(void **state)
{
	struct env *e = *state;
	uint32_t *st = shadow_state(e);

	image(e, 0, 0, 0);
	run_a(e);
	assert_int_equal(e->a.v->stats.wa_scanned, 0);
	assert_int_equal(e->a.v->stats.wa_run, 0);
	assert_int_equal(st[CTX_RCS_INDIRECT_CTX], 0);
	assert_int_equal(st[CTX_BB_PER_CTX_PTR], 0);
	assert_int_equal(e->a.v->stats.workloads_rejected, 0);
}

/* A bad workaround batch refuses VM A's workload; VM B, submitting on
 * the same engine at the same time, completes. */
static void refused(struct env *e, uint32_t ictx, uint32_t per)
{
	struct vgpu *v = e->a.v;
	uint32_t b_done = e->b.g.eng[GEN9_RCS0].completes;

	image(e, ictx, I915_GEN9_INDIRECT_CTX_OFFSET_DEFAULT << 6, per);
	iw_submit(&e->a, GEN9_RCS0, BATCH_VA);
	iw_submit(&e->b, GEN9_RCS0, BATCH_VA);
	assert_int_equal(gi_wait_idle(&e->b.g, GEN9_RCS0, 50), 0);
	assert_int_equal(v->stats.workloads_rejected, 1);
	assert_int_equal(v->stats.wa_refused, 1);
	assert_int_equal(v->stats.wa_run, 0);
	assert_int_equal(e->b.v->stats.workloads_rejected, 0);
	assert_false(vgpu_failed(e->b.v));
	assert_true(e->b.g.eng[GEN9_RCS0].completes > b_done);
	assert_int_equal(gi_read32(&e->b.g, e->b.tl_gpa + iw_slot(GEN9_RCS0)),
			 e->b.seqno[GEN9_RCS0]);
}

static void test_register_not_allowed(void **state)
{
	struct env *e = *state;
	/* LRI to RING_TAIL: never reachable from a command */
	uint32_t bb[16] = { MI_LOAD_REGISTER_IMM(1), 0x2030, 0 };

	put(e, 0, bb, 16);
	refused(e, e->wa_gm | 1, 0);
}

static void test_outside_the_vgpu(void **state)
{
	struct env *e = *state;

	refused(e, 0xfff00000u | 1, 0);
}

static void test_per_ctx_outside_the_vgpu(void **state)
{
	struct env *e = *state;

	write_i915_batches(e);
	refused(e, e->wa_gm | 3, 0xfff00000u | 1);
}

static void test_command_past_the_size(void **state)
{
	struct env *e = *state;
	uint32_t bb[16] = { 0 };

	/* a 5-dword LRI(2) starting at dword 14 of a one-cacheline batch */
	bb[14] = MI_LOAD_REGISTER_IMM(2);
	put(e, 0, bb, 16);
	refused(e, e->wa_gm | 1, 0);
}

/* MI_DISPLAY_FLIP of pipe A's plane 1 to our own GM: accepted in the
 * ring (docs/display.md "Flips from the ring"), but a workaround batch
 * runs at every context restore: refused there, counted. */
static void test_display_flip_in_wa(void **state)
{
	struct env *e = *state;
	uint32_t bb[16] = { (0x14u << 23) | 1, 16u << 6, e->wa_gm };

	put(e, 0, bb, 16);
	refused(e, e->wa_gm | 1, 0);
	assert_int_equal(e->a.v->stats.cmd_flips_refused, 1);
	assert_int_equal(e->a.v->stats.cmd_flips, 0);
}

static void test_batch_end_in_indirect(void **state)
{
	struct env *e = *state;
	uint32_t bb[16] = { MI_BATCH_BUFFER_END };

	put(e, 0, bb, 16);
	refused(e, e->wa_gm | 1, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_i915_indirect_and_per_ctx_run, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_no_wa_batches, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_register_not_allowed, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_outside_the_vgpu, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_per_ctx_outside_the_vgpu, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_command_past_the_size, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_batch_end_in_indirect, setup, iw_teardown),
		cmocka_unit_test_setup_teardown(test_display_flip_in_wa, setup, iw_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
