/* Printable names for VM-exit reasons and VM-instruction errors, for the
 * console, the exit counters the shell prints, and VM-entry failure dumps. */
#ifndef HV_VMX_EXIT_REASON_H
#define HV_VMX_EXIT_REASON_H

#include <stdint.h>

/* Name of a basic exit reason (SDM Appendix C), e.g. "EPT_VIOLATION".
 * Only bits 15:0 are used, so the raw exit-reason field may be passed (the
 * entry-failure and other flag bits are ignored; see EXIT_REASON_* flags in
 * vmx_defs.h). Unassigned numbers give "UNKNOWN". */
const char *vmx_exit_reason_name(uint32_t basic);

/* Description of a VM-instruction error number (SDM 31.4), e.g.
 * "VMLAUNCH with non-clear VMCS". 0, reserved and unknown numbers give
 * "UNKNOWN". */
const char *vmx_insn_error_name(uint32_t err);

#endif
