/* vGPU creation, GM partitioning and limits, PCI config space, PVINFO as
 * i915 reads it, the register table and its fixed behaviours. Against
 * the fake gpu_hw (tests/world/fake_gpu_hw.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

#define MiB (1ull << 20)

struct env {
	struct model_world mw;
};

static struct env *env_new(uint32_t aperture_mib)
{
	struct env *e = calloc(1, sizeof(*e));
	struct mw_config c = { .pool_mib = 96, .ram_mib = 64, .fake_gpu = true,
			       .aperture_mib = aperture_mib };

	assert_non_null(e);
	assert_int_equal(mw_init(&e->mw, &c), 0);
	return e;
}

static void env_free(struct env *e)
{
	mw_stop(&e->mw);
	assert_int_equal(e->mw.hv.pages_in_use, 0); /* nothing leaked */
	mw_fini(&e->mw);
	free(e);
}

/* ---- partitioning -------------------------------------------------------- */

/* The documented limit: 4 GiB GGTT, 256 MiB aperture, host 128/384 MiB
 * and 4 fences, type 64 MiB low / 384 MiB high / 4 fences -> 2 vGPUs,
 * bound by the aperture (vgpu_create.c). */
static void test_max_vgpus_256m_aperture(void **state)
{
	struct env *e = env_new(256);
	struct vgpu *v[3];
	const char *why;
	uint64_t used;

	(void)state;
	assert_int_equal(gvt_room_for(e->mw.gvt, &vgpu_type_v5_8, &why), 2);
	assert_string_equal(why, "low-gm");
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &v[0]), 0);
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 2, &v[1]), 0);
	used = e->mw.hv.pages_in_use;
	/* The third fails cleanly: error, nothing allocated or reserved. */
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 3, &v[2]), -GPU_ENOSPC);
	assert_int_equal(e->mw.hv.pages_in_use, used);
	assert_int_equal(gvt_room_for(e->mw.gvt, &vgpu_type_v5_8, NULL), 0);
	assert_int_equal(e->mw.gvt->nr_vgpus, 2);
	/* The scheduler's set of ids (vgpu_sched.c walks only these). */
	assert_int_equal(e->mw.gvt->vgpu_ids, 0x3);
	/* A bigger type does not fit either. */
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_4, 3, &v[2]), -GPU_ENOSPC);
	/* Destroying one makes room for exactly one again. */
	vgpu_destroy(v[1]);
	assert_int_equal(e->mw.gvt->vgpu_ids, 0x1);
	assert_int_equal(gvt_room_for(e->mw.gvt, &vgpu_type_v5_8, NULL), 1);
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 3, &v[2]), 0);
	assert_int_equal(v[2]->id, 2);
	assert_int_equal(e->mw.gvt->vgpu_ids, 0x3);
	vgpu_destroy(v[0]);
	assert_int_equal(e->mw.gvt->vgpu_ids, 0x2);
	env_free(e);
}

static void test_room_other_apertures(void **state)
{
	struct env *e;
	const char *why;

	(void)state;
	e = env_new(512);
	assert_int_equal(gvt_room_for(e->mw.gvt, &vgpu_type_v5_8, &why), 6);
	assert_string_equal(why, "low-gm");
	env_free(e);
	e = env_new(1024);
	/* min(14 low, 7 high, 7 fences): high GM and fences tie at 7 */
	assert_int_equal(gvt_room_for(e->mw.gvt, &vgpu_type_v5_8, &why), 7);
	env_free(e);
}

static void test_slices_disjoint_and_host_first(void **state)
{
	struct env *e = env_new(512);
	struct vgpu *a, *b;
	uint64_t lb[2], ls[2], hb[2], hs[2];

	(void)state;
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &a), 0);
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 2, &b), 0);
	vgpu_gm_ranges(a, &lb[0], &ls[0], &hb[0], &hs[0]);
	vgpu_gm_ranges(b, &lb[1], &ls[1], &hb[1], &hs[1]);
	assert_true(lb[0] >= 128 * MiB && lb[1] >= 128 * MiB);
	assert_true(lb[0] + ls[0] <= lb[1] || lb[1] + ls[1] <= lb[0]);
	assert_true(lb[0] + ls[0] <= 512 * MiB && lb[1] + ls[1] <= 512 * MiB);
	assert_true(hb[0] >= (512 + 384) * MiB && hb[1] >= (512 + 384) * MiB);
	assert_true(hb[0] + hs[0] <= hb[1] || hb[1] + hs[1] <= hb[0]);
	assert_true(a->fence_base >= 4 && b->fence_base >= 4);
	assert_int_not_equal(a->fence_base, b->fence_base);
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &b), -GPU_EEXIST);
	env_free(e);
}

