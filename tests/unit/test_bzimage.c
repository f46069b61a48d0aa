/* Unit tests for hv/vm/bzimage.c: the setup header of Debian 12's real
 * kernel, crafted bad headers, the placement of kernel and initrd in VMs
 * of several sizes, and the zero page handed to the kernel. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/vm/bzimage.h"
#include "bzimage_debian_hdr.h"

#define MiB (1ull << 20)

/* Debian's header padded to the real file's length (setup code and the
 * compressed kernel are zeros: only the header matters to the parser). */
static uint8_t *debian_image(size_t *len)
{
	uint8_t *img = calloc(1, DEBIAN_VMLINUZ_SIZE);

	assert_non_null(img);
	memcpy(img, debian_vmlinuz_hdr, sizeof(debian_vmlinuz_hdr));
	*len = DEBIAN_VMLINUZ_SIZE;
	return img;
}

static int parse(const uint8_t *img, size_t len, struct bzimage_info *bz,
		 const char **why)
{
	int err = bzimage_parse(img, len, bz, why);

	assert_true(err ? *why != NULL : *why == NULL);
	return err;
}

static void test_debian_header(void **state)
{
	size_t len;
	uint8_t *img = debian_image(&len);
	struct bzimage_info bz;
	const char *why;

	(void)state;
	assert_int_equal(parse(img, len, &bz, &why), 0);
	assert_int_equal(bz.version, 0x020f);
	assert_int_equal(bz.setup_bytes, (0x27 + 1) * 512);
	assert_int_equal(bz.kernel_bytes, len - bz.setup_bytes);
	assert_int_equal(bz.hdr_end, 0x26c);
	assert_int_equal(bz.kernel_alignment, 2 * MiB);
	assert_true(bz.relocatable);
	assert_int_equal(bz.pref_address, 16 * MiB);
	assert_int_equal(bz.init_size, 0x3f98000);
	assert_int_equal(bz.cmdline_size, 2047);
	assert_int_equal(bz.initrd_addr_max, 0x7fffffff);
	free(img);
}

static void debian_info(struct bzimage_info *bz)
{
	size_t len;
	uint8_t *img = debian_image(&len);
	const char *why;

	assert_int_equal(parse(img, len, bz, &why), 0);
	free(img);
}

static void test_plan_128m(void **state)
{
	struct bzimage_info bz;
	struct bzimage_layout lay;
	const char *why;

	(void)state;
	debian_info(&bz);
	assert_int_equal(bzimage_plan(&bz, 128 * MiB, 3 * MiB + 5, 40, &lay,
				      &why), 0);
	assert_int_equal(lay.kernel_gpa, 16 * MiB);
	assert_int_equal(lay.entry_gpa, 16 * MiB + 0x200);
	/* Top of RAM, page aligned, above everything the kernel uses. */
	assert_int_equal(lay.initrd_gpa, (128 * MiB - 3 * MiB - 5) & ~0xfffull);
	assert_true(lay.initrd_gpa >= lay.kernel_gpa + bz.init_size);
	assert_int_equal(lay.nr_e820, 3);
	assert_int_equal(lay.e820[0].addr, 0);
	assert_int_equal(lay.e820[0].size, 0xa0000);
	assert_int_equal(lay.e820[0].type, E820_RAM);
	assert_int_equal(lay.e820[1].type, E820_RESERVED);
	assert_true(lay.e820[1].addr <= LX_ACPI_GPA);
	/* The device firmware region (the vGPU's OpRegion) is reserved
	 * too, after the ACPI tables. */
	assert_true(LX_FW_REGION_GPA >= LX_ACPI_GPA + LX_ACPI_SIZE);
	assert_true(LX_FW_REGION_GPA + LX_FW_REGION_SIZE <=
		    lay.e820[1].addr + lay.e820[1].size);
	assert_int_equal(lay.e820[2].addr, MiB);
	assert_int_equal(lay.e820[2].addr + lay.e820[2].size, 128 * MiB);
}

/* 4 GiB of RAM: 3 GiB up to the PCI hole, 1 GiB from 4 GiB, in e820;
 * the initrd stays below the hole. */
static void test_plan_pci_hole(void **state)
{
	struct bzimage_info bz;
	struct bzimage_layout lay;
	const char *why;

	(void)state;
	debian_info(&bz);
	assert_int_equal(bzimage_plan(&bz, 4096 * MiB, 3 * MiB, 40, &lay,
				      &why), 0);
	assert_int_equal(lay.nr_e820, 4);
	assert_int_equal(lay.e820[2].addr, MiB);
	assert_int_equal(lay.e820[2].addr + lay.e820[2].size, 0xc0000000ull);
	assert_int_equal(lay.e820[3].addr, 0x100000000ull);
	assert_int_equal(lay.e820[3].size, 1024 * MiB);
	assert_int_equal(lay.e820[3].type, E820_RAM);
	assert_true(lay.initrd_gpa + 3 * MiB <= 0xc0000000ull);
	assert_true(lay.initrd_gpa + 3 * MiB <= (uint64_t)bz.initrd_addr_max + 1);
	/* 3 GiB exactly: no entry above 4 GiB. */
	assert_int_equal(bzimage_plan(&bz, 3072 * MiB, 0, 0, &lay, &why), 0);
	assert_int_equal(lay.nr_e820, 3);
	assert_int_equal(lay.e820[2].addr + lay.e820[2].size, 0xc0000000ull);
}

