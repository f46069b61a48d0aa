/* The trapped-aperture redirect table (ap_redirect.h): linear probing;
 * deletion shifts the entries behind back into the gap (Knuth 6.4,
 * algorithm R), so there are no tombstones and lookups stay short. */
#include "hv/gpu/ap_redirect.h"

#define PAGE_MASK_4K (~0xfffull)
#define KEY_FREE 0

static uint64_t key_of(uint32_t vm, uint64_t gpa)
{
	return (gpa & PAGE_MASK_4K) | ((uint64_t)vm + 1); /* vm < 4095 */
}

static uint32_t home(const struct ap_redirect *t, uint64_t key)
{
	return (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 32) & (t->cap - 1);
}

void ap_redirect_init(struct ap_redirect *t, struct ap_redirect_slot *slots,
		      uint32_t cap)
{
	t->slot = slots;
	t->cap = cap;
	t->used = 0;
}

/* The slot holding key, or where it would go (a free one). */
static uint32_t probe(const struct ap_redirect *t, uint64_t key)
{
	uint32_t i = home(t, key);

	while (t->slot[i].key != KEY_FREE && t->slot[i].key != key)
		i = (i + 1) & (t->cap - 1);
	return i;
}

int ap_redirect_set(struct ap_redirect *t, uint32_t vm, uint64_t gpa,
		    uint64_t hpa)
{
	uint64_t key = key_of(vm, gpa);
	uint32_t i = probe(t, key);

	if (t->slot[i].key == KEY_FREE) {
		if ((t->used + 1) * 4 > t->cap * 3)
			return -1; /* keep a quarter free: probes end */
		t->used++;
	}
	t->slot[i].key = key;
	t->slot[i].hpa = hpa & PAGE_MASK_4K;
	return 0;
}

/* Is home h cyclically in (gap, j]? Then the entry at j may not move to
 * the gap: it would sit before its home. */
static bool between(uint32_t gap, uint32_t h, uint32_t j)
{
	return gap <= j ? (gap < h && h <= j) : (gap < h || h <= j);
}

void ap_redirect_clear(struct ap_redirect *t, uint32_t vm, uint64_t gpa)
{
	uint32_t gap = probe(t, key_of(vm, gpa)), j = gap;

	if (t->slot[gap].key == KEY_FREE)
		return;
	t->used--;
	for (;;) {
		t->slot[gap].key = KEY_FREE;
		do {
			j = (j + 1) & (t->cap - 1);
			if (t->slot[j].key == KEY_FREE)
				return;
		} while (between(gap, home(t, t->slot[j].key), j));
		t->slot[gap] = t->slot[j];
		gap = j;
	}
}

bool ap_redirect_find(const struct ap_redirect *t, uint32_t vm, uint64_t gpa,
		      uint64_t *hpa)
{
	uint32_t i;

	if (!t->slot)
		return false;
	i = probe(t, key_of(vm, gpa));
	if (t->slot[i].key == KEY_FREE)
		return false;
	*hpa = t->slot[i].hpa | (gpa & ~PAGE_MASK_4K);
	return true;
}
