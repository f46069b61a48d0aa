/* VT-d root/context/second-level tables (vtd_tables.h). */
#include "hv/vtd_tables.h"
#include "hv/hv_errno.h"
#include "hv/mem.h"

#define VTD_P (1ull << 0)		/* root and context entries: present */
#define SL_R (1ull << 0)
#define SL_W (1ull << 1)
#define ADDR_MASK 0x000ffffffffff000ull
#define CTX_AW_39 1ull			/* 3-level */
#define CTX_AW_48 2ull			/* 4-level */
#define CTX_DID_SHIFT 8

int vtd_domain_init(struct vtd_domain *d, unsigned levels, uint16_t did,
		    uint8_t bus, uint8_t devfn)
{
	uint64_t *e;

	if (levels != 3 && levels != 4)
		return -HV_EINVAL;
	*d = (struct vtd_domain){ .levels = levels };
	d->root = page_alloc();
	d->ctx = page_alloc();
	d->slpt = page_alloc();
	if (!d->root || !d->ctx || !d->slpt) {
		vtd_domain_free(d);
		return -HV_ENOMEM;
	}
	d->did = did;
	d->bus = bus;
	d->devfn = devfn;
	d->root[2 * bus] = hv_pa(d->ctx) | VTD_P;
	/* Translation type 0 (untranslated requests through the second
	 * level), fault processing enabled (FPD clear). */
	e = &d->ctx[2 * devfn];
	e[1] = (levels == 4 ? CTX_AW_48 : CTX_AW_39) |
	       (uint64_t)did << CTX_DID_SHIFT;
	e[0] = hv_pa(d->slpt) | VTD_P;
	return 0;
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
			uint64_t *n = make ? page_alloc() : NULL;

			if (!n)
				return NULL;
			*e = hv_pa(n) | SL_R | SL_W;
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
	}
	return 0;
}

void vtd_deny(struct vtd_domain *d, uint64_t hpa, uint64_t len)
{
	for (uint64_t a = hpa; a < hpa + len; a += VTD_PAGE) {
		uint64_t *e = leaf(d, a, false);

		if (e && (*e & SL_R)) {
			*e = 0;
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
	if (d->ctx)
		page_free(d->ctx);
	if (d->root)
		page_free(d->root);
	d->root = d->ctx = d->slpt = NULL;
}

void vtd_fault_decode(uint64_t lo, uint64_t hi, struct vtd_fault *f)
{
	f->addr = lo & ADDR_MASK;
	f->source = (uint16_t)hi;
	f->reason = (uint8_t)(hi >> 32);
	f->read = (hi >> 62) & 1;
	f->valid = hi >> 63;
}
