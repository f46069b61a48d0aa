/* The iGPU's MSI capability (pgpu_msi.h). */
#include "gpu/hw/gen9_regs.h"
#include "gpu/hw/pgpu_msi.h"
#include "mini/string.h"

#define PCI_STATUS_CAP_LIST 0x0010u
#define MAX_CAPS 48

static uint16_t rd16(const struct pgpu_cfg_io *io, uint16_t off)
{
	return (uint16_t)(io->read32(io->ctx, off & ~3u) >> (8 * (off & 2)));
}

/* Only the high (control) half of the capability's first dword changes:
 * the ID and next pointer are read-only, written back as read. */
static void wr_ctrl(const struct pgpu_cfg_io *io, uint8_t cap, uint16_t ctrl)
{
	uint32_t v = io->read32(io->ctx, cap);

	io->write32(io->ctx, cap, (v & 0xffffu) | (uint32_t)ctrl << 16);
}

uint8_t pgpu_msi_find(const struct pgpu_cfg_io *io)
{
	uint8_t pos;

	if (!(rd16(io, GEN9_PCI_COMMAND + 2) & PCI_STATUS_CAP_LIST))
		return 0;
	pos = (uint8_t)io->read32(io->ctx, GEN9_PCI_CAP_PTR) & 0xfc;
	for (int n = 0; n < MAX_CAPS && pos >= 0x40; n++) {
		uint16_t hdr = rd16(io, pos);

		if ((hdr & 0xff) == PCI_CAP_ID_MSI)
			return pos;
		pos = (uint8_t)(hdr >> 8) & 0xfc;
	}
	return 0;
}

bool pgpu_msi_read(const struct pgpu_cfg_io *io, struct pgpu_msi *m)
{
	uint8_t cap = pgpu_msi_find(io);
	uint16_t ctrl;

	memset(m, 0, sizeof(*m));
	if (!cap)
		return false;
	ctrl = rd16(io, cap + 2);
	m->cap = cap;
	m->is64 = ctrl & PCI_MSI_FLAGS_64BIT;
	m->addr = io->read32(io->ctx, cap + 4);
	m->data = rd16(io, cap + (m->is64 ? 12 : 8));
	return ctrl & PCI_MSI_FLAGS_ENABLE;
}

int pgpu_msi_program(const struct pgpu_cfg_io *io, uint32_t dest,
		     uint8_t vector, struct pgpu_msi *m)
{
	struct pgpu_msi got;
	uint16_t ctrl, cmd;
	uint8_t data_off;

	if (dest > 0xff || vector < 32)
		return -2;
	got.cap = pgpu_msi_find(io);
	if (!got.cap)
		return -1;
	ctrl = rd16(io, got.cap + 2);
	got.is64 = ctrl & PCI_MSI_FLAGS_64BIT;
	got.addr = MSI_ADDR_BASE | dest << MSI_ADDR_DEST_SHIFT;
	got.data = (uint16_t)(MSI_DATA_LEVEL_ASSERT | vector);
	ctrl &= (uint16_t)~(PCI_MSI_FLAGS_ENABLE | PCI_MSI_FLAGS_QSIZE);
	wr_ctrl(io, got.cap, ctrl);
	io->write32(io->ctx, got.cap + 4, got.addr);
	if (got.is64)
		io->write32(io->ctx, got.cap + 8, 0);
	data_off = (uint8_t)(got.cap + (got.is64 ? 12 : 8));
	/* Data is the low 16 bits of its dword; the high half is reserved
	 * (or the mask register on capabilities that have one: not SKL's). */
	io->write32(io->ctx, data_off,
		    (io->read32(io->ctx, data_off) & 0xffff0000u) | got.data);
	/* INTx off, memory and bus master on: an MSI is a memory write the
	 * device masters. The status half of the dword is write-1-to-clear:
	 * zeros leave it alone. */
	cmd = rd16(io, GEN9_PCI_COMMAND);
	cmd |= PCI_COMMAND_INTX_DISABLE | GEN9_PCI_CMD_MEM | GEN9_PCI_CMD_MASTER;
	io->write32(io->ctx, GEN9_PCI_COMMAND, cmd);
	wr_ctrl(io, got.cap, ctrl | PCI_MSI_FLAGS_ENABLE);
	if (m)
		*m = got;
	return 0;
}
