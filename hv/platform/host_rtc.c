/* See host_rtc.h. */
#include "hv/platform/host_rtc.h"
#include "hv/console/console.h"
#include "hv/platform/rtc_time.h"
#include "hv/platform/tsc.h"
#include "hv/cpu/x86.h"

#define CMOS_INDEX	0x70
#define CMOS_DATA	0x71
#define UIP_POLLS	100000	/* an update lasts under 2 ms */
#define HOUR_PM		0x80	/* 12-hour mode */

static uint64_t base_secs, base_tsc;

static uint8_t cmos_read(unsigned reg)
{
	outb(CMOS_INDEX, (uint8_t)reg);
	return inb(CMOS_DATA);
}

static unsigned field(uint8_t v, uint8_t reg_b)
{
	return (reg_b & RTC_B_DM_BIN) ? v : rtc_bcd2bin(v);
}

static void read_once(struct rtc_date *d)
{
	uint8_t b = cmos_read(RTC_REG_B), hour = cmos_read(RTC_HOUR);
	unsigned century = field(cmos_read(RTC_CENTURY), b);

	d->sec = field(cmos_read(RTC_SEC), b);
	d->min = field(cmos_read(RTC_MIN), b);
	d->hour = field(hour & (uint8_t)~HOUR_PM, b);
	if (!(b & RTC_B_24H))	/* 12 AM is 0 h, 12 PM is 12 h */
		d->hour = d->hour % 12 + ((hour & HOUR_PM) ? 12 : 0);
	d->mday = field(cmos_read(RTC_MDAY), b);
	d->mon = field(cmos_read(RTC_MON), b);
	d->year = field(cmos_read(RTC_YEAR), b);
	/* The century byte is a convention (ACPI FADT CENTURY), not a given. */
	d->year += (century >= 19 && century <= 99) ? century * 100 : 2000;
}

/* Two reads outside an update that agree (the data sheet's advice). */
static int64_t read_host_secs(void)
{
	struct rtc_date a, b;

	for (unsigned tries = 0; tries < 4; tries++) {
		for (unsigned i = 0; i < UIP_POLLS; i++)
			if (!(cmos_read(RTC_REG_A) & RTC_A_UIP))
				break;
		read_once(&a);
		read_once(&b);
		if (a.sec == b.sec && a.min == b.min && a.hour == b.hour &&
		    a.mday == b.mday)
			return rtc_to_unix(&a);
	}
	return -1;
}

void host_rtc_init(void)
{
	int64_t secs = read_host_secs();
	struct rtc_date d;

	base_tsc = rdtsc();
	if (secs < 0) {
		kprintf("rtc: the host clock reads no valid date; the VMs' "
			"clocks start at 1970-01-01\n");
		return;
	}
	base_secs = (uint64_t)secs;
	rtc_from_unix(base_secs, &d);
	kprintf("rtc: host date %04u-%02u-%02u %02u:%02u:%02u UTC, shown "
		"read-only to the VMs\n", d.year, d.mon, d.mday, d.hour,
		d.min, d.sec);
}

uint64_t host_rtc_now(void)
{
	uint64_t hz = tsc_hz();

	return base_secs + (hz ? (rdtsc() - base_tsc) / hz : 0);
}
