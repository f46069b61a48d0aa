/* The guest DRM client's batches (guest-shim/drm-client/batches.c), the
 * very bytes it hands EXECBUFFER2: decoded with the shared Gen9 command
 * table (lengths, memory operands), then run as non-privileged PPGTT
 * batches through the mediator and the model on RCS, BCS, VCS and VECS,
 * wrapped in i915 6.1's request shape, with the results the client
 * checks. The client itself needs a working i915 in a guest; this is
 * what the host can prove. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_cmd_table.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "guest-shim/drm-client/batches.h"
#include "tests/harness/guest_i915.h"
#include "tests/harness/i915_shapes.h"
#include "tests/harness/i915_world.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define VM 1
/* the client's softpin addresses */
#define VA_BATCH 0x100000ull
#define VA_TARGET 0x200000ull
#define VA_SRC 0x300000ull
#define VA_DST 0x400000ull
#define BO_PAGES 4

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };
static const int engines[] = { GEN9_RCS0, GEN9_BCS0, GEN9_VCS0, GEN9_VECS0 };

/* ---- decoding ----------------------------------------------------------- */

static void test_store_batch_decodes(void **state)
{
	uint32_t b[128];
	size_t n = dc_store_batch(b, 128, 0x1234567000ull, 7), i = 0;
	unsigned int k = 0, e;

	(void)state;
	assert_int_equal(n % 2, 0);
	for (e = 0; e < 4; e++) {
		i = 0;
		k = 0;
		while (b[i] != MI_BATCH_BUFFER_END) {
			struct gen9_mem_ref r;
			uint32_t len = gen9_cmd_length_engine(b[i], engines[e]);

			assert_int_equal(len, 4);
			assert_string_equal(gen9_cmd_name(b[i]), "MI_STORE_DATA_IMM");
			assert_true(gen9_cmd_mem_ref(&b[i], len, engines[e], &r));
			assert_false(r.ggtt); /* PPGTT: user batches */
			assert_true(r.write);
			assert_int_equal(r.size, 4);
			assert_int_equal(r.addr, 0x1234567000ull + 4 * k);
			assert_int_equal(b[i + 3], dc_store_value(7, k));
			i += len;
			k++;
		}
		assert_int_equal(k, DC_STORES);
		assert_int_equal(i + 2, n); /* BB_END + pad NOOP */
	}
	assert_int_equal(b[n - 1], MI_NOOP);
	assert_int_equal(dc_store_batch(b, 10, 0, 0), 0);
}

static void test_blit_batch_decodes(void **state)
{
	uint32_t b[16];
	size_t n = dc_blit_batch(b, 16, VA_DST, VA_SRC);

	(void)state;
	assert_int_equal(n, 12);
	assert_int_equal(instr_client(b[0]), INSTR_BC_CLIENT);
	assert_int_equal(BLT_OPCODE(b[0]), BLT_OP_SRC_COPY);
	assert_int_equal(gen9_cmd_length_engine(b[0], GEN9_BCS0), 10);
	assert_int_equal(b[0] & BLT_WRITE_RGBA, BLT_WRITE_RGBA);
	assert_int_equal(b[1] & BR13_DEPTH_MASK, BR13_32BPP);
	assert_int_equal((b[1] & BR13_ROP_MASK) >> BR13_ROP_SHIFT, ROP_SRCCOPY);
	assert_int_equal(b[1] & BR13_PITCH_MASK, DC_BLIT_PITCH);
	assert_int_equal(b[3], (DC_BLIT_H << 16) | DC_BLIT_W);
	assert_int_equal(b[4], (uint32_t)VA_DST);
	assert_int_equal(b[8], (uint32_t)VA_SRC);
	assert_int_equal(b[10], MI_BATCH_BUFFER_END);
}

/* ---- running -------------------------------------------------------------- */

