/* The iGPU's MSI capability (gen9-facts §1.2: ID 0x05 at 0xAC on hardware,
 * one vector, 32-bit address, no masking), found by walking the capability
 * list and programmed to send one vector to one local APIC (SDM 3A 10.11:
 * address 0xFEE<dest id>000, physical destination, no redirection hint;
 * data = vector, fixed delivery, edge). Pure: config space is reached
 * through callbacks, so the host tests run it against the model's. */
#ifndef GPU_HW_PGPU_MSI_H
#define GPU_HW_PGPU_MSI_H

#include <stdbool.h>
#include <stdint.h>

#define PCI_CAP_ID_MSI 0x05
#define PCI_MSI_FLAGS_ENABLE 0x0001u
#define PCI_MSI_FLAGS_QMASK 0x000eu /* multiple message capable */
#define PCI_MSI_FLAGS_QSIZE 0x0070u /* multiple message enable */
#define PCI_MSI_FLAGS_64BIT 0x0080u
#define PCI_COMMAND_INTX_DISABLE 0x0400u
#define MSI_ADDR_BASE 0xfee00000u
#define MSI_ADDR_DEST_SHIFT 12
#define MSI_DATA_LEVEL_ASSERT (1u << 14)

struct pgpu_cfg_io {
	void *ctx;
	uint32_t (*read32)(void *ctx, uint16_t off);
	void (*write32)(void *ctx, uint16_t off, uint32_t val);
};

struct pgpu_msi {
	uint8_t cap;	 /* offset of the capability */
	bool is64;	 /* 64-bit address capable (not on SKL) */
	uint32_t addr;	 /* what was programmed */
	uint16_t data;
};

/* Offset of the MSI capability, or 0 (no capability list, a loop, or
 * none). The walk is bounded: at most 48 capabilities. */
uint8_t pgpu_msi_find(const struct pgpu_cfg_io *io);

/* Point the MSI at APIC id dest with vector (32..254), then enable it and
 * disable INTx, leaving bus mastering on: MSI off while address and data
 * change, one vector (MME = 0). 0; -1 without an MSI capability; -2 for a
 * destination an MSI cannot name (x2APIC ids above 255 need interrupt
 * remapping) or a vector below 32. m may be NULL. */
int pgpu_msi_program(const struct pgpu_cfg_io *io, uint32_t dest,
		     uint8_t vector, struct pgpu_msi *m);

/* Read back what the capability holds: enabled or not, and addr/data. */
bool pgpu_msi_read(const struct pgpu_cfg_io *io, struct pgpu_msi *m);

#endif
