/* Calendar arithmetic and MC146818 register encoding, pure (unit test
 * test_rtc_time): the VMs' read-only CMOS clock (hv/vm/vrtc.c) shows the
 * host's date, read once at boot (hv/platform/host_rtc.c), advanced by the TSC. */
#ifndef HV_RTC_TIME_H
#define HV_RTC_TIME_H

#include <stdbool.h>
#include <stdint.h>

struct rtc_date {
	unsigned year;		/* e.g. 2026 */
	unsigned mon, mday;	/* 1..12, 1..31 */
	unsigned hour, min, sec;
	unsigned wday;		/* 0 = Sunday */
};

/* Seconds since 1970-01-01 00:00:00 UTC <-> date (proleptic Gregorian). */
void rtc_from_unix(uint64_t secs, struct rtc_date *d);
/* -1 if a field is out of range (e.g. a host RTC that reads garbage). */
int64_t rtc_to_unix(const struct rtc_date *d);

/* MC146818 registers (the data sheet's numbering; 0x32 is the PC century
 * byte) */
#define RTC_SEC		0x00
#define RTC_MIN		0x02
#define RTC_HOUR	0x04
#define RTC_WDAY	0x06
#define RTC_MDAY	0x07
#define RTC_MON		0x08
#define RTC_YEAR	0x09
#define RTC_REG_A	0x0a
#define RTC_REG_B	0x0b
#define RTC_REG_C	0x0c
#define RTC_REG_D	0x0d
#define RTC_CENTURY	0x32
#define RTC_A_UIP	0x80	/* update in progress */
#define RTC_A_DV_32K	0x20	/* 32.768 kHz time base */
#define RTC_A_RS_1K	0x06	/* 1024 Hz periodic rate */
#define RTC_B_24H	0x02
#define RTC_B_DM_BIN	0x04	/* binary (not BCD) data */
#define RTC_B_SET	0x80
#define RTC_D_VRT	0x80	/* valid RAM and time */

uint8_t rtc_bin2bcd(unsigned v);
unsigned rtc_bcd2bin(uint8_t v);

/* What a read of CMOS register `reg` returns when the time is d: BCD,
 * 24-hour mode, no update in progress, no alarms or interrupts; every
 * other byte of the CMOS reads 0. */
uint8_t rtc_reg_read(const struct rtc_date *d, unsigned reg);

#endif
