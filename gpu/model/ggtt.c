/* The model's GGTT: the PTE array at BAR0 + 8 MiB (gen9-facts §1.4, §2); the
 * aperture window CPU accesses go through is aperture.c. */
#include "gpu/model/model_internal.h"
#include "mini/string.h"

uint64_t gen9_model_ggtt_read(struct gen9_model *m, uint32_t index)
{
	if (index >= m->ggtt_entries)
		return 0;
	return m->ggtt[index];
}

/* PTE writes take effect at once: the model keeps no TLB, which is what a
 * correct driver observes after its GFX_FLSH_CNTL write anyway. */
void gen9_model_ggtt_write(struct gen9_model *m, uint32_t index, uint64_t pte)
{
	if (index >= m->ggtt_entries)
		return;
	m->ggtt[index] = pte;
	m->stats.ggtt_writes++;
}

/* The bulk form: one memcpy into the PTE array, counted per entry so the
 * model's statistics do not depend on which path wrote them. */
void gen9_model_ggtt_write_range(struct gen9_model *m, uint32_t first,
				 const uint64_t *ptes, uint32_t count)
{
	if (first > m->ggtt_entries || count > m->ggtt_entries - first)
		return;
	memcpy(&m->ggtt[first], ptes, (size_t)count * sizeof(uint64_t));
	m->stats.ggtt_writes += count;
}

int model_ggtt_translate(struct gen9_model *m, uint64_t gaddr, uint64_t *hpa)
{
	uint64_t idx = gaddr >> GEN9_PAGE_SHIFT;
	uint64_t pte;

	if (idx >= m->ggtt_entries)
		return -GPU_EFAULT;
	pte = m->ggtt[idx];
	if (!(pte & GEN8_PAGE_PRESENT))
		return -GPU_EFAULT;
	*hpa = gen8_pte_addr(pte) | (gaddr & (GEN9_PAGE_SIZE - 1));
	return 0;
}

static int ggtt_xlate(struct gen9_model *m, void *ctx, uint64_t gaddr,
		      uint64_t *hpa)
{
	(void)ctx;
	return model_ggtt_translate(m, gaddr, hpa);
}

/* Copy through the GGTT, one page piece at a time. */
int model_ggtt_rw(struct gen9_model *m, uint64_t gaddr, void *buf, size_t len,
		  bool write)
{
	uint64_t at;

	return model_dma_copy(m, gaddr, buf, len, write, ggtt_xlate, NULL, &at)
		       ? -GPU_EFAULT : 0;
}