struct env {
	struct model_world mw;
	struct vgpu *v;
	struct guest_i915 g;
	int ctx[GEN9_NUM_ENGINES];
	uint64_t batch_gpa, target_gpa, src_gpa, dst_gpa, tl_gpa;
	uint32_t tl_gm, seqno;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct mw_config c = { .pool_mib = 64, .ram_mib = 16 };
	struct guest_i915 *g = &e->g;
	size_t i;

	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &small, VM, 16 * MiB, &e->v), 0);
	assert_int_equal(gi_probe(g, &e->mw.hv, e->v, VM, e->mw.gvt), 0);
	g->poll = mw_poll;
	g->poll_arg = &e->mw;
	assert_int_equal(gi_ppgtt_create(g), 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(gi_engine_init(g, engines[i]), 0);
		e->ctx[engines[i]] = gi_ctx_create(g, engines[i]);
	}
	e->batch_gpa = gi_alloc_pages(g, BO_PAGES);
	e->target_gpa = gi_alloc_pages(g, BO_PAGES);
	e->src_gpa = gi_alloc_pages(g, BO_PAGES);
	e->dst_gpa = gi_alloc_pages(g, BO_PAGES);
	gi_ppgtt_map(g, VA_BATCH, e->batch_gpa, BO_PAGES);
	gi_ppgtt_map(g, VA_TARGET, e->target_gpa, BO_PAGES);
	gi_ppgtt_map(g, VA_SRC, e->src_gpa, BO_PAGES);
	gi_ppgtt_map(g, VA_DST, e->dst_gpa, BO_PAGES);
	e->tl_gpa = gi_alloc_pages(g, 1);
	e->tl_gm = gi_gm_alloc(g, 4096, false);
	gi_ggtt_bind(g, e->tl_gm, e->tl_gpa, 1);
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

/* The request i915 builds around the client's execbuf. */
static void submit(struct env *e, int eng)
{
	struct i915_cs cs;

	e->seqno++;
	i915_cs_reset(&cs);
	iw_emit_request_at(&cs, eng, e->tl_gm + iw_slot(eng), e->seqno, VA_BATCH);
	gi_ring_emit(&e->g, e->ctx[eng], cs.dw, cs.n);
	gi_submit(&e->g, e->ctx[eng], -1);
	assert_int_equal(e->v->stats.workloads_rejected, 0);
	assert_int_equal(gi_wait_idle(&e->g, eng, 50), 0);
	assert_false(vgpu_failed(e->v));
	assert_int_equal(gi_read32(&e->g, e->tl_gpa + iw_slot(eng)), e->seqno);
}

static void test_store_batches_run_on_every_engine(void **state)
{
	struct env *e = *state;
	uint32_t b[128], seed;
	size_t k, n;
	unsigned int i;

	for (k = 0; k < 4; k++)
		for (seed = 1; seed <= 3; seed++) {
			uint32_t zero[DC_STORES] = { 0 };

			n = dc_store_batch(b, 128, VA_TARGET, seed + 16 * (uint32_t)k);
			fake_hv_guest_write(&e->mw.hv, VM, e->batch_gpa, b, 4 * n);
			fake_hv_guest_write(&e->mw.hv, VM, e->target_gpa, zero, sizeof(zero));
			submit(e, engines[k]);
			for (i = 0; i < DC_STORES; i++)
				assert_int_equal(gi_read32(&e->g, e->target_gpa + 4 * i),
						 dc_store_value(seed + 16 * (uint32_t)k, i));
		}
}

static void test_blit_batch_copies_pattern(void **state)
{
	struct env *e = *state;
	static uint32_t src[DC_BLIT_W * DC_BLIT_H], zero[DC_BLIT_W * DC_BLIT_H];
	uint32_t b[16], x, y;
	size_t n;

	for (y = 0; y < DC_BLIT_H; y++)
		for (x = 0; x < DC_BLIT_W; x++)
			src[y * DC_BLIT_W + x] = dc_pattern(x, y, 5);
	fake_hv_guest_write(&e->mw.hv, VM, e->src_gpa, src, sizeof(src));
	fake_hv_guest_write(&e->mw.hv, VM, e->dst_gpa, zero, sizeof(zero));
	n = dc_blit_batch(b, 16, VA_DST, VA_SRC);
	fake_hv_guest_write(&e->mw.hv, VM, e->batch_gpa, b, 4 * n);
	submit(e, GEN9_BCS0);
	for (y = 0; y < DC_BLIT_H; y++)
		for (x = 0; x < DC_BLIT_W; x++)
			if (gi_read32(&e->g, e->dst_gpa + 4ull * (y * DC_BLIT_W + x)) !=
			    dc_pattern(x, y, 5))
				fail_msg("pixel (%u,%u) not copied", x, y);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_batch_decodes),
		cmocka_unit_test(test_blit_batch_decodes),
		cmocka_unit_test_setup_teardown(test_store_batches_run_on_every_engine, setup, teardown),
		cmocka_unit_test_setup_teardown(test_blit_batch_copies_pattern, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
