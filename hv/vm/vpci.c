/* Virtual PCI configuration space; see vpci.h. */
#include "hv/vm/vpci.h"
#include "hv/vm/vm.h"

#define CF8_ENABLE	(1u << 31)
#define HOST_BRIDGE_ID	0x191f8086u	/* Skylake host bridge/DRAM regs */
#define HOST_BRIDGE_CLASS 0x06000000u	/* bridge, host, revision 0 */
#define PCI_CMD_STATUS_MEM 0x00000006u	/* memory + bus master enabled */

/* Dword `reg` of function bus:dev.fn. Only the host bridge exists. */
static uint32_t config_read(uint32_t bdf, unsigned reg)
{
	if (bdf != 0)
		return 0xffffffffu;
	switch (reg) {
	case 0x00: return HOST_BRIDGE_ID;
	case 0x04: return PCI_CMD_STATUS_MEM;
	case 0x08: return HOST_BRIDGE_CLASS;
	case 0x2c: return HOST_BRIDGE_ID;	/* subsystem = device */
	default: return 0;	/* header type 0, no BARs, no caps */
	}
}

void vpci_io(struct vm *vm, uint16_t port, unsigned size, bool in,
	     uint32_t *val)
{
	uint32_t addr = vm->pci_addr, dword;
	unsigned shift = (port & 3) * 8;

	if (port == VPCI_ADDR_PORT && size == 4) {
		if (in)
			*val = vm->pci_addr;
		else
			vm->pci_addr = *val & 0x80fffffcu;
		return;
	}
	if (port < VPCI_DATA_PORT) {	/* byte access to 0xCF8-0xCFB */
		if (in)
			*val = 0xffffffffu;
		return;
	}
	if (!in)
		return;		/* the host bridge has nothing writable */
	if (!(addr & CF8_ENABLE)) {
		*val = 0xffffffffu;
		return;
	}
	dword = config_read((addr >> 8) & 0xffff, addr & 0xfc);
	*val = dword >> shift;
}
