/* The iGPU's allowed pages (vtd_policy.h). */
#include "hv/vtd/vtd_policy.h"
#include "hv/hv_errno.h"
#include "hv/vtd/vtd_tables.h"

#define PAGE 4096ull

void vtd_policy_init(struct vtd_policy *p, struct vtd_domain *d)
{
	*p = (struct vtd_policy){ .d = d };
}

static int allow(struct vtd_policy *p, uint64_t base, uint64_t len)
{
	int err = vtd_allow(p->d, base, len, true);

	if (err) {
		p->refused++;
		return err;
	}
	p->grown = true;
	return 0;
}

/* Take [base, base + len) back, except what lies in an RMRR. */
static void deny(struct vtd_policy *p, uint64_t base, uint64_t len)
{
	for (uint64_t a = base; a < base + len; a += PAGE) {
		bool rmrr = false;

		for (unsigned i = 0; i < p->nr_rmrr && !rmrr; i++)
			rmrr = a - p->rmrr[i].base < p->rmrr[i].len;
		if (!rmrr)
			vtd_deny(p->d, a, PAGE);
	}
	p->shrunk = true;
}

int vtd_policy_add_rmrr(struct vtd_policy *p, uint64_t base, uint64_t limit)
{
	struct vtd_range *r;
	uint64_t lo = base & ~(PAGE - 1), hi = (limit | (PAGE - 1)) + 1;
	int err;

	if (limit < base || hi == 0 || p->nr_rmrr == VTD_POLICY_MAX_RMRR) {
		p->refused++;
		return -HV_EINVAL;
	}
	err = allow(p, lo, hi - lo);
	if (err)
		return err;
	r = &p->rmrr[p->nr_rmrr++];
	*r = (struct vtd_range){ lo, hi - lo, true };
	return 0;
}

static bool aligned(uint64_t base, uint64_t len)
{
	return !((base | len) & (PAGE - 1)) && len && base + len > base;
}

int vtd_policy_vm(struct vtd_policy *p, unsigned id, bool want,
		  uint64_t base, uint64_t len)
{
	struct vtd_range *r;
	int err;

	if (id >= VTD_POLICY_MAX_VMS || (want && !aligned(base, len))) {
		p->refused++;
		return -HV_EINVAL;
	}
	r = &p->vm[id];
	if (r->on && (!want || r->base != base || r->len != len)) {
		deny(p, r->base, r->len);
		r->on = false;
	}
	if (!want || r->on)
		return 0;
	err = allow(p, base, len);
	if (err) {
		deny(p, base, len);	/* nothing half-allowed stays */
		return err;
	}
	*r = (struct vtd_range){ base, len, true };
	return 0;
}

int vtd_policy_mediator(struct vtd_policy *p, uint64_t hpa, uint64_t npages,
			bool alloc)
{
	uint64_t len = npages * PAGE;
	int err;

	if (!aligned(hpa, len) || len / PAGE != npages) {
		p->refused++;
		return -HV_EINVAL;
	}
	if (!alloc) {
		deny(p, hpa, len);
		p->mediator_pages -= npages <= p->mediator_pages ? npages
								 : p->mediator_pages;
		p->mediator_allocs -= p->mediator_allocs ? 1 : 0;
		return 0;
	}
	err = allow(p, hpa, len);
	if (err) {
		deny(p, hpa, len);
		return err;
	}
	p->mediator_pages += npages;
	p->mediator_allocs++;
	return 0;
}

int vtd_policy_test(struct vtd_policy *p, uint64_t hpa, uint64_t len,
		    bool allow_it)
{
	unsigned i;
	int err;

	for (i = 0; i < p->nr_test; i++)
		if (p->test[i].base == hpa && p->test[i].len == len)
			break;
	if (!allow_it) {
		if (i == p->nr_test)
			return -HV_ENOENT;
		deny(p, hpa, len);
		p->test[i] = p->test[--p->nr_test];
		return 0;
	}
	if (i < p->nr_test)
		return 0;
	if (p->nr_test == VTD_POLICY_MAX_TEST || !aligned(hpa, len)) {
		p->refused++;
		return -HV_EINVAL;
	}
	err = allow(p, hpa, len);
	if (err) {
		deny(p, hpa, len);
		return err;
	}
	p->test[p->nr_test++] = (struct vtd_range){ hpa, len, true };
	return 0;
}

bool vtd_policy_take_flush(struct vtd_policy *p, bool caching_mode)
{
	bool need = p->shrunk || (caching_mode && p->grown);

	p->shrunk = p->grown = false;
	return need;
}
