/* The test device: one MMIO page every VM has at G9HV_TESTDEV_GPA, so the
 * test guest can exercise (and time) the whole MMIO path: EPT violation,
 * instruction fetch and decode, device model, register write-back. The
 * register map is in g9hv/hypercall.h. Other MMIO models (the vGPU BAR)
 * join the table in mmio_find. */
#include "guest-shim/include/g9hv/hypercall.h"
#include "hv/vm/mmio.h"
#include "hv/vm/vm.h"

static uint64_t testdev_read(struct vm *vm, uint64_t off, unsigned size)
{
	uint64_t v;

	(void)size;
	vm->testdev_count++;
	switch (off & ~7ull) {
	case G9HV_TESTDEV_SCRATCH: v = vm->testdev_scratch; break;
	case G9HV_TESTDEV_ID: v = G9HV_TESTDEV_MAGIC; break;
	case G9HV_TESTDEV_COUNT: v = vm->testdev_count; break;
	default: v = 0; break;
	}
	return v >> (8 * (off & 7));
}

static void testdev_write(struct vm *vm, uint64_t off, unsigned size,
			  uint64_t val)
{
	(void)size;
	vm->testdev_count++;
	if (off == G9HV_TESTDEV_SCRATCH)
		vm->testdev_scratch = val;
}

static const struct mmio_region regions[] = {
	{ "testdev", G9HV_TESTDEV_GPA, 0x1000, testdev_read, testdev_write },
};

static bool in_region(const struct mmio_region *r, uint64_t gpa)
{
	return r->size && gpa >= r->gpa && gpa - r->gpa < r->size;
}

/* The test device, then the VM's vGPU BARs (hv/gpu/vgpu_dev.c). */
const struct mmio_region *mmio_find(const struct vm *vm, uint64_t gpa)
{
	for (unsigned i = 0; i < sizeof(regions) / sizeof(regions[0]); i++)
		if (in_region(&regions[i], gpa))
			return &regions[i];
	for (unsigned i = 0; i < 2; i++)
		if (in_region(&vm->vgpu_bar[i], gpa))
			return &vm->vgpu_bar[i];
	return NULL;
}
