/* No register value crosses from one context to another (issue 26 §1),
 * through the real mediator and the software Gen9 model, on RCS, BCS, VCS
 * and VECS.
 *
 * The registers checked are not a hand list: every register a
 * non-privileged (user) batch can write is enumerated from the code that
 * decides it - the command allow-list the scanner applies
 * (cmd_reg_access; a register it refuses in a user batch becomes
 * RING_NOPID), the registers the hardware lets a user batch load
 * (gen9_nonpriv_fixed_reg) and the FORCE_TO_NONPRIV slots a guest may
 * fill (nonpriv_slot_allowed) where the slots reach the hardware (they
 * are switched with the vGPU). Each guest fills its slots so that all of
 * them are reachable, then:
 *
 *   B1 (vGPU B) loads vB(r) into every register r  (MI_LOAD_REGISTER_IMM)
 *   A1 (vGPU A) loads vA(r)
 *   A2 (vGPU A, a new context: restore inhibit) stores them all
 *      (MI_STORE_REGISTER_MEM) - expects the defaults, never vA
 *   A2 loads vA2(r)
 *   B1 stores them - expects vB, its own: neither vA nor vA2
 *   A1 stores them - expects vA: its own, not A2's, not B's; this also
 *      proves the loads took effect, so the other checks can fail.
 *
 * A static check adds the privileged side: every register a guest command
 * may write at all is either in the context image or in the mediator's
 * switch list. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmd_table.h"
#include "gpu/hw/gen9_cmds.h"
#include "gpu/hw/gen9_ctx_image.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define DATA_VA 0x7f0000000000ull
#define BATCH_VA 0x7e0000000000ull
#define BATCH_PAGES 4
#define MAX_REGS 512
#define NR_SLOTS 12
#define VM_A 1
#define VM_B 2

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };

/* ---- what a user batch can write, from the code ---------------------------- */

struct reg_set {
	uint32_t reg[MAX_REGS];
	uint32_t n;
	uint32_t slot[NR_SLOTS]; /* FORCE_TO_NONPRIV values that reach them */
	uint32_t nslots;
};

static uint32_t base_of(int engine)
{
	return gen9_engine_mmio_base((enum gen9_engine_id)engine);
}

static bool slot_covers(uint32_t slot, uint32_t reg)
{
	static const uint32_t range[4] = { 1, 4, 16, 64 };
	uint32_t start = slot & 0x03fffffcu;

	return reg >= start && reg < start + 4 * range[slot & 3];
}

/* A slot value the mediator accepts that reaches reg: the widest range,
 * starting as close below reg as the list allows (covers what follows). */
static bool slot_for(int engine, uint32_t reg, uint32_t *slot)
{
	static const uint32_t range[4] = { 1, 4, 16, 64 };
	int code;
	uint32_t k;

	for (code = 3; code >= 0; code--)
		for (k = 0; k < range[code] && 4 * k <= reg; k++)
			if (nonpriv_slot_allowed(engine, (reg - 4 * k) | (uint32_t)code)) {
				*slot = (reg - 4 * k) | (uint32_t)code;
				return true;
			}
	return false;
}

/* Do a vGPU's FORCE_TO_NONPRIV slots of engine reach the hardware? */
static bool slots_effective(int engine)
{
	return gvt_mmio_is_switched(RING_FORCE_TO_NONPRIV(base_of(engine), 0)) != 0;
}

static bool reached_by_slots(struct reg_set *s, int engine, uint32_t reg)
{
	uint32_t i, v;

	if (!slots_effective(engine))
		return false;
	for (i = 0; i < s->nslots; i++)
		if (slot_covers(s->slot[i], reg))
			return true;
	if (!slot_for(engine, reg, &v))
		return false;
	assert_true(s->nslots < NR_SLOTS);
	s->slot[s->nslots++] = v;
	return true;
}

static void add(struct reg_set *s, uint32_t reg)
{
	assert_true(s->n < MAX_REGS);
	s->reg[s->n++] = reg;
}

static void enumerate(struct reg_set *s, int engine)
{
	uint32_t base = base_of(engine), nopid = RING_NOPID(base), r;

	memset(s, 0, sizeof(*s));
	for (r = 0; r < GEN9_MMIO_SIZE; r += 4) {
		/* What the scanner lets through: the register itself, or
		 * RING_NOPID in its place. */
		bool listed = cmd_reg_access(engine, r) & CMD_REG_W;

		if (!listed && r != nopid)
			continue;
		if (gen9_nonpriv_fixed_reg(base, r) || reached_by_slots(s, engine, r))
			add(s, r);
	}
}

/* ---- the world ------------------------------------------------------------------ */

struct guest {
	struct guest_i915 g;
	struct vgpu *v;
	uint64_t data_gpa, batch_gpa;
};

