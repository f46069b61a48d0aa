/* The Linux x86 boot protocol (Documentation/arch/x86/boot.rst): the
 * setup header of a bzImage, and where a loader puts what.
 *
 * Pure functions over bytes, no hypervisor state: the host unit tests run
 * them on Debian's real vmlinuz and on crafted bad ones, and the fuzzer on
 * anything. hv/vm/loader_linux.c writes the result into a VM. */
#ifndef HV_VM_BZIMAGE_H
#define HV_VM_BZIMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Offsets in the image's first sector = in struct boot_params (the zero
 * page), which begins with a copy of that sector. */
#define BP_ACPI_RSDP_ADDR	0x070	/* u64 */
#define BP_EXT_RAMDISK_IMAGE	0x0c0	/* u32: bits 32..63 */
#define BP_EXT_RAMDISK_SIZE	0x0c4
#define BP_EXT_CMD_LINE_PTR	0x0c8
#define BP_E820_ENTRIES		0x1e8	/* u8 */
#define BP_SETUP_SECTS		0x1f1	/* u8, 0 means 4 */
#define BP_SYSSIZE		0x1f4	/* u32, 16-byte paragraphs */
#define BP_BOOT_FLAG		0x1fe	/* u16 0xAA55 */
#define BP_JUMP			0x200	/* u8 0xEB, u8 offset: header end */
#define BP_HEADER		0x202	/* "HdrS" */
#define BP_VERSION		0x206	/* u16 */
#define BP_TYPE_OF_LOADER	0x210	/* u8 */
#define BP_LOADFLAGS		0x211	/* u8 */
#define BP_RAMDISK_IMAGE	0x218	/* u32 */
#define BP_RAMDISK_SIZE		0x21c	/* u32 */
#define BP_HEAP_END_PTR		0x224	/* u16 */
#define BP_CMD_LINE_PTR		0x228	/* u32 */
#define BP_INITRD_ADDR_MAX	0x22c	/* u32 */
#define BP_KERNEL_ALIGNMENT	0x230	/* u32 */
#define BP_RELOCATABLE		0x234	/* u8 */
#define BP_XLOADFLAGS		0x236	/* u16 */
#define BP_CMDLINE_SIZE		0x238	/* u32 */
#define BP_PREF_ADDRESS		0x258	/* u64 */
#define BP_INIT_SIZE		0x260	/* u32 */
#define BP_HDR_END_MIN		0x264	/* end of the fields we read */
#define BP_E820_TABLE		0x2d0	/* 128 x {u64 addr, u64 size, u32 type} */
#define BP_E820_MAX		128
#define BP_SIZE			0x1000

#define BZ_BOOT_FLAG		0xaa55
#define BZ_HDRS			0x53726448u	/* "HdrS" */
#define BZ_MIN_VERSION		0x020c	/* 2.12: xloadflags, 64-bit entry */
#define LOADFLAG_LOADED_HIGH	0x01
#define LOADFLAG_KEEP_SEGMENTS	0x40
#define LOADFLAG_CAN_USE_HEAP	0x80
#define XLF_KERNEL_64		0x01	/* has the 64-bit entry at +0x200 */
#define BZ_ENTRY64_OFFSET	0x200
#define BZ_LOADER_UNDEFINED	0xff	/* type_of_loader: no assigned id */

#define E820_RAM		1
#define E820_RESERVED		2
#define E820_ACPI		3

/* What the setup header says, once validated. */
struct bzimage_info {
	uint16_t version;
	uint32_t setup_bytes;	/* real-mode part: (setup_sects + 1) * 512 */
	uint32_t kernel_bytes;	/* protected-mode part, what gets loaded */
	uint32_t hdr_end;	/* end of the setup header in the image */
	uint32_t kernel_alignment;
	bool relocatable;
	uint64_t pref_address;
	uint32_t init_size;	/* memory the kernel needs from its load */
	uint32_t cmdline_size;	/* longest command line, without NUL */
	uint32_t initrd_addr_max; /* highest byte of the initrd */
};

/* Validates the setup header of a len-byte image. 0 and *out filled, or a
 * negative HV_E* code and *why says what is wrong in a phrase ("not a
 * bzImage: no HdrS signature", "truncated: ..."). */
int bzimage_parse(const void *img, size_t len, struct bzimage_info *out,
		  const char **why);

/* Guest-physical layout of one Linux VM. Fixed low pages hold the
 * loader's structures; the kernel goes to pref_address (or the next
 * kernel_alignment boundary above the low area); the initrd to the top of
 * RAM under initrd_addr_max. */
#define LX_ZERO_PAGE_GPA	0x1000ull
#define LX_CMDLINE_GPA		0x2000ull	/* up to 4 KiB */
#define LX_CMDLINE_MAX		0x1000u
#define LX_GDT_GPA		0x3000ull
#define LX_PML4_GPA		0x4000ull
#define LX_PDPT_GPA		0x5000ull
#define LX_PD_GPA		0x6000ull	/* 4 pages: map 4 GiB */
#define LX_STACK_TOP		0x10000ull	/* until the kernel sets its own */
#define LX_ACPI_GPA		0xe0000ull	/* ACPI tables, 64 KiB max */
#define LX_ACPI_SIZE		0x10000ull
/* A device's firmware region (the vGPU's OpRegion, hv/vm/vpci_fw.c),
 * after the ACPI tables, inside the same reserved e820 entry. */
#define LX_FW_REGION_GPA	0xf0000ull
#define LX_FW_REGION_SIZE	0x10000ull
#define LX_LOW_RAM_END		0xa0000ull	/* conventional memory */
#define LX_HIGH_RAM		0x100000ull	/* above the ISA hole */

struct bzimage_layout {
	uint64_t kernel_gpa, entry_gpa;
	uint64_t initrd_gpa;	/* 0 = no initrd */
	unsigned nr_e820;
	struct { uint64_t addr, size; uint32_t type; } e820[4];
};

/* Places kernel and initrd in a VM of mem_bytes, below the PCI hole (the
 * e820 map has the rest of its RAM from 4 GiB, hv/vm/vm_layout.h). 0, or
 * -HV_E2BIG and *why ("the kernel needs ... of RAM", "the initrd does not
 * fit ..."). */
int bzimage_plan(const struct bzimage_info *bz, uint64_t mem_bytes,
		 uint64_t initrd_bytes, size_t cmdline_len,
		 struct bzimage_layout *out, const char **why);

/* Fills the 4 KiB zero page: the image's setup header, then what the
 * loader decided (loader type, command line, initrd, e820, RSDP). */
void bzimage_zero_page(uint8_t *zp, const void *img,
		       const struct bzimage_info *bz,
		       const struct bzimage_layout *lay, uint64_t initrd_bytes,
		       uint64_t rsdp_gpa);

#endif
