/* Unit tests for hv/vm/vlapic.c: the virtual x2APIC's timer arithmetic,
 * register access rules and interrupt priority, with time given as plain
 * TSC numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vm/vlapic.h"

static void enabled(struct vlapic *l)
{
	vlapic_reset(l);
	assert_int_equal(vlapic_wrmsr(l, X2APIC_SVR, 0x1ff, 0), 0);
}

static void test_reset_state(void **state)
{
	struct vlapic l = { 0 };
	uint64_t v;

	(void)state;
	vlapic_reset(&l);
	assert_int_equal(vlapic_rdmsr(&l, X2APIC_LVT_TIMER, 0, &v), 0);
	assert_true(v & LVT_MASKED);
	assert_int_equal(vlapic_rdmsr(&l, X2APIC_VERSION, 0, &v), 0);
	assert_int_equal(v & 0xff, 0x14);
	assert_int_equal(vlapic_next_event(&l), UINT64_MAX);
	assert_int_equal(vlapic_pending(&l), -1);
}

static void test_bad_registers(void **state)
{
	struct vlapic l = { 0 };
	uint64_t v;

	(void)state;
	vlapic_reset(&l);
	/* write-only, read-only and holes */
	assert_int_equal(vlapic_rdmsr(&l, X2APIC_EOI, 0, &v), -1);
	assert_int_equal(vlapic_rdmsr(&l, X2APIC_SELF_IPI, 0, &v), -1);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_VERSION, 1, 0), -1);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_CUR_COUNT, 1, 0), -1);
	assert_int_equal(vlapic_rdmsr(&l, 0x8ff, 0, &v), -1);
	assert_true(vlapic_is_msr(0x800));
	assert_false(vlapic_is_msr(0x900));
}

static void test_divider(void **state)
{
	static const struct {
		uint32_t conf;
		uint64_t div;
	} cases[] = { { 0x0, 2 }, { 0x1, 4 }, { 0x2, 8 }, { 0x3, 16 },
		      { 0x8, 32 }, { 0x9, 64 }, { 0xa, 128 }, { 0xb, 1 } };
	struct vlapic l = { 0 };

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enabled(&l);
		vlapic_wrmsr(&l, X2APIC_DIV_CONF, cases[i].conf, 0);
		vlapic_wrmsr(&l, X2APIC_INIT_COUNT, 1000, 5000);
		assert_int_equal(vlapic_next_event(&l), 5000 + 1000 * cases[i].div);
	}
}

static void test_oneshot(void **state)
{
	struct vlapic l = { 0 };
	uint64_t v;

	(void)state;
	enabled(&l);
	vlapic_wrmsr(&l, X2APIC_DIV_CONF, 0xb, 0);
	vlapic_wrmsr(&l, X2APIC_LVT_TIMER, 0x40, 0);	/* one-shot */
	vlapic_wrmsr(&l, X2APIC_INIT_COUNT, 100, 1000);
	vlapic_rdmsr(&l, X2APIC_CUR_COUNT, 1040, &v);
	assert_int_equal(v, 60);
	vlapic_advance(&l, 1099);
	assert_int_equal(vlapic_pending(&l), -1);
	vlapic_advance(&l, 1100);
	assert_int_equal(vlapic_pending(&l), 0x40);
	assert_int_equal(vlapic_next_event(&l), UINT64_MAX);
	vlapic_rdmsr(&l, X2APIC_CUR_COUNT, 1200, &v);
	assert_int_equal(v, 0);
}

/* The rate stays exact when expiries are looked at late, and periods
 * nobody saw are counted as coalesced, not delivered. */
static void test_periodic_rate(void **state)
{
	struct vlapic l = { 0 };
	unsigned delivered = 0;

	(void)state;
	enabled(&l);
	vlapic_wrmsr(&l, X2APIC_DIV_CONF, 0xb, 0);
	vlapic_wrmsr(&l, X2APIC_LVT_TIMER, LVT_TIMER_PERIODIC | 0x40, 0);
	vlapic_wrmsr(&l, X2APIC_INIT_COUNT, 1000, 0);
	for (uint64_t now = 0; now < 100000 + 7; now += 7) {
		vlapic_advance(&l, now);
		if (vlapic_pending(&l) >= 0) {
			vlapic_accept(&l, 0x40);
			vlapic_wrmsr(&l, X2APIC_EOI, 0, now);
			delivered++;
		}
	}
	assert_int_equal(delivered, 100);
	assert_int_equal(l.timer_coalesced, 0);
	vlapic_advance(&l, 105500);	/* 5 periods at once */
	assert_int_equal(l.timer_coalesced, 4);
	assert_int_equal(vlapic_next_event(&l), 106000);
}

