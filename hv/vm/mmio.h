/* The per-VM device registry: which virtual device answers which
 * guest-physical MMIO range and which I/O ports.
 *
 * Every device a VM has registers its ranges here (hv/vm/vm_devices.c
 * lists them all, in one place); the exit handlers only look them up:
 * EPT violations (hv/vm/exit_ept.c) through mmio_find, I/O instructions
 * (hv/vm/exit_io.c) through pio_find. The registry keeps pointers to the
 * devices' descriptors, so a device that moves (a PCI BAR the guest
 * reprograms) updates its descriptor's gpa/size in place; size 0 means
 * "not decoded now". Same idea as ACRN's register_mmio_emulation_handler
 * and register_pio_emulation_handler. */
#ifndef HV_VM_MMIO_H
#define HV_VM_MMIO_H

#include <stdbool.h>
#include <stdint.h>

struct vm;

#define VM_MMIO_MAX	8	/* registered MMIO regions per VM */
#define VM_PIO_MAX	16	/* registered port ranges per VM */
#define VM_VDEV_MAX	4	/* registered whole devices per VM (vdev.h) */

struct vdev;

/* Guest-physical ranges EPT leaves unmapped so every access exits; the
 * EPT-violation handler decodes the instruction and calls read or write
 * with the offset into the region, the width (1, 2, 4, 8) and the value. */
struct mmio_region {
	const char *name;
	uint64_t gpa, size;
	uint64_t (*read)(struct vm *vm, uint64_t off, unsigned size);
	void (*write)(struct vm *vm, uint64_t off, unsigned size, uint64_t val);
	/* Optional: the device maps pages of the region on demand. Called
	 * first on an access to an unmapped page; if the page is mapped
	 * afterwards the guest repeats the access itself, else it is
	 * emulated through read/write. */
	void (*fault)(struct vm *vm, uint64_t off);
};

/* One IN/OUT of `size` bytes (1, 2, 4) to `port`; an IN stores into *val
 * (preset to all ones), an OUT reads *val. */
typedef void (*pio_fn)(struct vm *vm, uint16_t port, unsigned size, bool in,
		       uint32_t *val);

struct pio_region {
	const char *name;
	uint16_t first, count;	/* ports first .. first+count-1 */
	pio_fn io;
};

/* The VM's tables (embedded in struct vm). A whole device (vdev.h) is
 * known here only as an opaque slot: its hooks and its own pointer. */
struct vm_devices {
	const struct mmio_region *mmio[VM_MMIO_MAX];
	const struct pio_region *pio[VM_PIO_MAX];
	const struct vdev *vdev[VM_VDEV_MAX];
	unsigned nr_mmio, nr_pio, nr_vdev;
};

/* Registers a device's MMIO region or port range with the VM. 0, or
 * -HV_ENOSPC when the table is full, -HV_EBUSY when it overlaps a range
 * already registered (a configuration bug: the VM is not created). */
int vm_register_mmio(struct vm *vm, const struct mmio_region *r);
int vm_register_pio(struct vm *vm, const struct pio_region *r);
/* Takes a region or range out again (a device that goes, vdev.h); the
 * others keep their order. Not registered: nothing happens. */
void vm_unregister_mmio(struct vm *vm, const struct mmio_region *r);
void vm_unregister_pio(struct vm *vm, const struct pio_region *r);

/* The region decoding gpa / port now, or NULL. */
const struct mmio_region *mmio_find(const struct vm *vm, uint64_t gpa);
const struct pio_region *pio_find(const struct vm *vm, uint16_t port);

/* A region other than `self` that decodes part of [gpa, gpa+size), or
 * NULL: for devices that move (a BAR must not land on another device). */
const struct mmio_region *mmio_overlap(const struct vm *vm, uint64_t gpa,
				       uint64_t size,
				       const struct mmio_region *self);

/* What answers guest-physical addresses of the PC's device window
 * [MMIO_HOLE_BASE, MMIO_HOLE_END) that no device decodes (the offsets
 * passed to it are the full address). */
#define MMIO_HOLE_BASE	0xc0000000ull
#define MMIO_HOLE_END	0x100000000ull
extern const struct mmio_region mmio_unclaimed;

/* Registers every device of the VM's platform (hv/vm/vm_devices.c). */
int vm_devices_init(struct vm *vm);

#endif
