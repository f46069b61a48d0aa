/* ACPI table walk (ACPI 6.x spec, chapter 5.2: RSDP, XSDT/RSDT, MADT, and the
 * PCI Firmware spec's MCFG). Tables are read in place through the identity
 * map; every length is checked against the table before it is used. */
#include "hv/platform/acpi.h"
#include "hv/platform/acpi_tables.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "mini/string.h"

#define RSDP_V1_LEN 20
#define MADT_HDR_LEN (sizeof(struct acpi_sdt_header) + 8)
#define MADT_LAPIC 0
#define MADT_IOAPIC 1
#define MADT_X2APIC 9
#define MADT_LAPIC_ENABLED 1u
#define MADT_LAPIC_ONLINE_CAPABLE 2u
#define MCFG_HDR_LEN (sizeof(struct acpi_sdt_header) + 8)
#define MCFG_ENTRY_LEN 16
#define SDT_MAX_LEN (1u << 20)
/* DMAR (VT-d spec 8.1-8.4): 48-byte header, then remapping structures of
 * type (2 bytes) and length (2 bytes). Device scopes: type, length,
 * reserved (2), enumeration id, start bus, then (device, function) pairs. */
#define DMAR_HDR_LEN 48
#define DMAR_DRHD 0
#define DMAR_RMRR 1
#define DMAR_DRHD_SCOPES 16
#define DMAR_RMRR_SCOPES 24
#define DMAR_DRHD_INCLUDE_ALL 1u
#define SCOPE_ENDPOINT 1
#define SCOPE_BRIDGE 2
#define IGPU_DEV 2

static bool sums_to_zero(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t sum = 0;

	for (size_t i = 0; i < n; i++)
		sum += b[i];
	return sum == 0;
}

static bool in_limit(uint64_t pa, uint64_t len, uint64_t limit)
{
	return pa && pa < limit && len <= limit - pa;
}

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* Returns the table if it is in range and its checksum holds. */
static const struct acpi_sdt_header *map_sdt(uint64_t pa, uint64_t limit,
					struct acpi_info *ai)
{
	const struct acpi_sdt_header *h;

	if (!in_limit(pa, sizeof(*h), limit))
		return NULL;
	h = hv_va(pa);
	if (h->length < sizeof(*h) || h->length > SDT_MAX_LEN ||
	    !in_limit(pa, h->length, limit))
		return NULL;
	if (!sums_to_zero(h, h->length)) {
		ai->bad_checksums++;
		return NULL;
	}
	return h;
}

/* An enabled CPU of the MADT. Only "enabled" ones are listed: an entry
 * that is merely online-capable is a socket the firmware may fill later
 * (hot-plug), not a CPU to start now. */
static void add_cpu(struct acpi_info *ai, uint32_t apic_id)
{
	ai->nr_cpus++;
	if (ai->nr_cpu_ids == ACPI_MAX_CPUS) {
		ai->cpus_dropped++;
		return;
	}
	ai->cpu_apic_id[ai->nr_cpu_ids++] = apic_id;
}

static void parse_madt(const struct acpi_sdt_header *h, struct acpi_info *ai)
{
	const uint8_t *p = (const uint8_t *)h;
	uint32_t off = MADT_HDR_LEN;

	if (h->length < MADT_HDR_LEN)
		return;
	ai->has_madt = true;
	ai->lapic_base = rd32(p + sizeof(*h));
	while (off + 2 <= h->length) {
		uint8_t type = p[off], len = p[off + 1];

		if (len < 2 || off + len > h->length)
			break;
		if (type == MADT_LAPIC && len >= 8 &&
		    (rd32(p + off + 4) & MADT_LAPIC_ENABLED))
			add_cpu(ai, p[off + 3]);
		else if (type == MADT_X2APIC && len >= 16 &&
			 (rd32(p + off + 8) & MADT_LAPIC_ENABLED))
			add_cpu(ai, rd32(p + off + 4));
		else if (type == MADT_IOAPIC)
			ai->nr_ioapics++;
		off += len;
	}
}

