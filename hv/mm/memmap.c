/* Printing the boot memory map: a per-type summary, the way a person checks
 * that the machine has the RAM they expect. */
#include "hv/console/console.h"
#include "hv/hv.h"

static const char *const type_names[MEM_TYPE_COUNT] = {
	[MEM_USABLE] = "usable",
	[MEM_HV_IMAGE] = "hv+loaded",
	[MEM_FIRMWARE] = "firmware",
	[MEM_ACPI_RECLAIM] = "acpi",
	[MEM_ACPI_NVS] = "acpi-nvs",
	[MEM_MMIO] = "mmio",
	[MEM_RESERVED] = "reserved",
	[MEM_UNUSABLE] = "unusable",
};

const char *mem_type_name(enum mem_type t)
{
	return t < MEM_TYPE_COUNT ? type_names[t] : "?";
}

uint64_t memmap_highest_addr(const struct boot_info *bi)
{
	uint64_t top = 0;

	for (uint32_t i = 0; i < bi->nr_mem; i++) {
		uint64_t end = bi->mem[i].base + bi->mem[i].pages * 4096;

		if (end > top)
			top = end;
	}
	return top;
}

void memmap_print_summary(const struct boot_info *bi)
{
	uint64_t pages[MEM_TYPE_COUNT] = { 0 };

	for (uint32_t i = 0; i < bi->nr_mem; i++)
		if (bi->mem[i].type < MEM_TYPE_COUNT)
			pages[bi->mem[i].type] += bi->mem[i].pages;
	kprintf("memory map: %u ranges (%u dropped), highest address %llx\n",
		bi->nr_mem, bi->mem_dropped,
		(unsigned long long)memmap_highest_addr(bi));
	for (unsigned t = 0; t < MEM_TYPE_COUNT; t++)
		if (pages[t])
			kprintf("  %-10s %8llu KiB\n", type_names[t],
				(unsigned long long)pages[t] * 4);
}
