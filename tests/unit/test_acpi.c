/* Unit tests of the ACPI table walk (hv/platform/acpi.c).
 *
 * Tables are built in an arena mapped below 2 GiB (MAP_32BIT), so that the
 * 32-bit pointers of an RSDP v1 and an RSDT can reach them too. As on the
 * machine, a pointer is its own "physical address" (hv/mm/mem.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <cmocka.h>

#include "hv/platform/acpi.h"
#include "hv/platform/acpi_tables.h"
#include "hv/hv_errno.h"

#define ARENA_SIZE (1u << 20)
#define NOLIMIT UINT64_MAX

static uint8_t *arena;
static size_t arena_used;
static struct acpi_info ai;

static uint64_t pa(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

/* Zeroed, 16-byte aligned space from the arena. */
static void *get(size_t n)
{
	void *p;

	arena_used = (arena_used + 15) & ~(size_t)15;
	assert_true(arena_used + n <= ARENA_SIZE);
	p = arena + arena_used;
	arena_used += n;
	memset(p, 0, n);
	return p;
}

static uint8_t sum(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t s = 0;

	while (n--)
		s += *b++;
	return s;
}

static void fix_sdt(struct acpi_sdt_header *h)
{
	h->checksum = 0;
	h->checksum = (uint8_t)-sum(h, h->length);
	assert_int_equal(sum(h, h->length), 0);
}

static struct acpi_sdt_header *new_sdt(const char *sig, uint32_t body)
{
	struct acpi_sdt_header *h = get(sizeof(*h) + body);

	memcpy(h->signature, sig, 4);
	h->length = sizeof(*h) + body;
	h->revision = 1;
	memcpy(h->oem_id, "TESTOE", 6);
	memcpy(h->oem_table_id, "UNITTEST", 8);
	return h;
}

static void fix_rsdp(struct acpi_rsdp *r)
{
	r->checksum = 0;
	r->checksum = (uint8_t)-sum(r, 20);
	r->ext_checksum = 0;
	if (r->revision >= 2)
		r->ext_checksum = (uint8_t)-sum(r, sizeof(*r));
}

static struct acpi_rsdp *new_rsdp(int revision, const void *rsdt, const void *xsdt)
{
	struct acpi_rsdp *r = get(sizeof(*r));

	memcpy(r->signature, "RSD PTR ", 8);
	memcpy(r->oem_id, "LEADHV", 6);
	r->revision = (uint8_t)revision;
	r->rsdt = (uint32_t)pa(rsdt);
	assert_true(pa(rsdt) <= UINT32_MAX);
	if (revision >= 2) {
		r->length = sizeof(*r);
		r->xsdt = pa(xsdt);
	}
	fix_rsdp(r);
	return r;
}

/* An XSDT (8-byte entries) or RSDT (4-byte) listing the n tables. */
static struct acpi_sdt_header *new_root(bool x, void *const *tables, unsigned n)
{
	unsigned esz = x ? 8 : 4;
	struct acpi_sdt_header *h = new_sdt(x ? "XSDT" : "RSDT", esz * n);
	uint8_t *e = (uint8_t *)(h + 1);

	for (unsigned i = 0; i < n; i++) {
		uint64_t a = pa(tables[i]);

		memcpy(e + i * esz, &a, esz); /* little endian */
	}
	fix_sdt(h);
	return h;
}

/* --- MADT building --- */

struct madt_b {
	uint8_t buf[1024];
	uint32_t len;
};

static void madt_entry(struct madt_b *m, uint8_t type, uint8_t len,
		       const void *body)
{
	assert_true(m->len + len <= sizeof(m->buf));
	m->buf[m->len] = type;
	m->buf[m->len + 1] = len;
	if (len > 2)
		memcpy(m->buf + m->len + 2, body, len - 2u);
	m->len += len;
}

static void madt_lapic(struct madt_b *m, uint8_t id, uint32_t flags)
{
	uint8_t b[6] = { id, id };

	memcpy(b + 2, &flags, 4);
	madt_entry(m, 0, 8, b);
}

/* A LAPIC entry whose ACPI processor UID is not its APIC id, as on
 * machines that number processors apart from their APICs. */
static void madt_lapic_uid(struct madt_b *m, uint8_t uid, uint8_t id,
			   uint32_t flags)
{
	uint8_t b[6] = { uid, id };

	memcpy(b + 2, &flags, 4);
	madt_entry(m, 0, 8, b);
}

static void madt_x2apic(struct madt_b *m, uint32_t id, uint32_t flags)
{
	uint8_t b[14] = { 0 };

	memcpy(b + 2, &id, 4);
	memcpy(b + 6, &flags, 4);
	memcpy(b + 10, &id, 4);
	madt_entry(m, 9, 16, b);
}