static void test_create_alloc_failure_unwinds(void **state)
{
	struct env *e = env_new(256);
	struct vgpu *v;
	long n;

	(void)state;
	/* Fail the n-th page allocation for every n until creation works:
	 * each failure must leave nothing behind. */
	for (n = 0; n < 4000; n++) {
		uint64_t before = e->mw.hv.pages_in_use;
		int ret;

		e->mw.hv.fail_alloc_after = n;
		ret = vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &v);
		e->mw.hv.fail_alloc_after = -1;
		if (!ret)
			break;
		assert_int_equal(ret, -GPU_ENOMEM);
		assert_int_equal(e->mw.hv.pages_in_use, before);
		assert_int_equal(e->mw.gvt->vgpu_ids, 0);
		assert_int_equal(gvt_room_for(e->mw.gvt, &vgpu_type_v5_8, NULL), 2);
		n += n / 8; /* enough coverage, fewer iterations */
	}
	assert_true(n < 4000);
	env_free(e);
}

/* ---- PCI config space ----------------------------------------------------- */

static uint32_t cfg(struct vgpu *v, uint32_t off, unsigned int size)
{
	uint32_t val;

	assert_int_equal(vgpu_cfg_read(v, off, &val, size), 0);
	return val;
}

static void test_cfg_space(void **state)
{
	struct env *e = env_new(256);
	struct vgpu *v;
	uint32_t p;

	(void)state;
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &v), 0);
	assert_int_equal(cfg(v, 0, 2), 0x8086);
	assert_int_equal(cfg(v, 2, 2), 0x1912);
	assert_int_equal(cfg(v, 8, 1), 7);
	assert_int_equal(cfg(v, 0x0a, 2), 0x0300);
	assert_int_equal(cfg(v, 4, 2), 0); /* io/mem/master off */
	/* GGC: GTT size kept (GGMS = 3), no stolen memory. */
	assert_int_equal(cfg(v, 0x50, 2), 3 << 6);
	assert_int_equal(cfg(v, 0x5c, 4), 0);
	/* BAR sizing: BAR0 16 MiB 64-bit non-prefetchable. */
	vgpu_cfg_write(v, 0x10, 0xffffffff, 4);
	vgpu_cfg_write(v, 0x14, 0xffffffff, 4);
	assert_int_equal(cfg(v, 0x10, 4), 0xff000004);
	assert_int_equal(cfg(v, 0x14, 4), 0xffffffff);
	vgpu_cfg_write(v, 0x10, 0xd0000000, 4);
	vgpu_cfg_write(v, 0x14, 0, 4);
	assert_int_equal(cfg(v, 0x10, 4), 0xd0000004);
	/* BAR2: the aperture, 64-bit prefetchable. */
	vgpu_cfg_write(v, 0x18, 0xffffffff, 4);
	assert_int_equal(cfg(v, 0x18, 4), 0xf000000c);
	vgpu_cfg_write(v, 0x18, 0xe0000000, 4);
	assert_int_equal(cfg(v, 0x18, 4), 0xe000000c);
	/* BAR4: 64 bytes of I/O. */
	vgpu_cfg_write(v, 0x20, 0xffffffff, 4);
	assert_int_equal(cfg(v, 0x20, 4), 0xffffffc1);
	/* No ROM. */
	vgpu_cfg_write(v, 0x30, 0xffffffff, 4);
	assert_int_equal(cfg(v, 0x30, 4), 0);
	/* Capability chain reaches MSI, then PM, then ends. */
	p = cfg(v, 0x34, 1);
	while (p && cfg(v, p, 1) != 0x05)
		p = cfg(v, p + 1, 1);
	assert_int_equal(p, GEN9_PCI_MSI_CAP);
	assert_int_equal(cfg(v, p + 1, 1), GEN9_PCI_PM_CAP);
	assert_int_equal(cfg(v, GEN9_PCI_PM_CAP + 1, 1), 0);
	/* MSI control: only the enable bit sticks (one vector, 32-bit). */
	vgpu_cfg_write(v, GEN9_PCI_MSI_CTRL, 0xffff, 2);
	assert_int_equal(cfg(v, GEN9_PCI_MSI_CTRL, 2), 1);
	/* Read-only ids. */
	vgpu_cfg_write(v, 0, 0x12345678, 4);
	assert_int_equal(cfg(v, 0, 4), 0x19128086);
	/* Enabling memory maps the vGPU's aperture slice (ladder-free). */
	vgpu_cfg_write(v, 4, 0x6, 2);
	assert_int_equal(e->mw.hv.vm[1].maps, 64 * MiB / 4096);
	vgpu_cfg_write(v, 4, 0x0, 2);
	assert_int_equal(e->mw.hv.vm[1].unmaps, 64 * MiB / 4096);
	/* Bad accesses. */
	assert_int_equal(vgpu_cfg_read(v, 0x101, &p, 1), -GPU_EINVAL);
	assert_int_equal(vgpu_cfg_read(v, 0x2, &p, 4), -GPU_EINVAL);
	env_free(e);
}

/* ---- PVINFO ------------------------------------------------------------------ */

