/* Unit tests for hv/vm/vacpi.c: every table sums to zero, points where
 * the others are, carries the fields Linux reads (hardware-reduced FADT
 * with sleep and reset registers, MADT with one LAPIC and one IOAPIC, \_S5,
 * COM1, the RTC and the PCI root bridge in the DSDT, decoded back); and
 * the hypervisor's own ACPI walker (hv/platform/acpi.c), which parses real firmware
 * tables, reads them back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include "hv/platform/acpi.h"
#include "hv/platform/acpi_tables.h"
#include "hv/vm/vacpi.h"
#include "hv/vm/vvirtio.h"

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
	assert_int_equal(vacpi_build(buf, base, 1), base + VACPI_RSDP_OFF);
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
	vacpi_build(buf, 0xe0000, 1);
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

/* A small AML reader for what the DSDT holds: top-level Name() and
 * Device() terms, Name() of integers, EisaIds and buffers inside devices.
 * It checks every PkgLength against what it encloses, so a wrong length
 * anywhere fails here rather than in the guest's interpreter. */
struct aml_obj {
	char name[5];
	uint32_t ival;		/* integer or EisaId */
	const uint8_t *buf;	/* buffer contents, or NULL */
	uint32_t buf_len;
};

struct aml_dev {
	char path[9];		/* "_SB_XXXX" */
	struct aml_obj obj[8];
	unsigned nr_obj;
};

static uint32_t pkglen(const uint8_t *p, uint32_t *bytes)
{
	unsigned follow = p[0] >> 6;

	assert_true(follow <= 1);	/* all we emit */
	*bytes = 1 + follow;
	if (!follow)
		return p[0] & 0x3f;
	assert_int_equal(p[0] & 0x30, 0);
	return (p[0] & 0x0f) | (uint32_t)p[1] << 4;
}

/* An integer or EisaId DataObject at p; returns its size. */
static uint32_t aml_int(const uint8_t *p, uint32_t *v)
{
	switch (p[0]) {
	case 0x00: *v = 0; return 1;
	case 0x01: *v = 1; return 1;
	case 0x0a: *v = p[1]; return 2;
	case 0x0b: *v = p[1] | (uint32_t)p[2] << 8; return 3;
	case 0x0c: memcpy(v, p + 1, 4); return 5;
	default: fail_msg("not an integer: op %02x", p[0]); return 0;
	}
}

/* Name (NAME, object) at p (after the NameOp); returns its size. */
static uint32_t aml_name(const uint8_t *p, struct aml_obj *o)
{
	uint32_t n, at = 4;

	memset(o, 0, sizeof(*o));
	memcpy(o->name, p, 4);
	if (p[4] == 0x12) {	/* PackageOp PkgLength: its bytes as buf */
		o->buf_len = pkglen(p + 5, &n);
		o->buf = p + 5 + n;
		o->buf_len -= n;
		return 5 + n + o->buf_len;
	}
	if (p[4] != 0x11)
		return 4 + aml_int(p + 4, &o->ival);
	at = 5;
	o->buf_len = pkglen(p + at, &n);	/* BufferOp PkgLength */
	{
		const uint8_t *end = p + at + o->buf_len;
		uint32_t size;

		at += n;
		at += aml_int(p + at, &size);
		assert_ptr_equal(p + at + size, end);
		o->buf = p + at;
		o->buf_len = size;
		return (uint32_t)(end - p);
	}
}

/* The DSDT's devices; \_S5 is checked by its own test. */
static unsigned dsdt_devices(const uint8_t *d, struct aml_dev *devs)
{
	uint32_t i = 36, len = len_of(d);
	unsigned nr = 0;

	while (i < len) {
		if (d[i] == 0x08 && !memcmp(d + i + 1, "_S5_", 4)) {
			/* NameOp, _S5_, PackageOp, PkgLength */
			i += 1 + 4 + 1 + d[i + 6];
			continue;
		}
		assert_int_equal(d[i], 0x5b);
		assert_int_equal(d[i + 1], 0x82);
		{
			uint32_t n, body = pkglen(d + i + 2, &n);
			uint32_t end = i + 2 + body, at = i + 2 + n;
			struct aml_dev *dev = &devs[nr++];

			assert_true(end <= len);
			assert_int_equal(d[at], 0x5c);	/* \ */
			assert_int_equal(d[at + 1], 0x2e); /* two segments */
			memset(dev, 0, sizeof(*dev));
			memcpy(dev->path, d + at + 2, 8);
			at += 10;
			while (at < end) {
				assert_int_equal(d[at], 0x08);	/* NameOp */
				assert_true(dev->nr_obj < 8);
				at += 1 + aml_name(d + at + 1,
						   &dev->obj[dev->nr_obj++]);
			}
			assert_int_equal(at, end);
			i = end;
		}
	}
	assert_int_equal(i, len);
	return nr;
}