static void madt_ioapic(struct madt_b *m, uint8_t id, uint32_t addr,
			uint32_t gsi)
{
	uint8_t b[10] = { id, 0 };

	memcpy(b + 2, &addr, 4);
	memcpy(b + 6, &gsi, 4);
	madt_entry(m, 1, 12, b);
}

static struct acpi_sdt_header *new_madt(const struct madt_b *m, uint32_t lapic_base)
{
	struct acpi_sdt_header *h = new_sdt("APIC", 8 + m->len);
	uint8_t *p = (uint8_t *)(h + 1);
	uint32_t flags = 1; /* PCAT_COMPAT */

	memcpy(p, &lapic_base, 4);
	memcpy(p + 4, &flags, 4);
	memcpy(p + 8, m->buf, m->len);
	fix_sdt(h);
	return h;
}

static struct acpi_sdt_header *new_mcfg(unsigned n, uint64_t base0)
{
	struct acpi_sdt_header *h = new_sdt("MCFG", 8 + 16 * n);
	uint8_t *e = (uint8_t *)(h + 1) + 8;

	for (unsigned i = 0; i < n; i++, e += 16) {
		uint64_t base = base0 + i * 0x10000000ull;
		uint16_t seg = (uint16_t)(i + 0x100);

		memcpy(e, &base, 8);
		memcpy(e + 8, &seg, 2);
		e[10] = (uint8_t)i;
		e[11] = (uint8_t)(0x3f + i);
	}
	fix_sdt(h);
	return h;
}

static void check_mcfg(unsigned i, uint64_t base0, unsigned k)
{
	assert_int_equal(ai.mcfg[i].base, base0 + k * 0x10000000ull);
	assert_int_equal(ai.mcfg[i].segment, k + 0x100);
	assert_int_equal(ai.mcfg[i].bus_start, k);
	assert_int_equal(ai.mcfg[i].bus_end, 0x3f + k);
}

/* A typical desktop MADT: 4 enabled CPUs of 6 LAPIC entries, 2 x2APIC
 * entries (1 enabled), 2 I/O APICs, and entry types we do not count. */
static struct acpi_sdt_header *typical_madt(void)
{
	struct madt_b m = { .len = 0 };
	uint8_t iso[8] = { 0, 9, 9, 0, 0, 0, 0x0d, 0 }; /* int. source override */
	uint8_t nmi[4] = { 0xff, 0x05, 0, 1 };          /* local APIC NMI */

	madt_lapic(&m, 0, 1);
	madt_lapic(&m, 1, 1);
	madt_ioapic(&m, 2, 0xfec00000, 0);
	madt_lapic(&m, 2, 0);     /* disabled */
	madt_lapic(&m, 3, 1 | 2); /* enabled (online-capable bit also set) */
	madt_lapic(&m, 4, 2);     /* only online-capable: not counted */
	madt_entry(&m, 2, 10, iso);
	madt_entry(&m, 4, 6, nmi);
	madt_x2apic(&m, 0x100, 1);
	madt_x2apic(&m, 0x101, 0);
	madt_ioapic(&m, 3, 0xfec01000, 24);
	madt_lapic(&m, 5, 1);
	return new_madt(&m, 0xfee00000);
}

static int setup(void **state)
{
	(void)state;
	if (!arena) {
		arena = mmap(NULL, ARENA_SIZE, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
		if (arena == MAP_FAILED) {
			arena = NULL;
			return -1;
		}
		assert_true(pa(arena) + ARENA_SIZE <= UINT32_MAX);
	}
	arena_used = 0;
	memset(&ai, 0xa5, sizeof(ai)); /* acpi_parse must clear it */
	return 0;
}

static int teardown_group(void **state)
{
	(void)state;
	if (arena)
		munmap(arena, ARENA_SIZE);
	arena = NULL;
	return 0;
}

static void test_v2_xsdt_full(void **state)
{
	(void)state;
	void *facp = new_sdt("FACP", 244 - 36);
	fix_sdt(facp);
	void *tables[] = { facp, typical_madt(), new_mcfg(1, 0xe0000000) };
	struct acpi_sdt_header *xsdt = new_root(true, tables, 3);
	/* The RSDT is there too but must not be used with a good v2 RSDP. */
	struct acpi_sdt_header *rsdt = new_root(false, tables, 1);
	struct acpi_rsdp *r = new_rsdp(2, rsdt, xsdt);

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.revision, 2);
	assert_true(ai.xsdt);
	assert_int_equal(ai.nr_tables, 3);
	assert_string_equal(ai.oem_id, "LEADHV");
	assert_true(ai.has_madt);
	assert_int_equal(ai.lapic_base, 0xfee00000);
	assert_int_equal(ai.nr_cpus, 4 + 1);
	assert_int_equal(ai.nr_cpu_ids, 4 + 1);
	assert_int_equal(ai.cpu_apic_id[3], 0x100);
	assert_int_equal(ai.nr_ioapics, 2);
	assert_int_equal(ai.nr_mcfg, 1);
	check_mcfg(0, 0xe0000000, 0);
	assert_int_equal(ai.bad_checksums, 0);
}

