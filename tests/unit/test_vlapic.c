/* Unit tests for hv/vm/vlapic.c: the virtual x2APIC's timer arithmetic,
 * register access rules and interrupt priority, with time given as plain
 * TSC numbers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "hv/vm/vlapic.h"

static void enabled(struct vlapic *l)
{
	vlapic_reset(l);
	assert_int_equal(vlapic_wrmsr(l, X2APIC_SVR, 0x1ff, 0), 0);
}

static void test_reset_state(void **state)
{
	struct vlapic l;
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
	struct vlapic l;
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
	struct vlapic l;

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
	struct vlapic l;
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
	struct vlapic l;
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
	struct vlapic l;

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
	struct vlapic l;

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
	struct vlapic l;

	(void)state;
	vlapic_reset(&l);	/* SVR bit 8 clear */
	vlapic_wrmsr(&l, X2APIC_SELF_IPI, 0x40, 0);
	assert_int_equal(vlapic_pending(&l), -1);
}

/* A one-tick period (the issue 19 storm) is stretched to the minimum
 * period, and the current count never exceeds what was programmed. */
static void test_min_period(void **state)
{
	struct vlapic l;
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
	struct vlapic l;

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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
