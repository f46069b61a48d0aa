/* The machine's CMOS clock, read once at boot: the wall-clock time the
 * VMs' read-only RTCs (hv/vm/vrtc.c) show, advanced by the TSC. */
#ifndef HV_HOST_RTC_H
#define HV_HOST_RTC_H

#include <stdint.h>

/* Reads the host RTC (ports 0x70/0x71) and says the date on the console.
 * Call once, after the TSC is calibrated. */
void host_rtc_init(void);
/* Seconds since 1970-01-01 UTC now (0-based if the host RTC read garbage:
 * then the VMs see 1970, and boot said so). The RTC is taken to be UTC, as
 * Linux and Bochs (`time0=local` on a UTC host) keep it. */
uint64_t host_rtc_now(void);

#endif