/* The enabled CPUs' APIC ids, in table order, from both entry types: the
 * list the SMP bring-up starts (hv/smp.c). */
static void test_madt_cpu_ids(void **state)
{
	(void)state;
	struct madt_b m = { .len = 0 };

	madt_lapic_uid(&m, 7, 0, 1);
	madt_lapic_uid(&m, 8, 2, 1);
	madt_lapic_uid(&m, 9, 4, 0);	/* disabled: not listed */
	madt_lapic_uid(&m, 10, 6, 2);	/* online-capable only: not listed */
	madt_x2apic(&m, 0x1234, 1);
	madt_lapic_uid(&m, 11, 1, 3);
	void *tables[] = { new_madt(&m, 0xfee00000) };
	struct acpi_rsdp *r = new_rsdp(2, NULL, new_root(true, tables, 1));

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.nr_cpus, 4);
	assert_int_equal(ai.nr_cpu_ids, 4);
	assert_int_equal(ai.cpus_dropped, 0);
	assert_int_equal(ai.cpu_apic_id[0], 0);
	assert_int_equal(ai.cpu_apic_id[1], 2);
	assert_int_equal(ai.cpu_apic_id[2], 0x1234);
	assert_int_equal(ai.cpu_apic_id[3], 1);
}

/* More enabled CPUs than the list holds: all counted, the rest dropped
 * (and said so), none written past the array. */
static void test_madt_cpu_ids_capped(void **state)
{
	(void)state;
	struct madt_b m = { .len = 0 };

	for (unsigned i = 0; i < ACPI_MAX_CPUS + 6; i++)
		madt_lapic(&m, (uint8_t)i, 1);
	void *tables[] = { new_madt(&m, 0xfee00000) };
	struct acpi_rsdp *r = new_rsdp(2, NULL, new_root(true, tables, 1));

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.nr_cpus, ACPI_MAX_CPUS + 6);
	assert_int_equal(ai.nr_cpu_ids, ACPI_MAX_CPUS);
	assert_int_equal(ai.cpus_dropped, 6);
	assert_int_equal(ai.cpu_apic_id[ACPI_MAX_CPUS - 1], ACPI_MAX_CPUS - 1);
}

static void test_v1_rsdt(void **state)
{
	(void)state;
	void *tables[] = { new_mcfg(2, 0xb0000000), typical_madt() };
	struct acpi_sdt_header *rsdt = new_root(false, tables, 2);
	struct acpi_rsdp *r = new_rsdp(0, rsdt, NULL);

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.revision, 0);
	assert_false(ai.xsdt);
	assert_int_equal(ai.nr_tables, 2);
	assert_true(ai.has_madt);
	assert_int_equal(ai.nr_cpus, 5);
	assert_int_equal(ai.nr_ioapics, 2);
	assert_int_equal(ai.nr_mcfg, 2);
	check_mcfg(0, 0xb0000000, 0);
	check_mcfg(1, 0xb0000000, 1);
}

/* An RSDP v1 is 20 bytes: one ending exactly at the limit is accepted (the
 * 2.0 fields beyond it are never read). */
static void test_v1_rsdp_at_limit(void **state)
{
	(void)state;
	void *tables[] = { typical_madt() };
	struct acpi_sdt_header *rsdt = new_root(false, tables, 1);
	struct acpi_rsdp *r = new_rsdp(0, rsdt, NULL);

	assert_int_equal(acpi_parse(pa(r), pa(r) + 20, &ai), 0);
	assert_true(ai.has_madt);
	assert_int_equal(ai.nr_cpus, 5);

	/* A v2 RSDP there: its 2.0 part is out of range, so the RSDT. */
	r->revision = 2;
	r->length = 36;
	r->xsdt = pa(r); /* garbage that must not be followed */
	fix_rsdp(r);
	assert_int_equal(acpi_parse(pa(r), pa(r) + 20, &ai), 0);
	assert_false(ai.xsdt);
	assert_int_equal(ai.revision, 2);
	assert_true(ai.has_madt);
}

/* v2 RSDP whose extended checksum is bad, or whose XSDT pointer is 0, or
 * whose length is short: the RSDT is used. */
