/* Unit tests of the SMP bring-up's pure logic (docs/smp.md): which CPUs the
 * BSP starts (hv/cpu/smp_plan.c), where the trampoline goes and how it is
 * patched (hv/cpu/ap_tramp.c), how an AP's per-CPU area is laid out
 * (hv/cpu/percpu.c). The INIT-SIPI-SIPI itself runs in Bochs (smp-bochs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/cpu/ap_tramp.h"
#include "hv/cpu/percpu.h"
#include "hv/cpu/smp_plan.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"

#define PAGE 4096u

static struct smp_plan plan;

/* --- the plan ------------------------------------------------------------ */

/* A desktop's MADT: the BSP first, three APs. */
static void test_plan_four(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0, 2, 4, 6 };

	smp_plan_build(ids, 4, 0, false, &plan);
	assert_int_equal(plan.nr_listed, 4);
	assert_true(plan.bsp_listed);
	assert_int_equal(plan.nr_aps, 3);
	assert_int_equal(plan.ap_apic_id[0], 2);
	assert_int_equal(plan.ap_apic_id[2], 6);
	assert_int_equal(plan.nr_skipped, 0);
}

/* The BSP need not be first nor id 0; list order is start order. */
static void test_plan_bsp_in_the_middle(void **state)
{
	(void)state;
	const uint32_t ids[] = { 1, 3, 0, 2 };

	smp_plan_build(ids, 4, 3, false, &plan);
	assert_true(plan.bsp_listed);
	assert_int_equal(plan.nr_aps, 3);
	assert_int_equal(plan.ap_apic_id[0], 1);
	assert_int_equal(plan.ap_apic_id[1], 0);
	assert_int_equal(plan.ap_apic_id[2], 2);
}

/* One CPU: nothing to start. No list at all: the same. */
static void test_plan_one_and_none(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0 };

	smp_plan_build(ids, 1, 0, false, &plan);
	assert_true(plan.bsp_listed);
	assert_int_equal(plan.nr_aps, 0);
	smp_plan_build(NULL, 0, 0, true, &plan);
	assert_false(plan.bsp_listed);
	assert_int_equal(plan.nr_aps, 0);
	assert_int_equal(plan.nr_listed, 0);
}

/* A CPU in both a LAPIC and an x2APIC entry is started once; in xAPIC
 * mode an id above 0xFE cannot be named (0xFF is the broadcast). */
static void test_plan_duplicates_and_xapic_range(void **state)
{
	(void)state;
	const uint32_t ids[] = { 0, 1, 1, 0x1ff, 0xff, 0xfe, 0 };

	smp_plan_build(ids, 7, 0, false, &plan);
	assert_int_equal(plan.nr_aps, 2);
	assert_int_equal(plan.ap_apic_id[0], 1);
	assert_int_equal(plan.ap_apic_id[1], 0xfe);
	assert_int_equal(plan.nr_skipped, 4);
	assert_int_equal(plan.skipped[0].apic_id, 1);
	assert_int_equal(plan.skipped[0].why, SMP_SKIP_DUPLICATE);
	assert_int_equal(plan.skipped[1].why, SMP_SKIP_XAPIC_ID);
	assert_int_equal(plan.skipped[2].apic_id, 0xff);
	assert_int_equal(plan.skipped[2].why, SMP_SKIP_XAPIC_ID);
	assert_int_equal(plan.skipped[3].apic_id, 0);
	assert_int_equal(plan.skipped[3].why, SMP_SKIP_DUPLICATE);
	assert_string_equal(smp_skip_name(SMP_SKIP_DUPLICATE), "listed twice");

	/* In x2APIC mode the same ids are all startable. */
	smp_plan_build(ids, 7, 0, true, &plan);
	assert_int_equal(plan.nr_aps, 4);
	assert_int_equal(plan.ap_apic_id[1], 0x1ff);
}

/* The BSP's own id not in the list (odd firmware): every listed CPU is an
 * AP, and the caller is told. */
static void test_plan_bsp_missing(void **state)
{
	(void)state;
	const uint32_t ids[] = { 1, 2 };

	smp_plan_build(ids, 2, 0, false, &plan);
	assert_false(plan.bsp_listed);
	assert_int_equal(plan.nr_aps, 2);
}

/* More CPUs than SMP_MAX_CPUS: the BSP plus 63 APs, the rest skipped. */
static void test_plan_too_many(void **state)
{
	(void)state;
	uint32_t ids[SMP_MAX_CPUS + 5];

	for (uint32_t i = 0; i < SMP_MAX_CPUS + 5; i++)
		ids[i] = i;
	smp_plan_build(ids, SMP_MAX_CPUS + 5, 0, true, &plan);
	assert_int_equal(plan.nr_aps, SMP_MAX_CPUS - 1);
	assert_int_equal(plan.nr_skipped, 5);
	assert_int_equal(plan.skipped[0].apic_id, SMP_MAX_CPUS);
	assert_int_equal(plan.skipped[4].why, SMP_SKIP_TOO_MANY);
}

