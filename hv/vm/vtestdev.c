/* The test device: one MMIO page every VM has at G9HV_TESTDEV_GPA, so the
 * test guest can exercise (and time) the whole MMIO path: EPT violation,
 * instruction fetch and decode, device model, register write-back. The
 * register map is in g9hv/hypercall.h; the VM registers it in
 * hv/vm/vm_devices.c. */
#include "guest-shim/include/g9hv/hypercall.h"
#include "hv/vm/mmio.h"
#include "hv/vm/vtestdev.h"
#include "hv/vm/vm.h"

#include "mini/string.h"

/* [off, off + size) of the memory window, or NULL when off is not in it
 * (the emulator never hands a device a piece crossing its end, and 8
 * divides the window's start). */
static uint8_t *testdev_mem(struct vm *vm, uint64_t off, unsigned size)
{
	if (off < G9HV_TESTDEV_MEM || size > 8 ||
	    off + size > G9HV_TESTDEV_MEM + G9HV_TESTDEV_MEM_SIZE)
		return NULL;
	return &vm->testdev_mem[off - G9HV_TESTDEV_MEM];
}

static uint64_t testdev_read(struct vm *vm, uint64_t off, unsigned size)
{
	uint8_t *mem = testdev_mem(vm, off, size);
	uint64_t v = 0;

	vm->testdev_count++;
	if (mem) {
		memcpy(&v, mem, size);
		return v;
	}
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
	uint8_t *mem = testdev_mem(vm, off, size);

	vm->testdev_count++;
	if (mem)
		memcpy(mem, &val, size);
	else if (off == G9HV_TESTDEV_SCRATCH)
		vm->testdev_scratch = val;
}

const struct mmio_region vtestdev_mmio = {
	"testdev", G9HV_TESTDEV_GPA, 0x1000, testdev_read, testdev_write,
	NULL,
};
