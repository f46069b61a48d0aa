/* The few ACPI facts the hypervisor needs, parsed from the RSDP the firmware
 * handed over: CPUs and I/O APICs (MADT) and PCI ECAM windows (MCFG). */
#ifndef HV_ACPI_H
#define HV_ACPI_H

#include <stdbool.h>
#include <stdint.h>

#define ACPI_MAX_MCFG 4

struct acpi_mcfg {
	uint64_t base;
	uint16_t segment;
	uint8_t bus_start, bus_end;
};

struct acpi_info {
	uint8_t revision;       /* RSDP revision: 0 = ACPI 1.0 (RSDT), 2+ = XSDT */
	bool xsdt;
	uint32_t nr_tables;
	char oem_id[7];
	bool has_madt;
	uint32_t lapic_base;
	uint32_t nr_cpus;       /* enabled local APIC / x2APIC entries */
	uint32_t nr_ioapics;
	uint32_t nr_mcfg;
	struct acpi_mcfg mcfg[ACPI_MAX_MCFG];
	uint32_t bad_checksums; /* tables skipped because they did not sum to 0 */
};

/* phys_limit bounds every pointer followed (tables above it are refused), so
 * corrupt firmware tables cannot send the parser into unmapped space. */
int acpi_parse(uint64_t rsdp_pa, uint64_t phys_limit, struct acpi_info *out);

#endif
