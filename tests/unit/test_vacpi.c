/* Unit tests for hv/vm/vacpi.c: every table sums to zero, points where
 * the others are, carries the fields Linux reads (hardware-reduced FADT
 * with sleep and reset registers, MADT with one LAPIC and one IOAPIC, \_S5
 * in the DSDT); and the hypervisor's own ACPI walker (hv/acpi.c), which
 * parses real firmware tables, reads them back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "hv/acpi.h"
#include "hv/acpi_tables.h"
#include "hv/vm/vacpi.h"

static uint32_t len_of(const uint8_t *t)
{
	uint32_t len;

	memcpy(&len, t + 4, 4);
	return len;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static void test_checksums_and_links(void **state)
{
	static uint8_t buf[VACPI_SIZE];
	const uint64_t base = 0xe0000;
	const unsigned tables[] = { VACPI_XSDT_OFF, VACPI_FADT_OFF,
				    VACPI_MADT_OFF, VACPI_DSDT_OFF };

	(void)state;
	assert_int_equal(vacpi_build(buf, base), base + VACPI_RSDP_OFF);
	assert_memory_equal(buf, "RSD PTR ", 8);
	assert_int_equal(vacpi_sum(buf, 20), 0);
	assert_int_equal(vacpi_sum(buf, 36), 0);
	assert_int_equal(buf[15], 2);			/* revision */
	assert_int_equal(get64(buf + 24), base + VACPI_XSDT_OFF);
	for (unsigned i = 0; i < 4; i++) {
		const uint8_t *t = buf + tables[i];

		assert_true(tables[i] + len_of(t) <= VACPI_SIZE);
		assert_int_equal(vacpi_sum(t, len_of(t)), 0);
		if (i + 1 < 4)	/* no overlap with the next table */
			assert_true(tables[i] + len_of(t) <= tables[i + 1]);
	}
	assert_int_equal(len_of(buf + VACPI_XSDT_OFF), 36 + 16);
	assert_int_equal(get64(buf + VACPI_XSDT_OFF + 36),
			 base + VACPI_FADT_OFF);
	assert_int_equal(get64(buf + VACPI_XSDT_OFF + 44),
			 base + VACPI_MADT_OFF);
}

static void test_fadt_fields(void **state)
{
	static uint8_t buf[VACPI_SIZE];
	const uint8_t *f = buf + VACPI_FADT_OFF;
	uint32_t flags;

	(void)state;
	vacpi_build(buf, 0xe0000);
	assert_memory_equal(f, "FACP", 4);
	assert_int_equal(len_of(f), 276);
	assert_int_equal(f[8], 6);
	memcpy(&flags, f + 112, 4);
	assert_true(flags & (1u << 20));	/* HW_REDUCED_ACPI */
	assert_true(flags & (1u << 10));	/* RESET_REG_SUP */
	assert_int_equal(f[109] & 2, 0);	/* no 8042 */
	assert_int_equal(get64(f + 140), 0xe0000 + VACPI_DSDT_OFF);
	/* Reset register: one byte at port 0xCF9, value 6. */
	assert_int_equal(f[116], 1);
	assert_int_equal(get64(f + 120), VACPI_RESET_PORT);
	assert_int_equal(f[128], VACPI_RESET_VALUE);
	/* Sleep control / status registers in I/O space. */
	assert_int_equal(f[244], 1);
	assert_int_equal(get64(f + 248), VACPI_SLEEP_CTL_PORT);
	assert_int_equal(get64(f + 260), VACPI_SLEEP_STS_PORT);
}

/* COM1 in the DSDT: the Device's PkgLength reaches the table's end, and
 * its _CRS buffer holds IO 0x3F8/8, IRQ 4 and an end tag. */
static void test_dsdt_com1(void **state)
{
	static uint8_t buf[VACPI_SIZE];
	const uint8_t *d = buf + VACPI_DSDT_OFF, *dev = NULL, *crs = NULL;
	static const uint8_t res[] = { 0x47, 0x01, 0xf8, 0x03, 0xf8, 0x03,
				       0x01, 0x08, 0x22, 0x10, 0x00, 0x79,
				       0x00 };

	(void)state;
	vacpi_build(buf, 0xe0000);
	for (uint32_t i = 36; i + 2 <= len_of(d); i++) {
		if (!dev && d[i] == 0x5b && d[i + 1] == 0x82)
			dev = d + i;
		if (!crs && !memcmp(d + i, "_CRS", 4))
			crs = d + i;
	}
	assert_non_null(dev);
	assert_int_equal(dev + 2 + dev[2], d + len_of(d));
	assert_memory_equal(dev + 5, "_SB_COM1", 8);
	assert_non_null(memchr(dev, 0x0c, 30));	/* _HID DWord */
	assert_non_null(crs);
	assert_int_equal(crs[4], 0x11);		/* BufferOp */
	assert_int_equal(crs + 5 + crs[5], d + len_of(d));
	assert_int_equal(crs[7], sizeof(res));
	assert_memory_equal(crs + 8, res, sizeof(res));
}

static void test_dsdt_s5(void **state)
{
	static uint8_t buf[VACPI_SIZE];
	const uint8_t *d = buf + VACPI_DSDT_OFF;
	const uint8_t *s5 = NULL;

	(void)state;
	vacpi_build(buf, 0xe0000);
	assert_memory_equal(d, "DSDT", 4);
	for (uint32_t i = 36; i + 4 <= len_of(d); i++)
		if (!memcmp(d + i, "_S5_", 4))
			s5 = d + i;
	assert_non_null(s5);
	assert_int_equal(s5[-1], 0x08);		/* NameOp */
	assert_int_equal(s5[4], 0x12);		/* PackageOp */
	assert_int_equal(s5[5], 7);		/* PkgLength */
	assert_int_equal(s5[7], 0x0a);		/* BytePrefix */
	assert_int_equal(s5[8], VACPI_S5_TYP);
}

/* The walker that reads firmware tables at boot must find what a Linux
 * guest will: XSDT with two tables, one CPU, one IOAPIC, the LAPIC. */
static void test_walker_reads_them(void **state)
{
	uint8_t *arena = mmap(NULL, 1 << 16, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	struct acpi_info ai;
	uint64_t base;

	(void)state;
	assert_true(arena != MAP_FAILED);
	base = (uint64_t)(uintptr_t)arena;
	assert_int_equal(acpi_parse(vacpi_build(arena, base), base + VACPI_SIZE,
				    &ai), 0);
	assert_true(ai.xsdt);
	assert_int_equal(ai.revision, 2);
	assert_int_equal(ai.nr_tables, 2);
	assert_string_equal(ai.oem_id, "G9HV  ");
	assert_true(ai.has_madt);
	assert_int_equal(ai.lapic_base, VACPI_LAPIC_GPA);
	assert_int_equal(ai.nr_cpus, 1);
	assert_int_equal(ai.nr_ioapics, 1);
	assert_int_equal(ai.bad_checksums, 0);
	munmap(arena, 1 << 16);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksums_and_links),
		cmocka_unit_test(test_fadt_fields),
		cmocka_unit_test(test_dsdt_s5),
		cmocka_unit_test(test_dsdt_com1),
		cmocka_unit_test(test_walker_reads_them),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
