/* Unit tests of hv/platform/pci.c: pci_class_name, and pci_scan / config reads
 * through an ECAM window that is plain memory here (a pointer is its own
 * physical address, hv/mm/mem.h). Only bus range 0..0 is used, so every access
 * goes through ECAM, never the I/O ports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/console/console.h"
#include "hv/platform/pci.h"

#define ECAM_BUS_BYTES (1u << 20)

static uint8_t *ecam;
static char printed[8192];
static size_t printed_len;

/* hv/console/console.c's kprintf, captured. */
void kprintf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(printed + printed_len, sizeof(printed) - printed_len, fmt,
		      ap);
	va_end(ap);
	if (n > 0)
		printed_len += (size_t)n;
	if (printed_len >= sizeof(printed))
		printed_len = sizeof(printed) - 1;
}

static uint8_t *cfg(uint8_t dev, uint8_t fn)
{
	return ecam + ((size_t)dev << 15) + ((size_t)fn << 12);
}

static void put32(uint8_t dev, uint8_t fn, uint16_t off, uint32_t v)
{
	memcpy(cfg(dev, fn) + off, &v, 4);
}

static void add_fn(uint8_t dev, uint8_t fn, uint16_t vendor, uint16_t device,
		   uint32_t class_code, uint8_t rev, uint8_t header_type)
{
	put32(dev, fn, 0, (uint32_t)device << 16 | vendor);
	put32(dev, fn, 8, class_code << 8 | rev);
	cfg(dev, fn)[0x0e] = header_type;
}

static int setup(void **state)
{
	(void)state;
	if (!ecam) {
		ecam = aligned_alloc(4096, ECAM_BUS_BYTES);
		if (!ecam)
			return -1;
	}
	memset(ecam, 0xff, ECAM_BUS_BYTES); /* nothing present */
	printed_len = 0;
	printed[0] = 0;
	pci_init((uint64_t)(uintptr_t)ecam, 0, 0);
	return 0;
}

static int teardown_group(void **state)
{
	(void)state;
	free(ecam);
	ecam = NULL;
	return 0;
}

static void test_class_names(void **state)
{
	(void)state;
	/* Looked up by base class and subclass; prog-if is ignored. */
	assert_string_equal(pci_class_name(0x030000), "VGA controller");
	assert_string_equal(pci_class_name(0x030001), "VGA controller");
	assert_string_equal(pci_class_name(0x038000), "display controller");
	assert_string_equal(pci_class_name(0x060000), "host bridge");
	assert_string_equal(pci_class_name(0x060100), "ISA bridge");
	assert_string_equal(pci_class_name(0x060400), "PCI bridge");
	assert_string_equal(pci_class_name(0x068000), "bridge");
	assert_string_equal(pci_class_name(0x0c0330), "USB controller");
	assert_string_equal(pci_class_name(0x0c0500), "SMBus controller");
	assert_string_equal(pci_class_name(0x010601), "SATA controller");
	assert_string_equal(pci_class_name(0x010802), "NVMe controller");
	assert_string_equal(pci_class_name(0x020000), "Ethernet controller");
	assert_string_equal(pci_class_name(0x040300), "audio device");
	assert_string_equal(pci_class_name(0x078000),
			    "communication controller");
	assert_string_equal(pci_class_name(0x088000), "system peripheral");
	/* Unknown ones get the generic word. */
	assert_string_equal(pci_class_name(0x000000), "device");
	assert_string_equal(pci_class_name(0xff0000), "device");
	assert_string_equal(pci_class_name(0x030200), "device");
	assert_string_equal(pci_class_name(0xffffffff), "device");
}

static void test_ecam_reads(void **state)
{
	(void)state;
	put32(2, 0, 0x10, 0xdeadbeef);
	put32(2, 0, 0xffc, 0x12345678); /* extended config space */
	assert_int_equal(pci_read32(0, 2, 0, 0x10), 0xdeadbeef);
	assert_int_equal(pci_read32(0, 2, 0, 0x13), 0xdeadbeef); /* aligned */
	assert_int_equal(pci_read16(0, 2, 0, 0x10), 0xbeef);
	assert_int_equal(pci_read16(0, 2, 0, 0x12), 0xdead);
	assert_int_equal(pci_read8(0, 2, 0, 0x11), 0xbe);
	assert_int_equal(pci_read8(0, 2, 0, 0x13), 0xde);
	assert_int_equal(pci_read32(0, 2, 0, 0xffc), 0x12345678);
	pci_write32(0, 2, 0, 0x14, 0xcafef00d);
	assert_int_equal(pci_read32(0, 2, 0, 0x14), 0xcafef00d);
	assert_int_equal(cfg(2, 0)[0x14], 0x0d);
	/* Function 7 of device 31: the last 4 KiB of the bus. */
	put32(31, 7, 0, 0xa1b28086);
	assert_int_equal(pci_read32(0, 31, 7, 0), 0xa1b28086);
	assert_true(pci_info()->ecam);
	assert_int_equal(pci_info()->ecam_base, (uintptr_t)ecam);
}

