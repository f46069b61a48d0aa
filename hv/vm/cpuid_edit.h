/* What a VM's CPUID says, as edits of the host's answer (pure: the caller
 * executes CPUID; host-tested by tests/unit/test_cpuid_edit.c). */
#ifndef HV_VM_CPUID_EDIT_H
#define HV_VM_CPUID_EDIT_H

#include <stdint.h>

#include "hv/cpu/x86.h"

/* Edit the host's answer *c to basic leaf `leaf`, subleaf `sub`, into what
 * the guest sees. Leaves 0, 0x15 and 0x16 are the caller's. */
void cpuid_edit_basic(uint32_t leaf, uint32_t sub, struct cpuid_regs *c);

#endif
