/* The test device: one MMIO page every VM has at G9HV_TESTDEV_GPA, so the
 * test guest can exercise (and time) the whole MMIO path: EPT violation,
 * instruction fetch and decode, device model, register write-back. The
 * register map is in g9hv/hypercall.h; the VM registers it in
 * hv/vm/vm_devices.c. */
#include "guest-shim/include/g9hv/hypercall.h"
#include "hv/vm/mmio.h"
#include "hv/vm/vtestdev.h"
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

const struct mmio_region vtestdev_mmio = {
	"testdev", G9HV_TESTDEV_GPA, 0x1000, testdev_read, testdev_write,
	NULL,
};