/* --- the trampoline's page ------------------------------------------------ */

static void test_find_trampoline(void **state)
{
	(void)state;
	const struct mem_range map[] = {
		{ 0x0, 0x9f, MEM_USABLE },	/* 0 - 636 KiB */
		{ 0x9f000, 1, MEM_RESERVED },
		{ 0x100000, 0x1000, MEM_USABLE },
	};

	/* The highest two pages below 640 KiB that are usable. */
	assert_int_equal(smp_find_trampoline(map, 3, 2), 0x9d000);
}

static void test_find_trampoline_none(void **state)
{
	(void)state;
	const struct mem_range only_page0[] = {
		{ 0x0, 2, MEM_USABLE },		/* page 0 is never taken */
		{ 0x2000, 0x9d, MEM_FIRMWARE },
		{ 0x100000, 0x1000, MEM_USABLE },
	};
	const struct mem_range crossing[] = {
		{ 0x9f000, 0x100, MEM_USABLE },	/* one page below 640 KiB */
	};

	assert_int_equal(smp_find_trampoline(only_page0, 3, 2), 0);
	assert_int_equal(smp_find_trampoline(crossing, 1, 2), 0);
	assert_int_equal(smp_find_trampoline(crossing, 1, 1), 0x9f000);
}

/* --- patching ------------------------------------------------------------- */

/* A stand-in for the assembled blob: the data block as
 * hv/cpu/ap_trampoline.asm lays it out, code bytes elsewhere. */
static uint8_t blob[0x120];
static uint8_t *page;	/* AP_TRAMP_PAGES pages */
static uint64_t pml4[512];

static struct ap_tramp_data *blob_data(uint8_t *b)
{
	return (struct ap_tramp_data *)(b + AP_TRAMP_DATA_OFF);
}

static int setup_tramp(void **state)
{
	struct ap_tramp_data *d = blob_data(blob);

	(void)state;
	memset(blob, 0xcc, sizeof(blob));
	memset(d, 0, sizeof(*d));
	d->magic = AP_TRAMP_MAGIC;
	d->version = AP_TRAMP_VERSION;
	d->gdt[1] = 0x00cf9a000000ffffull;
	d->pm32_off = 0xa8;
	d->lm64_off = 0xdc;
	for (unsigned i = 0; i < 512; i++)
		pml4[i] = 0x1000ull * (i + 1) | 3;
	page = aligned_alloc(PAGE, AP_TRAMP_PAGES * PAGE);
	memset(page, 0x5a, AP_TRAMP_PAGES * PAGE);
	return page ? 0 : -1;
}

static int teardown_tramp(void **state)
{
	(void)state;
	free(page);
	return 0;
}

static const struct ap_tramp_regs regs = {
	.cr0 = 0x80050033, .cr3 = 0x12345000, .cr4 = 0x6a0 | (1u << 13),
	.efer = 0x901 | (1u << 10), .entry = 0xffff800000401000ull,
};

static void test_install_patches(void **state)
{
	(void)state;
	const uint64_t pa = 0x9e000;
	struct ap_tramp_data *d = blob_data(page);

	assert_int_equal(ap_tramp_install(page, pa, blob, sizeof(blob), pml4,
					  &regs), 0);
	/* The code is copied as is; the rest of the page cleared. */
	assert_int_equal(page[0], 0xcc);
	assert_int_equal(page[sizeof(blob) - 1], 0xcc);
	assert_int_equal(page[sizeof(blob)], 0);
	/* Linear addresses in the page, for 16- and 32-bit code. */
	assert_int_equal(d->gdtr_limit, 31);
	assert_int_equal(d->gdtr_base, pa + 0x10);
	assert_int_equal(d->gdt[1], 0x00cf9a000000ffffull);
	assert_int_equal(d->jmp32_off, pa + 0xa8);
	assert_int_equal(d->jmp32_sel, AP_TRAMP_SEL_CODE32);
	assert_int_equal(d->jmp64_off, pa + 0xdc);
	assert_int_equal(d->jmp64_sel, AP_TRAMP_SEL_CODE64);
	/* The table copy on the second page, below 4 GiB for 32-bit CR3. */
	assert_int_equal(d->cr3_low, pa + PAGE);
	assert_memory_equal(page + PAGE, pml4, PAGE);
	/* The BSP's registers, less what the AP must not start with. */
	assert_int_equal(d->cr0, regs.cr0);
	assert_int_equal(d->cr3, regs.cr3);
	assert_int_equal(d->cr4, 0x6a0);
	assert_int_equal(d->efer, 0x901);
	assert_int_equal(d->entry, regs.entry);
	assert_int_equal(d->percpu, 0);
	assert_int_equal(ap_tramp_sipi_vector(pa), 0x9e);
}

