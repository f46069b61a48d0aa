/* The bzImage setup header and the layout of a Linux VM; see bzimage.h. */
#include "hv/vm/bzimage.h"
#include "hv/hv_errno.h"
#include "hv/vm/vm_layout.h"
#include "mini/string.h"

#define SECTOR		512u
#define DEFAULT_SETUP_SECTS 4u	/* setup_sects == 0 means this */
#define OLD_CMDLINE_SIZE 255u	/* before cmdline_size existed (2.06) */
#define ALIGN_MIN	0x1000u
#define ALIGN_MAX	(1u << 30)
#define GPA_4G		(1ull << 32)

static uint32_t rd8(const uint8_t *p, unsigned off) { return p[off]; }
static uint32_t rd16(const uint8_t *p, unsigned off)
{
	return p[off] | (uint32_t)p[off + 1] << 8;
}
static uint32_t rd32(const uint8_t *p, unsigned off)
{
	return rd16(p, off) | rd16(p, off + 2) << 16;
}
static uint64_t rd64(const uint8_t *p, unsigned off)
{
	return rd32(p, off) | (uint64_t)rd32(p, off + 4) << 32;
}

static int fail(const char **why, const char *reason, int err)
{
	*why = reason;
	return err;
}

/* Signatures and version: is this a bzImage we can boot at all? */
static int check_identity(const uint8_t *p, size_t len, const char **why)
{
	if (len < BP_HDR_END_MIN)
		return fail(why, "truncated: shorter than a bzImage setup "
			    "header", -HV_ENODATA);
	if (rd16(p, BP_BOOT_FLAG) != BZ_BOOT_FLAG)
		return fail(why, "not a bzImage: no boot sector signature "
			    "(0xAA55 at 0x1FE)", -HV_EINVAL);
	if (rd32(p, BP_HEADER) != BZ_HDRS)
		return fail(why, "not a bzImage: no 'HdrS' setup header",
			    -HV_EINVAL);
	if (rd16(p, BP_VERSION) < BZ_MIN_VERSION)
		return fail(why, "boot protocol older than 2.12 (no 64-bit "
			    "entry)", -HV_ENOTSUP);
	if (BP_HEADER + rd8(p, BP_JUMP + 1) < BP_HDR_END_MIN)
		return fail(why, "setup header shorter than its version "
			    "says", -HV_EINVAL);
	return 0;
}

/* Sizes: the real-mode setup, the protected-mode kernel after it. */
static int check_sizes(const uint8_t *p, size_t len, struct bzimage_info *bz,
		       const char **why)
{
	uint32_t sects = rd8(p, BP_SETUP_SECTS);
	uint64_t sys_bytes = (uint64_t)rd32(p, BP_SYSSIZE) * 16;

	bz->setup_bytes = ((sects ? sects : DEFAULT_SETUP_SECTS) + 1) * SECTOR;
	bz->hdr_end = BP_HEADER + rd8(p, BP_JUMP + 1);
	if (bz->hdr_end > bz->setup_bytes)
		return fail(why, "setup header runs past the setup code",
			    -HV_EINVAL);
	if (len <= bz->setup_bytes || len - bz->setup_bytes > UINT32_MAX)
		return fail(why, "truncated: no protected-mode kernel after "
			    "the setup code", -HV_ENODATA);
	bz->kernel_bytes = (uint32_t)(len - bz->setup_bytes);
	if (!sys_bytes || sys_bytes > bz->kernel_bytes)
		return fail(why, "truncated: the file is shorter than its "
			    "header's syssize", -HV_ENODATA);
	bz->init_size = rd32(p, BP_INIT_SIZE);
	if (bz->init_size < bz->kernel_bytes)
		return fail(why, "init_size is smaller than the kernel",
			    -HV_EINVAL);
	return 0;
}

