/* BAR0 access from user space (bar0.h) and the counter mark. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "guest-shim/drm-client/bar0.h"
#include "guest-shim/drm-client/modes.h"

/* BAR0's physical address: the first line of sysfs "resource". */
static int bar0_phys(uint64_t *pa)
{
	FILE *f = fopen(BAR0_RESOURCE, "r");
	unsigned long long start = 0;
	int n;

	if (!f)
		return -errno;
	n = fscanf(f, "%llx", &start);
	fclose(f);
	if (n != 1 || !start)
		return -ENODEV;
	*pa = start;
	return 0;
}

static volatile uint8_t *map_phys(int fd, uint64_t pa, size_t len, int *err)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)pa);

	if (p == MAP_FAILED) {
		*err = -errno;
		return NULL;
	}
	return p;
}

int bar0_map(struct bar0 *b)
{
	uint64_t pa = 0;
	int fd, err = bar0_phys(&pa);

	b->p = b->gtt = NULL;
	if (err)
		return err;
	fd = open("/dev/mem", O_RDWR | O_SYNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	b->p = map_phys(fd, pa, BAR0_REGS_SIZE, &err);
	if (b->p)
		b->gtt = map_phys(fd, pa + BAR0_GGTT, BAR0_GGTT_SIZE, &err);
	close(fd);
	if (!b->gtt)
		bar0_unmap(b);
	return b->p ? 0 : err;
}

void bar0_unmap(struct bar0 *b)
{
	if (b->p)
		munmap((void *)b->p, BAR0_REGS_SIZE);
	if (b->gtt)
		munmap((void *)b->gtt, BAR0_GGTT_SIZE);
	b->p = b->gtt = NULL;
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
	return *(volatile uint64_t *)(b->gtt + 8ull * index);
}

/* One 8-byte store, as i915's gen8_set_pte (writeq). */
void bar0_pte_w(const struct bar0 *b, uint32_t index, uint64_t pte)
{
	*(volatile uint64_t *)(b->gtt + 8ull * index) = pte;
	__sync_synchronize(); /* out of the write-combining buffer now */
}

int dc_stats_mark(unsigned int mark)
{
	struct bar0 b;
	int r = bar0_map(&b);

	if (r) {
		printf("mark %u: cannot map BAR0 through /dev/mem: %d\n", mark, r);
		return 1;
	}
	bar0_w32(&b, PV_G2V_NOTIFY, G2V_G9HV_MARK | (mark & 0xffff));
	bar0_unmap(&b);
	return 0;
}
