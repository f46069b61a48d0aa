/* The hypervisor's x86 wrappers: those it shares with the test guest
 * (port I/O, MSRs, CPUID, the TSC: libc-mini/include/mini/x86.h), control
 * registers, and the MSR and CPUID bits it checks at start-up. Names follow
 * the SDM mnemonics. */
#ifndef HV_X86_H
#define HV_X86_H

#include <stdint.h>

#include "mini/x86.h"

#define DEFINE_READ_CR(n)                                                      \
	static inline uint64_t read_cr##n(void)                                \
	{                                                                      \
		uint64_t v;                                                    \
		__asm__ volatile("mov %%cr" #n ", %0" : "=r"(v));              \
		return v;                                                      \
	}
DEFINE_READ_CR(0)
DEFINE_READ_CR(2)
DEFINE_READ_CR(3)
DEFINE_READ_CR(4)
#undef DEFINE_READ_CR

static inline void write_cr3(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory");
}

static inline void write_cr4(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory");
}

#define MSR_IA32_FEATURE_CONTROL 0x3a
#define FEATURE_CONTROL_LOCKED (1ull << 0)
#define FEATURE_CONTROL_VMXON_IN_SMX (1ull << 1)
#define FEATURE_CONTROL_VMXON_OUTSIDE_SMX (1ull << 2)

#endif