static uint64_t rd(struct vgpu *v, uint32_t off, unsigned int size)
{
	uint64_t val;

	assert_int_equal(vgpu_mmio_read(v, off, &val, size), 0);
	return val;
}

static void test_pvinfo_as_i915_reads_it(void **state)
{
	struct env *e = env_new(256);
	struct vgpu *v;
	struct guest_i915 g;

	(void)state;
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &v), 0);
	/* i915 maps only the page and reads: readq magic, readw version. */
	assert_true(rd(v, 0x78000, 8) == 0x4776544776544776ull);
	assert_int_equal(rd(v, 0x78008, 2), 1);
	assert_int_equal(rd(v, 0x7800a, 2), 0);
	assert_int_equal(rd(v, 0x7800c, 4), 1); /* vgt_id */
	assert_int_equal(rd(v, 0x78010, 4) & 0xc, 0xc); /* FULL_PPGTT, HWSP */
	assert_int_equal(rd(v, 0x78010, 4) & 0x10, 0); /* no huge GTT */
	assert_int_equal(rd(v, 0x78050, 4), 4); /* fences */
	assert_int_equal(rd(v, 0x78830, 4), 0xffffffff); /* cursor hot */
	/* Byte reads of the magic assemble the same string. */
	assert_int_equal(rd(v, 0x78000, 1), 'v');
	assert_int_equal(rd(v, 0x78001, 1), 'G');
	assert_int_equal(rd(v, 0x78002, 1), 'T');
	assert_true(v->pv_notified);
	/* The whole i915 probe incl. ballooning validation passes. */
	memset(&g, 0, sizeof(g));
	assert_int_equal(fake_hv_add_vm(&e->mw.hv, 1, 8 * MiB), 0);
	assert_int_equal(gi_probe(&g, &e->mw.hv, v, 1, e->mw.gvt), 0);
	assert_int_equal(g.low_base, v->low_base);
	assert_int_equal(g.low_size, 64 * MiB);
	assert_int_equal(g.high_base, v->high_base);
	assert_int_equal(g.high_size, 384 * MiB);
	assert_true(g.mappable_end == 256 * MiB);
	assert_true(g.ggtt_total == 4096 * MiB);
	/* Guest writes: display_ready is kept, the magic is not. */
	vgpu_mmio_write(v, 0x78804, 1, 4);
	assert_true(v->display_ready);
	vgpu_mmio_write(v, 0x78000, 0, 4);
	assert_true(rd(v, 0x78000, 8) == 0x4776544776544776ull);
	assert_true(v->stats.pvinfo_bad_writes >= 1);
	env_free(e);
}

/* ---- registers -------------------------------------------------------------- */

static void test_mmio_table_sorted(void **state)
{
	struct env *e = env_new(256);
	const struct gvt *gvt = e->mw.gvt;
	size_t n, i;
	const struct mmio_range *t = mmio_table(gvt, &n);

	(void)state;
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		assert_true(t[i].start <= t[i].end);
		assert_int_equal(t[i].start & 3, 0);
		assert_int_equal(t[i].end & 3, 3);
		assert_true(t[i].end < GEN9_MMIO_SIZE);
		if (i)
			assert_true(t[i - 1].end < t[i].start);
	}
	/* The register area's own, and each area's part, joined. */
	assert_non_null(mmio_lookup(gvt, 0x78000));
	assert_string_equal(mmio_lookup(gvt, 0x2230)->name, "rcs");
	assert_string_equal(mmio_lookup(gvt, FENCE_REG_GEN6_LO(3))->name,
			    "fences");
	assert_string_equal(mmio_lookup(gvt, 0x70008)->name, "pipes");
	assert_string_equal(mmio_lookup(gvt, SDEISR)->name, "sde irq");
	assert_null(mmio_lookup(gvt, 0x3000));
	assert_non_null(gvt->regs.window_read);
	assert_non_null(gvt->regs.g2v_ppgtt);
	env_free(e);
}

/* The page-indexed lookup finds, for every dword of BAR0's registers and
 * the dwords past them, the range a walk of the whole table finds (or
 * none), each range's first and last dword included. */
static void test_regs_lookup_matches_walk(void **state)
{
	struct env *e = env_new(256);
	const struct gvt *gvt = e->mw.gvt;
	size_t n, i = 0, hits = 0;
	const struct mmio_range *t = mmio_table(gvt, &n), *want;
	uint32_t off;

	(void)state;
	for (off = 0; off < GEN9_MMIO_SIZE + 0x2000; off += 4) {
		while (i < n && t[i].end < off)
			i++;
		want = i < n && t[i].start <= off ? &t[i] : NULL;
		assert_ptr_equal(mmio_lookup(gvt, off), want);
		hits += want && want->start == off;
	}
	assert_int_equal(hits, n); /* every range's first dword met */
	assert_null(mmio_lookup(gvt, 0xfffffffcu));
	env_free(e);
}

