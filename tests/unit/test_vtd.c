/* VT-d tables for the iGPU: what the unit would let 00:02.0 reach, walked
 * the way the hardware walks them (vtd_translate), every write made
 * visible to a unit that does not snoop, more devices in one domain, and
 * the fault record layout. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/hv_errno.h"
#include "hv/vtd/vtd_fault.h"
#include "hv/vtd/vtd_tables.h"
#include "tests/harness/fake_pages.h"

#define IGPU_DEVFN (2 << 3)

static int setup(void **state)
{
	(void)state;
	fake_pages_reset();
	return 0;
}

static void test_only_allowed_pages_translate(void **state)
{
	struct vtd_domain d;
	uint64_t hpa = 0;

	(void)state;
	for (unsigned levels = 3; levels <= 4; levels++) {
		assert_int_equal(vtd_domain_init(&d, levels, 1, 0, IGPU_DEVFN, NULL), 0);
		assert_int_equal(vtd_allow(&d, 0x12340000, 0x3000, true), 0);
		assert_int_equal(vtd_allow(&d, 0x7f000000, 0x1000, false), 0);
		assert_int_equal(d.pages_allowed, 4);
		/* allowed: identity, read-write or read-only as asked */
		assert_true(vtd_translate(&d, 0, IGPU_DEVFN, 0x12341abc, true, &hpa));
		assert_int_equal(hpa, 0x12341abc);
		assert_true(vtd_translate(&d, 0, IGPU_DEVFN, 0x7f000010, false, &hpa));
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN, 0x7f000010, true, &hpa));
		/* next to an allowed range, or another device: faults */
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN, 0x12343000, false, &hpa));
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN, 0x1233f000, false, &hpa));
		assert_false(vtd_translate(&d, 0, 3 << 3, 0x12340000, false, &hpa));
		assert_false(vtd_translate(&d, 1, IGPU_DEVFN, 0x12340000, false, &hpa));
		/* beyond the width the context entry gives */
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN,
					   1ull << (12 + 9 * levels), false, &hpa));
		/* taken back */
		vtd_deny(&d, 0x12341000, 0x1000);
		assert_int_equal(d.pages_allowed, 3);
		assert_false(vtd_translate(&d, 0, IGPU_DEVFN, 0x12341000, false, &hpa));
		assert_true(vtd_translate(&d, 0, IGPU_DEVFN, 0x12342000, false, &hpa));
		vtd_domain_free(&d);
		assert_int_equal(fake_pages_live(), 0);
	}
}

static void test_bad_arguments_and_no_memory(void **state)
{
	struct vtd_domain d;

	(void)state;
	assert_int_equal(vtd_domain_init(&d, 5, 1, 0, IGPU_DEVFN, NULL), -HV_EINVAL);
	fake_pages_fail_after(2);
	assert_int_equal(vtd_domain_init(&d, 4, 1, 0, IGPU_DEVFN, NULL), -HV_ENOMEM);
	assert_int_equal(fake_pages_live(), 0);
	fake_pages_fail_after(-1);
	assert_int_equal(vtd_domain_init(&d, 3, 1, 0, IGPU_DEVFN, NULL), 0);
	assert_int_equal(vtd_allow(&d, 0x1001, 0x1000, true), -HV_EINVAL);
	assert_int_equal(vtd_allow(&d, 1ull << 39, 0x1000, true), -HV_EINVAL);
	fake_pages_fail_after(0);
	assert_int_equal(vtd_allow(&d, 0x40000000, 0x1000, true), -HV_ENOMEM);
	fake_pages_fail_after(-1);
	vtd_domain_free(&d);
	assert_int_equal(fake_pages_live(), 0);
}

static void test_fault_record_layout(void **state)
{
	struct vtd_fault f;

	(void)state;
	/* F=1, T=1 (read), FR=0x06 (not present), SID 00:02.0, page 7f00b000 */
	vtd_fault_decode(0x7f00b000ull, (1ull << 63) | (1ull << 62) |
			 (0x06ull << 32) | IGPU_DEVFN, &f);
	assert_true(f.valid);
	assert_true(f.read);
	assert_int_equal(f.reason, 6);
	assert_int_equal(f.source, 0x0010);
	assert_int_equal(f.addr, 0x7f00b000);
	vtd_fault_decode(0, 0, &f);
	assert_false(f.valid);
}

/* -- a unit that does not snoop: every change must be flushed -- */

#define MAX_FLUSH 4096
#define MAX_SNAP 64

static struct { const char *p; unsigned long n; } flushes[MAX_FLUSH];
static unsigned nr_flush;

static void rec_flush(const void *p, unsigned long n)
{
	assert_true(nr_flush < MAX_FLUSH);
	flushes[nr_flush].p = p;
	flushes[nr_flush++].n = n;
}

static bool covered(const void *a, unsigned long n)
{
	const char *c = a;

	for (unsigned i = 0; i < nr_flush; i++)
		if (c >= flushes[i].p && c + n <= flushes[i].p + flushes[i].n)
			return true;
	return false;
}

struct snap {
	unsigned n;
	const uint64_t *page[MAX_SNAP];
	uint64_t copy[MAX_SNAP][512];
};