/* pref_address + init_size does not fit, the kernel is relocatable: it
 * goes to the lowest 2 MiB boundary above 1 MiB. */
static void test_plan_relocates(void **state)
{
	struct bzimage_info bz;
	struct bzimage_layout lay;
	const char *why;

	(void)state;
	debian_info(&bz);
	assert_int_equal(bzimage_plan(&bz, 72 * MiB, 0, 0, &lay, &why), 0);
	assert_int_equal(lay.kernel_gpa, 2 * MiB);
	assert_int_equal(lay.initrd_gpa, 0);
	bz.relocatable = false;
	assert_int_equal(bzimage_plan(&bz, 72 * MiB, 0, 0, &lay, &why),
			 -HV_E2BIG);
	assert_non_null(strstr(why, "init_size"));
}

static void test_plan_refusals(void **state)
{
	struct bzimage_info bz;
	struct bzimage_layout lay;
	const char *why;

	(void)state;
	debian_info(&bz);
	assert_int_equal(bzimage_plan(&bz, 64 * MiB, 0, 0, &lay, &why),
			 -HV_E2BIG);
	assert_non_null(strstr(why, "kernel"));
	/* An initrd bigger than the VM, and one that would overlap the
	 * kernel's init_size. */
	assert_int_equal(bzimage_plan(&bz, 128 * MiB, 200 * MiB, 0, &lay,
				      &why), -HV_E2BIG);
	assert_non_null(strstr(why, "initrd"));
	assert_int_equal(bzimage_plan(&bz, 128 * MiB, 60 * MiB, 0, &lay,
				      &why), -HV_E2BIG);
	assert_int_equal(bzimage_plan(&bz, 128 * MiB, 0, 2048, &lay, &why),
			 -HV_E2BIG);
	assert_non_null(strstr(why, "command line"));
	assert_int_equal(bzimage_plan(&bz, 128 * MiB, 0, 2047, &lay, &why), 0);
}

/* One corruption of Debian's header and the error it must give. */
struct bad_case {
	const char *name;
	unsigned off;
	unsigned width;
	uint32_t val;
	int err;
	const char *why_has;
};

static const struct bad_case bad_cases[] = {
	{ "boot flag", BP_BOOT_FLAG, 2, 0x1234, -HV_EINVAL, "signature" },
	{ "HdrS", BP_HEADER, 4, 0x53726447, -HV_EINVAL, "HdrS" },
	{ "version 2.11", BP_VERSION, 2, 0x020b, -HV_ENOTSUP, "2.12" },
	{ "short header", BP_JUMP + 1, 1, 0x20, -HV_EINVAL, "header" },
	{ "zImage", BP_LOADFLAGS, 1, 0x00, -HV_ENOTSUP, "zImage" },
	{ "no 64-bit entry", BP_XLOADFLAGS, 2, 0x7e, -HV_ENOTSUP, "64-bit" },
	{ "alignment 3", BP_KERNEL_ALIGNMENT, 4, 3, -HV_EINVAL, "alignment" },
	{ "alignment 0", BP_KERNEL_ALIGNMENT, 4, 0, -HV_EINVAL, "alignment" },
	{ "init_size", BP_INIT_SIZE, 4, 0x1000, -HV_EINVAL, "init_size" },
	{ "syssize", BP_SYSSIZE, 4, 0x100000, -HV_ENODATA, "truncated" },
	/* 256 sectors of setup: what is left is shorter than syssize. */
	{ "setup_sects", BP_SETUP_SECTS, 1, 0xff, -HV_ENODATA, "truncated" },
};

static void poke(uint8_t *img, unsigned off, unsigned width, uint32_t v)
{
	for (unsigned i = 0; i < width; i++)
		img[off + i] = (uint8_t)(v >> (8 * i));
}