static int win_rd(struct vgpu *v, uint64_t off, uint64_t *val,
		  unsigned int size)
{
	(void)v, (void)off, (void)size;
	*val = 0;
	return 0;
}

static int g2v_none(struct vgpu *v, uint32_t what, uint64_t pdp0)
{
	(void)v, (void)what, (void)pdp0;
	return 0;
}

/* A part that overlaps a range already joined, a window with a read hook
 * and no write hook, or a hook two parts fill: the join is refused (and
 * logged), and what it took is given back. */
static int join_one(struct env *e, const struct mmio_part *a,
		    const struct mmio_part *b)
{
	const struct mmio_part *parts[2] = { a, b };
	struct gvt *g = calloc(1, sizeof(*g));
	int ret;

	assert_non_null(g);
	g->hv = e->mw.gvt->hv;
	ret = gvt_regs_join(g, parts, b ? 2 : 1);
	gvt_regs_fini(g);
	free(g);
	return ret;
}

static void test_regs_join_refuses(void **state)
{
	struct env *e = env_new(256);
	static const struct mmio_range pcode_again[] = {
		{ GEN6_PCODE_MAILBOX, GEN6_PCODE_MAILBOX + 3, MMIO_EMULATED, 0,
		  NULL, NULL, "pcode again" },
	};
	static const struct mmio_range odd[] = {
		{ 0x3002, 0x3005, MMIO_EMULATED, 0, NULL, NULL, "odd" },
	};
	static const struct mmio_range free_slot[] = {
		{ 0x3000, 0x3003, MMIO_EMULATED, 0, NULL, NULL, "free" },
	};
	const struct mmio_part overlap = { "t", pcode_again, 1, NULL, NULL, NULL };
	const struct mmio_part unaligned = { "t", odd, 1, NULL, NULL, NULL };
	const struct mmio_part ok = { "t", free_slot, 1, NULL, NULL, NULL };
	const struct mmio_part half_window = { "t", NULL, 0, win_rd, NULL, NULL };
	const struct mmio_part g2v = { "t", NULL, 0, NULL, NULL, g2v_none };
	uint64_t in_use = e->mw.hv.pages_in_use;

	(void)state;
	assert_int_equal(join_one(e, &ok, NULL), 0);
	assert_int_equal(join_one(e, &overlap, NULL), -GPU_EINVAL);
	assert_int_equal(join_one(e, &unaligned, NULL), -GPU_EINVAL);
	assert_int_equal(join_one(e, &half_window, NULL), -GPU_EINVAL);
	assert_int_equal(join_one(e, &g2v, NULL), 0);
	assert_int_equal(join_one(e, &g2v, &g2v), -GPU_EINVAL);
	assert_int_equal(e->mw.hv.pages_in_use, in_use);
	env_free(e);
}

