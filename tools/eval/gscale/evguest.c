/* See evguest.h. */
#include <string.h>

#include "gpu/hw/gen9_regs.h"
#include "tools/eval/gscale/evguest.h"

int evg_attach(struct evguest *g, struct evhv *hv, struct vgpu *v, uint32_t vm)
{
	uint32_t cmd = 0;

	memset(g, 0, sizeof(*g));
	g->hv = hv;
	g->v = v;
	g->vm = vm;
	vgpu_gm_ranges(v, &g->low_base, &g->low_size, &g->high_base,
		       &g->high_size);
	if (vgpu_cfg_write(v, GEN9_PCI_BAR2, (uint32_t)EVHV_AP_GPA, 4) ||
	    vgpu_cfg_write(v, GEN9_PCI_BAR2 + 4,
			   (uint32_t)(EVHV_AP_GPA >> 32), 4) ||
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

/* The CPU's access through the EPT: RAM directly, or the host aperture
 * (then the GGTT translates, as for the fence pool). */
static int ap_rw(struct evguest *g, uint64_t off, uint32_t *val, bool write)
{
	uint64_t hpa = evhv_ap_hpa(g->hv, g->vm, off);
	struct gpu_hw *hw = g->hv->gpu;
	uint32_t *p;

	if (!hpa)
		return -1;
	if (hw && hpa >= hw->info.aperture_base &&
	    hpa - hw->info.aperture_base < hw->info.aperture_size)
		return gpu_hw_aperture_rw(hw, hpa - hw->info.aperture_base, val,
					  4, write) ? -1 : 0;
	p = evhv_hpa_ptr(g->hv, hpa, 4);
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
	uint32_t *p = evhv_hpa_ptr(g->hv, evhv_gpa_to_hpa(g->hv, g->vm, gpa), 4);

	*p = val;
}

uint32_t evg_ram_read32(struct evguest *g, uint64_t gpa)
{
	uint32_t *p = evhv_hpa_ptr(g->hv, evhv_gpa_to_hpa(g->hv, g->vm, gpa), 4);

	return *p;
}
