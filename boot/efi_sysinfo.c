/* Platform facts only the firmware can tell us cheaply: where the ACPI tables
 * start and what framebuffer GOP set up. hv/ parses the tables itself. */
#include "boot/efi_util.h"
#include "mini/string.h"

static EFI_GUID acpi20_guid = ACPI_20_TABLE_GUID;
static EFI_GUID acpi10_guid = ACPI_TABLE_GUID;
static EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;

static uint64_t find_config_table(EFI_GUID *guid)
{
	for (UINTN i = 0; i < efi_st->NumberOfTableEntries; i++) {
		EFI_CONFIGURATION_TABLE *t = &efi_st->ConfigurationTable[i];

		if (memcmp(&t->VendorGuid, guid, sizeof(*guid)) == 0)
			return (uint64_t)(uintptr_t)t->VendorTable;
	}
	return 0;
}

/* UEFI 2.x 12.9: byte 0 of a RedGreenBlueReserved pixel is red, of a
 * BlueGreenRedReserved pixel blue; PixelBitMask names the bits. */
static void set_pixel_masks(struct boot_fb *fb,
			    const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info)
{
	switch (info->PixelFormat) {
	case PixelRedGreenBlueReserved8BitPerColor:
		fb->red_mask = 0x0000ff;
		fb->green_mask = 0x00ff00;
		fb->blue_mask = 0xff0000;
		break;
	case PixelBlueGreenRedReserved8BitPerColor:
		fb->red_mask = 0xff0000;
		fb->green_mask = 0x00ff00;
		fb->blue_mask = 0x0000ff;
		break;
	case PixelBitMask:
		fb->red_mask = info->PixelInformation.RedMask;
		fb->green_mask = info->PixelInformation.GreenMask;
		fb->blue_mask = info->PixelInformation.BlueMask;
		break;
	default:	/* PixelBltOnly: no framebuffer to draw in */
		break;
	}
}

static void collect_gop(struct boot_info *bi)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE *m;

	if (EFI_ERROR(efi_bs->LocateProtocol(&gop_guid, NULL, (void **)&gop)))
		return;
	m = gop->Mode;
	if (!m || !m->Info)
		return;
	bi->has_fb = true;
	bi->fb.base = m->FrameBufferBase;
	bi->fb.size = m->FrameBufferSize;
	bi->fb.width = m->Info->HorizontalResolution;
	bi->fb.height = m->Info->VerticalResolution;
	bi->fb.stride = m->Info->PixelsPerScanLine;
	bi->fb.format = m->Info->PixelFormat;
	set_pixel_masks(&bi->fb, m->Info);
}

void efi_collect_sysinfo(struct boot_info *bi)
{
	/* ACPI 2.0+ (XSDT) first; the 1.0 RSDP only has the 32-bit RSDT. */
	bi->acpi_rsdp = find_config_table(&acpi20_guid);
	if (!bi->acpi_rsdp)
		bi->acpi_rsdp = find_config_table(&acpi10_guid);
	collect_gop(bi);
}