/* Bad places and a blob of another layout are refused, the page untouched. */
static void test_install_refuses(void **state)
{
	(void)state;

	assert_int_equal(ap_tramp_install(page, 0x9e800, blob, sizeof(blob),
					  pml4, &regs), -HV_EINVAL);
	/* The second page would be at 640 KiB: video memory. */
	assert_int_equal(ap_tramp_install(page, 0x9f000, blob, sizeof(blob),
					  pml4, &regs), -HV_EINVAL);
	assert_int_equal(ap_tramp_install(page, 0x100000, blob, sizeof(blob),
					  pml4, &regs), -HV_EINVAL);
	assert_int_equal(ap_tramp_install(page, 0x8000, blob, PAGE + 1,
					  pml4, &regs), -HV_EINVAL);
	blob_data(blob)->version = AP_TRAMP_VERSION + 1;
	assert_int_equal(ap_tramp_install(page, 0x8000, blob, sizeof(blob),
					  pml4, &regs), -HV_EINVAL);
	blob_data(blob)->version = AP_TRAMP_VERSION;
	blob_data(blob)->lm64_off = sizeof(blob);
	assert_int_equal(ap_tramp_install(page, 0x8000, blob, sizeof(blob),
					  pml4, &regs), -HV_EINVAL);
	assert_int_equal(page[0], 0x5a);
}

/* One offer, one taker: a later AP (or one the BSP gave up on) finds 0. */
static void test_offer_and_withdraw(void **state)
{
	(void)state;

	assert_int_equal(ap_tramp_install(page, 0x8000, blob, sizeof(blob),
					  pml4, &regs), 0);
	assert_true(ap_tramp_taken(page));
	ap_tramp_offer(page, 0x123000);
	assert_false(ap_tramp_taken(page));
	assert_int_equal(blob_data(page)->percpu, 0x123000);
	assert_int_equal(ap_tramp_withdraw(page), 0x123000);
	assert_true(ap_tramp_taken(page));
	/* What the AP's XCHG does; the BSP's withdraw then gets 0. */
	ap_tramp_offer(page, 0x456000);
	blob_data(page)->percpu = 0;
	assert_int_equal(ap_tramp_withdraw(page), 0);
}

/* --- the per-CPU area ------------------------------------------------------ */

static void test_percpu_layout(void **state)
{
	(void)state;
	uint8_t *base = aligned_alloc(PAGE, PERCPU_PAGES * PAGE);
	uint8_t *end = base + PERCPU_PAGES * PAGE;
	struct percpu *p;

	memset(base, 0xee, PERCPU_PAGES * PAGE);
	p = percpu_carve(base, 3, 6);
	assert_ptr_equal(p, base);
	assert_ptr_equal(p->self, p);
	assert_int_equal(p->index, 3);
	assert_int_equal(p->apic_id, 6);
	assert_int_equal(p->state, PERCPU_OFF);
	assert_null(p->ap_work);
	/* The IDT is its own page after the struct. */
	assert_ptr_equal(p->idt, base + PAGE);
	assert_true((uint8_t *)p->idt >= (uint8_t *)(p + 1));
	/* Stacks: 16-byte aligned tops, inside the area, not overlapping
	 * the IDT or each other. */
	assert_int_equal(p->ist_top % 16, 0);
	assert_int_equal(p->stack_top % 16, 0);
	assert_true(p->ist_top - PERCPU_IST_BYTES >=
		    (uintptr_t)p->idt + PERCPU_IDT_BYTES);
	assert_true(p->stack_top - PERCPU_STACK_BYTES >= p->ist_top);
	assert_int_equal(p->stack_top, (uintptr_t)end);
	/* The trampoline reads these two at fixed offsets. */
	assert_int_equal(*(uint64_t *)(base + PERCPU_OFF_SELF),
			 (uintptr_t)base);
	assert_int_equal(*(uint64_t *)(base + PERCPU_OFF_STACK_TOP),
			 p->stack_top);
	free(base);
}

static void test_percpu_alloc(void **state)
{
	(void)state;
	struct percpu *p = percpu_alloc(1, 2);

	assert_non_null(p);
	assert_int_equal((uintptr_t)p % PAGE, 0);
	assert_int_equal(p->stack_top - (uintptr_t)p, PERCPU_PAGES * PAGE);
	page_free_contig(p, PERCPU_PAGES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_four),
		cmocka_unit_test(test_plan_bsp_in_the_middle),
		cmocka_unit_test(test_plan_one_and_none),
		cmocka_unit_test(test_plan_duplicates_and_xapic_range),
		cmocka_unit_test(test_plan_bsp_missing),
		cmocka_unit_test(test_plan_too_many),
		cmocka_unit_test(test_find_trampoline),
		cmocka_unit_test(test_find_trampoline_none),
		cmocka_unit_test_setup_teardown(test_install_patches,
						setup_tramp, teardown_tramp),
		cmocka_unit_test_setup_teardown(test_install_refuses,
						setup_tramp, teardown_tramp),
		cmocka_unit_test_setup_teardown(test_offer_and_withdraw,
						setup_tramp, teardown_tramp),
		cmocka_unit_test(test_percpu_layout),
		cmocka_unit_test(test_percpu_alloc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