static void test_bad_headers(void **state)
{
	size_t len;
	uint8_t *img = debian_image(&len);
	struct bzimage_info bz;
	const char *why;

	(void)state;
	for (unsigned i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++) {
		const struct bad_case *c = &bad_cases[i];

		memcpy(img, debian_vmlinuz_hdr, sizeof(debian_vmlinuz_hdr));
		poke(img, c->off, c->width, c->val);
		if (parse(img, len, &bz, &why) != c->err)
			fail_msg("%s: got %s", c->name, why ? why : "success");
		assert_non_null(strstr(why, c->why_has));
	}
	/* Not relocatable, pref_address unaligned: cannot be loaded. */
	memcpy(img, debian_vmlinuz_hdr, sizeof(debian_vmlinuz_hdr));
	poke(img, BP_RELOCATABLE, 1, 0);
	poke(img, BP_PREF_ADDRESS, 4, 0x1001000);
	assert_int_equal(parse(img, len, &bz, &why), -HV_ENOTSUP);
	free(img);
}

static void test_truncated(void **state)
{
	size_t len;
	uint8_t *img = debian_image(&len);
	struct bzimage_info bz;
	const char *why;
	const size_t cuts[] = { 0, 1, 0x200, BP_HDR_END_MIN - 1,
				(0x27 + 1) * 512, (0x27 + 1) * 512 + 1,
				len / 2, len - 1473 };

	(void)state;
	for (unsigned i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		assert_int_equal(parse(img, cuts[i], &bz, &why), -HV_ENODATA);
		assert_non_null(strstr(why, "truncated"));
	}
	/* syssize covers all but the last 1472 bytes (the PE/CRC tail). */
	assert_int_equal(parse(img, len - 1472, &bz, &why), 0);
	free(img);
}

static void test_not_a_kernel(void **state)
{
	static uint8_t elf[4096] = { 0x7f, 'E', 'L', 'F' };
	static uint8_t raw[4096] = { 0x48, 0x31, 0xc0, 0xf4 };
	struct bzimage_info bz;
	const char *why;

	(void)state;
	assert_int_equal(parse(elf, sizeof(elf), &bz, &why), -HV_EINVAL);
	assert_non_null(strstr(why, "not a bzImage"));
	assert_int_equal(parse(raw, sizeof(raw), &bz, &why), -HV_EINVAL);
}

static uint32_t get32(const uint8_t *p, unsigned off)
{
	return p[off] | p[off + 1] << 8 | p[off + 2] << 16 |
	       (uint32_t)p[off + 3] << 24;
}

static void test_zero_page(void **state)
{
	size_t len;
	uint8_t *img = debian_image(&len);
	static uint8_t zp[BP_SIZE];
	struct bzimage_info bz;
	struct bzimage_layout lay;
	const char *why;

	(void)state;
	assert_int_equal(parse(img, len, &bz, &why), 0);
	assert_int_equal(bzimage_plan(&bz, 128 * MiB, 1 * MiB, 10, &lay, &why),
			 0);
	memset(zp, 0xcc, sizeof(zp));
	bzimage_zero_page(zp, img, &bz, &lay, 1 * MiB, 0xe0000);
	assert_int_equal(zp[0], 0);		/* outside the header: zero */
	assert_int_equal(get32(zp, BP_HEADER), BZ_HDRS);
	assert_int_equal(zp[BP_TYPE_OF_LOADER], BZ_LOADER_UNDEFINED);
	assert_int_equal(zp[BP_LOADFLAGS] & LOADFLAG_CAN_USE_HEAP, 0);
	assert_int_equal(zp[BP_LOADFLAGS] & LOADFLAG_LOADED_HIGH,
			 LOADFLAG_LOADED_HIGH);
	assert_int_equal(get32(zp, BP_CMD_LINE_PTR), LX_CMDLINE_GPA);
	assert_int_equal(get32(zp, BP_RAMDISK_IMAGE), lay.initrd_gpa);
	assert_int_equal(get32(zp, BP_RAMDISK_SIZE), 1 * MiB);
	assert_int_equal(get32(zp, BP_EXT_RAMDISK_IMAGE), 0);
	assert_int_equal(get32(zp, BP_ACPI_RSDP_ADDR), 0xe0000);
	assert_int_equal(get32(zp, BP_INIT_SIZE), bz.init_size);
	assert_int_equal(zp[BP_E820_ENTRIES], 3);
	assert_int_equal(get32(zp, BP_E820_TABLE + 2 * 20), MiB);
	assert_int_equal(get32(zp, BP_E820_TABLE + 2 * 20 + 8), 127 * MiB);
	assert_int_equal(get32(zp, BP_E820_TABLE + 2 * 20 + 16), E820_RAM);
	assert_int_equal(zp[BP_SIZE - 1], 0);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_debian_header),
		cmocka_unit_test(test_plan_128m),
		cmocka_unit_test(test_plan_relocates),
		cmocka_unit_test(test_plan_pci_hole),
		cmocka_unit_test(test_plan_refusals),
		cmocka_unit_test(test_bad_headers),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_not_a_kernel),
		cmocka_unit_test(test_zero_page),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