static const struct aml_obj *obj(const struct aml_dev *dev, const char *name)
{
	for (unsigned i = 0; i < dev->nr_obj; i++)
		if (!strcmp(dev->obj[i].name, name))
			return &dev->obj[i];
	return NULL;
}

static const struct aml_dev *device(const struct aml_dev *devs, unsigned nr,
				    const char *path)
{
	for (unsigned i = 0; i < nr; i++)
		if (!strcmp(devs[i].path, path))
			return &devs[i];
	fail_msg("no device %s", path);
	return NULL;
}

/* A resource template, decoded. */
struct res {
	uint8_t kind;		/* 0x47 IO, 0x22 IRQ, 0x87/0x88 address */
	uint8_t space;		/* address: 0 mem, 1 io, 2 bus */
	uint8_t gflags, tflags;
	uint64_t min, max, len;
	uint16_t irq_mask;
};

static uint64_t le(const uint8_t *p, unsigned bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | p[bytes];
	return v;
}

static unsigned decode_crs(const uint8_t *p, uint32_t len, struct res *r)
{
	uint32_t at = 0;
	unsigned nr = 0;

	for (;;) {
		struct res *x = &r[nr];
		uint8_t tag = p[at];

		assert_true(at < len);
		memset(x, 0, sizeof(*x));
		if (tag == 0x79) {			/* end tag */
			assert_int_equal(at + 2, len);
			return nr;
		}
		nr++;
		if (tag == 0x47) {			/* IO, 7 bytes */
			x->kind = tag;
			assert_int_equal(p[at + 1], 1);	/* Decode16 */
			x->min = le(p + at + 2, 2);
			x->max = le(p + at + 4, 2);
			x->len = p[at + 7];
			at += 8;
		} else if (tag == 0x22) {		/* IRQNoFlags */
			x->kind = tag;
			x->irq_mask = (uint16_t)le(p + at + 1, 2);
			at += 3;
		} else if (tag == 0x88 || tag == 0x87) {
			unsigned w = tag == 0x88 ? 2 : 4;

			x->kind = tag;
			assert_int_equal(le(p + at + 1, 2), 3 + 5 * w);
			x->space = p[at + 3];
			x->gflags = p[at + 4];
			x->tflags = p[at + 5];
			assert_int_equal(le(p + at + 6, w), 0);	/* granularity */
			x->min = le(p + at + 6 + w, w);
			x->max = le(p + at + 6 + 2 * w, w);
			assert_int_equal(le(p + at + 6 + 3 * w, w), 0);
			x->len = le(p + at + 6 + 4 * w, w);
			at += 6 + 5 * w;
		} else {
			fail_msg("unexpected resource tag %02x", tag);
		}
	}
}

static unsigned dsdt(struct aml_dev *devs)
{
	static uint8_t buf[VACPI_SIZE];

	vacpi_build(buf, 0xe0000, 1);
	return dsdt_devices(buf + VACPI_DSDT_OFF, devs);
}

/* EisaId("PNPxxxx") as it sits in the DWord. */
static uint32_t pnp(uint16_t id)
{
	return 0xd041u | (uint32_t)(id >> 8) << 16 | (uint32_t)(id & 0xff) << 24;
}

/* COM1: IO 0x3F8/8 and IRQ 4. */
static void test_dsdt_com1(void **state)
{
	struct aml_dev devs[4];
	unsigned nr = dsdt(devs);
	const struct aml_dev *com1 = device(devs, nr, "_SB_COM1");
	const struct aml_obj *crs = obj(com1, "_CRS");
	struct res r[8];

	(void)state;
	assert_int_equal(obj(com1, "_HID")->ival, pnp(0x0501));
	assert_int_equal(obj(com1, "_UID")->ival, 1);
	assert_non_null(crs);
	assert_int_equal(decode_crs(crs->buf, crs->buf_len, r), 2);
	assert_int_equal(r[0].kind, 0x47);
	assert_int_equal(r[0].min, 0x3f8);
	assert_int_equal(r[0].max, 0x3f8);
	assert_int_equal(r[0].len, 8);
	assert_int_equal(r[1].kind, 0x22);
	assert_int_equal(r[1].irq_mask, 1u << 4);
}