/* How and where it may be loaded. */
static int check_placement(const uint8_t *p, struct bzimage_info *bz,
			   const char **why)
{
	uint32_t a = rd32(p, BP_KERNEL_ALIGNMENT);

	if (!(rd8(p, BP_LOADFLAGS) & LOADFLAG_LOADED_HIGH))
		return fail(why, "a zImage (loaded below 1 MiB) is not "
			    "supported", -HV_ENOTSUP);
	if (!(rd16(p, BP_XLOADFLAGS) & XLF_KERNEL_64))
		return fail(why, "no 64-bit entry point (xloadflags)",
			    -HV_ENOTSUP);
	if (a < ALIGN_MIN || a > ALIGN_MAX || (a & (a - 1)))
		return fail(why, "kernel_alignment is not a power of two "
			    "between 4 KiB and 1 GiB", -HV_EINVAL);
	bz->kernel_alignment = a;
	bz->pref_address = rd64(p, BP_PREF_ADDRESS);
	bz->relocatable = rd8(p, BP_RELOCATABLE) != 0;
	if (!bz->relocatable &&
	    (bz->pref_address < LX_HIGH_RAM || bz->pref_address >= GPA_4G ||
	     bz->pref_address % a))
		return fail(why, "not relocatable and pref_address is not "
			    "a usable load address", -HV_ENOTSUP);
	bz->cmdline_size = rd32(p, BP_CMDLINE_SIZE);
	if (!bz->cmdline_size)
		bz->cmdline_size = OLD_CMDLINE_SIZE;
	bz->initrd_addr_max = rd32(p, BP_INITRD_ADDR_MAX);
	return 0;
}