static void test_masked_timer(void **state)
{
	struct vlapic l = { 0 };

	(void)state;
	enabled(&l);
	vlapic_wrmsr(&l, X2APIC_LVT_TIMER, LVT_MASKED | 0x40, 0);
	vlapic_wrmsr(&l, X2APIC_INIT_COUNT, 10, 0);
	vlapic_advance(&l, 1000);
	assert_int_equal(vlapic_pending(&l), -1);
	assert_int_equal(l.timer_fires, 1);
}

static void test_priority(void **state)
{
	struct vlapic l = { 0 };

	(void)state;
	enabled(&l);
	vlapic_wrmsr(&l, X2APIC_SELF_IPI, 0x45, 0);
	vlapic_wrmsr(&l, X2APIC_SELF_IPI, 0x81, 0);
	assert_int_equal(vlapic_pending(&l), 0x81);
	vlapic_accept(&l, 0x81);
	/* 0x45 is below the in-service class 8 */
	assert_int_equal(vlapic_pending(&l), -1);
	vlapic_wrmsr(&l, X2APIC_EOI, 0, 0);
	assert_int_equal(vlapic_pending(&l), 0x45);
	vlapic_wrmsr(&l, X2APIC_TPR, 0x50, 0);
	assert_int_equal(vlapic_pending(&l), -1);
	vlapic_wrmsr(&l, X2APIC_TPR, 0x30, 0);
	assert_int_equal(vlapic_pending(&l), 0x45);
	/* vectors below 16 are illegal and dropped */
	vlapic_wrmsr(&l, X2APIC_SELF_IPI, 0x05, 0);
	vlapic_accept(&l, 0x45);
	assert_int_equal(vlapic_pending(&l), -1);
}

static void test_software_disabled(void **state)
{
	struct vlapic l = { 0 };

	(void)state;
	vlapic_reset(&l);	/* SVR bit 8 clear */
	vlapic_wrmsr(&l, X2APIC_SELF_IPI, 0x40, 0);
	assert_int_equal(vlapic_pending(&l), -1);
}

/* A one-tick period (the issue 19 storm) is stretched to the minimum
 * period, and the current count never exceeds what was programmed. */
static void test_min_period(void **state)
{
	struct vlapic l = { 0 };
	uint64_t v;

	(void)state;
	enabled(&l);
	vlapic_set_min_period(500);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_DIV_CONF, 0xb, 0), 0);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_LVT_TIMER,
				      LVT_TIMER_PERIODIC | 0x40, 0), 0);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_INIT_COUNT, 1, 1000), 0);
	assert_int_equal(vlapic_next_event(&l), 1500);
	assert_int_equal(vlapic_rdmsr(&l, X2APIC_CUR_COUNT, 1000, &v), 0);
	assert_int_equal(v, 1);
	vlapic_advance(&l, 1500);
	assert_int_equal(vlapic_next_event(&l), 2000);
	/* Nine periods at once: one more fire, the others coalesced. */
	vlapic_advance(&l, 6600);
	assert_true(l.timer_fires <= 3);
	assert_int_equal(vlapic_next_event(&l), 7000);
	/* Longer periods are untouched. */
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_INIT_COUNT, 800, 10000), 0);
	assert_int_equal(vlapic_next_event(&l), 10800);
	vlapic_set_min_period(0);
}

/* IA32_APIC_BASE: x2APIC at reset; Linux's way back to xAPIC (through
 * "disabled") is allowed, the SDM's forbidden transitions are not. */
