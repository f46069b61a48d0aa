/* See vrtc.h. */
#include "hv/vm/vrtc.h"
#include "hv/platform/host_rtc.h"
#include "hv/platform/rtc_time.h"
#include "hv/vm/vm.h"

#define INDEX_NMI_OFF	0x80	/* bit 7 of port 0x70 on a PC: not ours */

static void vrtc_io(struct vm *vm, uint16_t port, unsigned size, bool in,
		    uint32_t *val)
{
	struct rtc_date d;

	(void)size;
	if (port == VRTC_BASE) {
		if (in)
			*val = vm->rtc_index;
		else
			vm->rtc_index = (uint8_t)(*val & ~INDEX_NMI_OFF);
		return;
	}
	if (!in) {
		vm->rtc_writes++;	/* read-only clock */
		return;
	}
	rtc_from_unix(host_rtc_now(), &d);
	*val = rtc_reg_read(&d, vm->rtc_index);
}

const struct pio_region vrtc_pio = {
	"CMOS RTC", VRTC_BASE, VRTC_PORTS, vrtc_io,
};