static void snap_add(struct snap *s, const uint64_t *pg)
{
	assert_true(s->n < MAX_SNAP);
	s->page[s->n] = pg;
	memcpy(s->copy[s->n++], pg, 4096);
}

static void snap_sl(struct snap *s, const uint64_t *t, unsigned lv)
{
	snap_add(s, t);
	for (unsigned i = 0; lv > 1 && i < 512; i++)
		if (t[i] & 3)
			snap_sl(s, (const uint64_t *)(uintptr_t)(t[i] & ~0xfffull),
				lv - 1);
}

/* Every table page the unit can reach from the root. */
static void snapshot(const struct vtd_domain *d, struct snap *s)
{
	s->n = 0;
	snap_add(s, d->root);
	for (unsigned b = 0; b < 256; b++)
		if (d->root[2 * b] & 1)
			snap_add(s, (const uint64_t *)(uintptr_t)
					    (d->root[2 * b] & ~0xfffull));
	snap_sl(s, d->slpt, d->levels);
}

/* Since `before`: new pages flushed whole, changed entries flushed. */
static void assert_published(const struct vtd_domain *d,
			     const struct snap *before)
{
	static struct snap after;

	snapshot(d, &after);
	for (unsigned p = 0; p < after.n; p++) {
		unsigned q;

		for (q = 0; q < before->n; q++)
			if (before->page[q] == after.page[p])
				break;
		if (q == before->n) {
			assert_true(covered(after.page[p], 4096));
			continue;
		}
		for (unsigned i = 0; i < 512; i++)
			if (after.copy[p][i] != before->copy[q][i] &&
			    !covered(&after.page[p][i], 8))
				fail_msg("entry %u of table %p changed unflushed",
					 i, (const void *)after.page[p]);
	}
}

static void test_noncoherent_unit_sees_every_write(void **state)
{
	static struct snap s;
	struct vtd_domain d;

	(void)state;
	nr_flush = 0;
	s.n = 0;
	assert_int_equal(vtd_domain_init(&d, 4, 1, 0, IGPU_DEVFN, rec_flush), 0);
	assert_published(&d, &s);
	snapshot(&d, &s);
	nr_flush = 0;
	assert_int_equal(vtd_allow(&d, 0x12340000, 0x3000, true), 0);
	assert_int_equal(vtd_allow(&d, 0x8000000000ull, 0x1000, false), 0);
	assert_published(&d, &s);
	snapshot(&d, &s);
	nr_flush = 0;
	vtd_deny(&d, 0x12341000, 0x1000);
	assert_published(&d, &s);
	snapshot(&d, &s);
	nr_flush = 0;
	assert_int_equal(vtd_domain_attach(&d, 5, 3 << 3), 0);	/* new bus */
	assert_published(&d, &s);
	snapshot(&d, &s);
	nr_flush = 0;
	vtd_domain_detach(&d, 5, 3 << 3);
	assert_published(&d, &s);
	vtd_domain_free(&d);
	assert_int_equal(fake_pages_live(), 0);
}

/* More devices behind the same tables (the QEMU self-test puts its DMA
 * device beside 00:02.0): same translation, same domain id. */
static void test_devices_share_the_domain(void **state)
{
	struct vtd_domain d;
	uint64_t hpa;

	(void)state;
	assert_int_equal(vtd_domain_init(&d, 3, 7, 0, IGPU_DEVFN, NULL), 0);
	assert_int_equal(vtd_allow(&d, 0x200000, 0x1000, true), 0);
	assert_int_equal(vtd_domain_attach(&d, 0, 3 << 3), 0);
	assert_int_equal(vtd_domain_attach(&d, 0, 3 << 3), -HV_EEXIST);
	assert_int_equal(vtd_domain_attach(&d, 2, 0), 0);
	assert_int_equal(vtd_domain_attach(&d, 3, 0), 0);
	assert_int_equal(vtd_domain_attach(&d, 4, 0), -HV_ENOSPC);
	assert_int_equal(d.nr_devs, 4);
	assert_true(vtd_translate(&d, 0, 3 << 3, 0x200010, true, &hpa));
	assert_true(vtd_translate(&d, 2, 0, 0x200010, true, &hpa));
	assert_false(vtd_translate(&d, 2, 0, 0x201000, false, &hpa));
	vtd_domain_detach(&d, 0, 3 << 3);
	assert_false(vtd_translate(&d, 0, 3 << 3, 0x200010, true, &hpa));
	assert_true(vtd_translate(&d, 0, IGPU_DEVFN, 0x200010, true, &hpa));
	assert_int_equal(d.nr_devs, 3);
	vtd_domain_free(&d);
	assert_int_equal(fake_pages_live(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_only_allowed_pages_translate, setup),
		cmocka_unit_test_setup(test_bad_arguments_and_no_memory, setup),
		cmocka_unit_test_setup(test_fault_record_layout, setup),
		cmocka_unit_test_setup(test_noncoherent_unit_sees_every_write,
				       setup),
		cmocka_unit_test_setup(test_devices_share_the_domain, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