int bzimage_parse(const void *img, size_t len, struct bzimage_info *out,
		  const char **why)
{
	const uint8_t *p = img;
	int err;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	err = check_identity(p, len, why);
	if (!err)
		err = check_sizes(p, len, out, why);
	if (!err)
		err = check_placement(p, out, why);
	if (!err)
		out->version = (uint16_t)rd16(p, BP_VERSION);
	return err;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/* The kernel and initrd go in the RAM below the PCI hole (low_end). */
static bool kernel_fits(const struct bzimage_info *bz, uint64_t at,
			uint64_t low_end)
{
	return at >= LX_HIGH_RAM && at % bz->kernel_alignment == 0 &&
	       at + bz->init_size <= low_end && at + bz->init_size <= GPA_4G;
}

/* pref_address when it fits (it must, unless the kernel relocates), else
 * the lowest aligned address above 1 MiB. */
static int place_kernel(const struct bzimage_info *bz, uint64_t low_end,
			struct bzimage_layout *out, const char **why)
{
	uint64_t low = align_up(LX_HIGH_RAM, bz->kernel_alignment);

	if (kernel_fits(bz, bz->pref_address, low_end))
		out->kernel_gpa = bz->pref_address;
	else if (bz->relocatable && kernel_fits(bz, low, low_end))
		out->kernel_gpa = low;
	else
		return fail(why, "the kernel's init_size does not fit in "
			    "the VM's RAM", -HV_E2BIG);
	out->entry_gpa = out->kernel_gpa + BZ_ENTRY64_OFFSET;
	return 0;
}

/* As high as initrd_addr_max and RAM allow, above the kernel's memory. */
static int place_initrd(const struct bzimage_info *bz, uint64_t low_end,
			uint64_t bytes, struct bzimage_layout *out,
			const char **why)
{
	uint64_t top = (uint64_t)bz->initrd_addr_max + 1;
	uint64_t floor = out->kernel_gpa + bz->init_size;

	if (!bytes)
		return 0;
	if (top > low_end)
		top = low_end;
	if (bytes > top || ((top - bytes) & ~0xfffull) < floor)
		return fail(why, "the initrd does not fit in the VM's RAM "
			    "above the kernel", -HV_E2BIG);
	out->initrd_gpa = (top - bytes) & ~0xfffull;
	return 0;
}

static void add_e820(struct bzimage_layout *out, uint64_t addr, uint64_t end,
		     uint32_t type)
{
	out->e820[out->nr_e820].addr = addr;
	out->e820[out->nr_e820].size = end - addr;
	out->e820[out->nr_e820].type = type;
	out->nr_e820++;
}

int bzimage_plan(const struct bzimage_info *bz, uint64_t mem_bytes,
		 uint64_t initrd_bytes, size_t cmdline_len,
		 struct bzimage_layout *out, const char **why)
{
	struct vm_ram_layout ram;
	int err;

	memset(out, 0, sizeof(*out));
	*why = NULL;
	vm_ram_layout_init(&ram, mem_bytes, VM_PCI_HOLE_BASE);
	if (cmdline_len > bz->cmdline_size || cmdline_len >= LX_CMDLINE_MAX)
		return fail(why, "the command line is longer than the kernel "
			    "accepts", -HV_E2BIG);
	err = place_kernel(bz, ram.low_end, out, why);
	if (!err)
		err = place_initrd(bz, ram.low_end, initrd_bytes, out, why);
	if (err)
		return err;
	/* What a PC has: conventional memory, the BIOS area (our ACPI
	 * tables live in it), RAM from 1 MiB up to the PCI hole, and the
	 * rest of it from 4 GiB. The hole itself is in no entry: Linux
	 * takes a gap in the map for where PCI devices may be. */
	add_e820(out, 0, LX_LOW_RAM_END, E820_RAM);
	add_e820(out, LX_ACPI_GPA, LX_HIGH_RAM, E820_RESERVED);
	add_e820(out, LX_HIGH_RAM, ram.low_end, E820_RAM);
	if (vm_ram_high_bytes(&ram))
		add_e820(out, VM_HIGH_RAM_BASE, ram.high_end, E820_RAM);
	return 0;
}

static void wr8(uint8_t *p, unsigned off, uint32_t v) { p[off] = (uint8_t)v; }
static void wr32(uint8_t *p, unsigned off, uint32_t v)
{
	for (unsigned i = 0; i < 4; i++)
		p[off + i] = (uint8_t)(v >> (8 * i));
}
static void wr64(uint8_t *p, unsigned off, uint64_t v)
{
	wr32(p, off, (uint32_t)v);
	wr32(p, off + 4, (uint32_t)(v >> 32));
}

void bzimage_zero_page(uint8_t *zp, const void *img,
		       const struct bzimage_info *bz,
		       const struct bzimage_layout *lay, uint64_t initrd_bytes,
		       uint64_t rsdp_gpa)
{
	memset(zp, 0, BP_SIZE);
	memcpy(zp + BP_SETUP_SECTS, (const uint8_t *)img + BP_SETUP_SECTS,
	       bz->hdr_end - BP_SETUP_SECTS);
	wr8(zp, BP_TYPE_OF_LOADER, BZ_LOADER_UNDEFINED);
	/* No real-mode setup ran: no heap, segments are ours. */
	wr8(zp, BP_LOADFLAGS, zp[BP_LOADFLAGS] & ~LOADFLAG_CAN_USE_HEAP);
	wr32(zp, BP_CMD_LINE_PTR, (uint32_t)LX_CMDLINE_GPA);
	wr32(zp, BP_EXT_CMD_LINE_PTR, (uint32_t)(LX_CMDLINE_GPA >> 32));
	wr32(zp, BP_RAMDISK_IMAGE, (uint32_t)lay->initrd_gpa);
	wr32(zp, BP_EXT_RAMDISK_IMAGE, (uint32_t)(lay->initrd_gpa >> 32));
	wr32(zp, BP_RAMDISK_SIZE, (uint32_t)initrd_bytes);
	wr32(zp, BP_EXT_RAMDISK_SIZE, (uint32_t)(initrd_bytes >> 32));
	wr64(zp, BP_ACPI_RSDP_ADDR, rsdp_gpa);
	wr8(zp, BP_E820_ENTRIES, lay->nr_e820);
	for (unsigned i = 0; i < lay->nr_e820; i++) {
		unsigned off = BP_E820_TABLE + 20 * i;

		wr64(zp, off, lay->e820[i].addr);
		wr64(zp, off + 8, lay->e820[i].size);
		wr32(zp, off + 16, lay->e820[i].type);
	}
}
