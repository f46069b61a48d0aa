/* How the hypervisor starts a raw 64-bit guest image (hv/vm/loader_raw64.c).
 *
 * The image is a flat binary copied to guest-physical RAW64_LOAD_GPA and
 * entered at its first byte, in 64-bit mode, CPL 0, interrupts off, with:
 *   RSI = RDI = RAW64_BOOT_INFO_GPA (struct raw64_boot_info)
 *   RSP = RAW64_STACK_TOP (a stack below the image, in guest RAM)
 *   CR3 = RAW64_PML4_GPA: identity map of the first 4 GiB with 2 MiB pages
 *         (so the guest reaches its RAM, the test device and addresses
 *         beyond its RAM, which fault in EPT)
 *   GDT at RAW64_GDT_GPA: 0x08 64-bit code, 0x10 data; IDT empty (limit 0).
 * Everything below RAW64_LOAD_GPA is the loader's; the guest may reuse the
 * stack area but should leave the tables alone. */
#ifndef G9HV_RAW64_BOOT_H
#define G9HV_RAW64_BOOT_H

#include <stdint.h>

#define RAW64_PML4_GPA		0x1000ull
#define RAW64_PDPT_GPA		0x2000ull
#define RAW64_PD_GPA		0x3000ull	/* 4 pages: 0x3000-0x6fff */
#define RAW64_GDT_GPA		0x7000ull
#define RAW64_BOOT_INFO_GPA	0x8000ull
#define RAW64_STACK_TOP		0x100000ull
#define RAW64_LOAD_GPA		0x100000ull
#define RAW64_MAPPED_BYTES	(4ull << 30)

#define RAW64_BOOT_MAGIC	0x3436574152564839ull	/* "9HVRAW64" */
#define RAW64_CMDLINE_MAX	512

struct raw64_boot_info {
	uint64_t magic;		/* RAW64_BOOT_MAGIC */
	uint64_t mem_bytes;	/* guest RAM: [0, mem_bytes) */
	uint32_t vm_id;
	uint32_t cmdline_len;	/* bytes, without the NUL */
	char vm_name[32];	/* NUL-terminated */
	char cmdline[RAW64_CMDLINE_MAX]; /* hv.cfg cmdline=, NUL-terminated */
};

#endif
