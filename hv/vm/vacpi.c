/* Per-VM ACPI tables; see vacpi.h. Layouts: ACPI 6.4 chapter 5.2 (RSDP
 * 5.2.5, XSDT 5.2.8, FADT 5.2.9 Table 5.9, MADT 5.2.12, GAS 5.2.3.2). */
#include "hv/vm/vacpi.h"
#include "hv/platform/acpi_tables.h"
#include "mini/string.h"

#define OEM_ID		"G9HV  "
#define OEM_TABLE_ID	"G9HVVM  "
#define CREATOR_ID	0x56483947u	/* "G9HV" */

/* FADT (revision 6, 276 bytes): the offsets we fill. */
#define FADT_LEN		276
#define FADT_REV		6
#define FADT_DSDT		40
#define FADT_IAPC_BOOT_ARCH	109
#define FADT_FLAGS		112
#define FADT_RESET_REG		116
#define FADT_RESET_VALUE	128
#define FADT_MINOR		131
#define FADT_X_DSDT		140
#define FADT_SLEEP_CTL		244
#define FADT_SLEEP_STS		256
#define FADT_HV_VENDOR		268
#define FADT_F_WBINVD		(1u << 0)
#define FADT_F_RESET_REG_SUP	(1u << 10)
#define FADT_F_HW_REDUCED	(1u << 20)
#define FADT_CENTURY		108
/* IAPC_BOOT_ARCH: no 8042 (bit 1 clear), no VGA; the CMOS RTC is there
 * (bit 5, "CMOS RTC not present", clear: the DSDT declares it). */
#define IAPC_VGA_NOT_PRESENT	(1u << 2)
#define GAS_SPACE_IO		1
#define GAS_ACCESS_BYTE		1

/* MADT. */
#define MADT_PCAT_COMPAT	1u	/* dual 8259s: we have none */
#define MADT_LAPIC		0
#define MADT_IOAPIC		1
#define MADT_ISO		2
#define LAPIC_ENABLED		1u

static void put16(uint8_t *p, uint16_t v) { memcpy(p, &v, 2); }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

uint8_t vacpi_sum(const void *p, size_t len)
{
	const uint8_t *b = p;
	uint8_t s = 0;

	while (len--)
		s += *b++;
	return s;
}

static void header(uint8_t *t, const char sig[4], uint32_t len, uint8_t rev)
{
	struct acpi_sdt_header h;

	memcpy(h.signature, sig, 4);
	h.length = len;
	h.revision = rev;
	h.checksum = 0;
	memcpy(h.oem_id, OEM_ID, 6);
	memcpy(h.oem_table_id, OEM_TABLE_ID, 8);
	h.oem_revision = 1;
	h.creator_id = CREATOR_ID;
	h.creator_revision = 1;
	memcpy(t, &h, sizeof(h));
}

static void checksum(uint8_t *t, uint32_t len)
{
	t[9] = 0;
	t[9] = (uint8_t)-vacpi_sum(t, len);
}

/* Generic Address Structure: one byte in I/O space. */
static void gas_io8(uint8_t *p, uint16_t port)
{
	p[0] = GAS_SPACE_IO;
	p[1] = 8;		/* register bit width */
	p[2] = 0;		/* bit offset */
	p[3] = GAS_ACCESS_BYTE;
	put64(p + 4, port);
}

static void build_fadt(uint8_t *t, uint64_t dsdt)
{
	header(t, "FACP", FADT_LEN, FADT_REV);
	put32(t + FADT_DSDT, (uint32_t)dsdt);
	t[FADT_CENTURY] = VACPI_RTC_CENTURY;
	put16(t + FADT_IAPC_BOOT_ARCH, IAPC_VGA_NOT_PRESENT);
	put32(t + FADT_FLAGS,
	      FADT_F_WBINVD | FADT_F_RESET_REG_SUP | FADT_F_HW_REDUCED);
	gas_io8(t + FADT_RESET_REG, VACPI_RESET_PORT);
	t[FADT_RESET_VALUE] = VACPI_RESET_VALUE;
	t[FADT_MINOR] = 4;
	put64(t + FADT_X_DSDT, dsdt);
	gas_io8(t + FADT_SLEEP_CTL, VACPI_SLEEP_CTL_PORT);
	gas_io8(t + FADT_SLEEP_STS, VACPI_SLEEP_STS_PORT);
	memcpy(t + FADT_HV_VENDOR, "G9HV\0\0\0\0", 8);
	checksum(t, FADT_LEN);
}

