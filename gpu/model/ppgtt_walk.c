/* PPGTT walks for a context: 4-level (PML4 in PDP0, "legacy 64-bit",
 * i915's default on SKL) and 3-level (four PDP registers, "legacy 32-bit").
 * Formats: gen9-facts §5.1. Page tables live in host-physical memory. */
#include "gpu/model/model_internal.h"

/* Read entry idx of the table page at hpa; false when not RAM. */
static bool read_entry(struct gen9_model *m, uint64_t table, unsigned int idx,
		       uint64_t *out)
{
	uint64_t *p = gpu_dma_ptr(&m->dma, (table & GEN8_PTE_ADDR_MASK) + idx * 8,
				  8);

	if (!p) {
		m->stats.dma_errors++;
		return false;
	}
	*out = *p;
	return true;
}

static int level_idx(uint64_t gaddr, unsigned int shift)
{
	return (int)((gaddr >> shift) & (GEN8_PTES_PER_PAGE - 1));
}

/* Walk from a page directory (covering 1 GiB) down to the page. */
static int walk_pd(struct gen9_model *m, uint64_t pd, uint64_t gaddr,
		   uint64_t *hpa, bool *ro, enum gen9_model_fault_kind *why)
{
	uint64_t pde, pte;

	if (!read_entry(m, pd, level_idx(gaddr, 21), &pde))
		goto dma;
	if (!(pde & GEN8_PAGE_PRESENT))
		goto absent;
	if (!(pde & GEN8_PAGE_RW))
		*ro = true;
	if (pde & GEN8_PDE_PS_2M) {
		*hpa = (pde & GEN8_PDE_2M_ADDR_MASK) | (gaddr & ((1u << 21) - 1));
		return 0;
	}
	if (pde & GEN8_PDE_IPS_64K) {
		/* 64 KiB pages: every 16th PTE slot is used. */
		unsigned int idx = level_idx(gaddr, 12) & ~15u;

		if (!read_entry(m, pde, idx, &pte))
			goto dma;
		if (!(pte & GEN8_PAGE_PRESENT))
			goto absent;
		if (!(pte & GEN8_PAGE_RW))
			*ro = true;
		*hpa = (pte & GEN8_PTE_64K_ADDR_MASK) | (gaddr & 0xffff);
		return 0;
	}
	if (!read_entry(m, pde, level_idx(gaddr, 12), &pte))
		goto dma;
	if (!(pte & GEN8_PAGE_PRESENT))
		goto absent;
	if (!(pte & GEN8_PAGE_RW))
		*ro = true;
	*hpa = gen8_pte_addr(pte) | (gaddr & (GEN9_PAGE_SIZE - 1));
	return 0;
absent:
	*why = GEN9_MODEL_FAULT_PPGTT;
	return -GPU_EFAULT;
dma:
	*why = GEN9_MODEL_FAULT_DMA;
	return -GPU_EFAULT;
}

static int walk_4lvl(struct gen9_model *m, const struct gen9_model_ctx *c,
		     uint64_t gaddr, uint64_t *hpa, bool *ro,
		     enum gen9_model_fault_kind *why)
{
	uint64_t pml4e, pdpe;

	if (!read_entry(m, c->pdp[0], level_idx(gaddr, 39), &pml4e)) {
		*why = GEN9_MODEL_FAULT_DMA;
		return -GPU_EFAULT;
	}
	if (!(pml4e & GEN8_PAGE_PRESENT))
		goto absent;
	if (!(pml4e & GEN8_PAGE_RW))
		*ro = true;
	if (!read_entry(m, pml4e, level_idx(gaddr, 30), &pdpe)) {
		*why = GEN9_MODEL_FAULT_DMA;
		return -GPU_EFAULT;
	}
	if (!(pdpe & GEN8_PAGE_PRESENT))
		goto absent;
	if (!(pdpe & GEN8_PAGE_RW))
		*ro = true;
	if (pdpe & GEN8_PDPE_PS_1G) {
		*hpa = (pdpe & GEN8_PDPE_1G_ADDR_MASK) |
		       (gaddr & ((1u << 30) - 1));
		return 0;
	}
	return walk_pd(m, pdpe, gaddr, hpa, ro, why);
absent:
	*why = GEN9_MODEL_FAULT_PPGTT;
	return -GPU_EFAULT;
}

/* 3-level: the PDP registers themselves are the page-directory pointers;
 * there is no present bit in a register, so 0 means "not set up". */
static int walk_3lvl(struct gen9_model *m, const struct gen9_model_ctx *c,
		     uint64_t gaddr, uint64_t *hpa, bool *ro,
		     enum gen9_model_fault_kind *why)
{
	uint64_t pd;

	if (gaddr >> 32) {
		*why = GEN9_MODEL_FAULT_PPGTT;
		return -GPU_EFAULT;
	}
	pd = c->pdp[(gaddr >> 30) & 3] & GEN8_PTE_ADDR_MASK;
	if (!pd) {
		*why = GEN9_MODEL_FAULT_PPGTT;
		return -GPU_EFAULT;
	}
	return walk_pd(m, pd, gaddr, hpa, ro, why);
}

int model_ppgtt_translate(struct gen9_model *m, const struct gen9_model_ctx *c,
			  uint64_t gaddr, bool write, uint64_t *hpa,
			  enum gen9_model_fault_kind *why)
{
	bool ro = false;
	int ret;

	gaddr &= GEN9_GENMASK_ULL(47, 0); /* commands carry 48-bit addresses */
	if (c->addr_mode == INTEL_LEGACY_32B_CONTEXT)
		ret = walk_3lvl(m, c, gaddr, hpa, &ro, why);
	else
		ret = walk_4lvl(m, c, gaddr, hpa, &ro, why);
	if (ret)
		return ret;
	if (write && ro) {
		*why = GEN9_MODEL_FAULT_WRITE_RO;
		return -GPU_EFAULT;
	}
	return 0;
}
