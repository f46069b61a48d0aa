/* Emulating the instruction behind an MMIO exit, on the running VM: the
 * decode (hv/vmx/insn_decode.h) checked against the exit, the exceptions
 * the CPU raises first, then the access through mmio_emul.h with this
 * VM's page walk (the VMCS's CR0/CR3/CR4, CPL, RFLAGS.AC), its EPT and
 * its device registry: every page part goes to RAM (vm_read_gpa /
 * vm_write_gpa, which tells a device that write-protected the page), to
 * the device that decodes it (in pieces of at most 8 bytes, mmio_piece),
 * or to the PC's unclaimed device window. Called by the EPT-violation
 * handler (exit_ept.c) for a trapped page.
 *
 * Outcomes: the access done and RIP advanced (or, for a string with
 * elements left, RIP kept so the guest re-executes it); an exception
 * injected (#UD/#NM/#GP before a vector access, #PF on a page the access
 * reaches beyond the exit's); or the VM stopped with its name, the
 * instruction's bytes and the reason, counted as VM_EV_MMIO_UNEMULATED. */
#ifndef HV_VM_MMIO_ACCESS_H
#define HV_VM_MMIO_ACCESS_H

#include <stdint.h>

#include "hv/vm/mmio.h"
#include "hv/vm/mmio_emul.h"
#include "hv/vm/vmexit.h"

/* reg names what the exit hit, for messages (the routing itself is by
 * address); gpa and qual are the exit's. */
enum exit_action mmio_emulate(struct vm *vm, const struct mmio_region *reg,
			      uint64_t gpa, uint64_t qual);

/* The ops mmio_emul.c works through; ctx is the struct vm *. */
extern const struct emul_ops mmio_vm_ops;

#endif