static void test_mmio_fixed_behaviours(void **state)
{
	struct env *e = env_new(256);
	struct vgpu *v;
	uint32_t hw_fw;

	(void)state;
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &v), 0);
	/* Forcewake: ack mirrors the masked request at once. */
	assert_int_not_equal(rd(v, FORCEWAKE_GT_GEN9, 4), 0xffffffff);
	hw_fw = e->mw.gpu.regs[FORCEWAKE_RENDER_GEN9 / 4];
	vgpu_mmio_write(v, FORCEWAKE_RENDER_GEN9, _MASKED_BIT_ENABLE(1), 4);
	assert_int_equal(rd(v, FORCEWAKE_ACK_RENDER_GEN9, 4), 1);
	vgpu_mmio_write(v, FORCEWAKE_RENDER_GEN9, _MASKED_BIT_DISABLE(1), 4);
	assert_int_equal(rd(v, FORCEWAKE_ACK_RENDER_GEN9, 4), 0);
	vgpu_mmio_write(v, FORCEWAKE_MEDIA_GEN9, _MASKED_BIT_ENABLE(1), 4);
	assert_int_equal(rd(v, FORCEWAKE_ACK_MEDIA_GEN9, 4), 1);
	vgpu_mmio_write(v, FORCEWAKE_GT_GEN9, _MASKED_BIT_ENABLE(1), 4);
	assert_int_equal(rd(v, FORCEWAKE_ACK_GT_GEN9, 4), 1);
	/* Forcewake never reaches the hardware (where the mediator holds
	 * its own reference through pgpu). */
	assert_int_equal(e->mw.gpu.regs[FORCEWAKE_RENDER_GEN9 / 4], hw_fw);
	/* GDRST completes at once. */
	vgpu_mmio_write(v, GEN6_GDRST, GEN6_GRDOM_RENDER, 4);
	assert_int_equal(rd(v, GEN6_GDRST, 4), 0);
	/* Snapshot registers start from the hardware value. */
	assert_int_equal(rd(v, 0xc800, 4), 0x11223344);
	/* Passthrough read-only: reads the hardware, writes dropped. */
	e->mw.gpu.regs[GEN8_FUSE2 / 4] = 0x0a000000;
	assert_int_equal(rd(v, GEN8_FUSE2, 4), 0x0a000000);
	vgpu_mmio_write(v, GEN8_FUSE2, 0, 4);
	assert_int_equal(e->mw.gpu.regs[GEN8_FUSE2 / 4], 0x0a000000);
	assert_true(v->stats.mmio_ro_dropped >= 1);
	/* Unknown registers: read back the last write, counted. */
	vgpu_mmio_write(v, 0x3000, 0xabcd, 4);
	assert_int_equal(rd(v, 0x3000, 4), 0xabcd);
	assert_int_equal(v->stats.mmio_unknown, 2);
	assert_int_equal(e->mw.gpu.regs[0x3000 / 4], 0); /* not on the hardware */
	/* A register an emulated range only stores (DPLL_CTRL1 in the
	 * display range): stored, read back, counted as not modelled. */
	vgpu_mmio_write(v, 0x6c058, 0x1, 4);
	vgpu_mmio_write(v, 0x6c058, 0x3, 4);
	assert_int_equal(rd(v, 0x6c058, 4), 0x3);
	assert_int_equal(v->stats.mmio_store_only, 2);
	assert_string_equal(vgpu_reg_name(0x6c058), "DPLL_CTRL1");
	assert_null(vgpu_reg_name(0x6c054));
	assert_true(vgpu_reg_names_sorted());
	/* Power well: state follows request. */
	vgpu_mmio_write(v, 0x45404, 0x2, 4);
	assert_int_equal(rd(v, 0x45404, 4), 0x3);
	/* PCODE answers ready with GVT's latency values. */
	vgpu_mmio_write(v, GEN6_PCODE_DATA, 0, 4);
	vgpu_mmio_write(v, GEN6_PCODE_MAILBOX, GEN6_PCODE_READY | 6, 4);
	assert_int_equal(rd(v, GEN6_PCODE_MAILBOX, 4) & GEN6_PCODE_READY, 0);
	assert_int_equal(rd(v, GEN6_PCODE_DATA, 4), 0x1e1a1100);
	/* SAGV disable is granted (i915 skl_sagv_disable: 0x21, data 0,
	 * waits for data bit 0). */
	vgpu_mmio_write(v, GEN6_PCODE_DATA, 0, 4);
	vgpu_mmio_write(v, GEN6_PCODE_MAILBOX, GEN6_PCODE_READY | 0x21, 4);
	assert_int_equal(rd(v, GEN6_PCODE_MAILBOX, 4) & 0xff, 0);
	assert_int_equal(rd(v, GEN6_PCODE_DATA, 4), 1);
	/* EDP_PSR_IIR clears on all ones (gen3_assert_iir_is_zero). */
	vgpu_mmio_write(v, 0x64838, 0xffffffff, 4);
	assert_int_equal(rd(v, 0x64838, 4), 0);
	/* DP AUX on port B: no sink, the transaction times out at once;
	 * writing the sticky bits back clears them, other fields stay. */
	vgpu_mmio_write(v, 0x64110, 0xd2f0023f, 4); /* i915's send_ctl */
	assert_int_equal(rd(v, 0x64110, 4) & 0xd2000000, 0x50000000);
	vgpu_mmio_write(v, 0x64110, 0x5000023f, 4);
	assert_int_equal(rd(v, 0x64110, 4), 0x23f);
	assert_int_equal(v->stats.aux_transactions, 1);
	/* GMBUS: i915's EDID read on pin 5 is not acked; SW_CLR_INT resets. */
	vgpu_mmio_write(v, 0xc5100, 5, 4);
	vgpu_mmio_write(v, 0xc5104, 0x460100a1, 4);
	assert_int_equal(rd(v, 0xc5108, 4) & 0xe00, 0xc00); /* HW_RDY|SATOER */
	vgpu_mmio_write(v, 0xc5104, 0x80000000, 4);
	assert_int_equal(rd(v, 0xc5108, 4) & 0xe00, 0);
	assert_int_equal(v->stats.gmbus_naks, 1);
	/* GPIO_CTL of a DDC pin (port B's, GPIOE): both lines read high
	 * (VAL_IN, bits 4 and 12) until the driver drives one low, as
	 * i915's set_clock/set_data do; a write without the mask bits
	 * (i915's get_clock: "reserved" only) changes neither line. */
	assert_int_equal(rd(v, 0xc5020, 4) & 0x1010, 0x1010);
	vgpu_mmio_write(v, 0xc5020, 0x0007, 4); /* clock: out, low */
	assert_int_equal(rd(v, 0xc5020, 4) & 0x1010, 0x1000);
	assert_int_equal(rd(v, 0xc5020, 4) & 0x0505, 0); /* masks read 0 */
	vgpu_mmio_write(v, 0xc5020, 0x0000, 4); /* no mask: no change */
	assert_int_equal(rd(v, 0xc5020, 4) & 0x1010, 0x1000);
	vgpu_mmio_write(v, 0xc5020, 0x0001, 4); /* clock released: high */
	assert_int_equal(rd(v, 0xc5020, 4) & 0x1010, 0x1010);
	vgpu_mmio_write(v, 0xc5020, 0x0700, 4); /* data: out, low */
	assert_int_equal(rd(v, 0xc5020, 4) & 0x1010, 0x0010);
	vgpu_mmio_write(v, 0xc5020, 0x0c00, 4); /* data: value high, still out */
	assert_int_equal(rd(v, 0xc5020, 4) & 0x1010, 0x1010);
	vgpu_mmio_write(v, 0xc5020, 0x2020, 4); /* pull-up disables: stored */
	assert_int_equal(rd(v, 0xc5020, 4) & 0x2020, 0x2020);
	assert_int_equal(rd(v, 0xc501c, 4) & 0x1010, 0x1010); /* other pins */
	/* Misaligned / odd sizes are refused. */
	uint64_t x;
	assert_int_equal(vgpu_mmio_read(v, 0x2002, &x, 4), -GPU_EINVAL);
	assert_int_equal(vgpu_mmio_read(v, 0x2000, &x, 3), -GPU_EINVAL);
	assert_int_equal(vgpu_mmio_write(v, 0x2001, 0, 2), -GPU_EINVAL);
	/* Beyond the registers and the GGTT: reads 0. */
	assert_int_equal(rd(v, 0x300000, 4), 0);
	/* Masked engine register. */
	vgpu_mmio_write(v, RING_MI_MODE(0x2000), _MASKED_BIT_ENABLE(STOP_RING), 4);
	assert_int_equal(rd(v, RING_MI_MODE(0x2000), 4), STOP_RING | MODE_IDLE);
	env_free(e);
}

