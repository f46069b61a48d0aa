/* Host physical memory as the hypervisor sees it.
 *
 * hv_main identity-maps all physical memory, so a host-physical address and
 * the hypervisor's pointer to it are the same number. Code that builds
 * hardware structures (EPT, VMCS regions, page tables) still converts through
 * hv_pa()/hv_va() so the intent is visible and the host unit tests, where a
 * pointer also stands in for its "physical" address, work unchanged. */
#ifndef HV_MEM_H
#define HV_MEM_H

#include <stddef.h>
#include <stdint.h>

#define PAGE_SIZE 4096ull
#define PAGE_SHIFT 12
#define PAGE_MASK (~(PAGE_SIZE - 1))

static inline uint64_t hv_pa(const void *va) { return (uint64_t)(uintptr_t)va; }
static inline void *hv_va(uint64_t pa) { return (void *)(uintptr_t)pa; }

/* The physical page allocator (hv/mm/page_alloc.c on the machine; a test double
 * in tests/unit on the host). Pages come back zeroed. NULL when exhausted. */
void *page_alloc(void);
/* n physically contiguous zeroed pages, 4 KiB aligned; NULL when no run of
 * n free pages exists. */
void *page_alloc_contig(size_t n);
void page_free(void *page);
void page_free_contig(void *first, size_t n);

#endif
