/* The command scanner: accept/reject tables of ring contents, batch
 * following (chains, second level, loops, privileged batches run from a
 * copy). Submitted through the i915-like guest against the fake gpu_hw. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define BATCH_VA 0x500000000ull
#define OTHER 0xdead0000u /* marker: replaced by another vGPU's GM */
#define OWN 0xbeef0000u /* marker: replaced by this vGPU's GM */

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };

struct env {
	struct model_world mw;
	struct vgpu *v, *other;
	struct guest_i915 g;
	int ctx[GEN9_NUM_ENGINES];
	uint32_t own_gm;
	uint64_t own_gpa, batch_gpa;
	uint32_t ggtt_batch_gm;
	uint64_t ggtt_batch_gpa;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct guest_i915 *g = &e->g;

	struct mw_config c = { .pool_mib = 64, .ram_mib = 16, .fake_gpu = true };

	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &small, 1, 8 * MiB, &e->v), 0);
	/* VM 2 needs no RAM: its vGPU only owns GM (OTHER) for the scans. */
	assert_int_equal(mw_add_vgpu(&e->mw, &small, 2, 0, &e->other), 0);
	assert_int_equal(gi_probe(g, &e->mw.hv, e->v, 1, e->mw.gvt), 0);
	assert_int_equal(gi_ppgtt_create(g), 0);
	assert_int_equal(gi_engine_init(g, GEN9_RCS0), 0);
	assert_int_equal(gi_engine_init(g, GEN9_BCS0), 0);
	e->ctx[GEN9_RCS0] = gi_ctx_create(g, GEN9_RCS0);
	e->ctx[GEN9_BCS0] = gi_ctx_create(g, GEN9_BCS0);
	e->own_gpa = gi_alloc_pages(g, 1);
	e->own_gm = gi_gm_alloc(g, 4096, true);
	gi_ggtt_bind(g, e->own_gm, e->own_gpa, 1);
	e->batch_gpa = gi_alloc_pages(g, 4);
	gi_ppgtt_map(g, BATCH_VA, e->batch_gpa, 4);
	e->ggtt_batch_gpa = gi_alloc_pages(g, 1);
	e->ggtt_batch_gm = gi_gm_alloc(g, 4096, false);
	gi_ggtt_bind(g, e->ggtt_batch_gm, e->ggtt_batch_gpa, 1);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	mw_stop(&e->mw);
	assert_int_equal(e->mw.hv.pages_in_use, 0);
	mw_fini(&e->mw);
	free(e);
	return 0;
}

static uint32_t fix(struct env *e, uint32_t dw)
{
	if ((dw & ~0xfffu) == OWN)
		return e->own_gm | (dw & 0xfff);
	if ((dw & ~0xfffu) == OTHER)
		return (uint32_t)e->other->low_base | (dw & 0xfff);
	return dw;
}

/* Submit dwords on engine; true when accepted (ran to completion). */
static bool submit(struct env *e, int engine, const uint32_t *dw, uint32_t n)
{
	uint64_t rej = e->v->stats.workloads_rejected;
	uint32_t buf[64], i;

	for (i = 0; i < n; i++)
		buf[i] = fix(e, dw[i]);
	if (n & 1)
		buf[n++] = MI_NOOP; /* qword-aligned tail, like i915 */
	gi_ring_emit(&e->g, e->ctx[engine], buf, n);
	gi_submit(&e->g, e->ctx[engine], -1);
	gi_service(&e->g);
	if (e->v->stats.workloads_rejected != rej) {
		assert_true(vgpu_failed(e->v));
		/* i915's recovery: reset the engine, skip the bad request. */
		gi_mmio_write(&e->g, GEN6_GDRST, GEN6_GRDOM_FULL, 4);
		assert_false(vgpu_failed(e->v));
		e->g.eng[engine].csb_head = 5;
		gi_write32(&e->g, e->g.eng[engine].hwsp_gpa + I915_HWS_CSB_WRITE_INDEX * 4, 5);
		gi_mmio_write(&e->g, RING_CONTEXT_STATUS_PTR(e->g.eng[engine].base),
			      GEN8_CSB_PTR_RESET_VALUE, 4);
		gi_write32(&e->g, e->g.ctx[e->ctx[engine]].lrca_gpa + 4096 + CTX_RING_HEAD * 4,
			   e->g.ctx[e->ctx[engine]].tail);
		return false;
	}
	return gi_wait_idle(&e->g, engine, 10) == 0;
}

struct scase {
	const char *name;
	int engine;
	bool ok;
	uint32_t n;
	uint32_t dw[20];
};

#define RCS GEN9_RCS0
#define BCS GEN9_BCS0
#define SDI_GGTT (MI_STORE_DWORD_IMM_GEN4 | MI_SDI_GGTT)
#define SRM_GGTT (MI_STORE_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT)
#define LRM_GGTT (MI_LOAD_REGISTER_MEM_GEN8 | MI_SRM_LRM_GLOBAL_GTT)
#define PC_QW_GGTT (PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_GLOBAL_GTT_IVB | PIPE_CONTROL_CS_STALL)