/* One processor local APIC per vCPU (ACPI UID = APIC ID = the vCPU's
 * index, enabled), then the IOAPIC and the timer's override. */
static uint32_t madt_entries(uint8_t *e, unsigned nr_cpus)
{
	static const uint8_t rest[] = {
		/* IOAPIC id 1 at VACPI_IOAPIC_GPA, GSIs from 0. */
		MADT_IOAPIC, 12, 1, 0, 0x00, 0x00, 0xc0, 0xfe, 0, 0, 0, 0,
		/* ISA IRQ 0 (timer) is GSI 2, as on every PC; edge, high. */
		MADT_ISO, 10, 0, 0, 2, 0, 0, 0, 0, 0,
	};
	uint32_t len = 0;

	for (unsigned i = 0; i < nr_cpus; i++, len += 8) {
		const uint8_t lapic[8] = { MADT_LAPIC, 8, (uint8_t)i,
					   (uint8_t)i, LAPIC_ENABLED, 0, 0, 0 };

		memcpy(e + len, lapic, sizeof(lapic));
	}
	memcpy(e + len, rest, sizeof(rest));
	return len + sizeof(rest);
}

static uint32_t build_madt(uint8_t *t, unsigned nr_cpus)
{
	uint32_t len = 44 + madt_entries(t + 44, nr_cpus);

	header(t, "APIC", len, 5);
	put32(t + 36, (uint32_t)VACPI_LAPIC_GPA);
	put32(t + 40, 0);	/* no MADT_PCAT_COMPAT: no 8259 pair */
	checksum(t, len);
	return len;
}

/* The DSDT's AML (ACPI 6.4 chapter 20), hand-assembled from two tables:
 * the resource templates below, byte for byte, and the devices that carry
 * them; build_dsdt() wraps each device in its Device() and Name() ops and
 * computes the package lengths. It reads as
 *
 *   Name (_S5, Package (4) { 5, 0, 0, 0 })
 *   Device (\_SB.COM1) { Name (_HID, EisaId ("PNP0501")) Name (_UID, 1)
 *                        Name (_CRS, ResourceTemplate () { ... }) }
 *   Device (\_SB.RTC)  { Name (_HID, EisaId ("PNP0B00")) Name (_CRS, ...) }
 *   Device (\_SB.PCI0) { Name (_HID, EisaId ("PNP0A03")) Name (_SEG, 0)
 *                        Name (_BBN, 0) Name (_UID, 0) Name (_CRS, ...) }
 *
 * \_S5 is the SLP_TYP Linux writes to the sleep control register to power
 * off. COM1 with its interrupt: Linux maps GSI 4 through the IOAPIC when it
 * finds the port here (with no 8259 it preallocates no ISA IRQs, so the
 * legacy probe's "IRQ 4" alone cannot be requested). The RTC: rtc_cmos
 * binds to it through PnP and gives /dev/rtc0 (hv/vm/vrtc.c). PCI0: Linux
 * scans only the buses ACPI declares, and assigns BARs only inside the
 * windows of their root bridge's _CRS. */
#define AML_NAME		0x08
#define AML_ZERO		0x00
#define AML_ONE			0x01
#define AML_BYTE		0x0a
#define AML_WORD		0x0b
#define AML_DWORD		0x0c
#define AML_BUFFER		0x11
#define AML_PACKAGE		0x12
#define AML_EXT			0x5b
#define AML_DEVICE		0x82	/* after AML_EXT */
#define AML_ROOT		0x5c	/* '\' */
#define AML_DUAL_NAME		0x2e	/* two NameSegs follow */
#define AML_PKG1_MAX		63	/* longest 1-byte PkgLength */
#define AML_PKG2_MAX		0xfff	/* longest 2-byte PkgLength */

