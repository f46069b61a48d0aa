/* Write tracking of page-aligned host memory, so a fuzz target can build
 * its world once and put back, after each input, exactly the pages
 * anything stored to since the snapshot - whoever stored, through whatever
 * pointer (the mediator into its structs, the fake GPU into its registers,
 * a DMA pointer into a status page).
 *
 * page_track_start takes the snapshot point: the region becomes read-only.
 * The first store into a page faults; the SIGSEGV handler saves the page
 * as it was (it is unchanged since the snapshot: it was read-only), makes
 * it writable and lists it. page_track_restore copies every listed page
 * back. Pages stored to in most inputs (a vGPU's struct, its hot
 * registers) stay writable and listed ("hot"), so they cost a 4 KiB copy
 * per input instead of a fault; every PT_EPOCH restores all are made
 * read-only again, so the hot set follows what inputs do now.
 *
 * The invariant that makes the restore exact: a page is writable only
 * while it is listed, and a listed page is copied back at every restore.
 *
 * A fault outside every tracked region, or on a page that is not tracked
 * read-only (a guard page, the victim VM's protected RAM), goes to the
 * handler installed before (ASan's, which reports it with its stack). */
#ifndef TESTS_WORLD_PAGE_TRACK_H
#define TESTS_WORLD_PAGE_TRACK_H

#include <stdint.h>

struct page_track {
	uint8_t *base;
	uint64_t pages;
	uint8_t *snap; /* the pages as they were at the snapshot, once saved */
	uint8_t *saved; /* per page: snap holds it */
	uint8_t *listed; /* per page: writable, copied back at restore */
	uint32_t *list, nr_listed;
	uint32_t restores; /* since the hot set was last dropped */
	uint64_t faults, copied; /* totals, for profiles */
};

/* Track [base, base + pages * 4096) from now on; base page-aligned. At most
 * PT_MAX_TRACKS regions at once. 0, or -1. */
int page_track_start(struct page_track *t, void *base, uint64_t pages);
/* Put every page stored to since the snapshot back; how many pages. */
uint64_t page_track_restore(struct page_track *t);
/* Make the region writable again and stop tracking it. */
void page_track_stop(struct page_track *t);

#endif