/* FORCE_TO_NONPRIV takes exactly GVT's list and the engine's own
 * RING_NOPID; anything else leaves the slot as it was, logged once. */
static void test_force_to_nonpriv_gvt_list(void **state)
{
	struct env *e = env_new(256);
	struct vgpu *v;
	uint32_t slot0 = RING_FORCE_TO_NONPRIV(0x2000, 0);
	uint32_t slot1 = RING_FORCE_TO_NONPRIV(0x2000, 1);
	uint32_t bslot = RING_FORCE_TO_NONPRIV(0x22000, 0);

	(void)state;
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &v), 0);
	/* i915's Skylake whitelist: CTX_PREEMPT (GEN9_CTX_PREEMPT_REG), the
	 * chickens, L3SQCREG4, PS_INVOCATION_COUNT read-only (bit 28). */
	vgpu_mmio_write(v, slot0, 0x2248, 4);
	assert_int_equal(rd(v, slot0, 4), 0x2248);
	vgpu_mmio_write(v, slot1, (1u << 28) | 0x2348, 4);
	assert_int_equal(rd(v, slot1, 4), (1u << 28) | 0x2348);
	vgpu_mmio_write(v, slot1, 0xb118, 4);
	assert_int_equal(rd(v, slot1, 4), 0xb118);
	/* The filler for unused slots: the engine's own RING_NOPID only. */
	vgpu_mmio_write(v, slot1, 0x2094, 4);
	assert_int_equal(rd(v, slot1, 4), 0x2094);
	vgpu_mmio_write(v, bslot, 0x22094, 4);
	assert_int_equal(rd(v, bslot, 4), 0x22094);
	assert_int_equal(v->stats.nonpriv_refused, 0);
	/* Refused, slot unchanged: ELSP, RCS's NOPID on BCS, a CS GPR (not on
	 * GVT's list: user batches reach the GPRs without a slot), the
	 * engine's status page register. */
	vgpu_mmio_write(v, slot0, RING_ELSP(0x2000), 4);
	vgpu_mmio_write(v, bslot, 0x2094, 4);
	vgpu_mmio_write(v, slot0, 0x2600, 4);
	vgpu_mmio_write(v, slot0, 0x2080, 4); /* RING_HWS_PGA */
	assert_int_equal(rd(v, slot0, 4), 0x2248);
	assert_int_equal(rd(v, bslot, 4), 0x22094);
	assert_int_equal(v->stats.nonpriv_refused, 4);
	/* 0 clears a slot. */
	vgpu_mmio_write(v, slot0, 0, 4);
	assert_int_equal(rd(v, slot0, 4), 0);
	env_free(e);
}

/* g9hv's counter mark through G2V_NOTIFY: counted (and logged) as a
 * mark, not a failed PPGTT notification. */