/* MCFG's base is the address of bus 0 even when the window starts at a later
 * bus: bus N lives at base + N MiB (PCI Firmware spec; Linux does the same). */
static void test_ecam_window_not_starting_at_bus0(void **state)
{
	(void)state;
	put32(2, 0, 0x10, 0x5eed1234);
	pci_init((uint64_t)(uintptr_t)ecam - (1ull << 20), 1, 1);
	assert_int_equal(pci_read32(1, 2, 0, 0x10), 0x5eed1234);
}

static void test_scan(void **state)
{
	const struct pci_bus_info *bi;

	(void)state;
	add_fn(0, 0, 0x8086, 0x191f, 0x060000, 0x07, 0x00); /* host bridge */
	add_fn(2, 0, 0x8086, 0x1912, 0x030000, 0x06, 0x00); /* HD 530 */
	/* Multi-function device: fn 0, 2 and 5 present, others absent. */
	add_fn(0x1f, 0, 0x8086, 0xa145, 0x060100, 0x31, 0x80);
	add_fn(0x1f, 2, 0x8086, 0xa121, 0x058000, 0x31, 0x00);
	add_fn(0x1f, 5, 0x8086, 0xa123, 0x0c0500, 0x31, 0x00);
	/* Single-function device whose fn 1 looks present: not scanned. */
	add_fn(0x14, 0, 0x8086, 0xa12f, 0x0c0330, 0x31, 0x00);
	add_fn(0x14, 1, 0x8086, 0xdead, 0x118000, 0x31, 0x00);
	/* fn 0 absent: the device is skipped even if fn 3 answers. */
	add_fn(0x10, 3, 0x1234, 0x5678, 0x020000, 0x01, 0x00);

	pci_scan();
	bi = pci_info();
	assert_int_equal(bi->nr_devs, 6);
	assert_int_equal(bi->dropped, 0);

	const struct pci_dev *d = &bi->devs[0];

	assert_int_equal(d->dev, 0);
	assert_int_equal(d->vendor, 0x8086);
	assert_int_equal(d->device, 0x191f);
	assert_int_equal(d->class_code, 0x060000);
	assert_int_equal(d->revision, 0x07);
	d = &bi->devs[1];
	assert_int_equal(d->dev, 2);
	assert_int_equal(d->device, 0x1912);
	assert_int_equal(d->class_code, 0x030000);
	d = &bi->devs[2];
	assert_int_equal(d->dev, 0x14);
	assert_int_equal(d->fn, 0);
	d = &bi->devs[3];
	assert_int_equal(d->dev, 0x1f);
	assert_int_equal(d->fn, 0);
	assert_int_equal(d->header_type, 0x80);
	assert_int_equal(bi->devs[4].fn, 2);
	assert_int_equal(bi->devs[4].class_code, 0x058000);
	assert_int_equal(bi->devs[5].fn, 5);
	assert_int_equal(bi->devs[5].device, 0xa123);

	pci_print_devices();
	assert_non_null(strstr(printed, "00:02.0 8086:1912 class 030000 rev 06"
					"  VGA controller\n"));
	assert_non_null(strstr(printed, "00:1f.5 8086:a123"));
	assert_null(strstr(printed, "more devices"));

	/* A rescan starts over. */
	memset(cfg(2, 0), 0xff, 4096);
	pci_scan();
	assert_int_equal(pci_info()->nr_devs, 5);
}

static void test_scan_full_table(void **state)
{
	const struct pci_bus_info *bi;

	(void)state;
	/* 32 devices x 8 functions = 256 > PCI_MAX_DEVICES. */
	for (uint8_t dev = 0; dev < 32; dev++)
		for (uint8_t fn = 0; fn < 8; fn++)
			add_fn(dev, fn, 0x1af4, (uint16_t)(dev << 3 | fn),
			       0x020000, 0, 0x80);
	pci_scan();
	bi = pci_info();
	assert_int_equal(bi->nr_devs, PCI_MAX_DEVICES);
	assert_int_equal(bi->dropped, 256 - PCI_MAX_DEVICES);
	assert_int_equal(bi->devs[PCI_MAX_DEVICES - 1].device,
			 PCI_MAX_DEVICES - 1);
	pci_print_devices();
	assert_non_null(strstr(printed, "(128 more devices not recorded)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_class_names, setup),
		cmocka_unit_test_setup(test_ecam_reads, setup),
		cmocka_unit_test_setup(test_ecam_window_not_starting_at_bus0, setup),
		cmocka_unit_test_setup(test_scan, setup),
		cmocka_unit_test_setup(test_scan_full_table, setup),
	};

	return cmocka_run_group_tests(tests, NULL, teardown_group);
}