/* The CMOS RTC (PNP0B00) at 0x70/2 with IRQ 8, what rtc_cmos binds to; the
 * FADT no longer says "no CMOS RTC" and names the century register. */
static void test_dsdt_rtc(void **state)
{
	static uint8_t buf[VACPI_SIZE];
	struct aml_dev devs[4];
	unsigned nr = dsdt(devs);
	const struct aml_dev *rtc = device(devs, nr, "_SB_RTC_");
	const struct aml_obj *crs = obj(rtc, "_CRS");
	struct res r[8];

	(void)state;
	assert_int_equal(obj(rtc, "_HID")->ival, pnp(0x0b00));
	assert_non_null(crs);
	assert_int_equal(decode_crs(crs->buf, crs->buf_len, r), 2);
	assert_int_equal(r[0].kind, 0x47);
	assert_int_equal(r[0].min, 0x70);
	assert_int_equal(r[0].len, 2);
	assert_int_equal(r[1].kind, 0x22);
	assert_int_equal(r[1].irq_mask, 1u << 8);
	vacpi_build(buf, 0xe0000, 1);
	assert_int_equal(buf[VACPI_FADT_OFF + 109] & (1u << 5), 0);
	assert_int_equal(buf[VACPI_FADT_OFF + 108], 0x32);
}

/* PCI0's _PRT: one route, device 3 (any function) pin INTA to GSI 10
 * directly (source 0), the virtio console's (hv/vm/vvirtio.h). */
static void test_dsdt_pci0_prt(void **state)
{
	struct aml_dev devs[4];
	unsigned nr = dsdt(devs);
	const struct aml_obj *prt = obj(device(devs, nr, "_SB_PCI0"), "_PRT");
	const uint8_t *p;
	uint32_t n, len, v, at;
	uint32_t want[4] = { 0x0003ffff, 0, 0, VACPI_PCI_INTA_GSI };

	(void)state;
	assert_non_null(prt);
	p = prt->buf;
	assert_int_equal(p[0], 1);		/* one entry */
	assert_int_equal(p[1], 0x12);		/* a Package */
	len = pkglen(p + 2, &n);
	at = 2 + n;
	assert_int_equal(p[at++], 4);		/* of four */
	for (unsigned i = 0; i < 4; i++) {
		at += aml_int(p + at, &v);
		assert_int_equal(v, want[i]);
	}
	assert_int_equal(at, 2 + len);
	assert_int_equal(at, prt->buf_len);
	assert_int_equal(VACPI_PCI_INTA_GSI, VVIRTIO_IRQ);
}

/* The PCI root bridge: segment 0, bus 0, the config ports, both I/O
 * windows around them, and the 32-bit memory window, each a fixed-size
 * producer window whose length agrees with its bounds. */
static void test_dsdt_pci0(void **state)
{
	struct aml_dev devs[4];
	unsigned nr = dsdt(devs), windows = 0;
	const struct aml_dev *pci = device(devs, nr, "_SB_PCI0");
	const struct aml_obj *crs = obj(pci, "_CRS");
	struct res r[8];
	bool bus = false, io_low = false, io_high = false, mem = false;
	bool cfg = false;

	(void)state;
	assert_int_equal(obj(pci, "_HID")->ival, pnp(0x0a03));
	assert_int_equal(obj(pci, "_SEG")->ival, 0);
	assert_int_equal(obj(pci, "_BBN")->ival, 0);
	assert_non_null(obj(pci, "_UID"));
	assert_non_null(crs);
	nr = decode_crs(crs->buf, crs->buf_len, r);
	for (unsigned i = 0; i < nr; i++) {
		if (r[i].kind == 0x47) {
			cfg = r[i].min == 0xcf8 && r[i].max == 0xcf8 &&
			      r[i].len == 8;
			continue;
		}
		windows++;
		assert_int_equal(r[i].gflags, 0x0c);	/* fixed, producer */
		assert_int_equal(r[i].len, r[i].max - r[i].min + 1);
		if (r[i].space == 2)
			bus = r[i].min == 0 && r[i].max == 0;
		if (r[i].space == 1 && r[i].min == 0)
			io_low = r[i].max == 0xcf7 && r[i].tflags == 3;
		if (r[i].space == 1 && r[i].min == 0xd00)
			io_high = r[i].max == 0xffff && r[i].tflags == 3;
		if (r[i].space == 0) {
			mem = r[i].kind == 0x87 &&
			      r[i].min == VACPI_PCI_MEM_BASE &&
			      r[i].max == VACPI_PCI_MEM_END &&
			      (r[i].tflags & 1);	/* read/write */
			/* Clear of the test device page, IOAPIC, LAPIC. */
			assert_true(r[i].max < 0xfe000000u);
		}
	}
	assert_int_equal(windows, 4);
	assert_true(bus && cfg && io_low && io_high && mem);
	/* The firmware's I/O BARs start inside the upper I/O window. */
	assert_true(VACPI_PCI_IO_FW_BASE >= VACPI_PCI_IO_HIGH_BASE);
}

