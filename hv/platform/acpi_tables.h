/* ACPI table layouts the hypervisor reads (ACPI 6.x, chapter 5.2). Shared by
 * the walker (hv/platform/acpi.c) and the tests that build tables to feed it. */
#ifndef HV_ACPI_TABLES_H
#define HV_ACPI_TABLES_H

#include <stdint.h>

struct acpi_rsdp {
	char signature[8];
	uint8_t checksum;
	char oem_id[6];
	uint8_t revision;
	uint32_t rsdt;
	uint32_t length;
	uint64_t xsdt;
	uint8_t ext_checksum;
	uint8_t reserved[3];
} __attribute__((packed));

struct acpi_sdt_header {
	char signature[4];
	uint32_t length;
	uint8_t revision;
	uint8_t checksum;
	char oem_id[6];
	char oem_table_id[8];
	uint32_t oem_revision;
	uint32_t creator_id;
	uint32_t creator_revision;
} __attribute__((packed));

_Static_assert(sizeof(struct acpi_rsdp) == 36, "RSDP v2 is 36 bytes");
_Static_assert(sizeof(struct acpi_sdt_header) == 36, "SDT header is 36 bytes");

#endif
