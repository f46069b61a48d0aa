/* Platform MSRs a stock Linux kernel touches at boot, beyond the ones
 * hv/vm/exit_msr.c keeps in the VMCS or the vLAPIC, and the names of MSRs
 * for the "refused" log. */
#ifndef HV_VM_MSR_PLATFORM_H
#define HV_VM_MSR_PLATFORM_H

#include <stdbool.h>
#include <stdint.h>

struct vm;

/* 0 and *val, or -1: not one of ours (the caller injects #GP). */
int msr_platform_read(struct vm *vm, uint32_t msr, uint64_t *val);
/* 0 (accepted), or -1: not ours, or a value it refuses. */
int msr_platform_write(struct vm *vm, uint32_t msr, uint64_t val);

/* "IA32_BIOS_SIGN_ID", ..., or NULL for an MSR we have no name for. */
const char *msr_name(uint32_t msr);

/* True the first time this VM is refused this MSR (log it then; later
 * refusals are only counted). */
bool msr_first_refusal(struct vm *vm, uint32_t msr);

#endif
