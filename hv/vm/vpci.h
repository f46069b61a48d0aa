/* The VM's PCI configuration space through ports 0xCF8/0xCFC (mechanism
 * #1): a Skylake host bridge at 00:00.0, a Sunrise Point LPC/ISA bridge
 * at 00:1f.0 so i915 identifies the PCH, and whatever function a device
 * registered with the VM (hv/vm/vdev.h: its cfg_read/cfg_write hooks; the
 * vGPU at 00:02.0, hv/gpu/vgpu_dev.c). Every other function reads as
 * absent (all ones) and ignores writes. */
#ifndef HV_VM_VPCI_H
#define HV_VM_VPCI_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vm/mmio.h"

#define VPCI_ADDR_PORT 0xcf8
#define VPCI_DATA_PORT 0xcfc

#define VPCI_BDF(b, d, f)	(((b) << 8) | ((d) << 3) | (f))

struct vm;

/* Dword `reg` (4-aligned) of function bdf (bus << 8 | dev << 3 | fn), as
 * the guest reads it through 0xCFC; absent functions read all ones. */
uint32_t vpci_config_read(struct vm *vm, uint32_t bdf, unsigned reg);

/* A write of `size` bytes at config offset off of function bdf, as the
 * guest's through 0xCFC..0xCFF (dropped where nothing is writable). */
void vpci_config_write(struct vm *vm, uint32_t bdf, unsigned off,
		       unsigned size, uint32_t val);

/* One access to 0xCF8..0xCFF of `size` bytes. */
void vpci_io(struct vm *vm, uint16_t port, unsigned size, bool in,
	     uint32_t *val);

/* 0xCF8 and 0xCFC..0xCFF in the VM's device registry. */
extern const struct pio_region vpci_addr_pio, vpci_data_pio;

#endif