static void test_v2_fallback_to_rsdt(void **state)
{
	(void)state;
	void *madt = typical_madt();
	void *mcfg = new_mcfg(1, 0xf0000000);
	void *rsdt_tables[] = { madt };
	void *xsdt_tables[] = { madt, mcfg };
	struct acpi_sdt_header *rsdt = new_root(false, rsdt_tables, 1);
	struct acpi_sdt_header *xsdt = new_root(true, xsdt_tables, 2);
	struct acpi_rsdp *r = new_rsdp(2, rsdt, xsdt);

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_true(ai.xsdt);
	assert_int_equal(ai.nr_mcfg, 1);

	r->ext_checksum ^= 0x55;
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_false(ai.xsdt);
	assert_int_equal(ai.revision, 2);
	assert_int_equal(ai.nr_tables, 1);
	assert_int_equal(ai.nr_mcfg, 0);
	assert_int_equal(ai.nr_cpus, 5);

	r->xsdt = 0;
	fix_rsdp(r);
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_false(ai.xsdt);

	r->xsdt = pa(xsdt);
	r->length = 20;
	fix_rsdp(r);
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_false(ai.xsdt);

	/* The whole RSDP just fits below the limit: XSDT. */
	r->length = sizeof(*r);
	fix_rsdp(r);
	assert_int_equal(acpi_parse(pa(r), pa(r) + sizeof(*r), &ai), 0);
	assert_true(ai.xsdt);
	assert_int_equal(ai.nr_mcfg, 1);
	/* One byte less and its 2.0 part is out of range: RSDT. */
	assert_int_equal(acpi_parse(pa(r), pa(r) + sizeof(*r) - 1, &ai), 0);
	assert_false(ai.xsdt);
	assert_int_equal(ai.nr_mcfg, 0);
	assert_int_equal(ai.nr_cpus, 5);
}

static void test_bad_rsdp(void **state)
{
	(void)state;
	void *tables[] = { typical_madt() };
	struct acpi_sdt_header *xsdt = new_root(true, tables, 1);
	struct acpi_sdt_header *rsdt = new_root(false, tables, 1);
	struct acpi_rsdp *r = new_rsdp(2, rsdt, xsdt);

	/* Bad signature. */
	r->signature[3] = 'X';
	fix_rsdp(r);
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), -HV_EINVAL);
	assert_false(ai.has_madt);
	memcpy(r->signature, "RSD PTR ", 8);
	fix_rsdp(r);
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);

	/* Bad v1 checksum (covers the first 20 bytes). */
	r->checksum++;
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), -HV_EINVAL);
	r->checksum--;

	/* No RSDP, or one out of range. */
	assert_int_equal(acpi_parse(0, NOLIMIT, &ai), -HV_ENOENT);
	assert_int_equal(acpi_parse(pa(r), pa(r), &ai), -HV_ENOENT);
	assert_int_equal(acpi_parse(pa(r), pa(r) + 19, &ai), -HV_ENOENT);
	assert_int_equal(acpi_parse(UINT64_MAX - 10, NOLIMIT, &ai), -HV_ENOENT);

	/* Good RSDP, but both roots are bad. */
	xsdt->checksum++;
	r->rsdt = 0;
	fix_rsdp(r);
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), -HV_EINVAL);
	assert_int_equal(ai.bad_checksums, 1);
	assert_false(ai.has_madt);
}

static void test_bad_table_checksum_skipped(void **state)
{
	(void)state;
	struct acpi_sdt_header *bad_madt = typical_madt();
	struct acpi_sdt_header *bad_mcfg = new_mcfg(1, 0xe0000000);
	struct acpi_sdt_header *good_mcfg = new_mcfg(3, 0xc0000000);
	void *tables[] = { bad_madt, bad_mcfg, good_mcfg };

	bad_madt->checksum ^= 1;
	((uint8_t *)bad_mcfg)[bad_mcfg->length - 1] ^= 0x80;
	struct acpi_rsdp *r = new_rsdp(2, new_root(false, tables, 3),
				  new_root(true, tables, 3));

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.nr_tables, 3);
	assert_int_equal(ai.bad_checksums, 2);
	assert_false(ai.has_madt);
	assert_int_equal(ai.nr_cpus, 0);
	assert_int_equal(ai.nr_mcfg, 3);
	check_mcfg(0, 0xc0000000, 0);
	check_mcfg(2, 0xc0000000, 2);
}

static void madt_run(const struct madt_b *m, uint32_t want_cpus,
		     uint32_t want_ioapics)
{
	void *tables[] = { new_madt(m, 0xfee00000) };
	struct acpi_rsdp *r = new_rsdp(2, new_root(false, tables, 1),
				  new_root(true, tables, 1));

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_true(ai.has_madt);
	assert_int_equal(ai.nr_cpus, want_cpus);
	assert_int_equal(ai.nr_ioapics, want_ioapics);
	assert_int_equal(ai.bad_checksums, 0);
}