static void test_dsdt_s5(void **state)
{
	static uint8_t buf[VACPI_SIZE];
	const uint8_t *d = buf + VACPI_DSDT_OFF;
	const uint8_t *s5 = NULL;

	(void)state;
	vacpi_build(buf, 0xe0000, 1);
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

#define ARENA_BYTES (1 << 16)

/* Tables below 4 GiB, where the walker's 32-bit pointers reach. */
static uint8_t *arena_low(void)
{
	uint8_t *arena = mmap(NULL, ARENA_BYTES, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);

	assert_true(arena != MAP_FAILED);
	return arena;
}

/* Build the tables for n vCPUs in arena and read them back with the
 * walker: one IOAPIC and no bad checksum whatever n is. */
static void build_and_walk(uint8_t *arena, unsigned n, struct acpi_info *ai)
{
	uint64_t base = (uint64_t)(uintptr_t)arena;

	memset(ai, 0, sizeof(*ai));
	assert_int_equal(acpi_parse(vacpi_build(arena, base, n),
				    base + VACPI_SIZE, ai), 0);
	assert_int_equal(ai->nr_ioapics, 1);
	assert_int_equal(ai->bad_checksums, 0);
}

/* The walker that reads firmware tables at boot must find what a Linux
 * guest will: XSDT with two tables, one CPU, one IOAPIC, the LAPIC. */
static void test_walker_reads_them(void **state)
{
	uint8_t *arena = arena_low();
	struct acpi_info ai;

	(void)state;
	build_and_walk(arena, 1, &ai);
	assert_true(ai.xsdt);
	assert_int_equal(ai.revision, 2);
	assert_int_equal(ai.nr_tables, 2);
	assert_string_equal(ai.oem_id, "G9HV  ");
	assert_true(ai.has_madt);
	assert_int_equal(ai.lapic_base, VACPI_LAPIC_GPA);
	assert_int_equal(ai.nr_cpus, 1);
	munmap(arena, ARENA_BYTES);
}

/* vcpus=N: the MADT lists N enabled local APICs, IDs 0..N-1 (the vCPUs'
 * indices, as their vLAPICs and CPUID say), the IOAPIC still after them;
 * 8 (the most hv.cfg allows) fits before the DSDT. */
static void test_madt_vcpus(void **state)
{
	uint8_t *arena = arena_low();
	uint64_t base = (uint64_t)(uintptr_t)arena;
	struct acpi_info ai;

	(void)state;
	for (unsigned n = 1; n <= VACPI_CPUS_MAX; n++) {
		const uint8_t *m = arena + VACPI_MADT_OFF;

		build_and_walk(arena, n, &ai);
		assert_int_equal(ai.nr_cpus, n);
		for (unsigned i = 0; i < n; i++)
			assert_int_equal(ai.cpu_apic_id[i], i);
		assert_true(VACPI_MADT_OFF + len_of(m) <= VACPI_DSDT_OFF);
		assert_int_equal(len_of(m), 44 + 8 * n + 12 + 10);
	}
	/* Out of range: one CPU, never a table past its room. */
	vacpi_build(arena, base, VACPI_CPUS_MAX + 1);
	assert_int_equal(len_of(arena + VACPI_MADT_OFF), 44 + 8 + 22);
	vacpi_build(arena, base, 0);
	assert_int_equal(len_of(arena + VACPI_MADT_OFF), 44 + 8 + 22);
	munmap(arena, ARENA_BYTES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checksums_and_links),
		cmocka_unit_test(test_fadt_fields),
		cmocka_unit_test(test_dsdt_s5),
		cmocka_unit_test(test_dsdt_com1),
		cmocka_unit_test(test_dsdt_rtc),
		cmocka_unit_test(test_dsdt_pci0),
		cmocka_unit_test(test_dsdt_pci0_prt),
		cmocka_unit_test(test_walker_reads_them),
		cmocka_unit_test(test_madt_vcpus),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
