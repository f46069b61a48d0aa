/* The model-behind-MMIO GPU's PCI function (trapdev_access.h): config
 * space and the MSI it sends. Pure, so the host tests program it with the
 * same pgpu_msi code the hypervisor uses. */
#include "gpu/hw/pgpu_msi.h"
#include "hv/gpu/trapdev_access.h"
#include "mini/string.h"

#define MSI_ADDR_DM_LOGICAL (1u << 2)
#define MSI_DATA_DELIVERY_MASK 0x0700u

static uint32_t get32(const struct trapdev *td, uint16_t off)
{
	const uint8_t *c = td->cfg;

	return c[off] | c[off + 1] << 8 | c[off + 2] << 16 |
	       (uint32_t)c[off + 3] << 24;
}

static void put32(struct trapdev *td, uint16_t off, uint32_t v)
{
	for (unsigned b = 0; b < 4; b++)
		td->cfg[off + b] = (uint8_t)(v >> (8 * b));
}

void trapdev_cfg_init(struct trapdev *td)
{
	gen9_model_pci_config(td->model, td->cfg);
}

uint32_t trapdev_cfg_read(const struct trapdev *td, uint16_t off)
{
	return off <= GEN9_PCI_CFG_SIZE - 4 ? get32(td, off & ~3u) : ~0u;
}

/* A BAR: all ones reads back the size mask (the sizing protocol); any
 * other value puts back the fixed place, as a BAR the firmware assigned. */
static void bar_write(struct trapdev *td, uint16_t off, uint32_t v)
{
	bool bar2 = off >= GEN9_PCI_BAR2;
	uint64_t size = bar2 ? td->bar2_size : GEN9_BAR0_SIZE;
	uint64_t base = bar2 ? td->bar2 : td->bar0;

	if (v == 0xffffffffu && !(off & 4))
		put32(td, off, (uint32_t)~(size - 1) | (get32(td, off) & 0xf));
	else if (v == 0xffffffffu)
		put32(td, off, 0xffffffffu);
	else
		put32(td, off, (off & 4) ? (uint32_t)(base >> 32)
					 : (uint32_t)base | (get32(td, off) & 0xf));
}

void trapdev_cfg_write(struct trapdev *td, uint16_t off, uint32_t v)
{
	const uint32_t msi_en = PCI_MSI_FLAGS_ENABLE << 16;

	switch (off) {
	case GEN9_PCI_COMMAND: /* status is RW1C and never set here */
		put32(td, off, (get32(td, off) & ~0x7ffu) | (v & 0x7ffu));
		return;
	case GEN9_PCI_MSI_CAP: /* one vector: only the enable bit moves */
		put32(td, off, (get32(td, off) & ~msi_en) | (v & msi_en));
		return;
	case GEN9_PCI_MSI_ADDR:
		put32(td, off, v & ~3u);
		return;
	case GEN9_PCI_MSI_DATA:
		put32(td, off, v & 0xffffu);
		return;
	default:
		break;
	}
	if (off >= GEN9_PCI_BAR0 && off < GEN9_PCI_BAR4)
		bar_write(td, off, v);
}

bool trapdev_msi(struct trapdev *td, uint32_t *dest, uint8_t *vector)
{
	uint32_t addr = get32(td, GEN9_PCI_MSI_ADDR);
	uint16_t data = (uint16_t)get32(td, GEN9_PCI_MSI_DATA);

	if (!(get32(td, GEN9_PCI_MSI_CAP) & PCI_MSI_FLAGS_ENABLE << 16) ||
	    !(td->cfg[GEN9_PCI_COMMAND] & GEN9_PCI_CMD_MASTER)) {
		td->msi_disabled++;
		return false;
	}
	/* Outside the interrupt window the write would go to memory; a
	 * logical destination or a delivery mode other than fixed is not
	 * what pgpu_msi_program sets. */
	if ((addr & 0xfff00000u) != MSI_ADDR_BASE ||
	    (addr & MSI_ADDR_DM_LOGICAL) || (data & MSI_DATA_DELIVERY_MASK) ||
	    (data & 0xff) < 32) {
		td->msi_bad++;
		return false;
	}
	*dest = (addr >> MSI_ADDR_DEST_SHIFT) & 0xff;
	*vector = (uint8_t)data;
	td->msi_sent++;
	return true;
}