static void test_madt_zero_length_entry(void **state)
{
	struct madt_b m = { .len = 0 };

	(void)state;
	madt_lapic(&m, 0, 1);
	madt_ioapic(&m, 1, 0xfec00000, 0);
	madt_entry(&m, 0, 0, NULL); /* len 0: would loop forever */
	m.len += 6;                 /* (its would-be body) */
	madt_lapic(&m, 1, 1);       /* never reached */
	madt_run(&m, 1, 1);

	/* Length 1 is as bad. */
	m.len = 0;
	madt_lapic(&m, 0, 1);
	madt_entry(&m, 1, 1, NULL);
	m.len += 11;
	madt_ioapic(&m, 1, 0xfec00000, 0);
	madt_run(&m, 1, 0);
}

static void test_madt_entry_overruns_table(void **state)
{
	struct madt_b m = { .len = 0 };
	uint8_t body[14] = { 7, 7, 1, 0, 0, 0 };

	(void)state;
	madt_lapic(&m, 0, 1);
	madt_lapic(&m, 1, 1);
	/* A LAPIC entry claiming 8 bytes with only 6 left in the table. */
	madt_entry(&m, 0, 6, body);
	m.buf[m.len - 5] = 8;
	madt_run(&m, 2, 0);

	/* An entry claiming 255 bytes. */
	m.len = 0;
	madt_ioapic(&m, 1, 0xfec00000, 0);
	madt_entry(&m, 1, 12, body);
	m.buf[m.len - 11] = 255;
	madt_run(&m, 0, 1);

	/* A lone trailing byte (no room for type + length) ends the walk. */
	m.len = 0;
	madt_lapic(&m, 0, 1);
	m.buf[m.len++] = 0;
	madt_run(&m, 1, 0);
}

/* LAPIC / x2APIC entries too short to hold their flags are not counted,
 * but the walk goes on past them. */
static void test_madt_short_cpu_entries(void **state)
{
	struct madt_b m = { .len = 0 };
	uint8_t b[14] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };

	(void)state;
	madt_entry(&m, 0, 6, b);  /* LAPIC, 6 < 8 */
	madt_entry(&m, 9, 12, b); /* x2APIC, 12 < 16 */
	madt_lapic(&m, 2, 1);
	madt_x2apic(&m, 3, 1);
	madt_run(&m, 2, 0);
}

static void test_madt_empty_and_short(void **state)
{
	struct madt_b m = { .len = 0 };

	(void)state;
	madt_run(&m, 0, 0); /* header + lapic base + flags, no entries */
	assert_int_equal(ai.lapic_base, 0xfee00000);

	/* Shorter than the MADT header (no flags field): not a MADT. */
	struct acpi_sdt_header *h = new_sdt("APIC", 4);
	uint32_t base = 0xfee00000;

	memcpy(h + 1, &base, 4);
	fix_sdt(h);
	void *tables[] = { h };
	struct acpi_rsdp *r = new_rsdp(0, new_root(false, tables, 1), NULL);

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_false(ai.has_madt);
	assert_int_equal(ai.lapic_base, 0);
}

/* The layout decides what is above the limit: rsdp, root, madt, then the
 * tables under test at the top of the arena. */
static void test_limit_cuts_tables(void **state)
{
	(void)state;
	struct acpi_rsdp *r = get(sizeof(*r));
	struct acpi_sdt_header *root = get(sizeof(struct acpi_sdt_header) + 3 * 8);
	struct acpi_sdt_header *madt = typical_madt();
	struct acpi_sdt_header *mcfg = new_mcfg(2, 0xe0000000);
	struct acpi_sdt_header *mcfg2 = new_mcfg(1, 0xa0000000);
	void *tables[] = { madt, mcfg, mcfg2 };
	struct acpi_sdt_header *built = new_root(true, tables, 3);

	memcpy(root, built, built->length);
	memcpy(r, new_rsdp(2, NULL, root), sizeof(*r));

	/* Limit at the first byte of mcfg: it and mcfg2 are refused. */
	assert_int_equal(acpi_parse(pa(r), pa(mcfg), &ai), 0);
	assert_true(ai.has_madt);
	assert_int_equal(ai.nr_mcfg, 0);
	assert_int_equal(ai.bad_checksums, 0);

	/* Limit inside mcfg: its header is readable, its body is not. */
	assert_int_equal(acpi_parse(pa(r), pa(mcfg) + 40, &ai), 0);
	assert_int_equal(ai.nr_mcfg, 0);
	assert_int_equal(acpi_parse(pa(r), pa(mcfg) + mcfg->length - 1, &ai),
			 0);
	assert_int_equal(ai.nr_mcfg, 0);

	/* Limit exactly at mcfg's end: mcfg in, mcfg2 out. */
	assert_int_equal(acpi_parse(pa(r), pa(mcfg) + mcfg->length, &ai), 0);
	assert_int_equal(ai.nr_mcfg, 2);
	check_mcfg(1, 0xe0000000, 1);

	/* Limit cutting the root itself: nothing. */
	assert_int_equal(acpi_parse(pa(r), pa(root) + 40, &ai), -HV_EINVAL);
	assert_false(ai.has_madt);
}

