/* A VM's devices as wholes: the second half of the per-VM device registry
 * (the first, hv/vm/mmio.h, maps MMIO and port ranges to handlers).
 *
 * A device that is more than a few registers (the vGPU, hv/gpu/vgpu_dev.c)
 * registers one `struct vdev` with the VM: its name, the PCI function it
 * answers at (config space through 0xCF8/0xCFC, hv/vm/vpci.c), its MMIO
 * and port ranges (registered with it, removed with it), whether it
 * reaches the VM's RAM by DMA (hv/vtd/vtd_vms.c), and hooks, each called with
 * the device's own opaque pointer:
 *   cfg_read/cfg_write  its PCI configuration space;
 *   page_write          a store emulated into a guest page it
 *                       write-protected (hv/vm/vm_mem.c vm_write_gpa);
 *   reset               the VM restarts in place (a guest reset or the
 *                       shell's `vm restart`, hv/vm/vm_restart.c): power-
 *                       cycle the device;
 *   teardown            the VM stopped for good: release everything
 *                       (the main loop, vdev_teardown_stopped).
 * Every hook is optional. hv/vm knows a device only through this table:
 * nothing here includes the device's own headers. The idea is ACRN's
 * (a vdev's ops plus its emulated ranges) cut to what one VM needs. */
#ifndef HV_VM_VDEV_H
#define HV_VM_VDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hv/vm/mmio.h"

struct vm;

#define VDEV_NO_BDF	0xffffffffu	/* answers no PCI config cycle */
#define VDEV_MMIO_MAX	2	/* MMIO regions of one device */
#define VDEV_PIO_MAX	2	/* port ranges of one device */

struct vdev_ops {
	/* Dword `reg` (4-aligned) of the device's config space: 0, or
	 * nonzero to read as absent (all ones). */
	int (*cfg_read)(void *opaque, unsigned reg, uint32_t *val);
	/* `size` bytes at config offset off, as the guest wrote them. */
	void (*cfg_write)(void *opaque, unsigned off, unsigned size,
			  uint32_t val);
	/* len bytes at gpa landed in a page the guest cannot write (EPT
	 * without W, RAM with R): a guest store the hypervisor emulated, or
	 * a store the hypervisor made on the guest's behalf. Never the
	 * device's own writes (vm_write_gpa_direct). The bytes are in
	 * guest memory already; pages the device does not track are its
	 * to ignore. */
	void (*page_write)(void *opaque, uint64_t gpa, const void *data,
			   size_t len);
	/* The VM restarts in place: 0, or nonzero when the device cannot
	 * come back (the VM is then stopped, not restarted). */
	int (*reset)(void *opaque);
	/* The VM has stopped: called once, from the main loop (never from
	 * inside an exit), after which the device and its ranges are gone
	 * from the VM. */
	void (*teardown)(void *opaque);
	/* The VM's firmware (hv/vm/vpci_fw.c, a VM booted as Linux) lends
	 * the device len bytes of guest memory at gpa, reserved in the
	 * guest's memory map, for a table its driver finds there (the
	 * vGPU's OpRegion); buf is that memory as the hypervisor sees it.
	 * The device fills it and returns the bytes it used, or 0 for
	 * none. At boot and after each restart. */
	size_t (*fw_region)(void *opaque, uint64_t gpa, void *buf,
			    size_t len);
};

struct vdev {
	const char *name;	/* in console lines: "its vGPU reset" */
	const struct vdev_ops *ops;
	void *opaque;
	uint32_t bdf;		/* VPCI_BDF(...) or VDEV_NO_BDF */
	bool dma;		/* reaches the VM's RAM by DMA */
	/* Its ranges (NULL-terminated when fewer): registered and removed
	 * with the device. A device that moves them (a BAR) updates gpa
	 * and size in place, as mmio.h says. */
	const struct mmio_region *mmio[VDEV_MMIO_MAX];
	const struct pio_region *pio[VDEV_PIO_MAX];
};

/* Adds the device and its ranges to the VM: 0, or -HV_ENOSPC (a table
 * is full) / -HV_EBUSY (a range or the BDF is taken), with nothing
 * registered. The vdev must outlive its registration. */
int vdev_register(struct vm *vm, const struct vdev *d);
/* Takes the device and its ranges out of the VM (no hook is called). */
void vdev_remove(struct vm *vm, const struct vdev *d);

/* The device answering config cycles for bdf, or NULL. */
const struct vdev *vdev_by_bdf(const struct vm *vm, uint32_t bdf);

/* vm_write_gpa: len bytes at gpa landed in a write-protected page; every
 * device with a page_write hook is told. */
void vdev_page_write(struct vm *vm, uint64_t gpa, const void *data,
		     size_t len);

/* vm_restart: every device's reset hook, in registration order. NULL, or
 * the first device that failed (the rest are not reset). */
const struct vdev *vdev_reset_all(struct vm *vm);
/* " with its vGPU reset" (the names of the devices with a reset hook,
 * joined by " and "), or "" when none: vm_restart's console line. */
void vdev_reset_note(const struct vm *vm, char *buf, size_t len);

/* The first device with a fw_region hook, or NULL. */
const struct vdev *vdev_with_fw_region(const struct vm *vm);

/* Does a device of the VM reach its RAM by DMA? */
bool vdev_any_dma(const struct vm *vm);

/* Every stopped VM's devices: their teardown hooks, then out of the VM.
 * The main loop, each round (hv/orchestrate.c). */
void vdev_teardown_stopped(void);

#endif
