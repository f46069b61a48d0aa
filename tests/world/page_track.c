/* See page_track.h. */
#include "tests/world/page_track.h"

#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define PG 4096ull
#define PT_MAX_TRACKS 4
/* Restores between two drops of the hot set, and the most pages kept hot
 * (a copy each per input: beyond this, faulting them again is cheaper). */
#ifndef PT_EPOCH
#define PT_EPOCH 64u
#endif
#define PT_HOT_MAX 256u

static struct page_track *tracks[PT_MAX_TRACKS];
static struct sigaction old_segv;

/* The tracked page holding addr: its region, *page its index. */
static struct page_track *owner(uintptr_t addr, uint64_t *page)
{
	for (int i = 0; i < PT_MAX_TRACKS; i++) {
		struct page_track *t = tracks[i];

		if (t && addr - (uintptr_t)t->base < t->pages * PG) {
			*page = (addr - (uintptr_t)t->base) / PG;
			return t;
		}
	}
	return NULL;
}

static void chain(int sig, siginfo_t *si, void *uc)
{
	if (old_segv.sa_flags & SA_SIGINFO) {
		old_segv.sa_sigaction(sig, si, uc);
		return;
	}
	if (old_segv.sa_handler != SIG_DFL && old_segv.sa_handler != SIG_IGN) {
		old_segv.sa_handler(sig);
		return;
	}
	/* No one else handles it: die of it, as without us. */
	signal(sig, SIG_DFL);
}

/* A store into a read-only tracked page: save it, open it, list it. The
 * page is as it was at the snapshot (nothing could store to it since), so
 * copying it now is the snapshot's copy, taken only for pages that
 * change. */
static void on_segv(int sig, siginfo_t *si, void *uc)
{
	uint64_t p;
	struct page_track *t = owner((uintptr_t)si->si_addr, &p);
	uint8_t *at;

	if (!t || t->listed[p]) {
		chain(sig, si, uc);
		return;
	}
	at = t->base + p * PG;
	if (!t->saved[p]) {
		memcpy(t->snap + p * PG, at, PG);
		t->saved[p] = 1;
	}
	if (mprotect(at, PG, PROT_READ | PROT_WRITE)) {
		chain(sig, si, uc);
		return;
	}
	t->listed[p] = 1;
	t->list[t->nr_listed++] = (uint32_t)p;
	t->faults++;
}

/* In front of whatever handles SIGSEGV now (again, if someone replaced
 * ours since: cmocka does for each test). */
static int install(void)
{
	struct sigaction sa, cur;

	if (sigaction(SIGSEGV, NULL, &cur))
		return -1;
	if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == on_segv)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGSEGV, &sa, &old_segv);
}

int page_track_start(struct page_track *t, void *base, uint64_t pages)
{
	int slot;

	memset(t, 0, sizeof(*t));
	if ((uintptr_t)base % PG || !pages || pages > UINT32_MAX || install())
		return -1;
	for (slot = 0; slot < PT_MAX_TRACKS && tracks[slot]; slot++)
		;
	if (slot == PT_MAX_TRACKS)
		return -1;
	t->base = base;
	t->pages = pages;
	t->snap = mmap(NULL, pages * PG, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	t->saved = calloc(pages, 1);
	t->listed = calloc(pages, 1);
	t->list = calloc(pages, sizeof(*t->list));
	if (t->snap == MAP_FAILED || !t->saved || !t->listed || !t->list) {
		t->snap = t->snap == MAP_FAILED ? NULL : t->snap;
		page_track_stop(t);
		return -1;
	}
	tracks[slot] = t;
	return mprotect(base, pages * PG, PROT_READ);
}

/* Make the listed pages read-only again, by runs of neighbours. */
static void drop_hot(struct page_track *t)
{
	uint64_t p = 0;

	while (p < t->pages) {
		uint64_t q;

		if (!t->listed[p]) {
			p++;
			continue;
		}
		for (q = p; q < t->pages && t->listed[q]; q++)
			t->listed[q] = 0;
		mprotect(t->base + p * PG, (q - p) * PG, PROT_READ);
		p = q;
	}
	t->nr_listed = 0;
	t->restores = 0;
}

uint64_t page_track_restore(struct page_track *t)
{
	uint32_t i, n = t->nr_listed;

	for (i = 0; i < n; i++)
		memcpy(t->base + (uint64_t)t->list[i] * PG,
		       t->snap + (uint64_t)t->list[i] * PG, PG);
	t->copied += n;
	if (++t->restores >= PT_EPOCH || n > PT_HOT_MAX)
		drop_hot(t);
	return n;
}

void page_track_stop(struct page_track *t)
{
	for (int i = 0; i < PT_MAX_TRACKS; i++)
		if (tracks[i] == t)
			tracks[i] = NULL;
	if (t->base)
		mprotect(t->base, t->pages * PG, PROT_READ | PROT_WRITE);
	if (t->snap)
		munmap(t->snap, t->pages * PG);
	free(t->saved);
	free(t->listed);
	free(t->list);
	memset(t, 0, sizeof(*t));
}
