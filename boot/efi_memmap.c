/* The final memory map and ExitBootServices.
 *
 * UEFI rule: ExitBootServices needs the key of the latest map; any allocation
 * (even the firmware's own, e.g. a timer event) changes the key. After a
 * failed ExitBootServices only GetMemoryMap may be called, so the buffer is
 * allocated once, with room to spare, before the loop. */
#include "boot/efi_util.h"

#define MAP_SLACK_DESCS 16
#define EBS_TRIES 8

static enum mem_type classify(UINT32 efi_type)
{
	switch (efi_type) {
	case EfiConventionalMemory:
		return MEM_USABLE;
	case EfiLoaderCode:
	case EfiLoaderData:
		return MEM_HV_IMAGE;
	case EfiBootServicesCode:
	case EfiBootServicesData:
	case EfiRuntimeServicesCode:
	case EfiRuntimeServicesData:
		return MEM_FIRMWARE;
	case EfiACPIReclaimMemory:
		return MEM_ACPI_RECLAIM;
	case EfiACPIMemoryNVS:
		return MEM_ACPI_NVS;
	case EfiMemoryMappedIO:
	case EfiMemoryMappedIOPortSpace:
		return MEM_MMIO;
	case EfiUnusableMemory:
		return MEM_UNUSABLE;
	default:
		return MEM_RESERVED;
	}
}

/* Adjacent descriptors of the same class are merged: the allocator wants few
 * large ranges, and OVMF's maps have many small neighbours. */
static void add_range(struct boot_info *bi, uint64_t base, uint64_t pages,
		      enum mem_type type)
{
	struct mem_range *last = bi->nr_mem ? &bi->mem[bi->nr_mem - 1] : NULL;

	if (last && last->type == type &&
	    last->base + last->pages * 4096 == base) {
		last->pages += pages;
		return;
	}
	if (bi->nr_mem == BOOT_MAX_MEM_RANGES) {
		bi->mem_dropped++;
		return;
	}
	bi->mem[bi->nr_mem++] = (struct mem_range){ base, pages, type };
}

static void convert_map(struct boot_info *bi, UINT8 *map, UINTN map_size,
			UINTN desc_size)
{
	bi->nr_mem = 0;
	bi->mem_dropped = 0;
	for (UINTN off = 0; off + desc_size <= map_size; off += desc_size) {
		EFI_MEMORY_DESCRIPTOR *d = (EFI_MEMORY_DESCRIPTOR *)(map + off);

		add_range(bi, d->PhysicalStart, d->NumberOfPages,
			  classify(d->Type));
	}
}

EFI_STATUS efi_exit_boot_services(struct boot_info *bi)
{
	UINTN map_size = 0, key, desc_size, cap;
	UINT32 desc_ver;
	UINT8 *map;
	EFI_STATUS s;

	s = efi_bs->GetMemoryMap(&map_size, NULL, &key, &desc_size, &desc_ver);
	if (s != EFI_BUFFER_TOO_SMALL)
		return s;
	cap = map_size + MAP_SLACK_DESCS * desc_size;
	map = efi_alloc_pages(cap);
	if (!map)
		return EFI_OUT_OF_RESOURCES;

	for (int i = 0; i < EBS_TRIES; i++) {
		map_size = cap;
		s = efi_bs->GetMemoryMap(&map_size, (EFI_MEMORY_DESCRIPTOR *)map,
					 &key, &desc_size, &desc_ver);
		if (EFI_ERROR(s))
			return s;
		convert_map(bi, map, map_size, desc_size);
		s = efi_bs->ExitBootServices(efi_image, key);
		if (s != EFI_INVALID_PARAMETER) /* stale key: take the map again */
			return s;
	}
	return s;
}
