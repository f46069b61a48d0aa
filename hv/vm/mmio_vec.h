/* SSE accesses to emulated MMIO (a guest's memcpy on a GTT mmap of the
 * vGPU aperture, or on any trapped page): the exceptions the CPU would
 * raise first, then the access itself in device-sized pieces with the
 * guest's XMM register. Called by the EPT-violation handler (exit_ept.c)
 * once the decode agrees with the exit. */
#ifndef HV_VM_MMIO_VEC_H
#define HV_VM_MMIO_VEC_H

#include <stdbool.h>
#include <stdint.h>

#include "hv/vm/mmio.h"
#include "hv/vmx/insn_decode.h"

/* If the CPU would have faulted on this instruction before its access
 * (#UD, #NM, #GP(0) for a misaligned MOVAPS-class form at linear address
 * lin), inject that fault, count it, and return true: the guest's
 * handler runs, RIP stays. */
bool mmio_vec_fault(struct vm *vm, const struct mmio_insn *insn,
		    uint64_t lin);

/* The access, at gpa in reg (the caller checked it does not cross a page
 * or the region's end): a store sends the register's bytes, a load fills
 * the register as the instruction says. */
void mmio_vec_access(struct vm *vm, const struct mmio_region *reg,
		     uint64_t gpa, const struct mmio_insn *insn);

#endif
