/* Virtual PCI configuration space; see vpci.h. */
#include "hv/vm/vpci.h"
#include "hv/vm/vdev.h"
#include "hv/vm/vm.h"

#define CF8_ENABLE	(1u << 31)
#define HOST_BRIDGE_ID	0x191f8086u	/* Skylake host bridge/DRAM regs */
#define HOST_BRIDGE_CLASS 0x06000000u	/* bridge, host, revision 0 */
/* An Intel Z170 LPC bridge: i915 finds the PCH by scanning ISA bridges and
 * masking the device id with 0xff80 (0xa100 = Sunrise Point, i915-guest
 * §6.3). Without it a guest on an unknown hypervisor finds no PCH. */
#define ISA_BRIDGE_ID	0xa1458086u
#define ISA_BRIDGE_CLASS 0x06010000u	/* bridge, ISA, revision 0 */
#define PCI_CMD_STATUS_MEM 0x00000006u	/* memory + bus master enabled */
#define PCI_HDR_MULTIFUNC 0x00800000u	/* dword 0x0c: header type bit 7 */

/* A bridge with nothing programmable: ids, class, header. */
static uint32_t bridge_read(uint32_t id, uint32_t class, uint32_t hdr,
			    unsigned reg)
{
	switch (reg) {
	case 0x00: return id;
	case 0x04: return PCI_CMD_STATUS_MEM;
	case 0x08: return class;
	case 0x0c: return hdr;
	case 0x2c: return id;	/* subsystem = device */
	default: return 0;	/* no BARs, no capabilities */
	}
}

uint32_t vpci_config_read(struct vm *vm, uint32_t bdf, unsigned reg)
{
	const struct vdev *d;
	uint32_t val;

	if (bdf == VPCI_BDF(0, 0, 0))
		return bridge_read(HOST_BRIDGE_ID, HOST_BRIDGE_CLASS, 0, reg);
	if (bdf == VPCI_BDF(0, 0x1f, 0))
		return bridge_read(ISA_BRIDGE_ID, ISA_BRIDGE_CLASS,
				   PCI_HDR_MULTIFUNC, reg);
	d = vdev_by_bdf(vm, bdf);
	if (d && d->ops->cfg_read && !d->ops->cfg_read(d->opaque, reg, &val))
		return val;
	return 0xffffffffu;
}

/* Only registered devices (vdev.h) have writable registers. */
void vpci_config_write(struct vm *vm, uint32_t bdf, unsigned off,
		       unsigned size, uint32_t val)
{
	const struct vdev *d = vdev_by_bdf(vm, bdf);

	if (d && d->ops->cfg_write)
		d->ops->cfg_write(d->opaque, off, size, val);
}

void vpci_io(struct vm *vm, uint16_t port, unsigned size, bool in,
	     uint32_t *val)
{
	uint32_t addr = vm->pci_addr, bdf = (addr >> 8) & 0xffff;
	unsigned byte = port & 3, shift = byte * 8;

	if (port == VPCI_ADDR_PORT && size == 4) {
		if (in)
			*val = vm->pci_addr;
		else
			vm->pci_addr = *val & 0x80fffffcu;
		return;
	}
	if (port < VPCI_DATA_PORT || !(addr & CF8_ENABLE) ||
	    byte + size > 4) {
		/* byte access to 0xCF8-0xCFB, disabled, or straddling */
		if (in)
			*val = 0xffffffffu;
		return;
	}
	if (in)
		*val = vpci_config_read(vm, bdf, addr & 0xfc) >> shift;
	else
		vpci_config_write(vm, bdf, (addr & 0xfc) + byte, size, *val);
}

/* Two ranges: 0xCF9 between them is the reset control register (a byte
 * port; a dword access at 0xCF8 is CONFIG_ADDRESS, as on a PC). */
const struct pio_region vpci_addr_pio = {
	"PCI config address", VPCI_ADDR_PORT, 1, vpci_io,
};

const struct pio_region vpci_data_pio = {
	"PCI config data", VPCI_DATA_PORT, 4, vpci_io,
};
