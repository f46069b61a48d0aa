/* Host replay of real Mesa and compute runs' batches (issue 28 §4): every
 * user batch iris submitted for guest-shim/gl-frame, ANV for
 * guest-shim/vk-fill and NEO (the OpenCL runtime) for guest-shim/cl-run
 * in Bochs, as the scanner read it there (hv.cfg vgpu_trace=batches,
 * turned into tests/fixtures/iris-frame.cmds, anv-fill.cmds and
 * neo-fill.cmds by
 * tools/vgpu-cmds2fixture), submitted
 * again through the i915-like guest on the fake gpu_hw: each batch's
 * commands are written back at their PPGTT addresses and started from
 * a ring of the test's own. Every batch must be accepted with nothing
 * refused, and the scanner must read exactly the commands Bochs read,
 * class by class (a table change that moves a command boundary changes
 * the counts or refuses). The guest's i915 whitelists its Skylake list
 * in RCS's FORCE_TO_NONPRIV slots first, as the real one did; then the
 * only register loads dropped are those Gen9 drops from a user batch
 * (docs/i915-command-path.md "Registers from user batches"): CACHE_MODE_1
 * and GT_MODE, which iris loads and i915 does not whitelist; CS_CHICKEN1
 * (whitelisted), L3CNTLREG and CS_DEBUG_MODE2 (user registers) go
 * through. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "gpu/vgpu/display/display.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)
#define MAX_PAGES 2048 /* guest pages the batches may occupy */
#define MAX_DW 4096    /* one command (LRI of 2 KiB pairs at most) */

/* i915's Skylake whitelist (gt/intel_workarounds.c gen9_whitelist_build,
 * skl_whitelist_build): CTX_PREEMPT, CS_CHICKEN1, HDC_CHICKEN1,
 * COMMON_SLICE_CHICKEN2, L3SQCREG4, then RING_NOPID in the unused slots. */
static const uint32_t skl_whitelist[] = { 0x2248, 0x2580, 0x7304, 0x7014,
					  0xb118 };
/* What Gen9 drops from Mesa's and NEO's user batches: not whitelisted,
 * not a user register (CACHE_MODE_1, GT_MODE; NEO's DebugControlReg2
 * 0xe404, its thread arbitration policy: docs/opencl.md). */
static const uint32_t dropped[] = { 0x7004, 0x7008, 0xe404 };

static const struct vgpu_type small = { "small", 16 * MiB, 64 * MiB, 2, 1 };

struct env {
	struct model_world mw;
	struct vgpu *v;
	struct guest_i915 g;
	int ctx;
	/* guest pages mapped so far: PPGTT page -> gpa */
	uint64_t va[MAX_PAGES], gpa[MAX_PAGES];
	uint32_t npages;
};

/* What one submission must do, counted from the fixture's headers. */
struct expect {
	uint64_t cmds, mi, d3, media, video, d2, bytes, drops;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct mw_config c = { .pool_mib = 64, .ram_mib = 16, .fake_gpu = true };

	assert_int_equal(mw_init(&e->mw, &c), 0);
	assert_int_equal(mw_add_vgpu(&e->mw, &small, 1, 12 * MiB, &e->v), 0);
	assert_int_equal(gi_probe(&e->g, &e->mw.hv, e->v, 1, e->mw.gvt), 0);
	assert_int_equal(gi_ppgtt_create(&e->g), 0);
	assert_int_equal(gi_engine_init(&e->g, GEN9_RCS0), 0);
	e->ctx = gi_ctx_create_ring(&e->g, GEN9_RCS0, 16384);
	for (uint32_t i = 0; i < 12; i++)
		gi_mmio_write(&e->g, RING_FORCE_TO_NONPRIV(0x2000, i),
			      i < 5 ? skl_whitelist[i] : RING_NOPID(0x2000), 4);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	mw_stop(&e->mw);
	mw_fini(&e->mw);
	free(e);
	return 0;
}

/* The gpa behind PPGTT address va, its page mapped on first use. */
static uint64_t gpa_of(struct env *e, uint64_t va)
{
	uint64_t page = va & ~0xfffull;
	uint32_t i;

	for (i = 0; i < e->npages; i++)
		if (e->va[i] == page)
			return e->gpa[i] | (va & 0xfff);
	assert_true(e->npages < MAX_PAGES);
	e->va[i] = page;
	e->gpa[i] = gi_alloc_pages(&e->g, 1);
	for (uint32_t k = 0; k < 1024; k++)
		gi_write32(&e->g, e->gpa[i] + 4 * k, 0); /* MI_NOOP */
	gi_ppgtt_map(&e->g, page, e->gpa[i], 1);
	e->npages++;
	return e->gpa[i] | (va & 0xfff);
}

/* LRI pairs to a register Gen9 drops from a user batch. */
static uint32_t drops(const uint32_t *dw, uint32_t n)
{
	uint32_t i, k, d = 0;

	if ((dw[0] & 0xff000000u) != 0x11000000u) /* MI_LOAD_REGISTER_IMM */
		return 0;
	for (i = 1; i + 1 < n; i += 2)
		for (k = 0; k < sizeof(dropped) / sizeof(dropped[0]); k++)
			d += (dw[i] & 0x7ffffc) == dropped[k];
	return d;
}