static void test_apic_base_modes(void **state)
{
	const uint64_t base = APIC_BASE_ADDR | APIC_BASE_BSP;
	struct vlapic l = { 0 };

	(void)state;
	vlapic_reset(&l);
	assert_true(vlapic_x2apic_mode(&l));
	assert_false(vlapic_xapic_mode(&l));
	assert_int_equal(vlapic_set_apic_base(&l, base | APIC_BASE_EN), -1);
	assert_int_equal(vlapic_set_apic_base(&l, base), 0);
	assert_false(vlapic_x2apic_mode(&l) || vlapic_xapic_mode(&l));
	assert_int_equal(vlapic_set_apic_base(&l, base | APIC_BASE_EN |
						  APIC_BASE_EXTD), -1);
	assert_int_equal(vlapic_set_apic_base(&l, base | APIC_BASE_EN), 0);
	assert_true(vlapic_xapic_mode(&l));
	assert_int_equal(vlapic_set_apic_base(&l, base | APIC_BASE_EXTD), -1);
	/* No relocation of the page. */
	assert_int_equal(vlapic_set_apic_base(&l, 0xfed00000ull |
						  APIC_BASE_BSP |
						  APIC_BASE_EN), -1);
	assert_int_equal(vlapic_set_apic_base(&l, base | APIC_BASE_EN |
						  APIC_BASE_EXTD), 0);
	assert_true(vlapic_x2apic_mode(&l));
}

/* An AP (APIC ID 1: no BSP flag) takes the same transitions with its
 * own base; the BSP flag cannot be set or cleared (Linux's AP turning
 * x2APIC off wrote 0xFEE00000 and got #GP until this held). */
static void test_apic_base_ap(void **state)
{
	struct vlapic l = { 0 };

	(void)state;
	l.id = 1;
	vlapic_reset(&l);
	assert_int_equal(l.apic_base & APIC_BASE_BSP, 0);
	assert_int_equal(vlapic_set_apic_base(&l, APIC_BASE_ADDR), 0);
	assert_int_equal(vlapic_set_apic_base(&l, APIC_BASE_ADDR |
						  APIC_BASE_EN), 0);
	assert_true(vlapic_xapic_mode(&l));
	assert_int_equal(vlapic_set_apic_base(&l, APIC_BASE_ADDR |
						  APIC_BASE_BSP |
						  APIC_BASE_EN), -1);
	l.id = 0;
	vlapic_reset(&l);
	assert_int_equal(vlapic_set_apic_base(&l, APIC_BASE_ADDR), -1);
}

/* --- APIC virtualization: the model and the virtual-APIC page ----------- */

static uint32_t page[1024];

static void with_page(struct vlapic *l)
{
	memset(page, 0xa5, sizeof(page));
	*l = (struct vlapic){ 0 };
	l->vapic = page;
	vlapic_reset(l);	/* keeps the page, TPR 0 there */
	l->apic_base = APIC_BASE_ADDR | APIC_BASE_BSP | APIC_BASE_EN;
	assert_int_equal(vlapic_wrmsr(l, X2APIC_SVR, 0x1ff, 0), 0);
}

/* The TPR is the page's: a guest store there (TPR shadow, no exit)
 * holds back interrupts at once; a write through the model lands there. */
static void test_vapic_tpr(void **state)
{
	struct vlapic l;
	uint64_t v;

	(void)state;
	with_page(&l);
	assert_ptr_equal(l.vapic, page);
	assert_int_equal(page[0x80 / 4], 0);
	vlapic_raise(&l, 0x51);
	assert_int_equal(vlapic_pending(&l), 0x51);
	page[0x80 / 4] = 0x60;	/* the guest, without an exit */
	assert_int_equal(vlapic_pending(&l), -1);
	assert_int_equal(vlapic_rdmsr(&l, X2APIC_TPR, 0, &v), 0);
	assert_int_equal(v, 0x60);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_TPR, 0x20, 0), 0);
	assert_int_equal(page[0x80 / 4], 0x20);
	assert_int_equal(vlapic_pending(&l), 0x51);
	vlapic_set_tpr(&l, 0x1ff);	/* CR8 path: 8 bits kept */
	assert_int_equal(vlapic_tpr(&l), 0xff);
}

/* Every model change marks the page; a sync writes what the CPU reads
 * there (IRR, ISR, PPR, LVTs, xAPIC forms) and clears the mark; the
 * timer's current count is never in the page (its reads exit). */
