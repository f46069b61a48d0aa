/* Physical page allocator.
 *
 * Usable RAM is kept as a few ranges, each with a bump pointer; freed pages
 * go on a free list threaded through the pages themselves. Single pages come
 * from the free list first, contiguous runs always from a bump pointer (the
 * hypervisor allocates runs at VM creation and rarely frees them, so the
 * simple scheme does not fragment in practice, and it needs no metadata that
 * grows with RAM). */
#include "hv/mm/page_alloc.h"
#include "mini/string.h"

struct range {
	uint64_t base, pages, next; /* next: pages already bumped */
};

struct free_page {
	struct free_page *next;
};

static struct range ranges[PAGE_ALLOC_MAX_RANGES];
static struct free_page *free_list;
static struct page_alloc_stats stats;

/* Since VMs with a vGPU run on the APs (docs/smp.md "Mediator
 * concurrency"), an AP allocates too: EPT tables for the mediator's
 * write-protects and maps in its VM's traps, the mediator's own pages.
 * One spinlock over the lists and counters; a leaf (nothing is called
 * while it is held), so it nests under the mediator and console locks.
 * The zeroing of a page handed out runs outside it. */
static uint32_t lock_word;

static void take(void)
{
	while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
		while (__atomic_load_n(&lock_word, __ATOMIC_RELAXED))
			__builtin_ia32_pause();
}

static void drop(void)
{
	__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

static void add_range(uint64_t base, uint64_t pages)
{
	if (base < PAGE_ALLOC_MIN_ADDR) {
		uint64_t skip = (PAGE_ALLOC_MIN_ADDR - base) / PAGE_SIZE;

		if (skip >= pages)
			return;
		base += skip * PAGE_SIZE;
		pages -= skip;
	}
	if (stats.nr_ranges == PAGE_ALLOC_MAX_RANGES) {
		stats.ranges_dropped++;
		return;
	}
	ranges[stats.nr_ranges++] = (struct range){ base, pages, 0 };
	stats.total_pages += pages;
	stats.free_pages += pages;
}

void page_alloc_init(const struct mem_range *map, uint32_t n)
{
	memset(&stats, 0, sizeof(stats));
	free_list = NULL;
	for (uint32_t i = 0; i < n; i++)
		if (map[i].type == MEM_USABLE && map[i].pages)
			add_range(map[i].base, map[i].pages);
}

static void *bump(size_t n)
{
	for (uint32_t i = 0; i < stats.nr_ranges; i++) {
		struct range *r = &ranges[i];

		if (r->pages - r->next >= n) {
			uint64_t pa = r->base + r->next * PAGE_SIZE;

			r->next += n;
			return hv_va(pa);
		}
	}
	return NULL;
}

/* Counts under the lock; the caller zeroes outside it. */
static void *count_alloc(void *p, size_t n)
{
	if (!p) {
		stats.failed_calls++;
		return NULL;
	}
	stats.alloc_calls++;
	stats.free_pages -= n;
	return p;
}

static void *zeroed(void *p, size_t n)
{
	if (p)
		memset(p, 0, n * PAGE_SIZE);
	return p;
}

void *page_alloc(void)
{
	void *p;

	take();
	p = free_list;
	if (p)
		free_list = free_list->next;
	else
		p = bump(1);
	p = count_alloc(p, 1);
	drop();
	return zeroed(p, 1);
}

void *page_alloc_contig(size_t n)
{
	void *p;

	if (n == 0)
		return NULL;
	if (n == 1)
		return page_alloc();
	take();
	p = count_alloc(bump(n), n);
	drop();
	return zeroed(p, n);
}

void page_free(void *page)
{
	struct free_page *fp = page;

	if (!page)
		return;
	take();
	fp->next = free_list;
	free_list = fp;
	stats.free_calls++;
	stats.free_pages++;
	drop();
}

void page_free_contig(void *first, size_t n)
{
	for (size_t i = 0; i < n; i++)
		page_free((uint8_t *)first + i * PAGE_SIZE);
}

void page_alloc_get_stats(struct page_alloc_stats *st)
{
	take();
	*st = stats;
	drop();
}

bool page_alloc_range(uint32_t i, uint64_t *base, uint64_t *pages,
		      uint64_t *left)
{
	if (i >= stats.nr_ranges)
		return false;
	*base = ranges[i].base;
	*pages = ranges[i].pages;
	*left = ranges[i].pages - ranges[i].next;
	return true;
}
