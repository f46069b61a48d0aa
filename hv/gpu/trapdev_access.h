/* One trapped CPU access to the model-behind-MMIO GPU's BARs, emulated
 * against the software model (gpu/model) with the hardware's layout:
 * BAR0 = registers [0, 2 MiB), reserved [2, 8) MiB, GGTT PTEs [8, 16) MiB;
 * BAR2 = the aperture, translated through the GGTT by the model.
 * Pure code (no hypervisor state): the #PF glue is hv/gpu/gpu_trapdev.c,
 * the host test tests/unit/test_trapdev.c. */
#ifndef HV_GPU_TRAPDEV_ACCESS_H
#define HV_GPU_TRAPDEV_ACCESS_H

#include <stddef.h>
#include <stdint.h>

#include "gpu/model/gen9_model.h"
#include "hv/vmx/guest_regs.h"

struct trapdev {
	struct gen9_model *model;
	uint64_t bar0, bar2, bar2_size;
	/* Its PCI config space (trapdev_cfg.c), and where its MSIs went. */
	uint8_t cfg[GEN9_PCI_CFG_SIZE];
	uint64_t msi_sent, msi_disabled, msi_bad;
	/* What the accesses were: the figures the boot log and tests show. */
	uint64_t reg_reads, reg_writes, pte_reads, pte_writes, ap_bytes;
	uint64_t odd; /* widths or places the hardware does not define:
		       * reads all ones, writes dropped */
};

/* Does addr fall in one of td's windows? */
bool trapdev_claims(const struct trapdev *td, uint64_t addr);

/* Emulate the instruction in code[0..code_len) (64-bit mode) that faulted
 * at addr: loads update regs, stores reach the model. *insn_len = bytes
 * to advance rip. 0, or -HV_ENOTSUP (not a MOV-class access, or a string
 * move: the accessors in gpu/hw/mmio_backend.c never emit one) and
 * nothing is changed. */
int trapdev_access(struct trapdev *td, uint64_t addr, const uint8_t *code,
		   size_t code_len, struct guest_regs *regs,
		   uint8_t *insn_len);

/* ---- the PCI function (trapdev_cfg.c) ---- */
/* Config space from the model (gen9_model_pci_config), BARs at td's. */
void trapdev_cfg_init(struct trapdev *td);
uint32_t trapdev_cfg_read(const struct trapdev *td, uint16_t off);
/* Writable as on the iGPU: COMMAND (memory, bus master, INTx disable),
 * the MSI enable bit, address and data, the BARs' sizing protocol. */
void trapdev_cfg_write(struct trapdev *td, uint16_t off, uint32_t v);
/* The interrupt output rose: the MSI the device sends. true with the
 * LAPIC id and vector its address and data name (counted in msi_sent);
 * false when MSI or bus mastering is off (msi_disabled) or the message
 * is not a fixed interrupt to a physical APIC id (msi_bad). */
bool trapdev_msi(struct trapdev *td, uint32_t *dest, uint8_t *vector);

#endif