static void test_vapic_sync(void **state)
{
	struct vlapic l;

	(void)state;
	with_page(&l);
	page[0x390 / 4] = 0xdeadbeefu;
	vlapic_vapic_sync(&l, 0);
	assert_false(l.vapic_dirty);
	assert_int_equal(page[0x30 / 4] & 0xff, 0x14);	/* version */
	assert_int_equal(page[0xf0 / 4], 0x1ff);
	assert_int_equal(page[0xe0 / 4], 0xffffffffu);	/* DFR flat */
	assert_int_equal(page[0x320 / 4], LVT_MASKED);
	assert_int_equal(page[0x390 / 4], 0xdeadbeefu);	/* not written */

	vlapic_raise(&l, 0x41);
	assert_true(l.vapic_dirty);
	vlapic_vapic_sync(&l, 0);
	assert_int_equal(page[(0x200 + 0x20) / 4], 1u << 1);	/* IRR 0x41 */
	vlapic_accept(&l, 0x41);
	assert_true(l.vapic_dirty);
	vlapic_vapic_sync(&l, 0);
	assert_int_equal(page[(0x200 + 0x20) / 4], 0);
	assert_int_equal(page[(0x100 + 0x20) / 4], 1u << 1);	/* ISR */
	assert_int_equal(page[0xa0 / 4], 0x40);			/* PPR */
	assert_int_equal(vlapic_eoi(&l), 0x41);
	assert_true(l.vapic_dirty);
	vlapic_vapic_sync(&l, 0);
	assert_int_equal(page[(0x100 + 0x20) / 4], 0);
	assert_int_equal(page[0xa0 / 4], 0);
	assert_int_equal(vlapic_eoi(&l), -1);

	/* A timer expiry sets IRR: the page must follow. */
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_LVT_TIMER, 0x30, 0), 0);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_DIV_CONF, 0xb, 0), 0);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_INIT_COUNT, 100000, 0), 0);
	vlapic_vapic_sync(&l, 0);
	assert_int_equal(page[0x380 / 4], 100000);
	vlapic_advance(&l, 100000);
	assert_true(l.vapic_dirty);
	vlapic_vapic_sync(&l, 100000);
	assert_int_equal(page[(0x200 + 0x10) / 4], 1u << 16);	/* 0x30 */
	/* Interrupt traffic rewrites only IRR/ISR/PPR; writes the whole
	 * page (the first sync and the timer's three). */
	assert_int_equal(l.vapic_syncs, 2);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_LVT_LINT0, 0x700, 0), 0);
	assert_true(l.vapic_dirty & VAPIC_DIRTY_ALL);
	page[0x350 / 4] = 0xffffffffu;	/* as the guest wrote it */
	vlapic_vapic_sync_reg(&l, 0x350, 0);
	assert_int_equal(page[0x350 / 4], 0x700);	/* what the model kept */
	vlapic_vapic_sync_reg(&l, 0x390, 0);		/* never written */
	assert_int_equal(page[0x390 / 4], 0xdeadbeefu);
	vlapic_vapic_sync_reg(&l, 0x80, 0);		/* the page's own */
	assert_int_equal(page[0x80 / 4], 0);
}

/* The TPR threshold names the class only the TPR holds back. */
static void test_tpr_threshold(void **state)
{
	struct vlapic l;

	(void)state;
	with_page(&l);
	assert_int_equal(vlapic_tpr_threshold(&l), 0);	/* nothing waits */
	vlapic_raise(&l, 0x51);
	assert_int_equal(vlapic_tpr_threshold(&l), 0);	/* deliverable */
	page[0x80 / 4] = 0x50;
	assert_int_equal(vlapic_pending(&l), -1);
	assert_int_equal(vlapic_tpr_threshold(&l), 5);
	page[0x80 / 4] = 0x9f;
	assert_int_equal(vlapic_tpr_threshold(&l), 5);
	/* Held back by a higher in-service vector: no TPR change helps. */
	page[0x80 / 4] = 0;
	vlapic_raise(&l, 0x71);
	vlapic_accept(&l, 0x71);
	page[0x80 / 4] = 0x60;
	assert_int_equal(vlapic_tpr_threshold(&l), 0);
	/* Software-disabled APIC delivers nothing. */
	vlapic_eoi(&l);
	assert_int_equal(vlapic_tpr_threshold(&l), 5);
	assert_int_equal(vlapic_wrmsr(&l, X2APIC_SVR, 0xff, 0), 0);
	assert_int_equal(vlapic_tpr_threshold(&l), 0);
}

/* A reset keeps the pages and zeroes the page's TPR. */
static void test_vapic_reset(void **state)
{
	struct vlapic l;

	(void)state;
	with_page(&l);
	page[0x80 / 4] = 0xf0;
	l.vapic_dirty = false;
	vlapic_reset(&l);
	assert_ptr_equal(l.vapic, page);
	assert_int_equal(vlapic_tpr(&l), 0);
	assert_true(l.vapic_dirty);
}

