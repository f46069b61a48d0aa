/* Which device BOOTX64.EFI was started from, said on the console: on a real
 * PC the first thing to know when hv.cfg or a guest file is not found is
 * whether the firmware booted the stick one thinks it did (a USB stick
 * shows as .../USB(...)/HD(1,GPT,...), a disk as .../Sata(...) or NVMe). */
#include "boot/efi_util.h"

static EFI_GUID loaded_image_guid = LOADED_IMAGE_PROTOCOL;
static EFI_GUID device_path_guid = DEVICE_PATH_PROTOCOL;
static EFI_GUID to_text_guid = EFI_DEVICE_PATH_TO_TEXT_PROTOCOL_GUID;

#define PATH_TEXT_MAX 200

void efi_print_boot_device(void)
{
	EFI_LOADED_IMAGE *li;
	EFI_DEVICE_PATH *dp;
	EFI_DEVICE_PATH_TO_TEXT_PROTOCOL *tt;
	CHAR16 *text;
	char ascii[PATH_TEXT_MAX];
	size_t n = 0;
	bool cut;

	if (EFI_ERROR(efi_bs->HandleProtocol(efi_image, &loaded_image_guid,
					     (void **)&li)) ||
	    EFI_ERROR(efi_bs->HandleProtocol(li->DeviceHandle,
					     &device_path_guid, (void **)&dp))) {
		kprintf("boot: the boot device has no device path\n");
		return;
	}
	if (EFI_ERROR(efi_bs->LocateProtocol(&to_text_guid, NULL,
					     (void **)&tt)) ||
	    !(text = tt->ConvertDevicePathToText(dp, FALSE, FALSE))) {
		kprintf("boot: the firmware cannot print the boot device's "
			"path\n");
		return;
	}
	/* Device path text is ASCII in practice; anything else shows as '?'. */
	for (; text[n] && n + 1 < sizeof(ascii); n++)
		ascii[n] = text[n] < 0x80 && text[n] >= 0x20 ? (char)text[n]
							      : '?';
	ascii[n] = 0;
	cut = text[n] != 0;
	efi_bs->FreePool(text);
	kprintf("boot: started from %s%s\n", ascii, cut ? "..." : "");
}
