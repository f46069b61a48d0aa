/* The VM's PCI configuration space through ports 0xCF8/0xCFC (mechanism
 * #1): a Skylake host bridge at 00:00.0, the VM's vGPU at 00:02.0 when it
 * has one (config space from the mediator, gpu/vgpu/vgpu_cfg.c), and a
 * Sunrise Point LPC/ISA bridge at 00:1f.0 so i915 identifies the PCH.
 * Every other function reads as absent (all ones) and ignores writes. */
#ifndef HV_VM_VPCI_H
#define HV_VM_VPCI_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vm/mmio.h"

#define VPCI_ADDR_PORT 0xcf8
#define VPCI_DATA_PORT 0xcfc

struct vm;

/* One access to 0xCF8..0xCFF of `size` bytes. */
void vpci_io(struct vm *vm, uint16_t port, unsigned size, bool in,
	     uint32_t *val);

/* 0xCF8 and 0xCFC..0xCFF in the VM's device registry. */
extern const struct pio_region vpci_addr_pio, vpci_data_pio;

#endif
