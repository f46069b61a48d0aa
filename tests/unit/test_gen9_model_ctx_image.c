/* The Gen9 model's context save and restore (gpu/model/ctx_image.c): a
 * context's registers go to its image at the Gen9 layout's offsets and
 * come back from it; a context whose image is not restored (restore
 * inhibit) starts from the defaults, not from what the previous context
 * left; save inhibit leaves the image alone; lite restore keeps what is
 * loaded. On every engine for the GPRs, on RCS for the render state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "gpu/hw/gen9_ctx_image.h"
#include "tests/harness/model_harness.h"

static struct harness H;

static const enum gen9_engine_id engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0,
					       GEN9_VECS0 };
#define NR_ENG (sizeof(engines) / sizeof(engines[0]))
#define PRED_SRC0 0x2400 /* MI_PREDICATE_SRC0, RCS render state */
#define GPR_DW(n) (CTX_LRI_HEADER_3 + 2 + 2 * (11 + (n))) /* blk3: GPRs at 11 */

static int setup(void **state)
{
	(void)state;
	return h_init(&H, NULL);
}

static int teardown(void **state)
{
	(void)state;
	h_fini(&H);
	return 0;
}

static uint32_t *state_page(const struct h_ctx *c)
{
	return h_gptr(&H, c->lrca + LRC_STATE_OFFSET);
}

/* Index of reg in the RCS render state the model keeps after the state page. */
static uint32_t *render_slot(const struct h_ctx *c, uint32_t reg)
{
	uint32_t *rs = h_gptr(&H, c->lrca + GEN9_CTX_RENDER_STATE_OFFSET);
	uint32_t k, i = 0;

	for (k = 0; k < GEN9_RCS_RENDER_SPANS; k++) {
		const struct gen9_reg_span *s = &gen9_rcs_render_state[k];

		if (reg >= s->first && reg <= s->last)
			return rs + i + (reg - s->first) / 4;
		i += (s->last - s->first) / 4 + 1;
	}
	fail();
	return NULL;
}

static void set_restore(struct h_ctx *c, bool restore)
{
	state_page(c)[CTX_CONTEXT_CONTROL] =
		_MASKED_BIT_ENABLE(CTX_CTRL_INHIBIT_SYN_CTX_SWITCH) |
		(restore ? _MASKED_BIT_DISABLE(CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT)
			 : _MASKED_BIT_ENABLE(CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT));
}

static void lri(struct h_ctx *c, uint32_t reg, uint32_t val)
{
	uint32_t cmd[] = { MI_LOAD_REGISTER_IMM(1), reg, val, MI_NOOP };

	h_emitn(&H, c, cmd, 4);
}

static void submit(struct h_ctx *c)
{
	h_emit(&H, c, MI_NOOP);
	h_ctx_commit(&H, c);
	h_elsp(&H, c->engine, h_desc(c), 0);
	h_run(&H, 2);
	assert_false(H.m.engine[c->engine].hung);
	assert_false(H.m.engine[c->engine].active);
}

/* A writes its GPRs (and on RCS a predicate register): they land in its
 * image at the layout's dwords. B, restored from an image that holds its
 * own values, sees those; C, restore inhibited, sees 0 - never A's. */