/* Root entries that point nowhere sensible, tables of absurd length. */
static void test_bogus_entries(void **state)
{
	(void)state;
	struct acpi_sdt_header *tiny = new_sdt("MCFG", 0);
	struct acpi_sdt_header *huge = new_mcfg(1, 0xe0000000);
	struct acpi_sdt_header *short_len = new_mcfg(1, 0xe0000000);
	struct acpi_sdt_header *madt = typical_madt();

	fix_sdt(tiny);
	huge->length = (1u << 20) + 16; /* > 1 MiB cap */
	short_len->length = 35;         /* shorter than its header */
	uint64_t limit = pa(arena) + ARENA_SIZE;
	void *tables[] = { NULL, tiny, huge, short_len,
			   (void *)(uintptr_t)(limit - 20), /* header cut */
			   (void *)(uintptr_t)(limit + 4096), /* beyond */
			   (void *)(uintptr_t)UINT64_MAX, madt };
	struct acpi_sdt_header *xsdt = new_root(true, tables, 8);
	struct acpi_rsdp *r = new_rsdp(2, NULL, xsdt);

	assert_int_equal(acpi_parse(pa(r), limit, &ai), 0);
	assert_int_equal(ai.nr_tables, 8);
	assert_int_equal(ai.bad_checksums, 0);
	assert_int_equal(ai.nr_mcfg, 0); /* tiny has no entries */
	assert_true(ai.has_madt);
	assert_int_equal(ai.nr_cpus, 5);
}

/* A root whose length is not a whole number of entries: the tail is
 * ignored. */
static void test_root_ragged_length(void **state)
{
	(void)state;
	void *tables[] = { typical_madt(), new_mcfg(1, 0xe0000000) };
	struct acpi_sdt_header *xsdt = new_root(true, tables, 2);

	xsdt->length -= 3; /* the second entry is now incomplete */
	fix_sdt(xsdt);
	struct acpi_rsdp *r = new_rsdp(2, NULL, xsdt);

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.nr_tables, 1);
	assert_true(ai.has_madt);
	assert_int_equal(ai.nr_mcfg, 0);

	/* An empty root. */
	struct acpi_sdt_header *empty = new_root(true, tables, 0);

	r->xsdt = pa(empty);
	fix_rsdp(r);
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.nr_tables, 0);
	assert_false(ai.has_madt);
}

/* A Skylake desktop's DMAR: the graphics unit (scope 00:02.0), the
 * INCLUDE_PCI_ALL unit, the iGPU's RMRR (its stolen memory), and a
 * structure type we do not read (ANDD, 4). */
static const uint8_t skl_dmar_body[] = {
	38, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,		/* HAW 39, INTR_REMAP */
	/* DRHD, 24 bytes: flags 0, segment 0, base fed90000, one scope */
	0, 0, 24, 0, 0, 0, 0, 0, 0x00, 0x00, 0xd9, 0xfe, 0, 0, 0, 0,
	1, 8, 0, 0, 0, 0, 2, 0,				/* endpoint 00:02.0 */
	/* ANDD, 8 bytes */
	4, 0, 8, 0, 0, 0, 0, 0,
	/* DRHD, 16 bytes: INCLUDE_PCI_ALL, base fed91000 */
	0, 0, 16, 0, 1, 0, 0, 0, 0x00, 0x10, 0xd9, 0xfe, 0, 0, 0, 0,
	/* RMRR, 32 bytes: segment 0, 7b000000..7effffff, scope 00:02.0 */
	1, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0x7b, 0, 0, 0, 0,
	0xff, 0xff, 0xff, 0x7e, 0, 0, 0, 0, 1, 8, 0, 0, 0, 0, 2, 0,
};

static struct acpi_sdt_header *new_dmar(const uint8_t *body, uint32_t n)
{
	struct acpi_sdt_header *h = new_sdt("DMAR", n);

	memcpy(h + 1, body, n);
	fix_sdt(h);
	return h;
}