static void count(struct expect *x, uint32_t hdr, uint32_t n)
{
	x->cmds++;
	x->bytes += 4ull * n;
	switch (instr_client(hdr)) {
	case INSTR_MI_CLIENT: x->mi++; break;
	case INSTR_BC_CLIENT: x->d2++; break;
	default:
		if (GFXPIPE_SUBTYPE(hdr) == 2)
			x->media++;
		else
			x->d3++;
	}
}

/* Submit the batch at va (its commands already written); the scanner's
 * counters must move by x plus the ring's own commands. */
static void submit(struct env *e, uint64_t va, const struct expect *x,
		   uint32_t n)
{
	const struct vgpu_stats *s = &e->v->stats;
	struct vgpu_stats before = *s;

	gi_emit_bb_start(&e->g, e->ctx, va, true);
	gi_submit(&e->g, e->ctx, -1);
	gi_service(&e->g);
	assert_int_equal(gi_wait_idle(&e->g, GEN9_RCS0, 10), 0);
	if (s->workloads_rejected != before.workloads_rejected ||
	    s->user_faults != before.user_faults)
		fail_msg("batch %u at %llx refused", n, (unsigned long long)va);
	assert_int_equal(s->scan_regs_neutralized - before.scan_regs_neutralized,
			 x->drops);
	/* the ring: MI_BATCH_BUFFER_START (and the harness's padding) */
	assert_int_equal(s->scan_3d - before.scan_3d, x->d3);
	assert_int_equal(s->scan_media - before.scan_media, x->media);
	assert_int_equal(s->scan_2d - before.scan_2d, x->d2);
	assert_true(s->scan_mi - before.scan_mi >= x->mi);
	assert_true(s->scan_mi - before.scan_mi <= x->mi + 4);
	assert_int_equal(s->batches_scanned - before.batches_scanned >= 1, 1);
}

static void replay(struct env *e, const char *name)
{
	char path[512];
	FILE *fp;
	static char line[65536];
	static uint32_t dw[MAX_DW];
	struct expect x = { 0 }, all = { 0 };
	uint64_t start = 0;
	uint32_t batches = 0;
	bool open = false;

	snprintf(path, sizeof(path), "%s/%s", REPLAY_DIR, name);
	fp = fopen(path, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp)) {
		char *p = line, *end;
		unsigned long long addr;
		uint32_t n = 0;

		if (line[0] == 'S') {
			if (open)
				submit(e, start, &x, batches++);
			memset(&x, 0, sizeof(x));
			/* engine: RCS, the one Mesa renders and copies on */
			assert_int_equal(strtoul(line + 2, &p, 16), GEN9_RCS0);
			start = strtoull(p, NULL, 16);
			open = true;
			continue;
		}
		if (line[0] != 'C')
			continue;
		(void)strtoul(line + 2, &p, 16); /* level */
		addr = strtoull(p, &p, 16);
		while (n < MAX_DW) {
			unsigned long v = strtoul(p, &end, 16);
			if (end == p)
				break;
			dw[n++] = (uint32_t)v;
			p = end;
		}
		assert_true(n > 0);
		for (uint32_t i = 0; i < n; i++)
			gi_write32(&e->g, gpa_of(e, addr + 4ull * i), dw[i]);
		count(&x, dw[0], n);
		count(&all, dw[0], n);
		x.drops += drops(dw, n);
		all.drops += drops(dw, n);
	}
	fclose(fp);
	if (open)
		submit(e, start, &x, batches++);
	print_message("%s: %u batches, %llu commands (%llu bytes): "
		      "mi %llu, 3d %llu, media/gpgpu %llu, 2d %llu; "
		      "register loads dropped %llu\n", name, batches,
		      (unsigned long long)all.cmds, (unsigned long long)all.bytes,
		      (unsigned long long)all.mi, (unsigned long long)all.d3,
		      (unsigned long long)all.media, (unsigned long long)all.d2,
		      (unsigned long long)all.drops);
	assert_true(batches > 0);
	assert_int_equal(e->v->stats.user_faults, 0);
	assert_int_equal(e->v->stats.workloads_rejected, 0);
}

/* iris: guest-shim/gl-frame's GLES frame (context setup, clear, draw,
 * read-back, fence). */
static void test_iris_frame(void **state)
{
	replay(*state, "iris-frame.cmds");
}

/* ANV: guest-shim/vk-fill's device creation and fill+copy submission. */
static void test_anv_fill(void **state)
{
	replay(*state, "anv-fill.cmds");
}

/* NEO (Intel's compute runtime): guest-shim/cl-run's kernel enqueue -
 * PIPELINE_SELECT GPGPU, STATE_BASE_ADDRESS, MEDIA_VFE_STATE,
 * MEDIA_INTERFACE_DESCRIPTOR_LOAD, GPGPU_WALKER, MEDIA_STATE_FLUSH,
 * PIPE_CONTROLs with a post-sync write, LRIs, a chain into a second
 * batch (docs/opencl.md). */
static void test_neo_fill(void **state)
{
	replay(*state, "neo-fill.cmds");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_iris_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(test_anv_fill, setup, teardown),
		cmocka_unit_test_setup_teardown(test_neo_fill, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
