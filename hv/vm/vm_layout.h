/* Where a VM's RAM lies in its guest-physical space, as a PC has it: from
 * 0 up to the PCI hole, and what does not fit below the hole from 4 GiB
 * up. The hole [VM_PCI_HOLE_BASE, 4 GiB) holds the root bridge's memory
 * window (the vGPU's BARs), the IOAPIC and the LAPIC (docs/linux-guests.md,
 * "Guest-physical layout"). The RAM is one run of host memory: the part
 * above 4 GiB follows the part below it in that run. Pure, host-tested
 * (tests/unit/test_vm_layout.c). */
#ifndef HV_VM_VM_LAYOUT_H
#define HV_VM_VM_LAYOUT_H

#include <stdbool.h>
#include <stdint.h>

#define VM_PCI_HOLE_BASE	0xc0000000ull	/* == MMIO_HOLE_BASE */
#define VM_HIGH_RAM_BASE	0x100000000ull

struct vm_ram_layout {
	uint64_t low_end;	/* RAM [0, low_end) */
	uint64_t high_end;	/* RAM [4 GiB, high_end); 4 GiB: none */
};

/* bytes of RAM below hole_base (VM_PCI_HOLE_BASE; tests use a smaller
 * one), the rest from 4 GiB. hole_base must be <= 4 GiB. */
static inline void vm_ram_layout_init(struct vm_ram_layout *l,
				      uint64_t bytes, uint64_t hole_base)
{
	l->low_end = bytes < hole_base ? bytes : hole_base;
	l->high_end = VM_HIGH_RAM_BASE + (bytes - l->low_end);
}

static inline uint64_t vm_ram_high_bytes(const struct vm_ram_layout *l)
{
	return l->high_end - VM_HIGH_RAM_BASE;
}

/* [gpa, gpa+len) lies wholly in one of the two RAM parts (len > 0). */
static inline bool vm_ram_contains(const struct vm_ram_layout *l,
				   uint64_t gpa, uint64_t len)
{
	if (!len || gpa + len < gpa)
		return false;
	if (gpa + len <= l->low_end)
		return true;
	return gpa >= VM_HIGH_RAM_BASE && gpa + len <= l->high_end;
}

/* Offset of RAM address gpa (vm_ram_contains) in the VM's host run. */
static inline uint64_t vm_ram_offset(const struct vm_ram_layout *l,
				     uint64_t gpa)
{
	return gpa < l->low_end ? gpa : l->low_end + (gpa - VM_HIGH_RAM_BASE);
}

#endif
