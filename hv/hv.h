/* What hv_main learned about the machine at boot; read by the shell. */
#ifndef HV_HV_H
#define HV_HV_H

#include "boot/boot_info.h"
#include "hv/platform/acpi.h"
#include "hv/mm/paging.h"
#include "hv/platform/vtx_detect.h"

struct hv_platform {
	const struct boot_info *bi;
	bool has_acpi;
	struct acpi_info acpi;
	struct paging_info paging;
	struct vtx_verdict vtx;
	int gpu_index; /* index in pci_info()->devs of the Gen9 iGPU, or -1 */
};

extern struct hv_platform hv_platform;
extern const char hv_build_id[];

const char *mem_type_name(enum mem_type t);
uint64_t memmap_highest_addr(const struct boot_info *bi);
void memmap_print_summary(const struct boot_info *bi);

#endif
