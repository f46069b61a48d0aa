/* What a VM's CPUID says, as edits of the host's answer (pure: the caller
 * executes CPUID; host-tested by tests/unit/test_cpuid_edit.c). */
#ifndef HV_VM_CPUID_EDIT_H
#define HV_VM_CPUID_EDIT_H

#include <stdint.h>

#include "hv/cpu/x86.h"

/* Edit the host's answer *c to basic leaf `leaf`, subleaf `sub`, into what
 * the guest sees. Leaves 0, 0x15 and 0x16 are the caller's. */
void cpuid_edit_basic(uint32_t leaf, uint32_t sub, struct cpuid_regs *c);

/* Then the topology of the asking vCPU's VM (after cpuid_edit_basic): its
 * APIC ID (the vCPU's index) in leaf 1 EBX[31:24] and leaf 0xB/0x1F EDX,
 * nr_cpus (1..8, hv.cfg vcpus=) logical processors in one package, one
 * thread per core: leaf 1 EBX[23:16] and HTT, leaf 4 EAX[31:26], and leaf
 * 0xB/0x1F's thread and core levels. What the MADT lists (vacpi.c) and
 * each vLAPIC's ID agree with it. */
void cpuid_edit_topology(uint32_t leaf, uint32_t sub, unsigned apic_id,
			 unsigned nr_cpus, struct cpuid_regs *c);

#endif
