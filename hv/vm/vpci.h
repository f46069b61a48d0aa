/* The VM's PCI configuration space through ports 0xCF8/0xCFC (mechanism
 * #1). For now it holds one device, a host bridge at 00:00.0; every other
 * function reads as absent (all ones) and ignores writes. The vGPU joins
 * at 00:02.0 with issue 4. */
#ifndef HV_VM_VPCI_H
#define HV_VM_VPCI_H

#include <stdbool.h>
#include <stdint.h>

#define VPCI_ADDR_PORT 0xcf8
#define VPCI_DATA_PORT 0xcfc

struct vm;

/* One access to 0xCF8..0xCFF of `size` bytes. */
void vpci_io(struct vm *vm, uint16_t port, unsigned size, bool in,
	     uint32_t *val);

#endif