static void test_g2v_counter_mark(void **state)
{
	struct env *e = env_new(256);
	struct vgpu *v;

	(void)state;
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &v), 0);
	vgpu_mmio_write(v, VGT_PVINFO_PAGE + PV_G2V_NOTIFY, VGT_G2V_G9HV_MARK | 7, 4);
	vgpu_mmio_write(v, VGT_PVINFO_PAGE + PV_G2V_NOTIFY, VGT_G2V_G9HV_MARK | 8, 4);
	assert_int_equal(v->stats.g2v_marks, 2);
	assert_int_equal(v->stats.ppgtt_errors, 0);
	/* An unknown code is still an error. */
	vgpu_mmio_write(v, VGT_PVINFO_PAGE + PV_G2V_NOTIFY, 0x12340000, 4);
	assert_int_equal(v->stats.g2v_marks, 2);
	assert_int_equal(v->stats.ppgtt_errors, 1);
	env_free(e);
}

static void test_irq_semantics(void **state)
{
	struct env *e = env_new(256);
	uint64_t cfg_reads;
	struct vgpu *v;

	(void)state;
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &v), 0);
	vgpu_cfg_write(v, GEN9_PCI_MSI_ADDR, 0xfee00000, 4);
	vgpu_cfg_write(v, GEN9_PCI_MSI_DATA, 0x41, 2);
	vgpu_cfg_write(v, GEN9_PCI_MSI_CTRL, 1, 2);
	vgpu_mmio_write(v, GEN8_GT_IER(0), 0x01010101, 4);
	vgpu_mmio_write(v, GEN8_GT_IMR(0), ~0x01010101u, 4);
	/* Master off: event latches in IIR, no MSI. */
	vgpu_raise_engine_irq(v, GEN9_RCS0, GT_RENDER_USER_INTERRUPT);
	assert_int_equal(rd(v, GEN8_GT_IIR(0), 4), 1);
	assert_int_equal(e->mw.hv.vm[1].msi_count, 0);
	assert_int_equal(rd(v, GEN8_MASTER_IRQ, 4), GEN8_GT_RCS_IRQ);
	/* Master on with an event pending: one MSI, with the message the
	 * guest programmed; reading it is not a guest config read. */
	cfg_reads = v->stats.cfg_reads;
	vgpu_mmio_write(v, GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL, 4);
	assert_int_equal(e->mw.hv.vm[1].msi_count, 1);
	assert_int_equal(e->mw.hv.vm[1].msi_data, 0x41);
	assert_int_equal(e->mw.hv.vm[1].msi_addr, 0xfee00000);
	assert_int_equal(v->stats.cfg_reads, cfg_reads);
	/* Masked events do not latch. */
	vgpu_raise_engine_irq(v, GEN9_RCS0, GT_RENDER_SYNC_STATUS);
	assert_int_equal(rd(v, GEN8_GT_IIR(0), 4), 1);
	/* BCS sits in the upper half of bank 0. */
	vgpu_raise_engine_irq(v, GEN9_BCS0, GT_CONTEXT_SWITCH_INTERRUPT);
	assert_int_equal(rd(v, GEN8_GT_IIR(0), 4), 0x01000001);
	assert_int_equal(e->mw.hv.vm[1].msi_count, 2);
	/* IIR is write-1-to-clear; the master's bank bit follows. */
	vgpu_mmio_write(v, GEN8_GT_IIR(0), 1, 4);
	assert_int_equal(rd(v, GEN8_GT_IIR(0), 4), 0x01000000);
	vgpu_mmio_write(v, GEN8_GT_IIR(0), 0x01000000, 4);
	assert_int_equal(rd(v, GEN8_MASTER_IRQ, 4), GEN8_MASTER_IRQ_CONTROL);
	/* VECS lands in bank 3 and master bit 6. */
	vgpu_mmio_write(v, GEN8_GT_IER(3), 1, 4);
	vgpu_mmio_write(v, GEN8_GT_IMR(3), ~1u, 4);
	vgpu_raise_engine_irq(v, GEN9_VECS0, GT_RENDER_USER_INTERRUPT);
	assert_int_equal(rd(v, GEN8_MASTER_IRQ, 4) & 0xff, GEN8_GT_VECS_IRQ);
	/* No MSI without MSI enabled. */
	vgpu_cfg_write(v, GEN9_PCI_MSI_CTRL, 0, 2);
	vgpu_raise_engine_irq(v, GEN9_VECS0, GT_RENDER_USER_INTERRUPT);
	assert_int_equal(e->mw.hv.vm[1].msi_count, 3);
	env_free(e);
}

/* The line's evaluation (it stops at the first bank with an enabled
 * event) finds an event in every bank, the last (south display) too:
 * with the master re-enabled over an event pending in one bank only,
 * one MSI, and none once that bank's IIR is acknowledged. */
