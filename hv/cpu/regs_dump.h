/* Printing general-purpose registers, the same way for a hypervisor
 * exception and for a guest (the shell's `vm N regs`, a stopped VM). */
#ifndef HV_REGS_DUMP_H
#define HV_REGS_DUMP_H

#include <stdint.h>

/* gpr[] in the hardware's encoding order: rax rcx rdx rbx rsp rbp rsi rdi
 * r8..r15 (struct guest_regs's layout). Four lines on the console. */
void print_gprs(const uint64_t gpr[16]);

#endif