static const struct scase cases[] = {
	{ "noops", RCS, true, 2, { MI_NOOP, MI_NOOP } },
	{ "user interrupt", RCS, true, 2, { MI_USER_INTERRUPT, MI_ARB_CHECK } },
	{ "sdi ggtt own", RCS, true, 4, { SDI_GGTT, OWN, 0, 7 } },
	{ "sdi ppgtt", RCS, true, 4, { MI_STORE_DWORD_IMM_GEN4, 0x1000, 0x12, 7 } },
	{ "sdi qword ggtt own", RCS, true, 5, { MI_STORE_QWORD_IMM_GEN8 | MI_SDI_GGTT, OWN, 0, 1, 2 } },
	{ "lri gpr", RCS, true, 3, { MI_LOAD_REGISTER_IMM(1), 0x2600, 5 } },
	{ "lri mocs+l3cc", RCS, true, 5, { MI_LOAD_REGISTER_IMM(2), 0xc800, 1, 0xb020, 2 } },
	{ "srm timestamp", RCS, true, 4, { SRM_GGTT, 0x2358, OWN, 0 } },
	{ "lrm gpr", RCS, true, 4, { LRM_GGTT, 0x2604, OWN, 0 } },
	/* Mesa: predication, indirect draws, L3 configuration */
	{ "lri predicate src0", RCS, true, 5, { MI_LOAD_REGISTER_IMM(2), 0x2400, 1, 0x2404, 0 } },
	{ "lrm 3dprim vertex count", RCS, true, 4, { LRM_GGTT, 0x2434, OWN, 0 } },
	{ "lri dispatchdim", RCS, true, 3, { MI_LOAD_REGISTER_IMM(1), 0x2508, 1 } },
	{ "lri l3cntlreg", RCS, true, 3, { MI_LOAD_REGISTER_IMM(1), 0x7034, 0x60000121 } },
	{ "lri ctx preempt (Mesa)", RCS, true, 3, { MI_LOAD_REGISTER_IMM(1), 0x2248, 0x20002 } },
	{ "lrr gpr", RCS, true, 3, { MI_LOAD_REGISTER_REG, 0x2600, 0x2608 } },
	{ "pipe control ggtt own", RCS, true, 6, { GFX_OP_PIPE_CONTROL(6), PC_QW_GGTT, OWN, 0, 1, 0 } },
	{ "pipe control ppgtt", RCS, true, 6, { GFX_OP_PIPE_CONTROL(6), PIPE_CONTROL_QW_WRITE, 0x1000, 0, 1, 0 } },
	{ "3d state", RCS, true, 3, { 0x78040001, 0, 0 } },
	/* i915's inter-engine waits (issue 17): the address audited */
	{ "semaphore wait ggtt own", RCS, true, 4, { MI_SEMAPHORE_WAIT | MI_SEMAPHORE_GLOBAL_GTT | MI_SEMAPHORE_POLL, 0, OWN, 0 } },
	{ "semaphore wait ppgtt", BCS, true, 4, { MI_SEMAPHORE_WAIT | MI_SEMAPHORE_POLL | (4u << 12), 1, 0x1000, 0 } },
	{ "flush_dw ggtt own", BCS, true, 4, { (MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW, OWN | MI_FLUSH_DW_USE_GTT, 0, 1 } },
	{ "xy color blt", BCS, true, 7, { XY_COLOR_BLT_CMD, 0x03f00100, 0, 0x00100010, 0x1000, 0, 0 } },
	{ "bcs swctrl", BCS, true, 3, { MI_LOAD_REGISTER_IMM(1), BCS_SWCTRL, 0x30003 } },
	/* index mode: into the shadow context's own status page (issue 15) */
	{ "flush_dw store index", BCS, true, 4, { (MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW | MI_FLUSH_DW_STORE_INDEX, 0x100, 0, 1 } },
	{ "pipe control index", RCS, true, 6, { GFX_OP_PIPE_CONTROL(6), PIPE_CONTROL_QW_WRITE | PIPE_CONTROL_STORE_DATA_INDEX, 0x40, 0, 1, 0 } },
	{ "pipe control qword at own page end", RCS, true, 6, { GFX_OP_PIPE_CONTROL(6), PC_QW_GGTT, OWN | 0xffc, 0, 1, 2 } },
	{ "pipeline select (1 dword)", RCS, true, 2, { 0x69040302, MI_NOOP } },
	/* GVT allows these (R_RCS for the URB ones): no memory operand */
	{ "urb atomic alloc", RCS, true, 2, { MI_INSTR(0x09, 0x1ff), MI_NOOP } },
	{ "urb clear", RCS, true, 2, { MI_INSTR(0x19, 0), 0 } },
	{ "set appid", RCS, true, 2, { MI_INSTR(0x0e, 0), MI_NOOP } },
	{ "gpgpu walker indirect (8-bit length)", RCS, true, 15, { 0x7105040d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 } },

	{ "lri elsp", RCS, false, 3, { MI_LOAD_REGISTER_IMM(1), 0x2230, 0 } },
	{ "lri pdp0", RCS, false, 3, { MI_LOAD_REGISTER_IMM(1), 0x2270, 0x1000 } },
	{ "lri ring mode", RCS, false, 3, { MI_LOAD_REGISTER_IMM(1), 0x229c, 0xffff0000 } },
	{ "lri 2nd pair bad", RCS, false, 5, { MI_LOAD_REGISTER_IMM(2), 0x2600, 0, 0xa188, 1 } },
	{ "lri forcewake", RCS, false, 3, { MI_LOAD_REGISTER_IMM(1), 0xa188, 0x10001 } },
	{ "lri fence", RCS, false, 3, { MI_LOAD_REGISTER_IMM(1), 0x100000, 1 } },
	{ "lri gdrst", RCS, false, 3, { MI_LOAD_REGISTER_IMM(1), 0x941c, 1 } },
	{ "lri pvinfo", RCS, false, 3, { MI_LOAD_REGISTER_IMM(1), 0x78818, 4 } },
	{ "lri bcs reg on rcs", RCS, false, 3, { MI_LOAD_REGISTER_IMM(1), BCS_SWCTRL, 0 } },
	{ "sdi ggtt other vgpu", RCS, false, 4, { SDI_GGTT, OTHER, 0, 7 } },
	{ "sdi ggtt host", RCS, false, 4, { SDI_GGTT, 0x1000, 0, 7 } },
	{ "srm master irq", RCS, false, 4, { SRM_GGTT, 0x44200, OWN, 0 } },
	{ "srm to other", RCS, false, 4, { SRM_GGTT, 0x2358, OTHER, 0 } },
	{ "semaphore wait ggtt other", RCS, false, 4, { MI_SEMAPHORE_WAIT | MI_SEMAPHORE_GLOBAL_GTT, 0, OTHER, 0 } },
	{ "semaphore wait short", RCS, false, 3, { MI_INSTR(0x1c, 1), 0, OWN } },
	{ "store data index", RCS, false, 3, { MI_STORE_DATA_INDEX, 0x40, 1 } },
	{ "update gtt", RCS, false, 3, { MI_INSTR(0x23, 1), 0, 0 } },
	{ "display flip", RCS, false, 3, { MI_INSTR(0x14, 1), 0, 0 } },
	{ "wait for event", RCS, false, 1, { MI_WAIT_FOR_EVENT } },
	{ "cond bb end", RCS, false, 4, { MI_CONDITIONAL_BATCH_BUFFER_END, 0, OWN, 0 } },
	{ "report perf", RCS, false, 4, { MI_INSTR(0x28, 2), 0, 0, 0 } },
	/* GVT: cmd_handler_mi_op_2e is unexpected_cmd in what it scans */
	{ "copy mem mem in the ring", RCS, false, 5, { MI_INSTR(0x2e, 3), OWN, 0, OWN | 8, 0 } },
	{ "lri predicate on bcs", BCS, false, 3, { MI_LOAD_REGISTER_IMM(1), 0x2400, 1 } },
	{ "urb clear on bcs", BCS, false, 2, { MI_INSTR(0x19, 0), 0 } },
	{ "load urb mem", RCS, false, 4, { MI_INSTR(0x2c, 2), 0, OWN, 0 } },
	{ "rs store data imm", RCS, false, 4, { MI_INSTR(0x2b, 2), OWN, 0, 1 } },

	{ "flush_dw ggtt other", BCS, false, 4, { (MI_FLUSH_DW + 1) | MI_FLUSH_DW_OP_STOREDW, OTHER | MI_FLUSH_DW_USE_GTT, 0, 1 } },

	{ "pipe control lri elsp", RCS, false, 6, { GFX_OP_PIPE_CONTROL(6), PIPE_CONTROL_MMIO_WRITE, 0x2230, 0, 1, 0 } },
	{ "pipe control ggtt other", RCS, false, 6, { GFX_OP_PIPE_CONTROL(6), PC_QW_GGTT, OTHER, 0, 1, 0 } },
	{ "blt on rcs", RCS, false, 7, { XY_COLOR_BLT_CMD, 0, 0, 0, 0, 0, 0 } },
	{ "3d on bcs", BCS, false, 3, { 0x78040001, 0, 0 } },
	/* hidden by a wrong length: a 16-bit field would swallow the LRI */
	{ "lri after gpgpu walker", RCS, false, 18, { 0x7105040d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, MI_LOAD_REGISTER_IMM(1), 0x2230, 0 } },
	{ "lri after pipeline select", RCS, false, 4, { 0x69040302, MI_LOAD_REGISTER_IMM(1), 0x2230, 0 } },
	{ "client 1", RCS, false, 2, { 0x20000000, 0 } },
	{ "client 7", RCS, false, 2, { 0xe0000000, 0 } },
	{ "bb end in ring", RCS, false, 2, { MI_BATCH_BUFFER_END, MI_NOOP } },
	{ "past tail", RCS, false, 2, { MI_LOAD_REGISTER_IMM(4), 0x2600 } },
	{ "ggtt batch outside", RCS, false, 3, { MI_BATCH_BUFFER_START_GEN8, OTHER, 0 } },
	{ "bb start bad length", RCS, false, 4, { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT | 2, 0, 5, 0 } },
};

static void test_table(void **state)
{
	struct env *e = *state;
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct scase *c = &cases[i];
		bool got = submit(e, c->engine, c->dw, c->n);

		if (got != c->ok) {
			fprintf(stderr, "case '%s': %s, expected %s\n", c->name,
				got ? "accepted" : "rejected",
				c->ok ? "accepted" : "rejected");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* The counters by class (vgpu_cmd_scan.c cmd_class) see each command
 * once, by its client and subtype, and bytes by its decoded length: a
 * 3D state command, PIPE_CONTROL (3D), PIPELINE_SELECT (subtype 1: 3D),
 * GPGPU_WALKER (media), two MI; a blit on BCS. */
static void test_class_counters(void **state)
{
	static const uint32_t rcs[] = {
		0x78040001, 0, 0, GFX_OP_PIPE_CONTROL(6), 0, 0, 0, 0, 0,
		0x69040302, 0x7105040d, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0, MI_NOOP, MI_ARB_CHECK };
	static const uint32_t bcs[] = { XY_COLOR_BLT_CMD, 0x03f00100, 0,
					0x00100010, 0x1000, 0, 0, MI_NOOP };
	struct env *e = *state;
	const struct vgpu_stats *s = &e->v->stats;
	struct vgpu_stats b = *s;

	assert_true(submit(e, RCS, rcs, sizeof(rcs) / 4));
	assert_int_equal(s->scan_3d - b.scan_3d, 3);
	assert_int_equal(s->scan_media - b.scan_media, 1);
	assert_int_equal(s->scan_2d - b.scan_2d, 0);
	/* the two MI of the segment, the harness's MI_NOOP padding */
	assert_int_equal(s->scan_mi - b.scan_mi, 3);
	assert_int_equal(s->scan_bytes - b.scan_bytes, 4 * 28);
	b = *s;
	assert_true(submit(e, BCS, bcs, sizeof(bcs) / 4));
	assert_int_equal(s->scan_2d - b.scan_2d, 1);
	assert_int_equal(s->scan_mi - b.scan_mi, 1);
	assert_int_equal(s->scan_3d - b.scan_3d, 0);
	assert_int_equal(s->scan_bytes - b.scan_bytes, 4 * 8);
	assert_int_equal(s->scan_mi + s->scan_3d + s->scan_media +
				 s->scan_video + s->scan_2d, s->cmds_scanned);
}

static void put_batch(struct env *e, int page, const uint32_t *dw, uint32_t n)
{
	fake_hv_guest_write(&e->mw.hv, 1, e->batch_gpa + 4096ull * page, dw, 4 * n);
}

static void bb_start(struct env *e, uint64_t va, bool ppgtt)
{
	uint32_t cs[4] = { MI_BATCH_BUFFER_START_GEN8 | (ppgtt ? MI_BATCH_PPGTT : 0),
			   (uint32_t)va, (uint32_t)(va >> 32), MI_NOOP };

	gi_ring_emit(&e->g, e->ctx[RCS], cs, 4);
}

static bool run_ring(struct env *e)
{
	uint32_t none[1] = { 0 };

	return submit(e, RCS, none, 0);
}

static void test_ppgtt_batches(void **state)
{
	struct env *e = *state;
	uint32_t simple[] = { SDI_GGTT, e->own_gm, 0, 1, MI_BATCH_BUFFER_END };
	uint32_t chain[] = { MI_NOOP, MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
			     (uint32_t)(BATCH_VA + 4096), (uint32_t)(BATCH_VA >> 32) };
	uint32_t loop[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
			    (uint32_t)(BATCH_VA + 8192), (uint32_t)(BATCH_VA >> 32) };
	uint32_t call2[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT | MI_BATCH_SECOND_LEVEL,
			     (uint32_t)(BATCH_VA + 8192), (uint32_t)(BATCH_VA >> 32),
			     MI_BATCH_BUFFER_END };
	uint32_t bad_in_2nd[] = { MI_LOAD_REGISTER_IMM(1), 0x2230, 0, MI_BATCH_BUFFER_END };
	/* Mesa's CS_DEBUG_MODE2 load (iris/ANV, at context creation): per-
	 * context state a user batch reaches (docs/i915-command-path.md) */
	uint32_t csdm2[] = { MI_LOAD_REGISTER_IMM(1), 0x20d8, 0x00100010,
			     MI_BATCH_BUFFER_END };
	uint32_t call3[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT | MI_BATCH_SECOND_LEVEL,
			     (uint32_t)(BATCH_VA + 8192), (uint32_t)(BATCH_VA >> 32) };
	uint32_t ggtt_from_batch[] = { MI_BATCH_BUFFER_START_GEN8, e->ggtt_batch_gm, 0 };
	uint64_t n0;

	/* One batch. */
	put_batch(e, 0, simple, 5);
	bb_start(e, BATCH_VA, true);
	assert_true(run_ring(e));
	assert_int_equal(e->v->stats.batches_scanned, 1);
	/* A chain into a second batch, which ends. */
	put_batch(e, 0, chain, 4);
	put_batch(e, 1, simple, 5);
	bb_start(e, BATCH_VA, true);
	assert_true(run_ring(e));
	/* A second-level batch that jumps to itself: rejected, in bounded
	 * time (nothing could end it: a first-level one is gem_busy's,
	 * watched, test_vgpu_busy_loop.c). */
	n0 = e->v->stats.cmds_scanned;
	put_batch(e, 0, call2, 4);
	put_batch(e, 2, loop, 3);
	bb_start(e, BATCH_VA, true);
	assert_false(run_ring(e));
	assert_true(e->v->stats.cmds_scanned - n0 <= SCAN_MAX_BATCHES + 8);
	assert_int_equal(e->v->stats.loops_watched, 0);
	/* Second level: scanned too. */
	put_batch(e, 0, call2, 4);
	put_batch(e, 2, simple, 5);
	bb_start(e, BATCH_VA, true);
	assert_true(run_ring(e));
	/* A register a user batch may not load, in the second level: the
	 * level is scanned and the copy drops the write, as Gen9 does. */
	n0 = e->v->stats.scan_regs_neutralized;
	put_batch(e, 2, bad_in_2nd, 4);
	bb_start(e, BATCH_VA, true);
	assert_true(run_ring(e));
	assert_int_equal(e->v->stats.scan_regs_neutralized, n0 + 1);
	/* CS_DEBUG_MODE2 from a first-level user batch: kept as it is. */
	put_batch(e, 0, csdm2, 4);
	bb_start(e, BATCH_VA, true);
	assert_true(run_ring(e));
	assert_int_equal(e->v->stats.scan_regs_neutralized, n0 + 1);
	/* Third level: refused. */
	put_batch(e, 0, call2, 4);
	put_batch(e, 2, call3, 3);
	bb_start(e, BATCH_VA, true);
	assert_false(run_ring(e));
	/* Unmapped batch address. */
	bb_start(e, BATCH_VA + 64 * 4096, true);
	assert_false(run_ring(e));
	/* A privileged (GGTT) batch started from a batch. */
	put_batch(e, 0, ggtt_from_batch, 3);
	bb_start(e, BATCH_VA, true);
	assert_false(run_ring(e));
}

/* Register loads from a user batch reach what Gen9 lets them reach: the
 * user registers (gen9_nonpriv_fixed_reg) and what the guest's i915 put in
 * the engine's FORCE_TO_NONPRIV slots; the rest the copy drops, as the
 * hardware does (docs/i915-command-path.md "Registers from user
 * batches"). The same loads from the ring (privileged) are kept. */
static uint64_t user_lri(struct env *e, uint32_t reg)
{
	uint32_t lri[] = { MI_LOAD_REGISTER_IMM(1), reg, 0x00010001,
			   MI_BATCH_BUFFER_END };
	uint64_t n0 = e->v->stats.scan_regs_neutralized;

	put_batch(e, 0, lri, 4);
	bb_start(e, BATCH_VA, true);
	assert_true(run_ring(e));
	return e->v->stats.scan_regs_neutralized - n0;
}

static void test_user_reg_loads(void **state)
{
	struct env *e = *state;
	uint32_t ring_lri[] = { MI_LOAD_REGISTER_IMM(2), 0x7004, 0x00010001,
				0x7008, 0x00010001 };
	uint64_t n0 = e->v->stats.scan_regs_neutralized;

	/* CACHE_MODE_1, GT_MODE (iris's loads): on the allow-list for i915's
	 * own batches, not reachable from a user batch. */
	assert_int_equal(user_lri(e, 0x7004), 1);
	assert_int_equal(user_lri(e, 0x7008), 1);
	assert_true(submit(e, RCS, ring_lri, 5));
	assert_int_equal(e->v->stats.scan_regs_neutralized, n0 + 2);
	/* User registers: L3CNTLREG, a GPR. */
	assert_int_equal(user_lri(e, 0x7034), 0);
	assert_int_equal(user_lri(e, 0x2600), 0);
	/* CS_CHICKEN1: only once i915 whitelists it, and only for writes. */
	assert_int_equal(user_lri(e, 0x2580), 1);
	gi_mmio_write(&e->g, RING_FORCE_TO_NONPRIV(0x2000, 3), 0x10002580, 4);
	assert_int_equal(user_lri(e, 0x2580), 1); /* slot says read-only */
	gi_mmio_write(&e->g, RING_FORCE_TO_NONPRIV(0x2000, 3), 0x2580, 4);
	assert_int_equal(user_lri(e, 0x2580), 0);
	/* GT_MODE cannot be whitelisted: it is not on GVT's list, so the
	 * slot write is refused and the load stays dropped. */
	gi_mmio_write(&e->g, RING_FORCE_TO_NONPRIV(0x2000, 4), 0x7008, 4);
	assert_int_equal(user_lri(e, 0x7008), 1);
	gi_mmio_write(&e->g, RING_FORCE_TO_NONPRIV(0x2000, 3), 0, 4);
	assert_int_equal(user_lri(e, 0x2580), 1);
}

static void test_privileged_batch_copied(void **state)
{
	struct env *e = *state;
	struct vgpu_engine *ve = &e->v->eng[RCS];
	uint32_t bb[] = { SDI_GGTT, e->own_gm, 0, 0x5a5a, MI_BATCH_BUFFER_END };
	uint32_t evil[] = { MI_LOAD_REGISTER_IMM(1), 0x2230, 0, MI_BATCH_BUFFER_END };
	uint32_t *copy;
	uint32_t s_head;

	fake_hv_guest_write(&e->mw.hv, 1, e->ggtt_batch_gpa, bb, sizeof(bb));
	e->mw.gpu.auto_complete = false;
	bb_start(e, e->ggtt_batch_gm, false);
	gi_submit(&e->g, e->ctx[RCS], -1);
	gi_service(&e->g);
	/* The ring the hardware runs starts the copy, not the guest page. */
	s_head = ve->wl[ve->wl_head].s_head;
	assert_int_equal(*(uint32_t *)(ve->sring.va + s_head + 4),
			 vgpu_sbb_gm(e->v, ve->wl[ve->wl_head].sbb_first));
	copy = (uint32_t *)vgpu_sbb_va(e->v, ve->wl[ve->wl_head].sbb_first);
	assert_memory_equal(copy, bb, sizeof(bb));
	/* Changing the guest's batch now changes nothing that runs. */
	fake_hv_guest_write(&e->mw.hv, 1, e->ggtt_batch_gpa, evil, sizeof(evil));
	assert_memory_equal(copy, bb, sizeof(bb));
	fake_gpu_complete(&e->mw.gpu, RCS);
	assert_int_equal(gi_wait_idle(&e->g, RCS, 10), 0);
	/* And the evil version is rejected when submitted. */
	e->mw.gpu.auto_complete = true;
	bb_start(e, e->ggtt_batch_gm, false);
	assert_false(run_ring(e));
}

/* A refusal's log line says where the command lies (ring offset or batch
 * address) and, only when there is one, the address the command named. */
static void test_refusal_where(void **state)
{
	struct scan_result r = { .bad_header = 0x11000001, .cmd_at = 0x40,
				 .cmd_level = 0 };
	char buf[96];

	(void)state;
	assert_string_equal(vgpu_scan_where(&r, buf, sizeof(buf)),
			    "header 0x11000001, ring offset 0x40");
	r.cmd_level = 1;
	r.cmd_at = 0x500000040ull;
	r.bad_addr = 0x2230;
	assert_string_equal(vgpu_scan_where(&r, buf, sizeof(buf)),
			    "header 0x11000001, batch 0x500000040, address 0x2230");
	r.cmd_level = 2;
	assert_string_equal(vgpu_scan_where(&r, buf, 20), "header 0x11000001, ");
	/* A register is named as one, also at offset 0. */
	r.cmd_level = 0;
	r.cmd_at = 0x40;
	r.bad_kind = SCAN_BAD_REG;
	r.bad_addr = 0;
	assert_string_equal(vgpu_scan_where(&r, buf, sizeof(buf)),
			    "header 0x11000001, ring offset 0x40, register 0x0");
}

/* A refusal in the ring gives the offset in the guest's ring, not in the
 * mediator's shadow ring: a second context on the render engine has its
 * own ring from 0 while the shared shadow ring is past the first's work. */
static void test_refusal_guest_ring_offset(void **state)
{
	struct env *e = *state;
	uint32_t ok[4] = { MI_LOAD_REGISTER_IMM(1), 0x2600, 1, MI_NOOP };
	uint32_t bad[4] = { MI_NOOP, MI_LOAD_REGISTER_IMM(1), 0x2230, 0 };
	int c2 = gi_ctx_create(&e->g, RCS);
	char want[64];

	assert_true(c2 >= 0);
	assert_true(submit(e, RCS, ok, 4));
	assert_true(submit(e, RCS, ok, 4));
	snprintf(want, sizeof(want), "ring offset 0x%x, register 0x2230",
		 e->g.ctx[c2].tail + 4);
	e->mw.hv.log_watch = "workload rejected";
	gi_ring_emit(&e->g, c2, bad, 4);
	gi_submit(&e->g, c2, -1);
	gi_service(&e->g);
	if (!strstr(e->mw.hv.watched, want))
		fail_msg("log \"%s\", want \"%s\"", e->mw.hv.watched, want);
}

static void test_ring_copy_is_what_runs(void **state)
{
	struct env *e = *state;
	struct vgpu_engine *ve = &e->v->eng[RCS];
	uint32_t ok[4] = { MI_LOAD_REGISTER_IMM(1), 0x2600, 1, MI_NOOP };
	uint32_t s_head, *ring;
	struct gi_ctx *c = &e->g.ctx[e->ctx[RCS]];

	e->mw.gpu.auto_complete = false;
	gi_ring_emit(&e->g, e->ctx[RCS], ok, 4);
	gi_submit(&e->g, e->ctx[RCS], -1);
	gi_service(&e->g);
	s_head = ve->wl[ve->wl_head].s_head;
	/* The guest rewrites its ring after the check (TOCTOU attempt). */
	gi_write32(&e->g, c->ring_gpa + c->tail - 12, 0x2230);
	ring = (uint32_t *)(ve->sring.va + s_head);
	assert_int_equal(ring[1], 0x2600);
	fake_gpu_complete(&e->mw.gpu, RCS);
	assert_int_equal(gi_wait_idle(&e->g, RCS, 10), 0);
}

/* MI_CONDITIONAL_BATCH_BUFFER_END (IGT's spinner, docs/gpu-spinner.md):
 * allowed in batches, its compare address audited like any read - in a
 * user batch through the PPGTT (a GGTT selector cleared, as Gen9 ignores
 * it there), in a privileged batch inside the vGPU's GM; refused in the
 * ring (table) and with a wrong length. A chain back with one on the way
 * is a loop in the copies, at either level. */
#define COND_BBE (MI_CONDITIONAL_BATCH_BUFFER_END | MI_COND_BB_END_COMPARE)

static void ggtt_batch(struct env *e, const uint32_t *dw, uint32_t n)
{
	uint32_t buf[16], i;

	for (i = 0; i < n; i++)
		buf[i] = fix(e, dw[i]);
	fake_hv_guest_write(&e->mw.hv, 1, e->ggtt_batch_gpa, buf, 4 * n);
	bb_start(e, e->ggtt_batch_gm, false);
}

static void test_cond_bb_end_audited(void **state)
{
	struct env *e = *state;
	uint32_t lo = (uint32_t)(BATCH_VA + 0xff8), hi = (uint32_t)(BATCH_VA >> 32);
	uint32_t user[] = { COND_BBE, MI_BATCH_BUFFER_END, lo, hi, MI_BATCH_BUFFER_END };
	uint32_t user_ggtt[] = { COND_BBE | MI_COND_BB_END_GGTT, 0, OTHER, 0,
				 MI_BATCH_BUFFER_END };
	uint32_t user_long[] = { COND_BBE + 1, 0, lo, hi, 0, MI_BATCH_BUFFER_END };
	uint32_t priv_own[] = { COND_BBE | MI_COND_BB_END_GGTT, 0, OWN | 0xff8, 0,
				MI_BATCH_BUFFER_END };
	uint32_t priv_other[] = { COND_BBE | MI_COND_BB_END_GGTT, 0, OTHER, 0,
				  MI_BATCH_BUFFER_END };
	uint32_t priv_host[] = { COND_BBE | MI_COND_BB_END_GGTT, 0, 0x1000, 0,
				 MI_BATCH_BUFFER_END };
	uint64_t cleared = e->v->stats.scan_ggtt_cleared;

	put_batch(e, 0, user, 5);
	bb_start(e, BATCH_VA, true);
	assert_true(run_ring(e));
	put_batch(e, 0, user_ggtt, 5);
	bb_start(e, BATCH_VA, true);
	assert_true(run_ring(e));
	assert_int_equal(e->v->stats.scan_ggtt_cleared, cleared + 1);
	put_batch(e, 0, user_long, 6);
	bb_start(e, BATCH_VA, true);
	assert_false(run_ring(e));
	ggtt_batch(e, priv_own, 5);
	assert_true(run_ring(e));
	ggtt_batch(e, priv_other, 5);
	assert_false(run_ring(e));
	ggtt_batch(e, priv_host, 5);
	assert_false(run_ring(e));
}

/* Loops: a second-level batch looping with an exit is accepted (a loop
 * in its copies); with the compare bit clear the command can never end
 * the batch, and the loop is refused as before (a first-level loop
 * without an exit is watched instead: test_vgpu_busy_loop.c). */
static void test_loops_need_an_exit(void **state)
{
	struct env *e = *state;
	uint64_t va2 = BATCH_VA + 8192;
	uint32_t call2[] = { MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT | MI_BATCH_SECOND_LEVEL,
			     (uint32_t)va2, (uint32_t)(va2 >> 32), MI_BATCH_BUFFER_END };
	uint32_t loop2[] = { MI_ARB_CHECK, COND_BBE, MI_BATCH_BUFFER_END,
			     (uint32_t)(va2 + 0xff8), (uint32_t)(va2 >> 32),
			     MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
			     (uint32_t)va2, (uint32_t)(va2 >> 32) };
	uint32_t no_exit[] = { MI_ARB_CHECK, MI_CONDITIONAL_BATCH_BUFFER_END,
			       MI_BATCH_BUFFER_END, (uint32_t)(va2 + 0xff8),
			       (uint32_t)(va2 >> 32),
			       MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT,
			       (uint32_t)va2, (uint32_t)(va2 >> 32) };
	uint64_t loops = e->v->stats.scan_loops;

	put_batch(e, 0, call2, 4);
	put_batch(e, 2, loop2, 8);
	bb_start(e, BATCH_VA, true);
	assert_true(run_ring(e));
	assert_int_equal(e->v->stats.scan_loops, loops + 1);
	/* Compare Semaphore clear: no way out. At the second level the CPU
	 * cannot end it either (an end there would return into a first-level
	 * copy scanned only up to the call): refused, not watched. */
	put_batch(e, 2, no_exit, 8);
	bb_start(e, BATCH_VA, true);
	assert_false(run_ring(e));
	assert_int_equal(e->v->stats.scan_loops, loops + 1);
	assert_int_equal(e->v->stats.loops_watched, 0);
}


/* gem_wsim's timed batch, as Debian's intel-gpu-tools 1.27 builds it for
 * a Gen9 RCS (tests/igt/programs runs it in linux-i915-bochs): GPRs
 * loaded from the timestamp, MI_MATH, the delta stored, then 8
 * MI_STORE_DATA_INDEX to per-process HWSP offset 2048 "to post the
 * writes", a conditional end on the delta and a jump back. Those 8 are
 * the "privileged no-ops" of that case's report (8 per pass of the body:
 * its first pass and the pass from the jump target that closes the loop
 * in the copies; 130 loops there, 2,080 no-ops): Gen9 turns
 * MI_STORE_DATA_INDEX into MI_NOOP in a non-privileged batch, and
 * gem_wsim only uses them as a delay. Pinned here: exactly those
 * dwords become MI_NOOPs in the copy, nothing else changes, nothing is
 * refused or dropped (docs/i915-command-path.md "Privileged no-ops"). */
#define WSIM_BB_DW 52
#define WSIM_JMP 6   /* dword the loop jumps back to */
#define WSIM_SDI 21  /* first of the 8 MI_STORE_DATA_INDEX */

static void wsim_batch(uint32_t *cs)
{
	uint32_t lo = (uint32_t)BATCH_VA, hi = (uint32_t)(BATCH_VA >> 32);
	uint32_t i = 0, n;

	/* start = CTX timestamp (GPR0), through LRI + LRR (MMIO-remap bits
	 * 19/18 set, ignored on Gen9) */
	cs[i++] = MI_LOAD_REGISTER_IMM(1) | (1u << 19);
	cs[i++] = 0x2604;
	cs[i++] = 0;
	cs[i++] = MI_LOAD_REGISTER_REG | (1u << 19) | (1u << 18);
	cs[i++] = 0x23a8;
	cs[i++] = 0x2600;
	/* WSIM_JMP: now = timestamp (GPR1); delta = ~(now - start) */
	cs[i++] = MI_LOAD_REGISTER_IMM(1) | (1u << 19);
	cs[i++] = 0x260c;
	cs[i++] = 0;
	cs[i++] = MI_LOAD_REGISTER_REG | (1u << 19) | (1u << 18);
	cs[i++] = 0x23a8;
	cs[i++] = 0x2608;
	cs[i++] = MI_INSTR(0x1a, 3); /* MI_MATH, 4 ALU instructions */
	cs[i++] = 0x08008001;        /* LOAD SRCA, R1 */
	cs[i++] = 0x08008400;        /* LOAD SRCB, R0 */
	cs[i++] = 0x10100000;        /* SUB */
	cs[i++] = 0x58000431;        /* STOREINV R1, ACCU */
	cs[i++] = MI_STORE_REGISTER_MEM_GEN8 | (1u << 19);
	cs[i++] = 0x2608;
	cs[i++] = lo + 4000;
	cs[i++] = hi;
	for (n = 0; n < 8; n++) { /* WSIM_SDI */
		cs[i++] = MI_STORE_DATA_INDEX;
		cs[i++] = 2048;
		cs[i++] = 0;
	}
	cs[i++] = MI_CONDITIONAL_BATCH_BUFFER_END | MI_COND_BB_END_COMPARE | 2;
	cs[i++] = 0; /* the duration, filled in by gem_wsim */
	cs[i++] = lo + 4000;
	cs[i++] = hi;
	cs[i++] = MI_BATCH_BUFFER_START_GEN8 | MI_BATCH_PPGTT;
	cs[i++] = lo + 4 * WSIM_JMP;
	cs[i++] = hi;
	assert_int_equal(i, WSIM_BB_DW);
}

static void test_wsim_batch_privileged_noops(void **state)
{
	struct env *e = *state;
	struct vgpu_engine *ve = &e->v->eng[RCS];
	const struct vgpu_stats *s = &e->v->stats;
	struct vgpu_stats b = *s;
	uint32_t bb[WSIM_BB_DW], *copy;
	uint32_t i;

	wsim_batch(bb);
	put_batch(e, 0, bb, WSIM_BB_DW);
	e->mw.gpu.auto_complete = false;
	bb_start(e, BATCH_VA, true);
	gi_submit(&e->g, e->ctx[RCS], -1);
	gi_service(&e->g);
	assert_int_equal(s->workloads_rejected, b.workloads_rejected);
	assert_int_equal(s->scan_priv_nooped - b.scan_priv_nooped, 16);
	assert_int_equal(s->scan_loops - b.scan_loops, 1);
	assert_int_equal(s->scan_regs_neutralized, b.scan_regs_neutralized);
	assert_int_equal(s->scan_ggtt_cleared, b.scan_ggtt_cleared);
	/* the first pass's copy: the 8 indexed stores are MI_NOOPs, every
	 * other dword is the guest's up to the jump (patched to a copy) */
	copy = (uint32_t *)vgpu_sbb_va(e->v, ve->wl[ve->wl_head].sbb_first);
	for (i = 0; i < WSIM_BB_DW - 3; i++)
		if (i >= WSIM_SDI && i < WSIM_SDI + 24)
			assert_int_equal(copy[i], MI_NOOP);
		else
			assert_int_equal(copy[i], bb[i]);
	fake_gpu_complete(&e->mw.gpu, RCS);
	assert_int_equal(gi_wait_idle(&e->g, RCS, 10), 0);
	e->mw.gpu.auto_complete = true;
	/* The same stores from i915's own (privileged) batch are refused,
	 * as GVT refuses them: they would write the shadow context's page. */
	ggtt_batch(e, bb + WSIM_SDI, 3);
	assert_false(run_ring(e));
}

/* MI_DISPLAY_FLIP (issue 29, docs/display.md "Flips from the ring"):
 * from the ring or a privileged batch it is performed on the vGPU's
 * pipe A as a PLANE_SURF write would be (latched at the next vblank, with
 * flip-done and PIPE_FLIPCOUNT) and the GPU never runs it (the copy is
 * MI_NOOPs); from a user batch, for another plane, with a surface outside
 * the vGPU's GM or a stereo flip type it is refused and counted. */
#define FLIP(code) (MI_INSTR(0x14, 1) | ((uint32_t)(code) << 8))
#define PLANE1_A 0x70180u
#define P_STRIDE (PLANE1_A + 0x08)
#define P_SIZE (PLANE1_A + 0x10)
#define P_SURF (PLANE1_A + 0x1c)
#define P_SURFLIVE (PLANE1_A + 0x2c)
#define PIPECONF_A 0x70008u
#define FLIPCOUNT_A 0x70044u
#define DE_PIPE_A_IMR 0x44404u
#define DE_PIPE_A_IIR 0x44408u
#define DE_PIPE_A_IER 0x4440cu
#define FLIP_DONE_1 (1u << 3)

static uint32_t mmio_rd(struct env *e, uint32_t off)
{
	return (uint32_t)gi_mmio_read(&e->g, off, 4);
}

static void vblank(struct env *e)
{
	e->mw.hv.now += 17 * 1000 * 1000; /* a 60 Hz frame and then some */
	gvt_poll(e->v->gvt);
}

/* Pipe A on, plane 1: 64x16 XRGB8888, linear, at the vGPU's own page. */
static void plane_on(struct env *e)
{
	e->mw.hv.now_step = 0;
	e->mw.hv.now = 1000000000ull;
	gi_mmio_write(&e->g, PIPECONF_A, 1u << 31, 4);
	gi_mmio_write(&e->g, DE_PIPE_A_IER, FLIP_DONE_1 | 1, 4);
	gi_mmio_write(&e->g, DE_PIPE_A_IMR, ~(FLIP_DONE_1 | 1u), 4);
	gi_mmio_write(&e->g, P_STRIDE, 4, 4);
	gi_mmio_write(&e->g, P_SIZE, (15u << 16) | 63u, 4);
	gi_mmio_write(&e->g, PLANE1_A, 0x84000000u, 4);
	gi_mmio_write(&e->g, P_SURF, e->own_gm, 4);
	vblank(e);
	assert_int_equal(mmio_rd(e, P_SURFLIVE), e->own_gm);
}

static void test_display_flip_from_ring(void **state)
{
	struct env *e = *state;
	struct vgpu_engine *ve = &e->v->eng[RCS];
	const struct vgpu_stats *s = &e->v->stats;
	uint32_t to = e->own_gm + 0x4000; /* inside the vGPU's low GM */
	uint32_t flip[4] = { FLIP(0), 8u << 6, to, MI_NOOP }, *ring;
	uint32_t fc, s_head, i;

	plane_on(e);
	fc = mmio_rd(e, FLIPCOUNT_A);
	gi_mmio_write(&e->g, DE_PIPE_A_IIR, ~0u, 4);
	e->mw.gpu.auto_complete = false;
	gi_ring_emit(&e->g, e->ctx[RCS], flip, 4);
	gi_submit(&e->g, e->ctx[RCS], -1);
	gi_service(&e->g);
	/* What the GPU runs: MI_NOOPs where the flip was. */
	s_head = ve->wl[ve->wl_head].s_head;
	ring = (uint32_t *)(ve->sring.va + s_head);
	assert_true(ve->wl[ve->wl_head].s_len >= 16);
	for (i = 0; i < ve->wl[ve->wl_head].s_len / 4; i++)
		if (ring[i] == FLIP(0) || ring[i] == to)
			fail_msg("the flip's dword %u reaches the GPU", i);
	fake_gpu_complete(&e->mw.gpu, RCS);
	assert_int_equal(gi_wait_idle(&e->g, RCS, 10), 0);
	e->mw.gpu.auto_complete = true;
	assert_int_equal(s->cmd_flips, 1);
	/* Armed: the registers say the new surface and stride, the pipe
	 * still scans the old one until its vblank. */
	assert_int_equal(mmio_rd(e, P_SURF), to);
	assert_int_equal(mmio_rd(e, P_STRIDE), 8);
	assert_int_equal(mmio_rd(e, P_SURFLIVE), e->own_gm);
	vblank(e);
	assert_int_equal(mmio_rd(e, P_SURFLIVE), to);
	assert_int_equal(mmio_rd(e, FLIPCOUNT_A), fc + 1);
	assert_true(mmio_rd(e, DE_PIPE_A_IIR) & FLIP_DONE_1);
	/* The same flip from i915's own (privileged) batch. */
	ggtt_batch(e, (uint32_t[]){ FLIP(0), 4u << 6, OWN, MI_BATCH_BUFFER_END }, 4);
	assert_true(run_ring(e));
	assert_int_equal(s->cmd_flips, 2);
	assert_int_equal(mmio_rd(e, P_SURF), e->own_gm);
	assert_int_equal(s->cmd_flips_refused, 0);
}

static void test_display_flip_refused(void **state)
{
	struct env *e = *state;
	const struct vgpu_stats *s = &e->v->stats;
	uint32_t user[] = { FLIP(0), 4u << 6, 0, MI_BATCH_BUFFER_END };
	static const uint32_t bad[][3] = {
		{ FLIP(1), 4u << 6, OWN },		/* pipe B's plane 1 */
		{ FLIP(4), 4u << 6, OWN },		/* pipe A's plane 2 */
		{ FLIP(3), 4u << 6, OWN },		/* no such plane */
		{ FLIP(0), 4u << 6, OTHER },		/* another vGPU's GM */
		{ FLIP(0), 4u << 6, 0x1000 },		/* the host's GM */
		{ FLIP(0), 4u << 6, OWN | 2 },		/* stereo 3D */
		{ FLIP(0), 0, OWN },			/* stride 0 */
		{ FLIP(0), 8u << 6, OWN | 1 },		/* async, new stride */
	};
	uint64_t r0;
	size_t i;

	plane_on(e);
	user[2] = e->own_gm;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r0 = s->cmd_flips_refused;
		if (submit(e, RCS, bad[i], 3))
			fail_msg("flip %zu accepted", i);
		assert_int_equal(s->cmd_flips_refused, r0 + 1);
		assert_int_equal(mmio_rd(e, P_SURF), e->own_gm);
	}
	/* From a user (PPGTT) batch: refused, not turned into a no-op. */
	r0 = s->cmd_flips_refused;
	put_batch(e, 0, user, 4);
	bb_start(e, BATCH_VA, true);
	assert_false(run_ring(e));
	assert_int_equal(s->cmd_flips_refused, r0 + 1);
	assert_int_equal(s->cmd_flips, 0);
	/* A refused flip in a workload keeps the flips before it from
	 * being performed: nothing of a failed request takes effect. */
	assert_false(submit(e, RCS, (uint32_t[]){ FLIP(0), 4u << 6, e->own_gm + 0x4000,
						  FLIP(0), 4u << 6, OTHER }, 6));
	assert_int_equal(mmio_rd(e, P_SURF), e->own_gm);
	assert_int_equal(s->cmd_flips, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_table, setup, teardown),
		cmocka_unit_test_setup_teardown(test_class_counters, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ppgtt_batches, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_reg_loads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_privileged_batch_copied, setup, teardown),
		cmocka_unit_test(test_refusal_where),
		cmocka_unit_test_setup_teardown(test_refusal_guest_ring_offset, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ring_copy_is_what_runs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cond_bb_end_audited, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loops_need_an_exit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_wsim_batch_privileged_noops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_display_flip_from_ring, setup, teardown),
		cmocka_unit_test_setup_teardown(test_display_flip_refused, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
