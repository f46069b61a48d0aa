/* A read-only MC146818 CMOS clock for every VM at ports 0x70/0x71: the
 * index register, then the data register reads the host's date (read once
 * at boot, hv/platform/host_rtc.c) in BCD, 24-hour mode, no update in progress
 * (hv/platform/rtc_time.c). Writes to the data port are dropped and counted: the
 * guest cannot set the clock or the NVRAM. */
#ifndef HV_VM_VRTC_H
#define HV_VM_VRTC_H

#include "hv/vm/mmio.h"

#define VRTC_BASE	0x70
#define VRTC_PORTS	2

extern const struct pio_region vrtc_pio;

#endif