static void parse_mcfg(const struct acpi_sdt_header *h, struct acpi_info *ai)
{
	const uint8_t *p = (const uint8_t *)h;

	for (uint32_t off = MCFG_HDR_LEN; off + MCFG_ENTRY_LEN <= h->length;
	     off += MCFG_ENTRY_LEN) {
		struct acpi_mcfg *m;

		if (ai->nr_mcfg == ACPI_MAX_MCFG)
			break;
		m = &ai->mcfg[ai->nr_mcfg++];
		m->base = rd64(p + off);
		m->segment = (uint16_t)(p[off + 8] | p[off + 9] << 8);
		m->bus_start = p[off + 10];
		m->bus_end = p[off + 11];
	}
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* Does the scope list in p[from, to) name the endpoint 00:02.0? Only a
 * one-hop path from bus 0 can: the iGPU sits on the root bus. */
static bool scopes_name_igpu(const uint8_t *p, uint32_t from, uint32_t to)
{
	for (uint32_t off = from; off + 6 <= to;) {
		uint8_t type = p[off], len = p[off + 1];

		if (len < 6 || off + len > to)
			return false;
		if (type == SCOPE_ENDPOINT && len == 8 && p[off + 5] == 0 &&
		    p[off + 6] == IGPU_DEV && p[off + 7] == 0)
			return true;
		off += len;
	}
	return false;
}

/* The unit's one-hop endpoint and bridge scopes, as bus << 8 | devfn. */
static void drhd_scopes(const uint8_t *p, uint32_t from, uint32_t to,
			struct acpi_drhd *u)
{
	for (uint32_t off = from; off + 6 <= to;) {
		uint8_t type = p[off], len = p[off + 1];

		if (len < 6 || off + len > to)
			return;
		if (type != SCOPE_ENDPOINT && type != SCOPE_BRIDGE) {
			off += len;
			continue;	/* IOAPIC, HPET, ACPI namespace */
		}
		if (len != 8 || u->nr_scopes == ACPI_MAX_DRHD_SCOPES)
			u->scopes_skipped++;
		else
			u->scope[u->nr_scopes++] = (uint16_t)(p[off + 5] << 8 |
				(p[off + 6] & 31) << 3 | (p[off + 7] & 7));
		off += len;
	}
}

static void dmar_drhd(const uint8_t *p, uint32_t off, uint16_t len,
		      struct acpi_dmar *d)
{
	struct acpi_drhd *u;

	if (len < DMAR_DRHD_SCOPES || d->nr_drhd == ACPI_MAX_DRHD) {
		d->dropped++;
		return;
	}
	u = &d->drhd[d->nr_drhd++];
	u->include_all = p[off + 4] & DMAR_DRHD_INCLUDE_ALL;
	u->segment = rd16(p + off + 6);
	u->base = rd64(p + off + 8);
	u->igpu = u->segment == 0 &&
		  scopes_name_igpu(p, off + DMAR_DRHD_SCOPES, off + len);
	drhd_scopes(p, off + DMAR_DRHD_SCOPES, off + len, u);
}

static void dmar_rmrr(const uint8_t *p, uint32_t off, uint16_t len,
		      struct acpi_dmar *d)
{
	struct acpi_rmrr *r;

	if (len < DMAR_RMRR_SCOPES || d->nr_rmrr == ACPI_MAX_RMRR) {
		d->dropped++;
		return;
	}
	r = &d->rmrr[d->nr_rmrr++];
	r->base = rd64(p + off + 8);
	r->limit = rd64(p + off + 16);
	r->igpu = rd16(p + off + 6) == 0 &&
		  scopes_name_igpu(p, off + DMAR_RMRR_SCOPES, off + len);
}

static void parse_dmar(const struct acpi_sdt_header *h, struct acpi_info *ai)
{
	const uint8_t *p = (const uint8_t *)h;
	struct acpi_dmar *d = &ai->dmar;

	if (h->length < DMAR_HDR_LEN)
		return;
	d->present = true;
	d->haw = p[36];
	d->flags = p[37];
	for (uint32_t off = DMAR_HDR_LEN; off + 4 <= h->length;) {
		uint16_t type = rd16(p + off), len = rd16(p + off + 2);

		if (len < 4 || off + len > h->length) {
			d->dropped++;
			return; /* a broken length: nothing after it is trusted */
		}
		if (type == DMAR_DRHD)
			dmar_drhd(p, off, len, d);
		else if (type == DMAR_RMRR)
			dmar_rmrr(p, off, len, d);
		off += len;
	}
}

static bool names(const struct acpi_drhd *u, uint16_t sid)
{
	for (unsigned i = 0; i < u->nr_scopes; i++)
		if (u->scope[i] == sid)
			return true;
	return false;
}

const struct acpi_drhd *acpi_dmar_unit_for(const struct acpi_dmar *d,
					   uint8_t bus, uint8_t devfn)
{
	const struct acpi_drhd *all = NULL;
	uint16_t sid = (uint16_t)(bus << 8 | devfn);

	for (uint32_t i = 0; i < d->nr_drhd; i++) {
		if (d->drhd[i].segment != 0)
			continue;
		if (names(&d->drhd[i], sid) ||
		    (sid == IGPU_DEV << 3 && d->drhd[i].igpu))
			return &d->drhd[i];
		if (d->drhd[i].include_all)
			all = &d->drhd[i];
	}
	return all;
}

const struct acpi_drhd *acpi_dmar_igpu_unit(const struct acpi_dmar *d)
{
	return acpi_dmar_unit_for(d, 0, IGPU_DEV << 3);
}

static void parse_table(uint64_t pa, uint64_t limit, struct acpi_info *ai)
{
	const struct acpi_sdt_header *h = map_sdt(pa, limit, ai);

	if (!h)
		return;
	if (memcmp(h->signature, "APIC", 4) == 0)
		parse_madt(h, ai);
	else if (memcmp(h->signature, "MCFG", 4) == 0)
		parse_mcfg(h, ai);
	else if (memcmp(h->signature, "DMAR", 4) == 0)
		parse_dmar(h, ai);
}

/* ext_readable: the ACPI 2.0 part (XSDT address onwards) is inside the
 * limit; without it the RSDT is used. */
static int check_rsdp(const struct acpi_rsdp *r, bool ext_readable,
		      struct acpi_info *ai)
{
	if (memcmp(r->signature, "RSD PTR ", 8) != 0 ||
	    !sums_to_zero(r, RSDP_V1_LEN))
		return -HV_EINVAL;
	ai->revision = r->revision;
	memcpy(ai->oem_id, r->oem_id, 6);
	ai->oem_id[6] = 0;
	ai->xsdt = ext_readable && r->revision >= 2 && r->xsdt &&
		   r->length >= sizeof(*r) && sums_to_zero(r, sizeof(*r));
	return 0;
}

int acpi_parse(uint64_t rsdp_pa, uint64_t limit, struct acpi_info *ai)
{
	const struct acpi_rsdp *r;
	const struct acpi_sdt_header *root;
	uint32_t entry_size;

	memset(ai, 0, sizeof(*ai));
	/* An ACPI 1.0 RSDP is only its first 20 bytes; the 2.0 part is looked
	 * at only if it is in range too (check_rsdp). */
	if (!in_limit(rsdp_pa, RSDP_V1_LEN, limit))
		return -HV_ENOENT;
	r = hv_va(rsdp_pa);
	if (check_rsdp(r, in_limit(rsdp_pa, sizeof(*r), limit), ai) < 0)
		return -HV_EINVAL;
	root = map_sdt(ai->xsdt ? r->xsdt : r->rsdt, limit, ai);
	if (!root)
		return -HV_EINVAL;
	entry_size = ai->xsdt ? 8 : 4;
	ai->nr_tables = (root->length - sizeof(*root)) / entry_size;
	for (uint32_t i = 0; i < ai->nr_tables; i++) {
		const uint8_t *e = (const uint8_t *)(root + 1) + i * entry_size;

		parse_table(ai->xsdt ? rd64(e) : rd32(e), limit, ai);
	}
	return 0;
}