static void test_dmar_units_and_rmrr(void **state)
{
	(void)state;
	void *tables[] = { new_dmar(skl_dmar_body, sizeof(skl_dmar_body)) };
	struct acpi_rsdp *r = new_rsdp(2, NULL, new_root(true, tables, 1));
	const struct acpi_drhd *g;

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_true(ai.dmar.present);
	assert_int_equal(ai.dmar.haw, 38);
	assert_int_equal(ai.dmar.flags, 1);
	assert_int_equal(ai.dmar.nr_drhd, 2);
	assert_int_equal(ai.dmar.drhd[0].base, 0xfed90000);
	assert_true(ai.dmar.drhd[0].igpu);
	assert_false(ai.dmar.drhd[0].include_all);
	assert_int_equal(ai.dmar.drhd[1].base, 0xfed91000);
	assert_true(ai.dmar.drhd[1].include_all);
	assert_false(ai.dmar.drhd[1].igpu);
	assert_int_equal(ai.dmar.nr_rmrr, 1);
	assert_int_equal(ai.dmar.rmrr[0].base, 0x7b000000);
	assert_int_equal(ai.dmar.rmrr[0].limit, 0x7effffff);
	assert_true(ai.dmar.rmrr[0].igpu);
	assert_int_equal(ai.dmar.dropped, 0);
	g = acpi_dmar_igpu_unit(&ai.dmar);
	assert_non_null(g);
	assert_int_equal(g->base, 0xfed90000);
}

static void test_dmar_fallback_and_broken(void **state)
{
	(void)state;
	/* Without the graphics unit the INCLUDE_PCI_ALL one translates it. */
	uint8_t b[sizeof(skl_dmar_body)];
	memcpy(b, skl_dmar_body, sizeof(b));
	b[12 + 22] = 3; /* the first unit's scope now names 00:03.0 */
	void *t1[] = { new_dmar(b, sizeof(b)) };
	struct acpi_rsdp *r = new_rsdp(2, NULL, new_root(true, t1, 1));

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_false(ai.dmar.drhd[0].igpu);
	assert_int_equal(acpi_dmar_igpu_unit(&ai.dmar)->base, 0xfed91000);

	/* A structure whose length runs past the table ends the walk. */
	memcpy(b, skl_dmar_body, sizeof(b));
	b[12 + 24 + 8 + 2] = 200; /* the second DRHD's length */
	void *t2[] = { new_dmar(b, sizeof(b)) };
	r = new_rsdp(2, NULL, new_root(true, t2, 1));
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.dmar.nr_drhd, 1);
	assert_int_equal(ai.dmar.nr_rmrr, 0);
	assert_int_equal(ai.dmar.dropped, 1);

	/* No DMAR at all: not present, and no unit for the iGPU. */
	void *t3[] = { new_mcfg(1, 0xe0000000) };
	r = new_rsdp(2, NULL, new_root(true, t3, 1));
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_false(ai.dmar.present);
	assert_null(acpi_dmar_igpu_unit(&ai.dmar));
}

/* QEMU 7.2's q35 DMAR with -device intel-iommu: one unit, flags 0, its
 * scope an I/O APIC and every function on bus 0 (here 00:00.0, 00:03.0
 * and 00:1f.2); no 00:02.0. Plus a two-hop path (behind a bridge), which
 * is counted, not resolved. */
static const uint8_t qemu_dmar_body[] = {
	38, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	0, 0, 58, 0, 0, 0, 0, 0, 0x00, 0x00, 0xd9, 0xfe, 0, 0, 0, 0,
	3, 8, 0, 0, 0, 0xff, 0, 0,			/* IOAPIC */
	1, 8, 0, 0, 0, 0, 0, 0,				/* 00:00.0 */
	1, 8, 0, 0, 0, 0, 3, 0,				/* 00:03.0 */
	1, 8, 0, 0, 0, 0, 0x1f, 2,			/* 00:1f.2 */
	1, 10, 0, 0, 0, 0, 1, 0, 0, 0,			/* 00:01.0 -> 0.0 */
};