/* Virtual-interrupt delivery: the model's IRR/ISR go to the page with
 * RVI/SVI, the CPU delivers (IRR -> ISR in the page) and retires an EOI
 * (ISR cleared in the page) without exits, and the pull after the exit
 * gives the model what the CPU did. */
static void page_bit(int vec, uint32_t base, bool on)
{
	uint32_t *w = &page[(base + 0x10 * (unsigned)(vec / 32)) / 4];

	if (on)
		*w |= 1u << (vec % 32);
	else
		*w &= ~(1u << (vec % 32));
}

static void test_vid_round_trip(void **state)
{
	struct vlapic l;

	(void)state;
	with_page(&l);
	vlapic_raise(&l, 0x31);
	vlapic_raise(&l, 0xec);		/* the top word's upper half */
	vlapic_vapic_sync(&l, 0);
	assert_int_equal(vlapic_intr_status(&l), 0xec);
	/* The CPU delivers 0xec: IRR -> ISR in the page, no exit. */
	page_bit(0xec, 0x200, false);
	page_bit(0xec, 0x100, true);
	vlapic_vapic_pull(&l);
	assert_int_equal(vlapic_intr_status(&l), 0x31 | 0xec << 8);
	assert_int_equal(vlapic_pending(&l), -1);	/* below 0xec */
	assert_false(l.vapic_dirty);	/* the page already says so */
	/* The guest's EOI, virtualized: ISR cleared in the page. */
	page_bit(0xec, 0x100, false);
	vlapic_vapic_pull(&l);
	assert_int_equal(vlapic_intr_status(&l), 0x31);
	assert_int_equal(vlapic_pending(&l), 0x31);
	/* Without the pull the model would still hold 0xec in service. */
	page_bit(0x31, 0x200, false);
	page_bit(0x31, 0x100, true);
	assert_int_equal(vlapic_pending(&l), 0x31);
	vlapic_vapic_pull(&l);
	assert_int_equal(vlapic_pending(&l), -1);
	assert_int_equal(vlapic_intr_status(&l), 0x31 << 8);
	/* An EOI through the model (EOI-induced exit or x2APIC) goes back
	 * to the page at the next sync. */
	assert_int_equal(vlapic_eoi(&l), 0x31);
	vlapic_vapic_sync(&l, 0);
	assert_int_equal(page[0x110 / 4], 0);
	assert_int_equal(vlapic_intr_status(&l), 0);
}

/* What the VMCS holds survives a reset (the next entry compares). */
static void test_vid_reset_keeps_vmcs_view(void **state)
{
	struct vlapic l;

	(void)state;
	with_page(&l);
	l.vid = true;
	l.eoi_exit[2] = 5;
	vlapic_reset(&l);
	assert_true(l.vid);
	assert_int_equal(l.eoi_exit[2], 5);
	assert_int_equal(vlapic_intr_status(&l), 0);
}

/* Level-triggered, unmasked IOAPIC entries keep an EOI exit; edge,
 * masked and illegal vectors do not. */
static void test_eoi_exit_map(void **state)
{
	const uint64_t redir[5] = {
		0x30,			/* edge */
		0x8000 | 0x41,		/* level */
		0x18000 | 0x52,		/* level, masked */
		0x8000 | 0xfe,		/* level, top vector */
		0x8000 | 0x05,		/* level, illegal vector */
	};
	uint64_t m[4];

	(void)state;
	vlapic_eoi_exit_map(redir, 5, m);
	assert_int_equal(m[0], 0);
	assert_int_equal(m[1], 1ull << 1);
	assert_int_equal(m[2], 0);
	assert_int_equal(m[3], 1ull << 62);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reset_state),
		cmocka_unit_test(test_bad_registers),
		cmocka_unit_test(test_divider),
		cmocka_unit_test(test_oneshot),
		cmocka_unit_test(test_periodic_rate),
		cmocka_unit_test(test_masked_timer),
		cmocka_unit_test(test_priority),
		cmocka_unit_test(test_software_disabled),
		cmocka_unit_test(test_min_period),
		cmocka_unit_test(test_apic_base_modes),
		cmocka_unit_test(test_apic_base_ap),
		cmocka_unit_test(test_vapic_tpr),
		cmocka_unit_test(test_vapic_sync),
		cmocka_unit_test(test_tpr_threshold),
		cmocka_unit_test(test_vapic_reset),
		cmocka_unit_test(test_vid_round_trip),
		cmocka_unit_test(test_vid_reset_keeps_vmcs_view),
		cmocka_unit_test(test_eoi_exit_map),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
