/* Unit tests of hv/platform/rtc_time.c: calendar conversions on known dates (leap
 * days, century rules) and the register bytes a guest reads. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hv/platform/rtc_time.h"

static void check_date(uint64_t secs, unsigned y, unsigned mo, unsigned d,
		       unsigned h, unsigned mi, unsigned s, unsigned wday)
{
	struct rtc_date t;

	rtc_from_unix(secs, &t);
	assert_int_equal(t.year, y);
	assert_int_equal(t.mon, mo);
	assert_int_equal(t.mday, d);
	assert_int_equal(t.hour, h);
	assert_int_equal(t.min, mi);
	assert_int_equal(t.sec, s);
	assert_int_equal(t.wday, wday);
	assert_int_equal(rtc_to_unix(&t), (int64_t)secs);
}

/* Values from `date -u -d @N`. */
static void known_dates(void **state)
{
	(void)state;
	check_date(0, 1970, 1, 1, 0, 0, 0, 4);			/* Thursday */
	check_date(951782400, 2000, 2, 29, 0, 0, 0, 2);		/* leap, /400 */
	check_date(951955199, 2000, 3, 1, 23, 59, 59, 3);
	check_date(1709164800, 2024, 2, 29, 0, 0, 0, 4);
	check_date(1798675200, 2026, 12, 31, 0, 0, 0, 4);
	check_date(1795694400, 2026, 11, 26, 12, 0, 0, 4);
	check_date(4107542400, 2100, 3, 1, 0, 0, 0, 1);		/* 2100: no leap */
}

static void bad_fields_refused(void **state)
{
	struct rtc_date d = { 2023, 2, 29, 0, 0, 0, 0 };

	(void)state;
	assert_int_equal(rtc_to_unix(&d), -1);	/* 2023 is not leap */
	d = (struct rtc_date){ 2026, 13, 1, 0, 0, 0, 0 };
	assert_int_equal(rtc_to_unix(&d), -1);
	d = (struct rtc_date){ 2026, 4, 31, 0, 0, 0, 0 };
	assert_int_equal(rtc_to_unix(&d), -1);
	d = (struct rtc_date){ 2026, 4, 30, 24, 0, 0, 0 };
	assert_int_equal(rtc_to_unix(&d), -1);
	d = (struct rtc_date){ 1969, 12, 31, 0, 0, 0, 0 };
	assert_int_equal(rtc_to_unix(&d), -1);
}

static void bcd(void **state)
{
	(void)state;
	assert_int_equal(rtc_bin2bcd(0), 0x00);
	assert_int_equal(rtc_bin2bcd(59), 0x59);
	assert_int_equal(rtc_bin2bcd(99), 0x99);
	assert_int_equal(rtc_bcd2bin(0x59), 59);
	assert_int_equal(rtc_bcd2bin(0x20), 20);
}

/* 2026-11-26 (Thursday) 13:07:45: what Linux's mc146818_get_time reads. */
static void registers(void **state)
{
	struct rtc_date d;

	(void)state;
	rtc_from_unix(1795698465, &d);
	assert_int_equal(rtc_reg_read(&d, RTC_SEC), 0x45);
	assert_int_equal(rtc_reg_read(&d, RTC_MIN), 0x07);
	assert_int_equal(rtc_reg_read(&d, RTC_HOUR), 0x13);
	assert_int_equal(rtc_reg_read(&d, RTC_WDAY), 0x05);	/* Sun = 1 */
	assert_int_equal(rtc_reg_read(&d, RTC_MDAY), 0x26);
	assert_int_equal(rtc_reg_read(&d, RTC_MON), 0x11);
	assert_int_equal(rtc_reg_read(&d, RTC_YEAR), 0x26);
	assert_int_equal(rtc_reg_read(&d, RTC_CENTURY), 0x20);
	assert_int_equal(rtc_reg_read(&d, RTC_REG_A) & RTC_A_UIP, 0);
	assert_int_equal(rtc_reg_read(&d, RTC_REG_B),
			 RTC_B_24H);	/* BCD, 24 h, no interrupts */
	assert_int_equal(rtc_reg_read(&d, RTC_REG_C), 0);
	assert_int_equal(rtc_reg_read(&d, RTC_REG_D), RTC_D_VRT);
	assert_int_equal(rtc_reg_read(&d, 0x01), 0);	/* alarm */
	assert_int_equal(rtc_reg_read(&d, 0x40), 0);	/* NVRAM */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_dates),
		cmocka_unit_test(bad_fields_refused),
		cmocka_unit_test(bcd),
		cmocka_unit_test(registers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
