/* The VMX instructions as C calls (SDM Vol. 3C chapter 31), in the style of
 * hv/cpu/x86.h: one tiny inline per instruction, no logic.
 *
 * VMX instructions report failure in RFLAGS (SDM 31.2): CF=1 is
 * VMfailInvalid (no current VMCS, or a bad pointer), ZF=1 is VMfailValid
 * (the reason is in VMCS_VM_INSTRUCTION_ERROR). The wrappers return 0 on
 * success, VMX_FAIL_INVALID or VMX_FAIL_VALID otherwise. VMLAUNCH and
 * VMRESUME are not here: they live in vmx_entry.asm, which must own every
 * register across the switch. */
#ifndef HV_VMX_VMX_INSN_H
#define HV_VMX_VMX_INSN_H

#include <stdint.h>

#define VMX_FAIL_INVALID 1
#define VMX_FAIL_VALID 2

/* setbe catches CF|ZF; the two are told apart by a second flag read. */
#define VMX_CHECK_FLAGS(insn, ...)                                             \
	({                                                                     \
		uint8_t cf_, zf_;                                              \
		__asm__ volatile(insn "; setc %0; setz %1"                     \
				 : "=qm"(cf_), "=qm"(zf_)                      \
				 : __VA_ARGS__                                 \
				 : "cc", "memory");                            \
		cf_ ? VMX_FAIL_INVALID : zf_ ? VMX_FAIL_VALID : 0;             \
	})

static inline int vmxon(uint64_t region_pa)
{
	return VMX_CHECK_FLAGS("vmxon %2", "m"(region_pa));
}

static inline int vmclear(uint64_t vmcs_pa)
{
	return VMX_CHECK_FLAGS("vmclear %2", "m"(vmcs_pa));
}

static inline int vmptrld(uint64_t vmcs_pa)
{
	return VMX_CHECK_FLAGS("vmptrld %2", "m"(vmcs_pa));
}

static inline int vmwrite(uint32_t field, uint64_t value)
{
	return VMX_CHECK_FLAGS("vmwrite %3, %2", "r"((uint64_t)field),
			       "rm"(value));
}

/* A field we asked for exists (we only read fields of the SDM's base set),
 * so a failure here is a hypervisor bug: it reads as 0. */
static inline uint64_t vmread(uint32_t field)
{
	uint64_t v = 0;

	__asm__ volatile("vmread %1, %0"
			 : "=rm"(v)
			 : "r"((uint64_t)field)
			 : "cc");
	return v;
}

struct invept_desc {
	uint64_t eptp;
	uint64_t reserved;
};

static inline int invept(uint64_t type, uint64_t eptp)
{
	struct invept_desc d = { eptp, 0 };

	return VMX_CHECK_FLAGS("invept %2, %3", "m"(d), "r"(type));
}

struct invvpid_desc {
	uint64_t vpid;		/* bits 15:0; the rest must be 0 */
	uint64_t linear_addr;
};

static inline int invvpid(uint64_t type, uint16_t vpid)
{
	struct invvpid_desc d = { vpid, 0 };

	return VMX_CHECK_FLAGS("invvpid %2, %3", "m"(d), "r"(type));
}

#endif
