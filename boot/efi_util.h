/* Small helpers shared by the UEFI-phase files of boot/. */
#ifndef BOOT_EFI_UTIL_H
#define BOOT_EFI_UTIL_H

#include <efi.h>
#include "boot/boot_info.h"

extern EFI_SYSTEM_TABLE *efi_st;
extern EFI_BOOT_SERVICES *efi_bs;
extern EFI_HANDLE efi_image;

/* Short human name of an EFI_STATUS ("NOT_FOUND", ...). */
const char *efi_status_name(EFI_STATUS s);

/* Allocates whole pages as EfiLoaderData (they survive ExitBootServices). */
void *efi_alloc_pages(UINTN bytes);

/* Reads a file from the volume BOOTX64.EFI was loaded from. */
EFI_STATUS efi_read_file(const char *path, void **data, UINT64 *size);

void efi_collect_sysinfo(struct boot_info *bi);
/* The CPUs of UEFI's MP services and the APs' start pages (efi_cpus.c). */
void efi_collect_cpus(struct boot_info *bi);

/* Prints the device path of the volume we were loaded from (efi_bootdev.c). */
void efi_print_boot_device(void);

/* Takes the final memory map into bi and exits boot services; retries when
 * the map key goes stale. Returns EFI_SUCCESS or the last error. */
EFI_STATUS efi_exit_boot_services(struct boot_info *bi);

#endif
