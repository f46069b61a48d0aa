/* VT-d root/context/second-level tables (vtd_tables.h). */
#include "hv/vtd/vtd_tables.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"

#define VTD_P (1ull << 0)		/* root and context entries: present */
#define SL_R (1ull << 0)
#define SL_W (1ull << 1)
#define ADDR_MASK 0x000ffffffffff000ull
#define CTX_AW_39 1ull			/* 3-level */
#define CTX_AW_48 2ull			/* 4-level */
#define CTX_DID_SHIFT 8
#define ENTRY_BYTES 16			/* root and context entries */

/* The unit may read e (n bytes) from memory from now on. */
static void publish(const struct vtd_domain *d, const void *e, unsigned long n)
{
	if (d->flush)
		d->flush(e, n);
}

/* A zeroed table page, in memory (not only in the cache) before any entry
 * points at it. */
static uint64_t *new_table(const struct vtd_domain *d)
{
	uint64_t *t = page_alloc();

	if (t)
		publish(d, t, VTD_PAGE);
	return t;
}

/* The context table of bus, created when make. */
static uint64_t *ctx_table(struct vtd_domain *d, uint8_t bus, bool make)
{
	uint64_t *r = &d->root[2 * bus], *ctx;

	if (*r & VTD_P)
		return hv_va(*r & ADDR_MASK);
	if (!make || !(ctx = new_table(d)))
		return NULL;
	*r = hv_pa(ctx) | VTD_P;
	publish(d, r, ENTRY_BYTES);
	return ctx;
}

/* Translation type 0 (untranslated requests through the second level),
 * fault processing enabled (FPD clear): a blocked DMA is recorded. The
 * high quadword goes first so the entry is never present half-made. */
static int set_context(struct vtd_domain *d, uint8_t bus, uint8_t devfn)
{
	uint64_t *ctx = ctx_table(d, bus, true), *e;

	if (!ctx)
		return -HV_ENOMEM;
	e = &ctx[2 * devfn];
	if (e[0] & VTD_P)
		return -HV_EEXIST;
	e[1] = (d->levels == 4 ? CTX_AW_48 : CTX_AW_39) |
	       (uint64_t)d->did << CTX_DID_SHIFT;
	e[0] = hv_pa(d->slpt) | VTD_P;
	publish(d, e, ENTRY_BYTES);
	return 0;
}

int vtd_domain_init(struct vtd_domain *d, unsigned levels, uint16_t did,
		    uint8_t bus, uint8_t devfn,
		    void (*flush)(const void *p, unsigned long n))
{
	int err;

	if (levels != 3 && levels != 4)
		return -HV_EINVAL;
	*d = (struct vtd_domain){ .levels = levels, .did = did,
				  .flush = flush };
	d->root = new_table(d);
	d->slpt = new_table(d);
	if (!d->root || !d->slpt) {
		vtd_domain_free(d);
		return -HV_ENOMEM;
	}
	err = vtd_domain_attach(d, bus, devfn);
	if (err)
		vtd_domain_free(d);
	return err;
}

int vtd_domain_attach(struct vtd_domain *d, uint8_t bus, uint8_t devfn)
{
	int err;

	if (d->nr_devs == VTD_DOMAIN_MAX_DEVS)
		return -HV_ENOSPC;
	err = set_context(d, bus, devfn);
	if (!err)
		d->devs[d->nr_devs++] = (uint16_t)(bus << 8 | devfn);
	return err;
}

void vtd_domain_detach(struct vtd_domain *d, uint8_t bus, uint8_t devfn)
{
	uint64_t *ctx = ctx_table(d, bus, false);
	uint16_t sid = (uint16_t)(bus << 8 | devfn);

	for (unsigned i = 0; i < d->nr_devs; i++) {
		if (d->devs[i] != sid)
			continue;
		d->devs[i] = d->devs[--d->nr_devs];
		/* present bit first: the unit never sees a half entry */
		ctx[2 * devfn] = 0;
		ctx[2 * devfn + 1] = 0;
		publish(d, &ctx[2 * devfn], ENTRY_BYTES);
		return;
	}
}