static void test_dmar_scoped_unit(void **state)
{
	(void)state;
	void *t[] = { new_dmar(qemu_dmar_body, sizeof(qemu_dmar_body)) };
	struct acpi_rsdp *r = new_rsdp(2, NULL, new_root(true, t, 1));
	const struct acpi_drhd *u;

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.dmar.nr_drhd, 1);
	u = &ai.dmar.drhd[0];
	assert_false(u->include_all);
	assert_false(u->igpu);
	assert_int_equal(u->nr_scopes, 3);
	assert_int_equal(u->scope[0], 0x0000);
	assert_int_equal(u->scope[1], 0x0018);
	assert_int_equal(u->scope[2], 0x00fa);
	assert_int_equal(u->scopes_skipped, 1);
	/* no unit for the iGPU; the test device's unit is found */
	assert_null(acpi_dmar_igpu_unit(&ai.dmar));
	assert_ptr_equal(acpi_dmar_unit_for(&ai.dmar, 0, 3 << 3), u);
	assert_ptr_equal(acpi_dmar_unit_for(&ai.dmar, 0, 0x1f << 3 | 2), u);
	assert_null(acpi_dmar_unit_for(&ai.dmar, 0, 4 << 3));
	assert_null(acpi_dmar_unit_for(&ai.dmar, 1, 3 << 3));

	/* the Skylake table: named devices go to the graphics unit only if
	 * named there, everything else to INCLUDE_PCI_ALL */
	void *t2[] = { new_dmar(skl_dmar_body, sizeof(skl_dmar_body)) };
	r = new_rsdp(2, NULL, new_root(true, t2, 1));
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(acpi_dmar_unit_for(&ai.dmar, 0, 2 << 3)->base,
			 0xfed90000);
	assert_int_equal(acpi_dmar_unit_for(&ai.dmar, 0, 0x14 << 3)->base,
			 0xfed91000);
	assert_int_equal(acpi_dmar_unit_for(&ai.dmar, 3, 0)->base, 0xfed91000);
}

static void test_mcfg_capped(void **state)
{
	(void)state;
	void *tables[] = { new_mcfg(ACPI_MAX_MCFG + 3, 0x80000000) };
	struct acpi_rsdp *r = new_rsdp(2, NULL, new_root(true, tables, 1));

	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.nr_mcfg, ACPI_MAX_MCFG);
	for (unsigned i = 0; i < ACPI_MAX_MCFG; i++)
		check_mcfg(i, 0x80000000, i);

	/* The cap holds across several MCFG tables too. */
	void *two[] = { new_mcfg(3, 0x40000000), new_mcfg(3, 0x90000000) };

	r = new_rsdp(2, NULL, new_root(true, two, 2));
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.nr_mcfg, ACPI_MAX_MCFG);
	check_mcfg(2, 0x40000000, 2);
	check_mcfg(3, 0x90000000, 0);

	/* A trailing partial entry is not read. */
	struct acpi_sdt_header *part = new_mcfg(2, 0x70000000);

	part->length -= 1;
	fix_sdt(part);
	void *one[] = { part };

	r = new_rsdp(2, NULL, new_root(true, one, 1));
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_int_equal(ai.nr_mcfg, 1);
}

static void test_oem_id_terminated(void **state)
{
	(void)state;
	void *tables[] = { typical_madt() };
	struct acpi_rsdp *r = new_rsdp(0, new_root(false, tables, 1), NULL);

	memcpy(r->oem_id, "ABCDEF", 6);
	fix_rsdp(r);
	assert_int_equal(acpi_parse(pa(r), NOLIMIT, &ai), 0);
	assert_string_equal(ai.oem_id, "ABCDEF");
	assert_int_equal(ai.oem_id[6], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_v2_xsdt_full, setup),
		cmocka_unit_test_setup(test_madt_cpu_ids, setup),
		cmocka_unit_test_setup(test_madt_cpu_ids_capped, setup),
		cmocka_unit_test_setup(test_v1_rsdt, setup),
		cmocka_unit_test_setup(test_v1_rsdp_at_limit, setup),
		cmocka_unit_test_setup(test_v2_fallback_to_rsdt, setup),
		cmocka_unit_test_setup(test_bad_rsdp, setup),
		cmocka_unit_test_setup(test_bad_table_checksum_skipped, setup),
		cmocka_unit_test_setup(test_madt_zero_length_entry, setup),
		cmocka_unit_test_setup(test_madt_entry_overruns_table, setup),
		cmocka_unit_test_setup(test_madt_short_cpu_entries, setup),
		cmocka_unit_test_setup(test_madt_empty_and_short, setup),
		cmocka_unit_test_setup(test_limit_cuts_tables, setup),
		cmocka_unit_test_setup(test_bogus_entries, setup),
		cmocka_unit_test_setup(test_root_ragged_length, setup),
		cmocka_unit_test_setup(test_mcfg_capped, setup),
		cmocka_unit_test_setup(test_dmar_units_and_rmrr, setup),
		cmocka_unit_test_setup(test_dmar_fallback_and_broken, setup),
		cmocka_unit_test_setup(test_dmar_scoped_unit, setup),
		cmocka_unit_test_setup(test_oem_id_terminated, setup),
	};

	return cmocka_run_group_tests(tests, NULL, teardown_group);
}
