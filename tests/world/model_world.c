/* See model_world.h. Host-only code: it may use the C library. */
#include "tests/world/model_world.h"

#include <stdlib.h>
#include <string.h>

#include "gpu/hw/gen9_regs.h"

#define MiB (1ull << 20)

static void trap(void *arg, uint32_t vm, uint64_t gpa, const void *data,
		 size_t len)
{
	struct model_world *w = arg;

	vgpu_page_write(gvt_vgpu_by_vm(w->gvt, vm), gpa, data, len);
}

static int model_init(struct model_world *w, const struct mw_config *c,
		      uint32_t aperture_mib)
{
	struct gen9_model_config cfg = { 0 };
	struct gen9_model_mem mem;
	int ret;

	w->regs = calloc(GEN9_MODEL_REGS_DWORDS, 4);
	w->ggtt = calloc(GEN9_MODEL_GGTT_MAX_ENTRIES, 8);
	if (!w->regs || !w->ggtt)
		return -GPU_ENOMEM;
	mem.regs = w->regs;
	mem.ggtt = w->ggtt;
	mem.ggtt_entries = c->ggtt_entries ? c->ggtt_entries
					   : GEN9_MODEL_GGTT_MAX_ENTRIES;
	cfg.aperture_size = aperture_mib * MiB;
	cfg.gmadr = c->gmadr;
	ret = gen9_model_init(&w->m, &cfg, &mem, &w->hv.dma);
	if (ret)
		return ret;
	gen9_model_attach(&w->m, &w->hw);
	return c->pgpu ? pgpu_init(c->pgpu, &w->hw) : 0;
}

int mw_init(struct model_world *w, const struct mw_config *c)
{
	struct gvt_params p = { 0 };
	uint32_t aperture_mib = c->aperture_mib ? c->aperture_mib : 256;
	int ret;

	memset(w, 0, sizeof(*w));
	if (fake_hv_init_vms(&w->hv, c->pool_mib, c->ram_mib,
			     c->nr_vms ? c->nr_vms : FAKE_DEFAULT_VMS))
		return -GPU_ENOMEM;
	w->hv.trap = trap;
	w->hv.trap_arg = w;
	w->hv.clock = c->clock;
	w->hv.clock_arg = c->clock_arg;
	if (c->fake_gpu)
		ret = fake_gpu_init(&w->gpu, aperture_mib, 4096, &w->hv.dma);
	else
		ret = model_init(w, c, aperture_mib);
	if (ret)
		return ret;
	if (c->params)
		p = *c->params;
	if (c->pgpu)
		p.pgpu = c->pgpu;
	return gvt_create(c->fake_gpu ? &w->gpu.hw : &w->hw, &w->hv.hv, &p,
			  &w->gvt);
}

int mw_add_vgpu(struct model_world *w, const struct vgpu_type *t,
		uint32_t vm, uint64_t ram, struct vgpu **v)
{
	if (ram && fake_hv_add_vm(&w->hv, vm, ram))
		return -GPU_ENOMEM;
	return vgpu_create(w->gvt, t, vm, v);
}

void mw_stop(struct model_world *w)
{
	if (w->gvt)
		gvt_destroy(w->gvt);
	w->gvt = NULL;
}

void mw_fini(struct model_world *w)
{
	mw_stop(w);
	fake_gpu_fini(&w->gpu);
	free(w->regs);
	free(w->ggtt);
	fake_hv_fini(&w->hv);
}

void mw_poll(void *arg)
{
	struct model_world *w = arg;

	gen9_model_poll(&w->m);
}

uint64_t mw_ppgtt_walk(struct model_world *w, uint64_t root, uint64_t va)
{
	uint64_t table = root;
	int lvl;

	for (lvl = 4; lvl >= 1; lvl--) {
		uint64_t *t = fake_hv_hpa_ptr(&w->hv, table, 4096);
		uint64_t ent;

		if (!t)
			return 0;
		ent = t[(va >> (12 + 9 * (lvl - 1))) & 511];
		if (!(ent & 1))
			return 0;
		table = ent & GEN8_PTE_ADDR_MASK;
	}
	return table | (va & 0xfff);
}