static void test_save_restore_inhibit(void **state)
{
	size_t k;
	int n;

	(void)state;
	for (k = 0; k < NR_ENG; k++) {
		enum gen9_engine_id id = engines[k];
		uint32_t base = gen9_engine_mmio_base(id);
		struct h_ctx a, b, c;

		h_engine_start(&H, id);
		h_ctx_create(&H, &a, id, 0, 1);
		h_ctx_create(&H, &b, id, 0, 2);
		h_ctx_create(&H, &c, id, 0, 3);
		for (n = 0; n < 32; n++)
			lri(&a, base + 0x600 + 4 * n, 0xa0000000u | (uint32_t)n);
		if (id == GEN9_RCS0)
			lri(&a, PRED_SRC0, 0xa0002400u);
		submit(&a);
		for (n = 0; n < 32; n++)
			assert_int_equal(state_page(&a)[GPR_DW(n)], 0xa0000000u | (uint32_t)n);
		if (id == GEN9_RCS0)
			assert_int_equal(*render_slot(&a, PRED_SRC0), 0xa0002400u);

		set_restore(&b, true);
		state_page(&b)[GPR_DW(3)] = 0xb0000003u;
		if (id == GEN9_RCS0)
			*render_slot(&b, PRED_SRC0) = 0xb0002400u;
		submit(&b);
		assert_int_equal(h_rd(&H, base + 0x600 + 12), 0xb0000003u);
		assert_int_equal(h_rd(&H, base + 0x600), 0);
		if (id == GEN9_RCS0)
			assert_int_equal(h_rd(&H, PRED_SRC0), 0xb0002400u);

		/* A's values are back in the engine, then C comes. */
		set_restore(&a, true);
		submit(&a);
		assert_int_equal(h_rd(&H, base + 0x600), 0xa0000000u);
		set_restore(&c, false);
		submit(&c);
		for (n = 0; n < 32; n++)
			assert_int_equal(h_rd(&H, base + 0x600 + 4 * n), 0);
		if (id == GEN9_RCS0)
			assert_int_equal(h_rd(&H, PRED_SRC0), 0);
	}
}

/* Save inhibit: the image keeps what it had. */
static void test_save_inhibit(void **state)
{
	uint32_t base = RENDER_RING_BASE;
	struct h_ctx a;

	(void)state;
	h_engine_start(&H, GEN9_RCS0);
	h_ctx_create(&H, &a, GEN9_RCS0, 0, 1);
	state_page(&a)[CTX_CONTEXT_CONTROL] =
		_MASKED_BIT_ENABLE(CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT);
	state_page(&a)[GPR_DW(0)] = 0x1234;
	lri(&a, base + 0x600, 0x5678);
	submit(&a);
	assert_int_equal(h_rd(&H, base + 0x600), 0x5678);
	assert_int_equal(state_page(&a)[GPR_DW(0)], 0x1234);
}

/* Lite restore (same context resubmitted while it runs): only the tail is
 * read again; registers the context loaded stay, whatever its image says. */
static void test_lite_restore_keeps_loaded(void **state)
{
	uint32_t base = RENDER_RING_BASE;
	struct gen9_model_engine *e = &H.m.engine[GEN9_RCS0];
	struct h_ctx a;

	(void)state;
	h_engine_start(&H, GEN9_RCS0);
	h_ctx_create(&H, &a, GEN9_RCS0, 0, 1);
	set_restore(&a, true);
	state_page(&a)[GPR_DW(0)] = 0x1111;
	h_emit(&H, &a, MI_NOOP);
	h_ctx_commit(&H, &a);
	/* stop the ring so the context stays loaded and active */
	h_wr(&H, RING_MI_MODE(base), _MASKED_BIT_ENABLE(STOP_RING));
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	assert_true(e->active);
	assert_int_equal(h_rd(&H, base + 0x600), 0x1111);
	state_page(&a)[GPR_DW(0)] = 0x2222; /* the image changes meanwhile */
	h_wr(&H, base + 0x600, 0x3333); /* and so does what is loaded */
	lri(&a, base + 0x604, 0x4444);
	h_ctx_commit(&H, &a);
	h_elsp(&H, GEN9_RCS0, h_desc(&a), 0);
	assert_int_equal(e->stats.lite_restores, 1);
	h_wr(&H, RING_MI_MODE(base), _MASKED_BIT_DISABLE(STOP_RING));
	h_run(&H, 2);
	assert_false(e->active);
	/* the loaded 0x3333 stayed; the image's 0x2222 was never loaded */
	assert_int_equal(h_rd(&H, base + 0x600), 0x3333);
	assert_int_equal(h_rd(&H, base + 0x604), 0x4444);
	assert_int_equal(state_page(&a)[GPR_DW(0)], 0x3333);
	assert_int_equal(state_page(&a)[GPR_DW(0) + 2], 0x4444);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_save_restore_inhibit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_save_inhibit, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lite_restore_keeps_loaded, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
