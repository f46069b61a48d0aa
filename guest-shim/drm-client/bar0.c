/* BAR0 access from user space (bar0.h) and the counter mark. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guest-shim/drm-client/bar0.h"
#include "guest-shim/drm-client/modes.h"

int bar0_map(struct bar0 *b)
{
	int fd = open(BAR0_PATH, O_RDWR | O_SYNC | O_CLOEXEC);
	void *p;

	b->p = NULL;
	if (fd < 0)
		return -errno;
	p = mmap(NULL, BAR0_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	b->p = p;
	return 0;
}

void bar0_unmap(struct bar0 *b)
{
	if (b->p)
		munmap((void *)b->p, BAR0_SIZE);
	b->p = NULL;
}

uint32_t bar0_r32(const struct bar0 *b, uint32_t off)
{
	return *(volatile uint32_t *)(b->p + off);
}

void bar0_w32(const struct bar0 *b, uint32_t off, uint32_t val)
{
	*(volatile uint32_t *)(b->p + off) = val;
}

uint64_t bar0_pte_r(const struct bar0 *b, uint32_t index)
{
	return *(volatile uint64_t *)(b->p + BAR0_GGTT + 8ull * index);
}

/* One 8-byte store, as i915's gen8_set_pte (writeq). */
void bar0_pte_w(const struct bar0 *b, uint32_t index, uint64_t pte)
{
	*(volatile uint64_t *)(b->p + BAR0_GGTT + 8ull * index) = pte;
}

int dc_stats_mark(unsigned int mark)
{
	struct bar0 b;
	int r = bar0_map(&b);

	if (r) {
		printf("mark %u: cannot map %s: %d\n", mark, BAR0_PATH, r);
		return 1;
	}
	bar0_w32(&b, PV_G2V_NOTIFY, G2V_G9HV_MARK | (mark & 0xffff));
	bar0_unmap(&b);
	return 0;
}
