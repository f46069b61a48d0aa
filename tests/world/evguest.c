/* See evguest.h. */
#include <string.h>

#include "gpu/hw/gen9_regs.h"
#include "tests/world/evguest.h"

int evg_world(struct model_world *w, struct mw_config c, int n,
	      struct vgpu **v, struct evguest *g)
{
	int i;

	c.pool_mib = 1536;
	c.ram_mib = (uint32_t)(n * (EVG_RAM >> 20));
	c.nr_vms = EVG_MAX_VMS + 1;
	c.gmadr = 0x40000000ull;
	if (mw_init(w, &c))
		return -1;
	fake_hv_record_ept(&w->hv, EVG_AP_GPA, w->hw.info.aperture_size);
	for (i = 0; i < n; i++) {
		if (mw_add_vgpu(w, &vgpu_type_v5_8, (uint32_t)i + 1, EVG_RAM,
				&v[i]))
			break;
		if (evg_attach(&g[i], w, v[i], (uint32_t)i + 1))
			return -1;
	}
	return i;
}

int evg_attach(struct evguest *g, struct model_world *w, struct vgpu *v,
	       uint32_t vm)
{
	uint32_t cmd = 0;

	memset(g, 0, sizeof(*g));
	g->w = w;
	g->v = v;
	g->vm = vm;
	vgpu_gm_ranges(v, &g->low_base, &g->low_size, &g->high_base,
		       &g->high_size);
	if (vgpu_cfg_write(v, GEN9_PCI_BAR2, (uint32_t)EVG_AP_GPA, 4) ||
	    vgpu_cfg_write(v, GEN9_PCI_BAR2 + 4,
			   (uint32_t)(EVG_AP_GPA >> 32), 4) ||
	    vgpu_cfg_read(v, GEN9_PCI_COMMAND, &cmd, 2))
		return -1;
	return vgpu_cfg_write(v, GEN9_PCI_COMMAND,
			      cmd | GEN9_PCI_CMD_MEM | 0x4 /* master */, 2);
}

int evg_ggtt_raw(struct evguest *g, uint32_t index, uint64_t pte)
{
	return vgpu_mmio_write(g->v, GEN9_GGTT_OFFSET + (uint64_t)index * 8,
			       pte, 8);
}

int evg_bind(struct evguest *g, uint64_t gm, uint64_t gpa)
{
	return evg_ggtt_raw(g, (uint32_t)(gm >> 12),
			    (gpa & GEN8_PTE_ADDR_MASK) | GEN8_PAGE_PRESENT);
}

int evg_fence(struct evguest *g, unsigned int i, uint64_t gm, uint32_t pages)
{
	uint64_t f = 0;

	if (pages)
		f = (gm & GEN6_FENCE_START_MASK) |
		    ((gm + (uint64_t)pages * 4096 - 4096) << 32) |
		    (1ull << I965_FENCE_TILING_Y_SHIFT) | I965_FENCE_REG_VALID;
	/* i915's order: disable, high dword, low dword. */
	if (vgpu_mmio_write(g->v, FENCE_REG_GEN6_LO(i), 0, 4) ||
	    vgpu_mmio_write(g->v, FENCE_REG_GEN6_HI(i), (uint32_t)(f >> 32), 4))
		return -1;
	return vgpu_mmio_write(g->v, FENCE_REG_GEN6_LO(i), (uint32_t)f, 4);
}

uint64_t evg_ap_hpa(const struct evguest *g, uint64_t off)
{
	return fake_hv_ept_hpa(&g->w->hv, g->vm, EVG_AP_GPA + off);
}

static int ap_rw(struct evguest *g, uint64_t off, uint32_t *val, bool write);

/* What the hypervisor does with an access to an unmapped aperture page
 * (hv/vm/exit_ept.c, hv/gpu/vgpu_dev.c): the vGPU maps it on demand, or
 * the access is emulated (a fenced page detiled by the mediator). */
static int ap_exit(struct evguest *g, uint64_t off, uint32_t *val, bool write)
{
	if (!vgpu_aperture_fault(g->v, off) && evg_ap_hpa(g, off))
		return ap_rw(g, off, val, write);
	return vgpu_aperture_rw(g->v, off, val, 4, write) ? -1 : 0;
}

/* The CPU's access through the EPT: RAM directly, or the host aperture
 * (then the GGTT translates, as for the fence pool). */
static int ap_rw(struct evguest *g, uint64_t off, uint32_t *val, bool write)
{
	uint64_t hpa = evg_ap_hpa(g, off);
	struct gpu_hw *hw = &g->w->hw;
	uint32_t *p;

	if (!hpa) /* an exit: mapped on demand, else emulated */
		return ap_exit(g, off, val, write);
	if (hpa >= hw->info.aperture_base &&
	    hpa - hw->info.aperture_base < hw->info.aperture_size)
		return gpu_hw_aperture_rw(hw, hpa - hw->info.aperture_base, val,
					  4, write) ? -1 : 0;
	p = fake_hv_hpa_ptr(&g->w->hv, hpa, 4);
	if (!p)
		return -1;
	if (write)
		*p = *val;
	else
		*val = *p;
	return 0;
}

int evg_ap_read(struct evguest *g, uint64_t off, uint32_t *val)
{
	return ap_rw(g, off, val, false);
}

int evg_ap_write(struct evguest *g, uint64_t off, uint32_t val)
{
	return ap_rw(g, off, &val, true);
}

void evg_ram_write32(struct evguest *g, uint64_t gpa, uint32_t val)
{
	fake_hv_guest_write(&g->w->hv, g->vm, gpa, &val, 4);
}

uint32_t evg_ram_read32(struct evguest *g, uint64_t gpa)
{
	uint32_t val;

	fake_hv_guest_read(&g->w->hv, g->vm, gpa, &val, 4);
	return val;
}
