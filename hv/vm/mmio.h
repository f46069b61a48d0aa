/* Emulated MMIO: guest-physical ranges that EPT leaves unmapped so every
 * access exits, and the device model that answers. The EPT-violation
 * handler decodes the guest's instruction (hv/vmx/insn_decode) and calls
 * the region's read or write with the offset, width and value. */
#ifndef HV_VM_MMIO_H
#define HV_VM_MMIO_H

#include <stdint.h>

struct vm;

struct mmio_region {
	const char *name;
	uint64_t gpa, size;
	uint64_t (*read)(struct vm *vm, uint64_t off, unsigned size);
	void (*write)(struct vm *vm, uint64_t off, unsigned size, uint64_t val);
};

/* The region containing gpa, or NULL. */
const struct mmio_region *mmio_find(const struct vm *vm, uint64_t gpa);

#endif