struct env {
	struct model_world mw;
	struct guest a, b;
	int engine;
	struct reg_set set;
};

static void guest_up(struct env *e, struct guest *q, uint32_t vm)
{
	struct guest_i915 *g = &q->g;
	uint32_t i;

	assert_int_equal(mw_add_vgpu(&e->mw, &small, vm, 16 * MiB, &q->v), 0);
	assert_int_equal(gi_probe(g, &e->mw.hv, q->v, vm, e->mw.gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = &e->mw;
	assert_int_equal(gi_ppgtt_create(g), 0);
	assert_int_equal(gi_engine_init(g, e->engine), 0);
	q->data_gpa = gi_alloc_pages(g, 1);
	gi_ppgtt_map(g, DATA_VA, q->data_gpa, 1);
	q->batch_gpa = gi_alloc_pages(g, BATCH_PAGES);
	gi_ppgtt_map(g, BATCH_VA, q->batch_gpa, BATCH_PAGES);
	/* The slots i915 would fill for its user space, the rest as i915
	 * fills them (RING_NOPID). */
	for (i = 0; i < NR_SLOTS; i++)
		gi_mmio_write(g, RING_FORCE_TO_NONPRIV(base_of(e->engine), i),
			      i < e->set.nslots ? e->set.slot[i]
						: RING_NOPID(base_of(e->engine)), 4);
	assert_int_equal(q->v->stats.nonpriv_refused, 0);
}

static int setup_engine(void **state, int engine)
{
	struct env *e = calloc(1, sizeof(*e));
	struct mw_config c = { .pool_mib = 96, .ram_mib = 40 };

	assert_non_null(e);
	e->engine = engine;
	enumerate(&e->set, engine);
	assert_int_equal(mw_init(&e->mw, &c), 0);
	guest_up(e, &e->a, VM_A);
	guest_up(e, &e->b, VM_B);
	*state = e;
	return 0;
}

static int setup_rcs(void **state) { return setup_engine(state, GEN9_RCS0); }
static int setup_bcs(void **state) { return setup_engine(state, GEN9_BCS0); }
static int setup_vcs(void **state) { return setup_engine(state, GEN9_VCS0); }
static int setup_vecs(void **state) { return setup_engine(state, GEN9_VECS0); }

static int teardown(void **state)
{
	struct env *e = *state;

	mw_stop(&e->mw);
	mw_fini(&e->mw);
	free(e);
	return 0;
}

/* ---- user batches ------------------------------------------------------------- */

/* Run a user (PPGTT, non-privileged) batch of n dwords in context ctx. */
static void run_user_batch(struct env *e, struct guest *q, int ctx,
			   const uint32_t *bb, uint32_t n)
{
	struct guest_i915 *g = &q->g;
	uint32_t done = g->eng[e->engine].completes;
	int polls = 0;

	assert_true(4ull * n <= BATCH_PAGES * 4096ull);
	fake_hv_guest_write(&e->mw.hv, g->vm, q->batch_gpa, bb, 4ull * n);
	gi_emit_bb_start(g, ctx, BATCH_VA, true);
	gi_submit(g, ctx, -1);
	while ((g->eng[e->engine].completes == done || g->eng[e->engine].active) &&
	       polls++ < 200)
		gi_service(g);
	assert_true(g->eng[e->engine].completes > done);
	assert_false(g->eng[e->engine].active);
	assert_int_equal(q->v->stats.workloads_rejected, 0);
	assert_false(vgpu_failed(q->v));
}

static void load_all(struct env *e, struct guest *q, int ctx, uint32_t tag)
{
	static uint32_t bb[3 * MAX_REGS + 2];
	uint32_t i, n = 0;

	for (i = 0; i < e->set.n; i++) {
		bb[n++] = MI_LOAD_REGISTER_IMM(1);
		bb[n++] = e->set.reg[i];
		bb[n++] = tag | e->set.reg[i];
	}
	bb[n++] = MI_BATCH_BUFFER_END;
	bb[n++] = MI_NOOP;
	run_user_batch(e, q, ctx, bb, n);
}

static void store_all(struct env *e, struct guest *q, int ctx)
{
	static uint32_t bb[4 * MAX_REGS + 2];
	uint32_t i, n = 0;
	uint64_t va;

	for (i = 0; i < e->set.n; i++) {
		va = DATA_VA + 4ull * i;
		bb[n++] = MI_STORE_REGISTER_MEM_GEN8;
		bb[n++] = e->set.reg[i];
		bb[n++] = (uint32_t)va;
		bb[n++] = (uint32_t)(va >> 32);
		/* poison, so a store that did not happen shows */
		gi_write32(&q->g, q->data_gpa + 4ull * i, 0xdeadbeefu);
	}
	bb[n++] = MI_BATCH_BUFFER_END;
	bb[n++] = MI_NOOP;
	run_user_batch(e, q, ctx, bb, n);
}

/* What ctx reads must be its own: tag | reg (tag 0: the default, 0). */
static void expect_all(struct env *e, struct guest *q, uint32_t tag,
		       const char *who)
{
	uint32_t i, bad = 0;

	for (i = 0; i < e->set.n; i++) {
		uint32_t got = gi_read32(&q->g, q->data_gpa + 4ull * i);
		uint32_t want = tag ? tag | e->set.reg[i] : 0;

		if (got != want && bad++ < 8)
			fprintf(stderr, "%s: %s register 0x%05x = 0x%08x, expected 0x%08x\n",
				gen9_engine_name((enum gen9_engine_id)e->engine), who,
				e->set.reg[i], got, want);
	}
	if (bad)
		fprintf(stderr, "%s: %s: %u of %u registers not its own\n",
			gen9_engine_name((enum gen9_engine_id)e->engine), who, bad,
			e->set.n);
	assert_int_equal(bad, 0);
}

/* i915 after a context's first run: its image is saved, restore it. */
static void allow_restore(struct guest *q, int ctx)
{
	gi_write32(&q->g, q->g.ctx[ctx].lrca_gpa + LRC_STATE_OFFSET +
				  CTX_CONTEXT_CONTROL * 4,
		   _MASKED_BIT_ENABLE(CTX_CTRL_INHIBIT_SYN_CTX_SWITCH) |
			   _MASKED_BIT_DISABLE(CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT |
					       CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT |
					       CTX_CTRL_RS_CTX_ENABLE));
}

#define TAG_A1 0xa1000000u
#define TAG_A2 0xa2000000u
#define TAG_B1 0xb1000000u

static void test_no_register_crosses(void **state)
{
	struct env *e = *state;
	int a1, a2, b1;

	fprintf(stderr, "%s: %u registers a user batch can write, %u slots\n",
		gen9_engine_name((enum gen9_engine_id)e->engine), e->set.n,
		e->set.nslots);
	/* at least the 16 64-bit CS GPRs, on every engine */
	assert_true(e->set.n >= 32);
	a1 = gi_ctx_create(&e->a.g, e->engine);
	a2 = gi_ctx_create(&e->a.g, e->engine);
	b1 = gi_ctx_create(&e->b.g, e->engine);
	assert_true(a1 >= 0 && a2 >= 0 && b1 >= 0);

	load_all(e, &e->b, b1, TAG_B1);
	allow_restore(&e->b, b1);
	load_all(e, &e->a, a1, TAG_A1);
	allow_restore(&e->a, a1);
	/* (b) a new context of the same guest starts from the defaults */
	store_all(e, &e->a, a2);
	expect_all(e, &e->a, 0, "new context A2 after A1");
	load_all(e, &e->a, a2, TAG_A2);
	/* (a) the other vGPU's context sees its own values */
	store_all(e, &e->b, b1);
	expect_all(e, &e->b, TAG_B1, "vGPU B's B1 after vGPU A's A2");
	/* (b) and A1 its own: not A2's, not B1's */
	store_all(e, &e->a, a1);
	expect_all(e, &e->a, TAG_A1, "A1 after B1 and A2");
}

/* Every register a guest command may write - in its kernel ring too - is
 * saved per context (the image) or per vGPU (the switch list); so is the
 * register the scanner writes in place of a refused one. */
static void test_writable_is_switched(void **state)
{
	uint32_t r, bad = 0;
	int id;

	(void)state;
	assert_true(gen9_rcs_render_state_dwords() <= GEN9_CTX_RENDER_STATE_MAX);
	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		if (id == GEN9_VCS1)
			continue; /* GT3/GT4 only */
		for (r = 0; r < GEN9_MMIO_SIZE; r += 4) {
			bool w = cmd_reg_access(id, r) & CMD_REG_W;

			if (r == RING_NOPID(base_of(id)) && slots_effective(id))
				w = true;
			if (!w || gen9_ctx_image_holds(id, r) || gvt_mmio_is_switched(r))
				continue;
			if (bad++ < 16)
				fprintf(stderr, "%s: register 0x%05x writable by the guest's "
					"commands, neither in the context image nor switched\n",
					gen9_engine_name((enum gen9_engine_id)id), r);
		}
	}
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_writable_is_switched),
		cmocka_unit_test_setup_teardown(test_no_register_crosses, setup_rcs, teardown),
		cmocka_unit_test_setup_teardown(test_no_register_crosses, setup_bcs, teardown),
		cmocka_unit_test_setup_teardown(test_no_register_crosses, setup_vcs, teardown),
		cmocka_unit_test_setup_teardown(test_no_register_crosses, setup_vecs, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
