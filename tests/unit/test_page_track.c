/* page_track (tests/world/page_track.h), which the fake-GPU fuzz targets
 * restore their world with: every store into a tracked region is put back
 * by the restore, whoever made it and however often; pages stay exact
 * across drops of the hot set; and a fault it does not own - a store into
 * a page protected by someone else - reaches the handler installed before
 * it (in the fuzz targets ASan's, which must report a store into the
 * victim VM's read-only RAM). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "tests/world/page_track.h"

#define PAGES 64
#define PG 4096

static sigjmp_buf caught_at;
static volatile int caught;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	caught++;
	siglongjmp(caught_at, 1);
}

static uint8_t *map(size_t pages, int prot)
{
	uint8_t *p = mmap(NULL, pages * PG, prot, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);

	assert_true(p != MAP_FAILED);
	return p;
}

static void test_stores_put_back(void **state)
{
	struct page_track t;
	uint8_t *r = map(PAGES, PROT_READ | PROT_WRITE);
	uint8_t *want = malloc(PAGES * PG);
	uint64_t seed = 88172645463325252ull;

	(void)state;
	for (size_t i = 0; i < PAGES * PG; i++)
		r[i] = (uint8_t)(i * 7 + i / PG);
	memcpy(want, r, PAGES * PG);
	assert_int_equal(page_track_start(&t, r, PAGES), 0);
	/* Enough rounds to cross several drops of the hot set; some rounds
	 * store into every page (more than the hot set holds). */
	for (int round = 0; round < 300; round++) {
		int n = round % 50 == 7 ? PAGES * 4 : 1 + round % 5;

		for (int k = 0; k < n; k++) {
			seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
			r[seed % (PAGES * PG)] ^= (uint8_t)(seed >> 32) | 1;
		}
		page_track_restore(&t);
		assert_memory_equal(r, want, PAGES * PG);
	}
	assert_true(t.faults > 0);
	page_track_stop(&t);
	r[0] = 1; /* writable again */
	munmap(r, PAGES * PG);
	free(want);
}

static void test_foreign_fault_chains(void **state)
{
	struct sigaction sa, old;
	struct page_track t;
	uint8_t *r = map(4, PROT_READ | PROT_WRITE);
	uint8_t *ro = map(1, PROT_READ);

	(void)state;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	assert_int_equal(sigaction(SIGSEGV, &sa, &old), 0);
	/* page_track's handler goes in now, in front of ours (the first
	 * start installs it; it may already be, from the test before). */
	assert_int_equal(page_track_start(&t, r, 4), 0);
	r[PG] = 1; /* its own: no one else hears of it */
	assert_int_equal(caught, 0);
	if (!sigsetjmp(caught_at, 1))
		*(volatile uint8_t *)ro = 1;
	assert_int_equal(caught, 1);
	page_track_stop(&t);
	sigaction(SIGSEGV, &old, NULL);
	munmap(r, 4 * PG);
	munmap(ro, PG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stores_put_back),
		cmocka_unit_test(test_foreign_fault_chains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
