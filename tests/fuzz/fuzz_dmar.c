/* libFuzzer target for the ACPI walk's DMAR parser (hv/platform/acpi.c), and the
 * MADT and MCFG parsers beside it.
 *
 * ACPI tables come from firmware, and the hypervisor programs a DMA
 * remapping unit from what the DMAR says (hv/vtd/vtd.c): a broken table must
 * give a defined, bounded result. Input: byte 0 picks the signature
 * (DMAR, or APIC / MCFG), the rest is the table body after its 36-byte
 * header; the harness builds an RSDP and an XSDT around it with correct
 * checksums so every input reaches the parser. Checked after each input:
 * counts within their arrays, every unit the look-ups return is one of
 * the parsed units and does cover the device asked for, and parsing is
 * deterministic. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/platform/acpi.h"
#include "hv/platform/acpi_tables.h"

#define MAX_BODY 8192

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			__builtin_trap();                                      \
	} while (0)

static uint8_t sum(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t s = 0;

	while (n--)
		s += *b++;
	return s;
}

static struct acpi_info ai, again;

static void check_unit(const struct acpi_drhd *u, uint8_t bus, uint8_t devfn)
{
	uint16_t sid = (uint16_t)(bus << 8 | devfn);
	bool named = false;

	if (!u)
		return;
	CHECK(u >= ai.dmar.drhd && u < ai.dmar.drhd + ai.dmar.nr_drhd);
	CHECK(u->segment == 0);
	for (unsigned i = 0; i < u->nr_scopes; i++)
		named |= u->scope[i] == sid;
	CHECK(named || u->include_all || (sid == 0x10 && u->igpu));
}

static void check(void)
{
	const struct acpi_dmar *d = &ai.dmar;

	CHECK(d->nr_drhd <= ACPI_MAX_DRHD && d->nr_rmrr <= ACPI_MAX_RMRR);
	CHECK(ai.nr_mcfg <= ACPI_MAX_MCFG);
	for (unsigned i = 0; i < d->nr_drhd; i++)
		CHECK(d->drhd[i].nr_scopes <= ACPI_MAX_DRHD_SCOPES);
	check_unit(acpi_dmar_igpu_unit(d), 0, 0x10);
	for (unsigned i = 0; i < d->nr_drhd; i++)
		for (unsigned k = 0; k < d->drhd[i].nr_scopes; k++) {
			uint16_t s = d->drhd[i].scope[k];

			check_unit(acpi_dmar_unit_for(d, (uint8_t)(s >> 8),
						      (uint8_t)s),
				   (uint8_t)(s >> 8), (uint8_t)s);
		}
	check_unit(acpi_dmar_unit_for(d, 0, 0), 0, 0);
	check_unit(acpi_dmar_unit_for(d, 0xff, 0xff), 0xff, 0xff);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const sigs[] = { "DMAR", "DMAR", "APIC", "MCFG" };
	struct acpi_sdt_header *h;
	struct acpi_sdt_header *x;
	struct acpi_rsdp *r;
	size_t body;

	if (size < 1 || size - 1 > MAX_BODY)
		return 0;
	body = size - 1;
	/* separate allocations: ASan sees any read past the table */
	h = malloc(sizeof(*h) + body);
	x = malloc(sizeof(*x) + 8);
	r = malloc(sizeof(*r));
	if (!h || !x || !r)
		abort();
	memset(h, 0, sizeof(*h));
	memcpy(h->signature, sigs[data[0] & 3], 4);
	h->length = (uint32_t)(sizeof(*h) + body);
	memcpy(h + 1, data + 1, body);
	h->checksum = (uint8_t)-sum(h, h->length);

	memset(x, 0, sizeof(*x));
	memcpy(x->signature, "XSDT", 4);
	x->length = sizeof(*x) + 8;
	{
		uint64_t p = (uint64_t)(uintptr_t)h;

		memcpy(x + 1, &p, 8);
	}
	x->checksum = (uint8_t)-sum(x, x->length);

	memset(r, 0, sizeof(*r));
	memcpy(r->signature, "RSD PTR ", 8);
	r->revision = 2;
	r->length = sizeof(*r);
	r->xsdt = (uint64_t)(uintptr_t)x;
	r->checksum = (uint8_t)-sum(r, 20);
	r->ext_checksum = (uint8_t)-sum(r, sizeof(*r));

	memset(&ai, 0, sizeof(ai));
	CHECK(acpi_parse((uint64_t)(uintptr_t)r, UINT64_MAX, &ai) == 0);
	check();
	memset(&again, 0, sizeof(again));
	CHECK(acpi_parse((uint64_t)(uintptr_t)r, UINT64_MAX, &again) == 0);
	CHECK(memcmp(&ai.dmar, &again.dmar, sizeof(ai.dmar)) == 0);
	free(h);
	free(x);
	free(r);
	return 0;
}
