/* The guest's general-purpose registers while the hypervisor handles an exit.
 *
 * The array index is the register number the architecture uses everywhere a
 * register is encoded: ModRM.reg/rm extended by REX, exit qualifications for
 * CR and DR accesses, the VM-exit instruction-information field (SDM Vol. 2
 * Table 2-2, Vol. 3C Table 28-3): 0 RAX, 1 RCX, 2 RDX, 3 RBX, 4 RSP, 5 RBP,
 * 6 RSI, 7 RDI, 8..15 R8..R15. Keeping that order means a decoded register
 * number indexes the array directly, with no translation table.
 *
 * VM exits do not save RSP here: the CPU keeps the guest's RSP in the VMCS
 * (VMCS_GUEST_RSP). The exit path must copy it into gpr[GPR_RSP] before a
 * handler that may read it runs, and write it back if a handler changed it.
 * The exit stub (assembly) relies on the offsets asserted below. */
#ifndef HV_VMX_GUEST_REGS_H
#define HV_VMX_GUEST_REGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum gpr_index {
	GPR_RAX = 0, GPR_RCX, GPR_RDX, GPR_RBX,
	GPR_RSP, GPR_RBP, GPR_RSI, GPR_RDI,
	GPR_R8, GPR_R9, GPR_R10, GPR_R11,
	GPR_R12, GPR_R13, GPR_R14, GPR_R15,
	GPR_COUNT,
	/* Legacy high-byte registers: only reachable with an 8-bit operand and
	 * no REX prefix, where register numbers 4..7 mean AH, CH, DH, BH, i.e.
	 * bits 15:8 of RAX, RCX, RDX, RBX. Numbered after the 16 GPRs so one
	 * small integer names any register operand. */
	GPR_AH = GPR_COUNT, GPR_CH, GPR_DH, GPR_BH,
	GPR_OPERAND_COUNT,
};

struct guest_regs {
	union {
		uint64_t gpr[GPR_COUNT];
		struct {
			uint64_t rax, rcx, rdx, rbx, rsp, rbp, rsi, rdi;
			uint64_t r8, r9, r10, r11, r12, r13, r14, r15;
		};
	};
};

_Static_assert(offsetof(struct guest_regs, rax) == 0, "asm stub layout");
_Static_assert(offsetof(struct guest_regs, rsp) == 4 * 8, "asm stub layout");
_Static_assert(offsetof(struct guest_regs, r15) == 15 * 8, "asm stub layout");
_Static_assert(sizeof(struct guest_regs) == 16 * 8, "asm stub layout");

/* Mask of the low `size` bytes; size is 1, 2, 4 or 8 (anything else is
 * treated as 8 so a bad size can never widen an access beyond 64 bits). */
static inline uint64_t gpr_size_mask(unsigned size)
{
	return size == 1 ? 0xffull : size == 2 ? 0xffffull :
	       size == 4 ? 0xffffffffull : ~0ull;
}

/* Value of register operand `reg` (enum gpr_index) truncated to `size`
 * bytes. Out-of-range register numbers read as 0. */
static inline uint64_t gpr_read(const struct guest_regs *regs, unsigned reg,
				unsigned size)
{
	if (reg >= GPR_OPERAND_COUNT)
		return 0;
	if (reg >= GPR_AH)
		return (regs->gpr[reg - GPR_AH] >> 8) & 0xff;
	return regs->gpr[reg] & gpr_size_mask(size);
}

/* Write `val` to register operand `reg` with x86 semantics (SDM Vol. 1
 * 3.4.1.1): a 32-bit write zero-extends into bits 63:32; 8- and 16-bit
 * writes change only their bytes; AH..BH change bits 15:8 only.
 * Out-of-range register numbers are ignored. */
static inline void gpr_write(struct guest_regs *regs, unsigned reg,
			     unsigned size, uint64_t val)
{
	uint64_t *r, mask;

	if (reg >= GPR_OPERAND_COUNT)
		return;
	if (reg >= GPR_AH) {
		r = &regs->gpr[reg - GPR_AH];
		*r = (*r & ~0xff00ull) | ((val & 0xff) << 8);
		return;
	}
	r = &regs->gpr[reg];
	if (size == 4) {
		*r = (uint32_t)val;
		return;
	}
	mask = gpr_size_mask(size);
	*r = (*r & ~mask) | (val & mask);
}

#endif
