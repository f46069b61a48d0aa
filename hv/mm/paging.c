/* Identity map with the largest pages the CPU offers. Memory types come from
 * the firmware's MTRRs (MMIO is UC there); PAT stays at its WB default. */
#include <stdbool.h>
#include "hv/mm/paging.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/cpu/x86.h"

#define PTE_P (1ull << 0)
#define PTE_RW (1ull << 1)
#define PTE_PS (1ull << 7)
#define GIB (1ull << 30)
#define MIB2 (2ull << 20)
#define ENTRIES 512

#define CPUID_EXT_FEATURES 0x80000001
#define CPUID_EXT_EDX_PAGE1GB (1u << 26)
#define CPUID_ADDR_SIZES 0x80000008

/* Without 1 GiB pages each GiB costs a page of 2 MiB entries; cap the span so
 * a 46-bit MAXPHYADDR does not eat 256 MiB of tables. */
#define MAX_SPAN_2M (64 * GIB)

static uint32_t phys_addr_bits(void)
{
	if (cpuid(0x80000000, 0).eax >= CPUID_ADDR_SIZES)
		return cpuid(CPUID_ADDR_SIZES, 0).eax & 0xff;
	return 36;
}

static uint64_t *new_table(struct paging_info *pi)
{
	uint64_t *t = page_alloc();

	if (t)
		pi->table_pages++;
	return t;
}

/* One PDPT covers 512 GiB: with 1 GiB leaves it is the last level. */
static int fill_pdpt_1g(uint64_t *pdpt, uint64_t base, uint64_t end)
{
	for (unsigned i = 0; i < ENTRIES && base + i * GIB < end; i++)
		pdpt[i] = (base + i * GIB) | PTE_P | PTE_RW | PTE_PS;
	return 0;
}

static int fill_pdpt_2m(uint64_t *pdpt, uint64_t base, uint64_t end,
			struct paging_info *pi)
{
	for (unsigned i = 0; i < ENTRIES && base + i * GIB < end; i++) {
		uint64_t *pd = new_table(pi);
		uint64_t gb = base + i * GIB;

		if (!pd)
			return -HV_ENOMEM;
		for (unsigned j = 0; j < ENTRIES; j++)
			pd[j] = (gb + j * MIB2) | PTE_P | PTE_RW | PTE_PS;
		pdpt[i] = hv_pa(pd) | PTE_P | PTE_RW;
	}
	return 0;
}

int paging_init(uint64_t min_span, struct paging_info *pi)
{
	bool gb_pages = cpuid(CPUID_EXT_FEATURES, 0).edx & CPUID_EXT_EDX_PAGE1GB;
	uint64_t *pml4 = NULL, span;
	int err = 0;

	pi->table_pages = 0;
	pi->phys_bits = phys_addr_bits();
	span = 1ull << pi->phys_bits;
	if (!gb_pages && span > MAX_SPAN_2M)
		span = MAX_SPAN_2M > min_span ? MAX_SPAN_2M : min_span;
	pi->page_bytes = gb_pages ? GIB : MIB2;

	pml4 = new_table(pi);
	if (!pml4)
		return -HV_ENOMEM;
	for (unsigned i = 0; i < ENTRIES && !err; i++) {
		uint64_t base = (uint64_t)i << 39;
		uint64_t *pdpt;

		if (base >= span)
			break;
		pdpt = new_table(pi);
		if (!pdpt)
			return -HV_ENOMEM;
		err = gb_pages ? fill_pdpt_1g(pdpt, base, span)
			       : fill_pdpt_2m(pdpt, base, span, pi);
		pml4[i] = hv_pa(pdpt) | PTE_P | PTE_RW;
	}
	if (err)
		return err;
	pi->mapped_bytes = span;
	write_cr3(hv_pa(pml4));
	return 0;
}