/* Resource descriptors (ACPI 6.4 section 6.4). */
#define RES_IRQ_NOFLAGS		0x22	/* small, 2 bytes: IRQ mask */
#define RES_IO			0x47	/* small, 7 bytes */
#define RES_IO_DECODE16		0x01
#define RES_END			0x79	/* small, 1 byte: checksum (0 = none) */
#define RES_DWORD_ADDR		0x87	/* large, 23 bytes */
#define RES_WORD_ADDR		0x88	/* large, 13 bytes */
#define ADDR_MEM		0
#define ADDR_IO			1
#define ADDR_BUS		2
/* General flags: min and max fixed, positive decode, producer (a window
 * the bridge passes on to its children, not a range it consumes). */
#define ADDR_FIXED_PRODUCER	0x0c
#define ADDR_IO_ENTIRE		0x03	/* ISA and non-ISA ranges */
#define ADDR_MEM_RW		0x01	/* read/write, non-cacheable */

#define LE16(x)	(uint8_t)((x) & 0xff), (uint8_t)(((x) >> 8) & 0xff)
#define LE32(x)	LE16((x) & 0xffff), LE16(((x) >> 16) & 0xffff)
#define EISA(a, b, c, d0, d1, d2, d3) /* EisaId("ABCdddd"), little end */ \
	(uint8_t)((((a) - '@') << 2) | (((b) - '@') >> 3)),		\
	(uint8_t)(((((b) - '@') & 7) << 5) | ((c) - '@')),		\
	(uint8_t)(((d0) << 4) | (d1)), (uint8_t)(((d2) << 4) | (d3))
#define IO16(port, len)	RES_IO, RES_IO_DECODE16, LE16(port), LE16(port), 1, len
#define IRQ(n)		RES_IRQ_NOFLAGS, LE16(1u << (n))
#define WORD_WINDOW(type, tflags, min, max)				\
	RES_WORD_ADDR, LE16(13), type, ADDR_FIXED_PRODUCER, tflags,	\
	LE16(0), LE16(min), LE16(max), LE16(0), LE16((max) - (min) + 1)
#define DWORD_WINDOW(type, tflags, min, max)				\
	RES_DWORD_ADDR, LE16(23), type, ADDR_FIXED_PRODUCER, tflags,	\
	LE32(0), LE32(min), LE32(max), LE32(0), LE32((max) - (min) + 1)
#define END_TAG		RES_END, 0

static const uint8_t com1_crs[] = {
	IO16(VACPI_COM1_PORT, 8),
	IRQ(VACPI_COM1_IRQ),
	END_TAG,
};

static const uint8_t rtc_crs[] = {
	IO16(VACPI_RTC_PORT, VACPI_RTC_PORTS),
	IRQ(VACPI_RTC_IRQ),
	END_TAG,
};

static const uint8_t pci0_crs[] = {
	WORD_WINDOW(ADDR_BUS, 0, 0, 0),			/* bus 0 */
	IO16(0xcf8, 8),					/* config ports */
	WORD_WINDOW(ADDR_IO, ADDR_IO_ENTIRE, 0, VACPI_PCI_IO_LOW_END),
	WORD_WINDOW(ADDR_IO, ADDR_IO_ENTIRE, VACPI_PCI_IO_HIGH_BASE,
		    VACPI_PCI_IO_END),
	DWORD_WINDOW(ADDR_MEM, ADDR_MEM_RW, VACPI_PCI_MEM_BASE,
		     VACPI_PCI_MEM_END),
	END_TAG,
};

