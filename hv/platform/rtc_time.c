/* See rtc_time.h. */
#include "hv/platform/rtc_time.h"

#define SECS_PER_DAY 86400u

uint8_t rtc_bin2bcd(unsigned v)
{
	return (uint8_t)(((v / 10) % 10) << 4 | (v % 10));
}

unsigned rtc_bcd2bin(uint8_t v)
{
	return (v >> 4) * 10u + (v & 0x0f);
}

/* Days since 1970-01-01 <-> civil date, by eras of 400 years that start
 * on March 1st (so the leap day is the last day of an era's year). */
static void civil_from_days(int64_t z, unsigned *y, unsigned *m, unsigned *d)
{
	int64_t era, yr;
	uint64_t doe, yoe, doy, mp;

	z += 719468;	/* days from 0000-03-01 to 1970-01-01 */
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (uint64_t)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	yr = (int64_t)yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	*y = (unsigned)(yr + (*m <= 2));
}

static int64_t days_from_civil(unsigned y, unsigned m, unsigned d)
{
	int64_t yr = (int64_t)y - (m <= 2), era;
	uint64_t yoe, doy, doe;

	era = (yr >= 0 ? yr : yr - 399) / 400;
	yoe = (uint64_t)(yr - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static bool leap(unsigned y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned month_days(unsigned y, unsigned m)
{
	static const uint8_t days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
	};

	return days[m - 1] + (m == 2 && leap(y));
}

void rtc_from_unix(uint64_t secs, struct rtc_date *d)
{
	int64_t days = (int64_t)(secs / SECS_PER_DAY);
	unsigned rem = (unsigned)(secs % SECS_PER_DAY);

	civil_from_days(days, &d->year, &d->mon, &d->mday);
	d->hour = rem / 3600;
	d->min = rem / 60 % 60;
	d->sec = rem % 60;
	d->wday = (unsigned)((days + 4) % 7);	/* 1970-01-01: Thursday */
}

int64_t rtc_to_unix(const struct rtc_date *d)
{
	if (d->year < 1970 || d->year > 9999 || d->mon < 1 || d->mon > 12 ||
	    d->mday < 1 || d->mday > month_days(d->year, d->mon) ||
	    d->hour > 23 || d->min > 59 || d->sec > 59)
		return -1;
	return days_from_civil(d->year, d->mon, d->mday) * SECS_PER_DAY +
	       d->hour * 3600 + d->min * 60 + d->sec;
}

uint8_t rtc_reg_read(const struct rtc_date *d, unsigned reg)
{
	switch (reg) {
	case RTC_SEC: return rtc_bin2bcd(d->sec);
	case RTC_MIN: return rtc_bin2bcd(d->min);
	case RTC_HOUR: return rtc_bin2bcd(d->hour);
	case RTC_WDAY: return rtc_bin2bcd(d->wday + 1);	/* 1 = Sunday */
	case RTC_MDAY: return rtc_bin2bcd(d->mday);
	case RTC_MON: return rtc_bin2bcd(d->mon);
	case RTC_YEAR: return rtc_bin2bcd(d->year % 100);
	case RTC_CENTURY: return rtc_bin2bcd(d->year / 100);
	case RTC_REG_A: return RTC_A_DV_32K | RTC_A_RS_1K;
	case RTC_REG_B: return RTC_B_24H;
	case RTC_REG_D: return RTC_D_VRT;
	default: return 0;	/* REG_C (no flags), alarms, NVRAM */
	}
}
