/* libFuzzer target for hv/vm/bzimage.c.
 *
 * Input: 8 bytes of VM memory size, 8 of initrd size, 2 of command-line
 * length, then the kernel image. Whatever the header says, parsing must
 * stay inside the image (ASan: it is copied to a buffer of exactly its
 * size), and an accepted image must get a layout inside the VM's RAM with
 * kernel and initrd apart, and a zero page that is all in bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/vm/bzimage.h"

static uint64_t take64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void check_layout(const struct bzimage_info *bz,
			 const struct bzimage_layout *lay, uint64_t mem,
			 uint64_t initrd)
{
	if (lay->kernel_gpa < LX_HIGH_RAM ||
	    lay->kernel_gpa % bz->kernel_alignment ||
	    lay->kernel_gpa + bz->init_size > mem)
		abort();
	if (initrd && (lay->initrd_gpa < lay->kernel_gpa + bz->init_size ||
		       lay->initrd_gpa + initrd > mem ||
		       lay->initrd_gpa + initrd - 1 > bz->initrd_addr_max))
		abort();
	if (lay->nr_e820 > sizeof(lay->e820) / sizeof(lay->e820[0]))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t zp[BP_SIZE];
	struct bzimage_info bz;
	struct bzimage_layout lay;
	const char *why;
	uint64_t mem, initrd;
	size_t cmdline, len;
	uint8_t *img;

	if (size < 18)
		return 0;
	mem = take64(data) & ((64ull << 30) - 1);
	initrd = take64(data + 8) & ((1ull << 33) - 1);
	cmdline = data[16] | (size_t)data[17] << 8;
	len = size - 18;
	img = malloc(len ? len : 1);
	memcpy(img, data + 18, len);
	if (!bzimage_parse(img, len, &bz, &why)) {
		if (bz.setup_bytes + (uint64_t)bz.kernel_bytes != len ||
		    bz.hdr_end > bz.setup_bytes || bz.init_size < bz.kernel_bytes)
			abort();
		if (!bzimage_plan(&bz, mem, initrd, cmdline, &lay, &why)) {
			check_layout(&bz, &lay, mem, initrd);
			bzimage_zero_page(zp, img, &bz, &lay, initrd, 0);
		}
	} else if (!why) {
		abort();
	}
	free(img);
	return 0;
}
