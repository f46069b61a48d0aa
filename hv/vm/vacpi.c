/* Per-VM ACPI tables; see vacpi.h. Layouts: ACPI 6.4 chapter 5.2 (RSDP
 * 5.2.5, XSDT 5.2.8, FADT 5.2.9 Table 5.9, MADT 5.2.12, GAS 5.2.3.2). */
#include "hv/vm/vacpi.h"
#include "hv/acpi_tables.h"
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
/* IAPC_BOOT_ARCH: no 8042, no VGA, no CMOS RTC (bit 1 clear = no 8042). */
#define IAPC_VGA_NOT_PRESENT	(1u << 2)
#define IAPC_CMOS_RTC_ABSENT	(1u << 5)
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
	put16(t + FADT_IAPC_BOOT_ARCH,
	      IAPC_VGA_NOT_PRESENT | IAPC_CMOS_RTC_ABSENT);
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

static uint32_t madt_entries(uint8_t *e)
{
	static const uint8_t entries[] = {
		/* Processor local APIC: UID 0, APIC id 0, enabled. */
		MADT_LAPIC, 8, 0, 0, LAPIC_ENABLED, 0, 0, 0,
		/* IOAPIC id 1 at VACPI_IOAPIC_GPA, GSIs from 0. */
		MADT_IOAPIC, 12, 1, 0, 0x00, 0x00, 0xc0, 0xfe, 0, 0, 0, 0,
		/* ISA IRQ 0 (timer) is GSI 2, as on every PC; edge, high. */
		MADT_ISO, 10, 0, 0, 2, 0, 0, 0, 0, 0,
	};

	memcpy(e, entries, sizeof(entries));
	return sizeof(entries);
}

static uint32_t build_madt(uint8_t *t)
{
	uint32_t len = 44 + madt_entries(t + 44);

	header(t, "APIC", len, 5);
	put32(t + 36, (uint32_t)VACPI_LAPIC_GPA);
	put32(t + 40, 0);	/* no MADT_PCAT_COMPAT: no 8259 pair */
	checksum(t, len);
	return len;
}

/* AML, hand-assembled (ACPI 6.4 chapter 20):
 *   Name (_S5, Package (4) { 5, 0, 0, 0 })
 *     the SLP_TYP Linux writes to the sleep control register to power off;
 *   Device (\_SB.COM1) { Name (_HID, EisaId ("PNP0501")) Name (_UID, 1)
 *     Name (_CRS, ResourceTemplate () { IO (Decode16, 0x3F8, 0x3F8, 1, 8)
 *                                       IRQNoFlags () { 4 } }) }
 *     COM1 with its interrupt: Linux maps GSI 4 through the IOAPIC when
 *     it finds the port here (with no 8259 it preallocates no ISA IRQs,
 *     so the legacy probe's "IRQ 4" alone cannot be requested). */
static const uint8_t dsdt_aml[] = {
	0x08, '_', 'S', '5', '_', 0x12, 0x07, 0x04,
	0x0a, VACPI_S5_TYP, 0x00, 0x00, 0x00,
	0x5b, 0x82, 0x31,				/* Device, PkgLength 49 */
	0x5c, 0x2e, '_', 'S', 'B', '_', 'C', 'O', 'M', '1',
	0x08, '_', 'H', 'I', 'D', 0x0c, 0x41, 0xd0, 0x05, 0x01,
	0x08, '_', 'U', 'I', 'D', 0x01,
	0x08, '_', 'C', 'R', 'S', 0x11, 0x10, 0x0a, 0x0d,
	0x47, 0x01, 0xf8, 0x03, 0xf8, 0x03, 0x01, 0x08,	/* IO */
	0x22, 0x10, 0x00,				/* IRQ 4 */
	0x79, 0x00,					/* end tag */
};

static void build_dsdt(uint8_t *t)
{
	uint32_t len = 36 + sizeof(dsdt_aml);

	header(t, "DSDT", len, 2);
	memcpy(t + 36, dsdt_aml, sizeof(dsdt_aml));
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

uint64_t vacpi_build(uint8_t *buf, uint64_t base)
{
	memset(buf, 0, VACPI_SIZE);
	build_dsdt(buf + VACPI_DSDT_OFF);
	build_madt(buf + VACPI_MADT_OFF);
	build_fadt(buf + VACPI_FADT_OFF, base + VACPI_DSDT_OFF);
	build_xsdt(buf + VACPI_XSDT_OFF, base + VACPI_FADT_OFF,
		   base + VACPI_MADT_OFF);
	build_rsdp(buf + VACPI_RSDP_OFF, base + VACPI_XSDT_OFF);
	return base + VACPI_RSDP_OFF;
}
