/* The hypervisor's own page tables: an identity map of the whole physical
 * address space (RAM and MMIO), so hv_va(pa) == pa holds everywhere. */
#ifndef HV_PAGING_H
#define HV_PAGING_H

#include <stdint.h>

struct paging_info {
	uint64_t mapped_bytes; /* identity-mapped span from 0 */
	uint32_t page_bytes;   /* leaf size used: 1 GiB or 2 MiB */
	uint32_t table_pages;  /* pages spent on tables */
	uint32_t phys_bits;    /* CPUID MAXPHYADDR */
};

/* Builds the tables and loads CR3. Returns 0 or a negative error. */
int paging_init(uint64_t min_span, struct paging_info *out);

#endif
