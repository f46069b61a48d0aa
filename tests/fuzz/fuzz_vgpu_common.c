/* Shared by the vGPU fuzz targets (#included, not built on its own): a
 * fake hypervisor, a GPU (the fake one, or with FZ_USE_MODEL the software
 * Gen9 model, which really executes what the mediator submits), a victim
 * vGPU with its own GGTT entries and PPGTT, an attacker vGPU the input
 * drives, and the invariant checked after every input:
 *
 *   no physical GGTT entry and no shadow page-table entry maps a page
 *   outside the owning VM's memory, the victim's entries are exactly what
 *   its guest wrote, and not a byte of the victim VM's memory changes.
 *
 * Any violation abort()s, which libFuzzer reports as a crash. The victim's
 * RAM is read-only for the host once its guest has set it up
 * (fake_hv_protect_ram): a store into it from anywhere - mediator, model,
 * harness - faults right there and ASan reports the SEGV with the storing
 * stack, instead of a 4 MiB comparison after every input finding it later.
 *
 * The checks are FZ_NOCOV: they are not the code under test, and their
 * loops over every GGTT entry, instrumented for comparison tracing, were
 * most of each input's time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/dymgpu/dymgpu.h"
#include "gpu/gscale/gscale_ext.h"
#include "gpu/ghyvi/ghyvi.h"
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "gpu/vgpu/display/display.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tests/world/fake_gpu_hw.h"
#include "tests/world/fake_hv_ops.h"
#include "tests/harness/guest_i915.h"
#ifdef FZ_RESTORE
#include "tests/world/page_track.h"
#endif
#ifdef FZ_USE_MODEL
#include "gpu/model/gen9_model.h"
#endif

#define FZ_MiB (1ull << 20)
#define FZ_NOCOV __attribute__((no_sanitize("coverage")))
#ifndef FZ_RAM
#define FZ_RAM (4 * FZ_MiB)
#endif
#define FZ_VICTIM_PAGES 32

/* The world's size. The targets on the fake GPU run it small: every
 * vGPU create, destroy, gScale switch, slot move and check walks GGTT
 * entries, and with GVT's sizes (4 GiB of GM, 64 MiB slots) that walk was
 * nearly all of an input's time. The layout keeps every part GVT's has -
 * host low GM, guests' low GM with the fence pool at its top, host high GM
 * with the mediator's own GM, guests' high GM in slots - and the attacker
 * still spans two slots and can balloon over more, so no boundary an
 * access can cross is lost; only the counts of entries shrink. The
 * model-backed targets keep the sizes their inputs' addresses were
 * written for (fuzz_vgpu_diff.c). */
#if defined(FZ_USE_MODEL) && !defined(FZ_SMALL_VGPU)
static const struct vgpu_type fz_type = { "fuzz", 8 * FZ_MiB, 32 * FZ_MiB, 2, 1 };
#else /* FZ_SMALL_VGPU: a model-backed target whose inputs name no GM sizes */
static const struct vgpu_type fz_type = { "fuzz", 2 * FZ_MiB, 4 * FZ_MiB, 2, 1 };
#endif
/* FZ_GSCALE: gScale's own settings (gpu/gscale/gscale_ext.h); the small
 * GGTT of the fake-GPU targets wants small slots and pool. */
#ifdef FZ_GSCALE
#ifdef FZ_USE_MODEL
static const struct gscale_settings fz_gscale = { .on = true };
#else
static const struct gscale_settings fz_gscale = { .on = true, .slot_mib = 2,
						  .fence_pool_mib = 8 };
