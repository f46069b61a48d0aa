#include "boot/efi_util.h"

struct status_name {
	EFI_STATUS status;
	const char *name;
};

static const struct status_name status_names[] = {
	{ EFI_SUCCESS, "SUCCESS" },
	{ EFI_LOAD_ERROR, "LOAD_ERROR" },
	{ EFI_INVALID_PARAMETER, "INVALID_PARAMETER" },
	{ EFI_UNSUPPORTED, "UNSUPPORTED" },
	{ EFI_BUFFER_TOO_SMALL, "BUFFER_TOO_SMALL" },
	{ EFI_DEVICE_ERROR, "DEVICE_ERROR" },
	{ EFI_VOLUME_CORRUPTED, "VOLUME_CORRUPTED" },
	{ EFI_OUT_OF_RESOURCES, "OUT_OF_RESOURCES" },
	{ EFI_NOT_FOUND, "NOT_FOUND" },
	{ EFI_ACCESS_DENIED, "ACCESS_DENIED" },
	{ EFI_END_OF_FILE, "END_OF_FILE" },
};

const char *efi_status_name(EFI_STATUS s)
{
	for (unsigned i = 0; i < sizeof(status_names) / sizeof(status_names[0]);
	     i++)
		if (status_names[i].status == s)
			return status_names[i].name;
	return "UNKNOWN_STATUS";
}