/* PCI0's interrupt routing: Name (_PRT, Package (1) { Package (4) {
 * 0x0003FFFF, 0, 0, VACPI_PCI_INTA_GSI } }): device 3's INTA (the virtio
 * console's, hv/vm/vvirtio.h) is GSI 10, level, active low as ACPI has
 * PCI interrupts. Without it Linux finds no route ("PCI INT A: no GSI")
 * and, with no 8259, cannot fall back to the ISA line register. */
static const uint8_t pci0_prt[] = {
	AML_NAME, '_', 'P', 'R', 'T',
	AML_PACKAGE, 14, 1,
	AML_PACKAGE, 11, 4,
	AML_DWORD, LE32(0x0003ffffu), AML_ZERO, AML_ZERO,
	AML_BYTE, VACPI_PCI_INTA_GSI,
};

static const uint8_t s5_aml[] = {
	AML_NAME, '_', 'S', '5', '_', AML_PACKAGE, 0x07, 0x04,
	AML_BYTE, VACPI_S5_TYP, AML_ZERO, AML_ZERO, AML_ZERO,
};

#define DEV_INTS_MAX 3
struct aml_device {
	char name[5];			/* NameSeg under \_SB */
	uint8_t hid[4];			/* EisaId */
	struct { char name[5]; uint32_t val; } ints[DEV_INTS_MAX];
	unsigned nr_ints;
	const uint8_t *crs;
	uint32_t crs_len;
	const uint8_t *aml;	/* more named objects, as AML, or NULL */
	uint32_t aml_len;
};

static const struct aml_device dsdt_devices[] = {
	{ "COM1", { EISA('P', 'N', 'P', 0, 5, 0, 1) }, { { "_UID", 1 } }, 1,
	  com1_crs, sizeof(com1_crs), NULL, 0 },
	{ "RTC_", { EISA('P', 'N', 'P', 0, 0xb, 0, 0) }, { { "", 0 } }, 0,
	  rtc_crs, sizeof(rtc_crs), NULL, 0 },
	{ "PCI0", { EISA('P', 'N', 'P', 0, 0xa, 0, 3) },
	  { { "_SEG", 0 }, { "_BBN", 0 }, { "_UID", 0 } }, 3,
	  pci0_crs, sizeof(pci0_crs), pci0_prt, sizeof(pci0_prt) },
};

/* The AML emitter: out is NULL to only measure; every function returns
 * the bytes it emits (would emit). */
static uint32_t emit(uint8_t *out, uint32_t at, const void *p, uint32_t n)
{
	if (out)
		memcpy(out + at, p, n);
	return n;
}

static uint32_t emit_byte(uint8_t *out, uint32_t at, uint8_t b)
{
	return emit(out, at, &b, 1);
}

/* PkgLength of a body of `body` bytes: it counts its own 1 or 2 bytes.
 * Our bodies stay far below AML_PKG2_MAX (the unit test checks). */
static uint32_t emit_pkglen(uint8_t *out, uint32_t at, uint32_t body)
{
	uint32_t len = body + 1;

	if (len <= AML_PKG1_MAX)
		return emit_byte(out, at, (uint8_t)len);
	len = body + 2;
	emit_byte(out, at, (uint8_t)(0x40 | (len & 0xf)));
	emit_byte(out, at + 1, (uint8_t)(len >> 4));
	return 2;
}

/* The shortest encoding of an integer constant. */
static uint32_t emit_int(uint8_t *out, uint32_t at, uint32_t v)
{
	uint8_t b[5] = { AML_DWORD, LE32(v) };

	if (v <= AML_ONE)
		return emit_byte(out, at, (uint8_t)v);
	if (v <= 0xff)
		b[0] = AML_BYTE;
	else if (v <= 0xffff)
		b[0] = AML_WORD;
	return emit(out, at, b, b[0] == AML_BYTE ? 2 : b[0] == AML_WORD ? 3 : 5);
}

static uint32_t emit_name(uint8_t *out, uint32_t at, const char *seg)
{
	uint32_t n = emit_byte(out, at, AML_NAME);

	return n + emit(out, at + n, seg, 4);
}