static void test_irq_line_every_bank(void **state)
{
	static const uint32_t banks[] = { 0x44300, 0x44310, 0x44320, 0x44330,
					  0x44400, 0x44410, 0x44420, 0x44440,
					  0x44460, 0x444e0, SDEISR };
	struct env *e = env_new(256);
	uint64_t msis;
	struct vgpu *v;
	size_t i;

	(void)state;
	assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8, 1, &v), 0);
	vgpu_cfg_write(v, GEN9_PCI_MSI_ADDR, 0xfee00000, 4);
	vgpu_cfg_write(v, GEN9_PCI_MSI_DATA, 0x41, 2);
	vgpu_cfg_write(v, GEN9_PCI_MSI_CTRL, 1, 2);
	for (i = 0; i < sizeof(banks) / sizeof(banks[0]); i++) {
		uint32_t bit = 1u << (i % 2 ? 20 : 3); /* both halves */

		vgpu_mmio_write(v, banks[i] + 0xc, bit, 4); /* IER */
		vgpu_mmio_write(v, banks[i] + 4, ~bit, 4); /* IMR */
		vgpu_mmio_write(v, GEN8_MASTER_IRQ, 0, 4);
		vgpu_raise_display_irq(v, banks[i], bit);
		msis = e->mw.hv.vm[1].msi_count;
		assert_int_not_equal(rd(v, GEN8_MASTER_IRQ, 4), 0);
		vgpu_mmio_write(v, GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL, 4);
		assert_int_equal(e->mw.hv.vm[1].msi_count, msis + 1);
		vgpu_mmio_write(v, banks[i] + 8, bit, 4); /* acknowledge */
		vgpu_mmio_write(v, GEN8_MASTER_IRQ, 0, 4);
		vgpu_mmio_write(v, GEN8_MASTER_IRQ, GEN8_MASTER_IRQ_CONTROL, 4);
		assert_int_equal(e->mw.hv.vm[1].msi_count, msis + 1);
		assert_int_equal(rd(v, GEN8_MASTER_IRQ, 4), GEN8_MASTER_IRQ_CONTROL);
	}
	env_free(e);
}

/* ---- gScale through the hook table (vgpu_ext.h) ------------------------- */

/* Two systems filling the shared-GM entries are refused; gScale listed
 * without its settings, or with them off, makes no state, so GM stays
 * partitioned (the baseline alone, gvt->gm NULL); on, gvt->gm is
 * gScale's and vGPUs are placed by it (overlapping low GM). gScale's
 * settings are its own (gscale_ext.h): the baseline's gvt_params has
 * none. */
static void test_gscale_attached_by_hooks(void **state)
{
	const struct gscale_settings off_set = { .on = false, .slot_mib = 2048 };
	const struct gvt_params twice = {
		.ext = { &gscale_ext_ops, &gscale_ext_ops },
		.ext_params = { &gscale_on, &gscale_on } };
	struct gvt_params none = { .ext = { &gscale_ext_ops } };
	struct gvt_params off = { .ext = { &gscale_ext_ops },
				  .ext_params = { &off_set } };
	struct gvt_params on = { .ext = { &gscale_ext_ops },
				 .ext_params = { &gscale_on } };
	struct gvt_params *ps[3] = { &none, &off, &on };
	struct vgpu *v[2];

	(void)state;
	assert_int_equal(vgpu_ext_check(&twice), -GPU_EINVAL);
	assert_int_equal(vgpu_ext_check(&on), 0);
	for (int i = 0; i < 3; i++) {
		struct env *e = calloc(1, sizeof(*e));
		struct mw_config c = { .pool_mib = 96, .ram_mib = 64,
				       .fake_gpu = true, .params = ps[i] };

		assert_non_null(e);
		assert_int_equal(mw_init(&e->mw, &c), 0);
		assert_true((e->mw.gvt->gm != NULL) == (i == 2));
		assert_true((gvt_gscale(e->mw.gvt) != NULL) == (i == 2));
		for (int k = 0; k < 2; k++)
			assert_int_equal(vgpu_create(e->mw.gvt, &vgpu_type_v5_8,
						     k + 1, &v[k]), 0);
		/* gVirt: disjoint low slices; gScale: shared low GM. */
		assert_true((v[0]->low_base == v[1]->low_base) == (i == 2));
		env_free(e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_max_vgpus_256m_aperture),
		cmocka_unit_test(test_gscale_attached_by_hooks),
		cmocka_unit_test(test_room_other_apertures),
		cmocka_unit_test(test_slices_disjoint_and_host_first),
		cmocka_unit_test(test_create_alloc_failure_unwinds),
		cmocka_unit_test(test_cfg_space),
		cmocka_unit_test(test_pvinfo_as_i915_reads_it),
		cmocka_unit_test(test_mmio_table_sorted),
		cmocka_unit_test(test_regs_lookup_matches_walk),
		cmocka_unit_test(test_regs_join_refuses),
		cmocka_unit_test(test_mmio_fixed_behaviours),
		cmocka_unit_test(test_force_to_nonpriv_gvt_list),
		cmocka_unit_test(test_g2v_counter_mark),
		cmocka_unit_test(test_irq_semantics),
		cmocka_unit_test(test_irq_line_every_bank),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
