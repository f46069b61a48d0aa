/* SSE accesses to emulated MMIO (a guest's memcpy on a GTT mmap of the
 * vGPU aperture, or on any trapped page): the exceptions the CPU would
 * raise first, and the guest's XMM registers on either side of the
 * access (mmio_emulate.c carries the access itself out).
 *
 * Guest vector state: the guest's x87/SSE state is live in the CPU for
 * its whole exit (the hypervisor is built without vector registers,
 * mk/efi.mk, and it leaves the CPU only at a change of VM,
 * cpu_state_switch.c), so the registers are read and written in place
 * with FXSAVE/FXRSTOR. Guests have no AVX state (exit_cpuid.c hides
 * XSAVE; CR4.OSXSAVE and XSETBV give #GP), so a VEX form gets the #UD the
 * CPU itself would raise; only XMM0-15 are ever transferred. */
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

/* The bytes a vector store writes, from the live XMM register. */
void mmio_vec_store_bytes(const struct mmio_insn *insn,
			  uint8_t out[INSN_VEC_BYTES]);

/* A vector load's bytes into the live XMM register, as the form says. */
void mmio_vec_complete_load(const struct mmio_insn *insn,
			    const uint8_t in[INSN_VEC_BYTES]);

#endif
