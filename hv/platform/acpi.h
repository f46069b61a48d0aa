/* The few ACPI facts the hypervisor needs, parsed from the RSDP the firmware
 * handed over: CPUs and I/O APICs (MADT), PCI ECAM windows (MCFG) and the
 * VT-d remapping units (DMAR, Intel VT-d spec chapter 8). */
#ifndef HV_ACPI_H
#define HV_ACPI_H

#include <stdbool.h>
#include <stdint.h>

#define ACPI_MAX_MCFG 4
/* Local APIC ids kept from the MADT; a machine with more enabled CPUs has
 * them counted in nr_cpus and the rest in cpus_dropped. */
#define ACPI_MAX_CPUS 64

struct acpi_mcfg {
	uint64_t base;
	uint16_t segment;
	uint8_t bus_start, bus_end;
};

#define ACPI_MAX_DRHD 4
#define ACPI_MAX_RMRR 4
#define ACPI_MAX_DRHD_SCOPES 32

/* One DMA-remapping hardware unit (DRHD). */
struct acpi_drhd {
	uint64_t base;		/* its register page */
	uint16_t segment;
	bool include_all;	/* INCLUDE_PCI_ALL: every device not named
				 * by another unit's scope */
	bool igpu;		/* its scope names the endpoint 00:02.0 */
	/* The endpoints and bridges its scope names by a one-hop path
	 * (start bus, device, function): bus << 8 | devfn. A Skylake's
	 * graphics unit names 00:02.0; QEMU's q35 unit names every function
	 * on bus 0 instead of setting INCLUDE_PCI_ALL. Longer paths (behind
	 * bridges) and entries past the array are counted, not resolved. */
	uint8_t nr_scopes, scopes_skipped;
	uint16_t scope[ACPI_MAX_DRHD_SCOPES];
};

/* A reserved memory region a device keeps using (RMRR): the unit must
 * map it 1:1 for the devices in its scope. */
struct acpi_rmrr {
	uint64_t base, limit;	/* limit inclusive, as in the table */
	bool igpu;
};

struct acpi_dmar {
	bool present;
	uint8_t haw;		/* host address width - 1 */
	uint8_t flags;		/* bit 0 INTR_REMAP, bit 1 X2APIC_OPT_OUT */
	uint32_t nr_drhd, nr_rmrr, dropped;
	struct acpi_drhd drhd[ACPI_MAX_DRHD];
	struct acpi_rmrr rmrr[ACPI_MAX_RMRR];
};

struct acpi_info {
	uint8_t revision;       /* RSDP revision: 0 = ACPI 1.0 (RSDT), 2+ = XSDT */
	bool xsdt;
	uint32_t nr_tables;
	char oem_id[7];
	bool has_madt;
	uint32_t lapic_base;
	uint32_t nr_cpus;       /* enabled local APIC / x2APIC entries */
	/* Their APIC ids, in table order (the SMP bring-up's list,
	 * hv/smp.c); entries past ACPI_MAX_CPUS are only counted. */
	uint32_t cpu_apic_id[ACPI_MAX_CPUS];
	uint32_t nr_cpu_ids, cpus_dropped;
	uint32_t nr_ioapics;
	uint32_t nr_mcfg;
	struct acpi_mcfg mcfg[ACPI_MAX_MCFG];
	uint32_t bad_checksums; /* tables skipped because they did not sum to 0 */
	struct acpi_dmar dmar;
};

/* phys_limit bounds every pointer followed (tables above it are refused), so
 * corrupt firmware tables cannot send the parser into unmapped space. */
int acpi_parse(uint64_t rsdp_pa, uint64_t phys_limit, struct acpi_info *out);

/* The unit that translates DMA from bus:devfn on segment 0: the one whose
 * scope names it, else the INCLUDE_PCI_ALL one; NULL when none. */
const struct acpi_drhd *acpi_dmar_unit_for(const struct acpi_dmar *d,
					   uint8_t bus, uint8_t devfn);
/* The same for the iGPU (00:02.0). */
const struct acpi_drhd *acpi_dmar_igpu_unit(const struct acpi_dmar *d);

#endif