static unsigned index_at(uint64_t a, unsigned level)
{
	return (unsigned)(a >> (12 + 9 * (level - 1))) & 511;
}

/* The last-level entry for a, creating tables on the way when make. */
static uint64_t *leaf(struct vtd_domain *d, uint64_t a, bool make)
{
	uint64_t *t = d->slpt;

	for (unsigned lv = d->levels; lv > 1; lv--) {
		uint64_t *e = &t[index_at(a, lv)];

		if (!(*e & (SL_R | SL_W))) {
			uint64_t *n = make ? new_table(d) : NULL;

			if (!n)
				return NULL;
			*e = hv_pa(n) | SL_R | SL_W;
			publish(d, e, sizeof(*e));
		}
		t = hv_va(*e & ADDR_MASK);
	}
	return &t[index_at(a, 1)];
}

int vtd_allow(struct vtd_domain *d, uint64_t hpa, uint64_t len, bool write)
{
	uint64_t top = 1ull << (12 + 9 * d->levels);

	if ((hpa | len) & (VTD_PAGE - 1) || hpa + len < hpa || hpa + len > top)
		return -HV_EINVAL;
	for (uint64_t a = hpa; a < hpa + len; a += VTD_PAGE) {
		uint64_t *e = leaf(d, a, true);

		if (!e)
			return -HV_ENOMEM;
		if (!(*e & SL_R))
			d->pages_allowed++;
		*e = a | SL_R | (write ? SL_W : 0);
		publish(d, e, sizeof(*e));
	}
	return 0;
}

void vtd_deny(struct vtd_domain *d, uint64_t hpa, uint64_t len)
{
	for (uint64_t a = hpa; a < hpa + len; a += VTD_PAGE) {
		uint64_t *e = leaf(d, a, false);

		if (e && (*e & SL_R)) {
			*e = 0;
			publish(d, e, sizeof(*e));
			d->pages_allowed--;
		}
	}
}

/* The unit's walk: root entry of the bus, context entry of devfn, then
 * the second level from the width the context entry gives. */
bool vtd_translate(const struct vtd_domain *d, uint8_t bus, uint8_t devfn,
		   uint64_t iova, bool write, uint64_t *hpa)
{
	const uint64_t *ctx, *t, *c;
	unsigned levels;

	if (!(d->root[2 * bus] & VTD_P))
		return false;
	ctx = hv_va(d->root[2 * bus] & ADDR_MASK);
	c = &ctx[2 * devfn];
	if (!(c[0] & VTD_P))
		return false;
	levels = (c[1] & 7) == CTX_AW_48 ? 4 : 3;
	if (iova >> (12 + 9 * levels))
		return false;
	t = hv_va(c[0] & ADDR_MASK);
	for (unsigned lv = levels; lv >= 1; lv--) {
		uint64_t e = t[index_at(iova, lv)];

		if (!(e & SL_R) || (write && !(e & SL_W)))
			return false;
		if (lv == 1) {
			*hpa = (e & ADDR_MASK) | (iova & (VTD_PAGE - 1));
			return true;
		}
		t = hv_va(e & ADDR_MASK);
	}
	return false;
}

static void free_level(uint64_t *t, unsigned lv)
{
	if (lv > 1)
		for (unsigned i = 0; i < 512; i++)
			if (t[i] & (SL_R | SL_W))
				free_level(hv_va(t[i] & ADDR_MASK), lv - 1);
	page_free(t);
}

void vtd_domain_free(struct vtd_domain *d)
{
	if (d->slpt)
		free_level(d->slpt, d->levels);
	if (d->root) {
		for (unsigned b = 0; b < 256; b++)
			if (d->root[2 * b] & VTD_P)
				page_free(hv_va(d->root[2 * b] & ADDR_MASK));
		page_free(d->root);
	}
	d->root = d->slpt = NULL;
	d->nr_devs = 0;
}
