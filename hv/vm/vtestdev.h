/* The test device page (register map in g9hv/hypercall.h). */
#ifndef HV_VM_VTESTDEV_H
#define HV_VM_VTESTDEV_H

#include "hv/vm/mmio.h"

extern const struct mmio_region vtestdev_mmio;

#endif