/* Name (_CRS, Buffer () { template }). */
static uint32_t emit_crs(uint8_t *out, uint32_t at, const struct aml_device *d)
{
	uint32_t n = emit_name(out, at, "_CRS");
	uint32_t size = emit_int(NULL, 0, d->crs_len);

	n += emit_byte(out, at + n, AML_BUFFER);
	n += emit_pkglen(out, at + n, size + d->crs_len);
	n += emit_int(out, at + n, d->crs_len);
	return n + emit(out, at + n, d->crs, d->crs_len);
}

/* The device's path and named objects, without the Device op. */
static uint32_t emit_device_body(uint8_t *out, uint32_t at,
				 const struct aml_device *d)
{
	static const uint8_t path[] = { AML_ROOT, AML_DUAL_NAME,
					'_', 'S', 'B', '_' };
	uint32_t n = emit(out, at, path, sizeof(path));

	n += emit(out, at + n, d->name, 4);
	n += emit_name(out, at + n, "_HID");
	n += emit_byte(out, at + n, AML_DWORD);
	n += emit(out, at + n, d->hid, 4);
	for (unsigned i = 0; i < d->nr_ints; i++) {
		n += emit_name(out, at + n, d->ints[i].name);
		n += emit_int(out, at + n, d->ints[i].val);
	}
	if (d->aml)
		n += emit(out, at + n, d->aml, d->aml_len);
	return n + emit_crs(out, at + n, d);
}

static uint32_t emit_device(uint8_t *out, uint32_t at,
			    const struct aml_device *d)
{
	uint32_t body = emit_device_body(NULL, 0, d);
	uint32_t n = emit_byte(out, at, AML_EXT);

	n += emit_byte(out, at + n, AML_DEVICE);
	n += emit_pkglen(out, at + n, body);
	return n + emit_device_body(out, at + n, d);
}

static void build_dsdt(uint8_t *t)
{
	uint32_t len = 36;

	len += emit(t, len, s5_aml, sizeof(s5_aml));
	for (unsigned i = 0; i < sizeof(dsdt_devices) /
				 sizeof(dsdt_devices[0]); i++)
		len += emit_device(t, len, &dsdt_devices[i]);
	header(t, "DSDT", len, 2);
	checksum(t, len);
}

static void build_xsdt(uint8_t *t, uint64_t fadt, uint64_t madt)
{
	header(t, "XSDT", 36 + 16, 1);
	put64(t + 36, fadt);
	put64(t + 44, madt);
	checksum(t, 36 + 16);
}

static void build_rsdp(uint8_t *t, uint64_t xsdt)
{
	struct acpi_rsdp r;

	memset(&r, 0, sizeof(r));
	memcpy(r.signature, "RSD PTR ", 8);
	memcpy(r.oem_id, OEM_ID, 6);
	r.revision = 2;
	r.length = sizeof(r);
	r.xsdt = xsdt;
	memcpy(t, &r, sizeof(r));
	t[8] = (uint8_t)-vacpi_sum(t, 20);		/* ACPI 1.0 part */
	t[32] = (uint8_t)-vacpi_sum(t, sizeof(r));	/* whole */
}

uint64_t vacpi_build(uint8_t *buf, uint64_t base, unsigned nr_cpus)
{
	if (nr_cpus < 1 || nr_cpus > VACPI_CPUS_MAX)
		nr_cpus = 1;	/* vm.c never asks for that: hv.cfg caps it */
	memset(buf, 0, VACPI_SIZE);
	build_dsdt(buf + VACPI_DSDT_OFF);
	build_madt(buf + VACPI_MADT_OFF, nr_cpus);
	build_fadt(buf + VACPI_FADT_OFF, base + VACPI_DSDT_OFF);
	build_xsdt(buf + VACPI_XSDT_OFF, base + VACPI_FADT_OFF,
		   base + VACPI_MADT_OFF);
	build_rsdp(buf + VACPI_RSDP_OFF, base + VACPI_XSDT_OFF);
	return base + VACPI_RSDP_OFF;
}