#endif
#endif
#ifdef FZ_USE_MODEL
#define FZ_HOST_LOW_GM (128 * FZ_MiB) /* gvt_create's default */
static const struct gvt_params fz_params = {
#else
#define FZ_APERTURE_MIB 64
#define FZ_GGTT_MIB 256
#define FZ_HOST_LOW_GM (16 * FZ_MiB)
static const struct gvt_params fz_params = {
	.host_low_gm = FZ_HOST_LOW_GM,
	.host_high_gm = 72 * FZ_MiB, /* the mediator's own GM: 65 MiB */
#endif
	/* gHyvi attached (strict unless a target sets a policy), as in
	 * the hypervisor; under gScale DymGPU too (its monitor), as there. */
/* FZ_GSCALE: the mediator in gScale mode, where attacker and victim share
 * GM and the physical GGTT holds whichever vGPU's entries are resident. */
#ifdef FZ_GSCALE
	.ext = { &ghyvi_ext_ops, &dymgpu_ext_ops, &gscale_ext_ops },
	.ext_params = { NULL, NULL, &fz_gscale },
#else
	.ext = { &ghyvi_ext_ops },
#endif
};
#define FZ_PARAMS (&fz_params)

struct fz_env {
	struct fake_hv hv;
	struct fake_gpu gpu;
	struct gpu_hw *hw;
	uint64_t *ggtt; /* the physical GGTT, whichever backend */
#ifdef FZ_USE_MODEL
	struct gen9_model m;
	struct gpu_hw mhw;
#endif
	struct gvt *gvt;
	struct vgpu *a, *b; /* attacker (VM 1), victim (VM 2) */
	struct guest_i915 ga, gb;
	uint64_t b_ggtt[FZ_VICTIM_PAGES];
	uint64_t own_ggtt_first; /* physical entry 0 of the mediator's GM */
};

static struct fz_env *fz;

static void fz_die(const char *what, uint64_t a, uint64_t b)
{
	fprintf(stderr, "INVARIANT: %s (0x%llx, 0x%llx)\n", what,
		(unsigned long long)a, (unsigned long long)b);
	abort();
}

static void fz_trap(void *arg, uint32_t vm, uint64_t gpa, const void *data,
		    size_t len)
{
	struct vgpu *v = gvt_vgpu_by_vm(((struct fz_env *)arg)->gvt, vm);

	if (v)
		vgpu_page_write(v, gpa, data, len);
}

static void fz_guest(struct fz_env *e, struct guest_i915 *g, struct vgpu *v,
		     uint32_t vm)
{
	memset(g, 0, sizeof(*g));
	if (gi_probe(g, &e->hv, v, vm, e->gvt) || gi_ppgtt_create(g) ||
	    gi_engine_init(g, GEN9_RCS0) || gi_engine_init(g, GEN9_BCS0))
		fz_die("guest setup", vm, 0);
}

/* The victim's translated entry: in its private shadow under gScale (the
 * hardware holds it only while resident), in the physical GGTT otherwise. */
static uint64_t fz_victim_entry(struct fz_env *e, uint32_t index)
{
#ifdef FZ_GSCALE
	return gscale_shadow_read(gvt_gscale(e->gvt), e->b->gs_id, index);
#else
	return e->ggtt[index];
#endif
}

/* The victim: GGTT entries and a small PPGTT it keeps. */
static void fz_victim(struct fz_env *e)
{
	struct guest_i915 *g = &e->gb;
	uint64_t pages = gi_alloc_pages(g, FZ_VICTIM_PAGES);
	uint32_t gm = gi_gm_alloc(g, FZ_VICTIM_PAGES * 4096, true);
	int i;

	gi_ggtt_bind(g, gm, pages, FZ_VICTIM_PAGES);
	gi_ppgtt_map(g, 0x1000000, pages, FZ_VICTIM_PAGES);
	for (i = 0; i < FZ_VICTIM_PAGES; i++)
		e->b_ggtt[i] = fz_victim_entry(e, (gm >> 12) + i);
}

static void fz_gpu(struct fz_env *e)
{
#ifdef FZ_USE_MODEL
	struct gen9_model_config cfg = { 0 };
	struct gen9_model_mem mem;

	mem.regs = calloc(GEN9_MODEL_REGS_DWORDS, 4);
	mem.ggtt = calloc(GEN9_MODEL_GGTT_MAX_ENTRIES, 8);
	mem.ggtt_entries = GEN9_MODEL_GGTT_MAX_ENTRIES;
	cfg.aperture_size = 256 * FZ_MiB;
#ifdef FZ_DMA_HOOK
	/* The target sees every memory access of the model first. */
	struct gpu_dma dma = FZ_DMA_HOOK(e);
#else
	struct gpu_dma dma = e->hv.dma;
#endif

	if (!mem.regs || !mem.ggtt ||
	    gen9_model_init(&e->m, &cfg, &mem, &dma))
		fz_die("model", 0, 0);
	gen9_model_attach(&e->m, &e->mhw);
	e->hw = &e->mhw;
	e->ggtt = mem.ggtt;
#else
	if (fake_gpu_init(&e->gpu, FZ_APERTURE_MIB, FZ_GGTT_MIB, &e->hv.dma))
		fz_die("fake gpu", 0, 0);
	e->hw = &e->gpu.hw;
	e->ggtt = e->gpu.ggtt;
#endif
}

/* Let the GPU and the mediator run a while. */
static __attribute__((unused)) void fz_run(struct fz_env *e, int rounds)
{
	while (rounds-- > 0) {
		gpu_hw_poll(e->hw);
		gvt_poll(e->gvt);
		e->hv.now += 1000000;
	}
}

static struct fz_env *fz_env(void)
{
	struct fz_env *e;

	if (fz)
		return fz;
	e = calloc(1, sizeof(*e));
	if (!e || fake_hv_init(&e->hv, 48, 8))
		fz_die("env", 0, 0);
	fz_gpu(e);
	e->hv.trap = fz_trap;
	e->hv.trap_arg = e;
	if (gvt_create(e->hw, &e->hv.hv, FZ_PARAMS, &e->gvt) ||
	    fake_hv_add_vm(&e->hv, 1, FZ_RAM) || fake_hv_add_vm(&e->hv, 2, FZ_RAM) ||
	    vgpu_create(e->gvt, &fz_type, 2, &e->b) ||
	    fake_hv_track_dirty(&e->hv, 1))
		fz_die("env", 1, 0);
	fz_guest(e, &e->gb, e->b, 2);
	fz_victim(e);
	if (fake_hv_protect_ram(&e->hv, 2, true))
		fz_die("env", 2, 0);
	e->own_ggtt_first = e->ggtt[e->gvt->own_gm_base >> 12];
	fz = e;
	return e;
}

/* A fresh attacker for each input, so inputs replay the same way. */
static __attribute__((unused)) void fz_attacker_begin(struct fz_env *e)
{
	/* Its RAM starts from zero as well: the pages anyone was handed a
	 * pointer to since the last input (fake_hv_track_dirty), not all. */
	fake_hv_zero_dirty(&e->hv, 1);
	if (vgpu_create(e->gvt, &fz_type, 1, &e->a))
		fz_die("attacker create", 0, 0);
	fz_guest(e, &e->ga, e->a, 1);
}

static __attribute__((unused)) void fz_attacker_end(struct fz_env *e)
{
	vgpu_destroy(e->a);
	e->a = NULL;
	if (fake_hv_nr_wp(&e->hv, 1))
		fz_die("protection left behind", fake_hv_nr_wp(&e->hv, 1), 0);
}

/* fake_hv_hpa_owner(hpa) == vm, without its walk over every VM: a VM's
 * RAM is one run of arena pages. Called for every present entry. */
FZ_NOCOV static bool fz_owned_by(struct fz_env *e, uint64_t hpa, uint32_t vm)
{
	const struct fake_vm *v = &e->hv.vm[vm];

	return hpa >= FAKE_HPA_BASE &&
	       (hpa - FAKE_HPA_BASE) / 4096 - v->first_page < v->ram_size / 4096;
}

#ifndef FZ_GSCALE /* gScale checks entries per owner instead */
FZ_NOCOV static void check_ggtt_range(struct fz_env *e, struct vgpu *v, uint64_t base,
			     uint64_t size)
{
	uint64_t i;

	for (i = base >> 12; i < (base + size) >> 12; i++) {
		uint64_t pte = e->ggtt[i];

		if ((pte & 1) && !fz_owned_by(e, gen8_pte_addr(pte), v->vm))
			fz_die("GGTT entry maps outside its VM", i, pte);
	}
}
#endif

FZ_NOCOV static bool is_shadow_page(struct vgpu *v, uint64_t hpa)
{
	int32_t i;

	for (i = 0; i < vslab_end(&v->spts); i++) {
		const struct spt *s = vslab_get(&v->spts, i);

		if (s && s->level && s->shadow_hpa == hpa)
			return true;
	}
	return false;
}

FZ_NOCOV static void check_shadow(struct fz_env *e, struct vgpu *v)
{
	int32_t i;
	unsigned int k;

	for (i = 0; i < vslab_end(&v->spts); i++) {
		struct spt *s = vslab_get(&v->spts, i);

		if (!s || !s->level)
			continue;
		for (k = 0; k < 512; k++) {
			uint64_t ent = s->shadow[k], hpa = gen8_pte_addr(ent);

			if (!(ent & 1))
				continue;
			if (s->level == SPT_PT) {
				if (!fz_owned_by(e, hpa, v->vm))
					fz_die("shadow PTE maps outside its VM", hpa, ent);
			} else if (!is_shadow_page(v, hpa)) {
				fz_die("shadow PDE to a non-shadow page", hpa, ent);
			}
		}
	}
}

#ifdef FZ_GSCALE
/* The fence pool holds, for each pooled fence, exactly the entries of the
 * fenced range (which map the fencing vGPU's VM) and zeros elsewhere. A
 * page two fences cover is checked against the first (vGPU order, then
 * fence order). One pass over the fences, one over the pool: checking
 * every page against every fence was most of a gScale input's checks. */
#define FZ_POOL_PAGES_MAX 8192
FZ_NOCOV static void check_fence_pool(struct fz_env *e, struct vgpu *vs[2])
{
	static int32_t owner[FZ_POOL_PAGES_MAX]; /* VM + 1, 0: none */
	const struct gm_region *pool = &gscale_gvt_of(e->gvt)->fence_pool;
	uint64_t pages = pool->size >> 12;

	if (pages > FZ_POOL_PAGES_MAX)
		fz_die("fence pool larger than the check", pages, 0);
	memset(owner, 0, pages * sizeof(owner[0]));
	for (int i = 0; i < 2; i++)
		for (unsigned f = 0; vs[i] && f < vs[i]->fence_num; f++) {
			uint64_t at = vs[i]->pooled[f].pool_gm;
			uint64_t size = vs[i]->pooled[f].size;

			/* the pool's pages gm with gm - at < size */
			for (uint64_t gm = (at + 4095) & ~4095ull; gm - at < size;
			     gm += 4096) {
				uint64_t p = (gm - pool->base) >> 12;

				if (gm - pool->base < pool->size && !owner[p])
					owner[p] = (int32_t)vs[i]->vm + 1;
			}
		}
	for (uint64_t p = 0; p < pages; p++) {
		uint64_t gm = pool->base + p * 4096, pte = e->ggtt[gm >> 12];

		if (!owner[p] && pte)
			fz_die("stale fence pool entry", gm, pte);
		if (owner[p] && (pte & 1) &&
		    !fz_owned_by(e, gen8_pte_addr(pte), (uint32_t)owner[p] - 1))
			fz_die("fence pool entry maps outside its VM", gm, pte);
	}
}

/* gScale: every physical entry belongs to the chunk's owner and maps its
 * VM; every private-shadow entry maps its own VM. */
FZ_NOCOV static void check_gscale(struct fz_env *e, struct vgpu *vs[2])
{
	const struct gscale *gs = gvt_gscale(e->gvt);

	for (uint32_t c = 0; c < gs->nr_chunks; c++) {
		uint32_t first = (gs->first_chunk + c) * GSCALE_CHUNK_ENTRIES;
		struct vgpu *o = NULL;

		/* Between low and high GM lie the host's and the mediator's
		 * own entries, checked below for gVirt and gScale alike. */
		if (!(first - gs->p.low.first < gs->p.low.count) &&
		    !(first - gs->p.high.first < gs->p.high.count))
			continue;
		for (int i = 0; i < 2; i++)
			if (vs[i] && vs[i]->gs_id == gs->owner[c])
				o = vs[i];
		for (uint32_t k = 0; k < GSCALE_CHUNK_ENTRIES; k++) {
			uint64_t pte = e->ggtt[first + k];

			if (!(pte & 1))
				continue;
			if (!o || !fz_owned_by(e, gen8_pte_addr(pte), o->vm))
				fz_die("resident entry maps outside its owner",
				       first + k, pte);
		}
	}
	for (int i = 0; i < 2; i++) {
		const struct gscale_vgpu *g;

		if (!vs[i])
			continue;
		g = &gs->vgpus[vs[i]->gs_id];
		for (uint32_t k = 0; k < g->low.count + g->high_count; k++) {
			uint64_t pte = k < g->low.count ? g->shadow_low[k]
						      : g->shadow_high[k - g->low.count];

			if ((pte & 1) && !fz_owned_by(e, gen8_pte_addr(pte), vs[i]->vm))
				fz_die("private shadow maps outside its VM", k, pte);
		}
	}
	if (e->hv.foreign_maps)
		fz_die("ladder mapping to another VM's RAM", e->hv.foreign_maps, 0);
	check_fence_pool(e, vs);
}
#endif

FZ_NOCOV static __attribute__((unused)) void fz_check(struct fz_env *e)
{
	struct vgpu *vs[2] = { e->a, e->b };
	uint64_t gm;
	int i;

	for (i = 0; i < 2; i++) {
		if (!vs[i])
			continue;
#ifndef FZ_GSCALE
		check_ggtt_range(e, vs[i], vs[i]->low_base, vs[i]->low_size);
		check_ggtt_range(e, vs[i], vs[i]->high_base, vs[i]->high_size);
#endif
		check_shadow(e, vs[i]);
	}
#ifdef FZ_GSCALE
	check_gscale(e, vs);
#endif
	gm = e->gb.low_base;
	for (i = 0; i < FZ_VICTIM_PAGES; i++)
		if (fz_victim_entry(e, (uint32_t)(gm >> 12) + i) != e->b_ggtt[i])
			fz_die("victim GGTT entry changed", i,
			       fz_victim_entry(e, (uint32_t)(gm >> 12) + i));
	/* Host part of the GGTT: never written by a guest. */
	for (gm = 0; gm < FZ_HOST_LOW_GM; gm += 4096 * 61)
		if (e->ggtt[gm >> 12])
			fz_die("host GGTT entry written", gm, e->ggtt[gm >> 12]);
	if (e->ggtt[e->gvt->own_gm_base >> 12] != e->own_ggtt_first)
		fz_die("mediator GGTT entry changed", 0, 0);
	if (e->b->failed)
		fz_die("victim vGPU failed", 0, 0);
}

/* Little-endian reader over the input. */
struct fz_in {
	const uint8_t *p;
	size_t n;
};

static uint64_t fz_take(struct fz_in *in, unsigned int bytes)
{
	uint64_t v = 0;
	unsigned int i;

	for (i = 0; i < bytes && in->n; i++, in->n--)
		v |= (uint64_t)*in->p++ << (8 * i);
	return v;
}

#ifdef FZ_RESTORE
/* FZ_RESTORE (the targets on the fake GPU): the attacker is created once,
 * with the world, and after each input everything the input could have
 * changed is put back as it was right after creation - the mediator's
 * pages (vGPU structs, vregs, shadow GGTT and page tables, gScale's
 * tables, gHyvi's state: all from the fake's pool), the attacker's RAM,
 * the fake GPU's registers and GGTT (stores tracked by page, page_track.h),
 * and the plain structs and tables of the fake hypervisor, the GPU and
 * both guests (copied whole: a few KiB). Creating and destroying a vGPU
 * per input was nearly all of an input's time.
 *
 * test_fuzz_restore_{mmio,ggtt,gscale,ghyvi} (tests/unit/fuzz_restore_fake.h)
 * check that the restored world is byte for byte the freshly created one. Destruction is still exercised: an input whose
 * hash is 0 mod FZ_DESTROY_EVERY destroys the attacker (and checks that
 * nothing is left behind) before the restore brings it back. */
#define FZ_DESTROY_EVERY 1024u

struct fz_snap {
	struct fz_env env;
	struct fake_hv_tables tables;
	/* the pool and the attacker's RAM (arena pages 0 .. end of VM 1: the
	 * victim's RAM follows, read-only), registers, GGTT */
	struct page_track arena, regs, ggtt;
	uint64_t pages0; /* mediator pages in use before the attacker */
	uint64_t restores, pages_restored;
};

static struct fz_snap *fz_snap;

/* FZ_RESTORE_STATS=1: what the restores cost, at exit. */
static void fz_restore_stats(void)
{
	const struct fz_snap *s = fz_snap;

	if (!s || !s->restores)
		return;
	fprintf(stderr, "restore: %llu inputs, %.1f pages copied back and %.2f "
		"faults per input (arena %llu, regs %llu, ggtt %llu faults)\n",
		(unsigned long long)s->restores,
		(double)s->pages_restored / (double)s->restores,
		(double)(s->arena.faults + s->regs.faults + s->ggtt.faults) /
			(double)s->restores,
		(unsigned long long)s->arena.faults,
		(unsigned long long)s->regs.faults,
		(unsigned long long)s->ggtt.faults);
}

static void fz_snapshot(struct fz_env *e, uint64_t pages0)
{
	struct fz_snap *s = calloc(1, sizeof(*s));
	const struct fake_vm *a = &e->hv.vm[1];

	if (!s || a->first_page + a->ram_size / 4096 > e->hv.vm[2].first_page ||
	    fake_hv_save_tables(&e->hv, &s->tables) ||
	    page_track_start(&s->arena, e->hv.arena,
			     a->first_page + a->ram_size / 4096) ||
	    page_track_start(&s->regs, e->gpu.regs, GEN9_MMIO_SIZE / 4096) ||
	    page_track_start(&s->ggtt, e->gpu.ggtt,
			     e->gpu.ggtt_entries * 8ull / 4096))
		fz_die("snapshot", 0, 0);
	s->env = *e;
	s->pages0 = pages0;
	fz_snap = s;
	if (getenv("FZ_RESTORE_STATS"))
		atexit(fz_restore_stats);
}

/* The world as it was at fz_snapshot. */
static void fz_restore(struct fz_env *e)
{
	struct fz_snap *s = fz_snap;

	s->pages_restored += page_track_restore(&s->arena) +
			     page_track_restore(&s->regs) +
			     page_track_restore(&s->ggtt);
	*e = s->env;
	fake_hv_load_tables(&e->hv, &s->tables);
	s->restores++;
}

/* The attacker, created once; the world snapshot taken with it. */
static void fz_input_begin(struct fz_env *e)
{
	uint64_t pages0 = e->hv.pages_in_use;

	if (fz_snap)
		return;
	fake_hv_zero_dirty(&e->hv, 1);
	if (vgpu_create(e->gvt, &fz_type, 1, &e->a))
		fz_die("attacker create", 0, 0);
	fz_guest(e, &e->ga, e->a, 1);
	fz_snapshot(e, pages0);
}

static uint32_t fz_hash(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

/* After the input's checks: now and then destroy the attacker as the old
 * per-input teardown did (nothing may be left behind: fz_check runs on
 * the victim alone then), and put the world back. */
static void fz_input_end(struct fz_env *e, const uint8_t *data, size_t size)
{
	if (fz_hash(data, size) % FZ_DESTROY_EVERY == 0) {
		fz_attacker_end(e);
		fz_check(e);
		if (e->hv.pages_in_use != fz_snap->pages0)
			fz_die("mediator pages leaked", e->hv.pages_in_use,
			       fz_snap->pages0);
	}
	fz_restore(e);
}
#endif
