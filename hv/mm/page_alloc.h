/* Setup and statistics of the physical page allocator; the allocation calls
 * themselves are declared in hv/mm/mem.h. */
#ifndef HV_PAGE_ALLOC_H
#define HV_PAGE_ALLOC_H

#include <stdint.h>
#include "boot/boot_info.h"
#include "hv/mm/mem.h"

/* Pages below this stay with the firmware/legacy world (real-mode
 * trampolines, BIOS data) and are never handed out. */
#define PAGE_ALLOC_MIN_ADDR 0x100000ull
#define PAGE_ALLOC_MAX_RANGES 64

struct page_alloc_stats {
	uint64_t total_pages;   /* usable pages handed to the allocator */
	uint64_t free_pages;    /* never allocated + returned */
	uint64_t alloc_calls, free_calls, failed_calls;
	uint32_t nr_ranges, ranges_dropped;
};

/* Takes the MEM_USABLE ranges of the boot memory map. */
void page_alloc_init(const struct mem_range *map, uint32_t n);
void page_alloc_get_stats(struct page_alloc_stats *st);
/* Range i as (base, pages, untouched pages left); false past the end. */
bool page_alloc_range(uint32_t i, uint64_t *base, uint64_t *pages,
		      uint64_t *left);

#endif
