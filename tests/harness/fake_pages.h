/* Test double for the hypervisor's page allocator (hv/mm/mem.h).
 *
 * Pages come from aligned_alloc and are zeroed, like the real allocator's.
 * The double keeps a registry of live allocations so a test can assert that
 * code under test freed everything it allocated (fake_pages_live() == 0),
 * and it fails loudly (abort) on a double free or a free of a pointer it did
 * not hand out. fake_pages_fail_after(n) makes the allocation after the next
 * n succeed fail, so every error path can be driven. */
#ifndef TESTS_UNIT_FAKE_PAGES_H
#define TESTS_UNIT_FAKE_PAGES_H

#include <stddef.h>

/* Forget all state (frees whatever is still live) and disable failures. */
void fake_pages_reset(void);
/* Pages currently allocated and not yet freed. */
size_t fake_pages_live(void);
/* Successful allocations since the last reset. */
size_t fake_pages_allocs(void);
/* Let the next n allocations succeed, then fail every one after them until
 * fake_pages_fail_after(-1) or fake_pages_reset(). */
void fake_pages_fail_after(long n);

#endif
