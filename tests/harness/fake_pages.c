/* Page allocator test double: see fake_pages.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hv/mm/mem.h"
#include "tests/harness/fake_pages.h"

struct live_block {
	void *ptr;
	size_t pages;
};

static struct live_block *blocks;
static size_t nblocks, capblocks;
static size_t live_pages, total_allocs;
static long fail_budget = -1;	/* < 0: never fail */

static void die(const char *what, void *p)
{
	fprintf(stderr, "fake_pages: %s %p\n", what, p);
	abort();
}

static void *alloc_pages(size_t n)
{
	void *p;

	if (n == 0)
		return NULL;
	if (fail_budget == 0)
		return NULL;
	if (fail_budget > 0)
		fail_budget--;
	p = aligned_alloc(PAGE_SIZE, n * PAGE_SIZE);
	if (p == NULL)
		return NULL;
	memset(p, 0, n * PAGE_SIZE);
	if (nblocks == capblocks) {
		capblocks = capblocks ? 2 * capblocks : 64;
		blocks = realloc(blocks, capblocks * sizeof(*blocks));
		if (blocks == NULL)
			die("out of host memory at", p);
	}
	blocks[nblocks++] = (struct live_block){ p, n };
	live_pages += n;
	total_allocs++;
	return p;
}

static void free_pages(void *p, size_t n)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < nblocks; i++) {
		if (blocks[i].ptr != p)
			continue;
		if (blocks[i].pages != n)
			die("free with wrong page count", p);
		blocks[i] = blocks[--nblocks];
		live_pages -= n;
		free(p);
		return;
	}
	die("free of unknown or already freed page", p);
}

void *page_alloc(void) { return alloc_pages(1); }
void *page_alloc_contig(size_t n) { return alloc_pages(n); }
void page_free(void *page) { free_pages(page, 1); }
void page_free_contig(void *first, size_t n) { free_pages(first, n); }

void fake_pages_reset(void)
{
	size_t i;

	for (i = 0; i < nblocks; i++)
		free(blocks[i].ptr);
	free(blocks);
	blocks = NULL;
	nblocks = capblocks = 0;
	live_pages = total_allocs = 0;
	fail_budget = -1;
}

size_t fake_pages_live(void) { return live_pages; }
size_t fake_pages_allocs(void) { return total_allocs; }
void fake_pages_fail_after(long n) { fail_budget = n; }
