/* See i915_world.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>

#include "tests/harness/i915_world.h"

#define MiB (1ull << 20)

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };
static const int engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VECS0 };

void iw_world_init(struct model_world *mw, uint32_t pool_mib, uint32_t ram_mib)
{
	struct mw_config c = { .pool_mib = pool_mib, .ram_mib = ram_mib };

	assert_int_equal(mw_init(mw, &c), 0);
}

void iw_world_fini(struct model_world *mw)
{
	mw_stop(mw);
	assert_int_equal(mw->hv.pages_in_use, 0);
	mw_fini(mw);
}

void iw_guest_up(struct model_world *mw, struct iw_guest *q, uint32_t vm)
{
	struct guest_i915 *g = &q->g;
	size_t i;

	q->vm = vm;
	assert_int_equal(mw_add_vgpu(mw, &small, vm, 16 * MiB, &q->v), 0);
	assert_int_equal(gi_probe(g, &mw->hv, q->v, vm, mw->gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = mw;
	assert_int_equal(gi_ppgtt_create(g), 0);
	for (i = 0; i < sizeof(engines) / sizeof(engines[0]); i++) {
		assert_int_equal(gi_engine_init(g, engines[i]), 0);
		q->ctx[engines[i]] = gi_ctx_create(g, engines[i]);
		assert_true(q->ctx[engines[i]] >= 0);
	}
	q->tl_gpa = gi_alloc_pages(g, 1);
	q->tl_gm = gi_gm_alloc(g, 4096, false);
	gi_ggtt_bind(g, q->tl_gm, q->tl_gpa, 1);
}

uint64_t iw_map(struct iw_guest *q, uint64_t va, uint32_t pages)
{
	uint64_t gpa = gi_alloc_pages(&q->g, pages);

	gi_ppgtt_map(&q->g, va, gpa, pages);
	return gpa;
}

void *iw_state_new(size_t size, uint32_t pool_mib, uint32_t ram_mib)
{
	void *s = calloc(1, size);

	assert_non_null(s);
	iw_world_init(s, pool_mib, ram_mib); /* its first member */
	return s;
}

int iw_teardown(void **state)
{
	iw_world_fini(*state);
	free(*state);
	return 0;
}

uint32_t iw_slot(int engine)
{
	return (uint32_t)engine * 64;
}

uint32_t iw_seqno_now(struct iw_guest *q, int engine)
{
	return gi_read32(&q->g, q->tl_gpa + iw_slot(engine));
}

void iw_emit_flush(struct i915_cs *cs, int engine, unsigned int mode)
{
	if (engine == GEN9_RCS0)
		i915_gen8_emit_flush_rcs(cs, mode);
	else
		i915_gen8_emit_flush_xcs(cs, mode, engine);
}

static void emit_fini(struct i915_cs *cs, int engine, uint32_t hwsp,
		      uint32_t seqno)
{
	if (engine == GEN9_RCS0)
		i915_gen8_emit_fini_breadcrumb_rcs(cs, hwsp, seqno);
	else
		i915_gen8_emit_fini_breadcrumb_xcs(cs, hwsp, seqno);
}

void iw_emit_fini(struct iw_guest *q, struct i915_cs *cs, int engine)
{
	emit_fini(cs, engine, q->tl_gm + iw_slot(engine), q->seqno[engine]);
}

void iw_emit_request_at(struct i915_cs *cs, int engine, uint32_t hwsp,
			uint32_t seqno, uint64_t batch_va)
{
	iw_emit_flush(cs, engine, I915_EMIT_INVALIDATE);
	i915_gen8_emit_init_breadcrumb(cs, hwsp, seqno);
	i915_gen8_emit_bb_start_noarb(cs, batch_va, 0);
	emit_fini(cs, engine, hwsp, seqno);
}

void iw_emit_request(struct iw_guest *q, struct i915_cs *cs, int engine,
		     uint64_t batch_va)
{
	iw_emit_request_at(cs, engine, q->tl_gm + iw_slot(engine),
			   q->seqno[engine], batch_va);
}

void iw_submit(struct iw_guest *q, int engine, uint64_t batch_va)
{
	struct i915_cs cs;

	q->seqno[engine]++;
	i915_cs_reset(&cs);
	iw_emit_request(q, &cs, engine, batch_va);
	gi_ring_emit(&q->g, q->ctx[engine], cs.dw, cs.n);
	gi_submit(&q->g, q->ctx[engine], -1);
}
