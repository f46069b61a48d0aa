/* Power and reset of a VM, as its FADT describes them: the hardware-
 * reduced sleep control register (VACPI_SLEEP_CTL_PORT; SLP_TYP 5 with
 * SLP_EN = power off), its status register, and the reset register at
 * 0xCF9 (the PC's reset control port; the FADT names it too). */
#ifndef HV_VM_VPM_H
#define HV_VM_VPM_H

#include "hv/vm/mmio.h"

extern const struct pio_region vpm_sleep_pio;
extern const struct pio_region vpm_reset_pio;

#endif
