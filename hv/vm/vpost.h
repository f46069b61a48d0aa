/* The POST-code port 0x80 (writes dropped, reads all ones). */
#ifndef HV_VM_VPOST_H
#define HV_VM_VPOST_H

#include "hv/vm/mmio.h"

extern const struct pio_region vpost_pio;

#endif
