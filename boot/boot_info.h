/* What boot/ hands to hv_main after ExitBootServices. Everything it points to
 * lives in pages the firmware gave us as loader data (or in our image), which
 * stay ours after boot services are gone. No UEFI types cross this line: hv/
 * never includes the EFI headers. */
#ifndef BOOT_BOOT_INFO_H
#define BOOT_BOOT_INFO_H

#include <stdint.h>
#include "boot/config.h"

enum mem_type {
	MEM_USABLE,       /* free RAM: the page allocator's */
	MEM_HV_IMAGE,     /* our code and data, the loaded guest files */
	MEM_FIRMWARE,     /* boot services leftovers, runtime services */
	MEM_ACPI_RECLAIM, /* ACPI tables */
	MEM_ACPI_NVS,
	MEM_MMIO,
	MEM_RESERVED,
	MEM_UNUSABLE,
	MEM_TYPE_COUNT
};

struct mem_range {
	uint64_t base;
	uint64_t pages; /* 4 KiB pages */
	uint32_t type;  /* enum mem_type */
};

#define BOOT_MAX_MEM_RANGES 512
#define BOOT_MAX_FILES 32
#define BOOT_MAX_CPUS 64
/* Pages reserved below 1 MiB for the APs' real-mode start (hv/smp.c): the
 * code page and a copy of the top-level page table that 32-bit code can
 * reach (docs/smp.md). */
#define BOOT_AP_TRAMPOLINE_PAGES 2

struct boot_file {
	char path[128];
	const void *data;
	uint64_t size;
};

/* The framebuffer GOP left set up (32 bits per pixel in every GOP format
 * that has one). The masks say where red, green and blue are in a pixel;
 * all zero for PixelBltOnly (no linear framebuffer). */
struct boot_fb {
	uint64_t base;
	uint64_t size;
	uint32_t width, height, stride; /* stride in pixels */
	uint32_t format;                /* EFI_GRAPHICS_PIXEL_FORMAT value */
	uint32_t red_mask, green_mask, blue_mask;
};

struct boot_info {
	uint64_t image_base, image_size;
	uint64_t stack_base, stack_size; /* hv's own stack (loader data) */

	uint32_t nr_mem;
	struct mem_range mem[BOOT_MAX_MEM_RANGES];
	uint32_t mem_dropped; /* ranges beyond BOOT_MAX_MEM_RANGES (counted) */

	uint64_t acpi_rsdp; /* physical address, 0 if the firmware had none */
	bool has_fb;
	struct boot_fb fb;

	/* The logical CPUs UEFI's MP services knew (APIC ids), for machines
	 * whose firmware publishes no MADT (OVMF in Bochs); the MADT wins
	 * where there is one. nr_fw_cpus 0: the protocol was not there. */
	uint32_t nr_fw_cpus, fw_cpus_dropped;
	uint32_t fw_cpu_apic_id[BOOT_MAX_CPUS];
	/* BOOT_AP_TRAMPOLINE_PAGES reserved below 640 KiB as loader data, or
	 * 0 when the firmware had none there. */
	uint64_t ap_trampoline;

	const struct hv_config *cfg;
	bool cfg_found;     /* hv.cfg existed on the ESP */
	uint32_t nr_files;
	struct boot_file files[BOOT_MAX_FILES];
};

/* Find a file the loader brought in, by the path hv.cfg named. */
const struct boot_file *boot_find_file(const struct boot_info *bi,
				       const char *path);

/* What hv/ gives the UEFI phase, the other half of the contract: hv_main
 * takes the boot_info above, and the console (hv/console/console.c, which
 * includes this header so the compiler holds both to these declarations) is
 * up while boot services still run, so efi_main can print and route it.
 * console_set_sinks takes enum hvcfg_console bits (boot/config.h). */
void hv_main(const struct boot_info *bi) __attribute__((noreturn));
void console_init(void);
void console_set_sinks(unsigned mask);
void kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
