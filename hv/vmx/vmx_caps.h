/* VMX capabilities: from the capability MSRs (SDM Appendix A) to VMCS
 * control values, CR0/CR4 values that VMX accepts, and a readable summary.
 *
 * Nothing here executes RDMSR: vmx_caps_read() takes the reader as a
 * callback (the machine passes one around the rdmsr instruction, host tests
 * pass a table), so every rule is testable on the build machine. Control
 * values are never hard-coded: the caller says which bits it needs and which
 * it would like, and vmx_adjust_ctls() adds what the CPU requires. */
#ifndef HV_VMX_VMX_CAPS_H
#define HV_VMX_VMX_CAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The five VMCS control fields that have a capability MSR. */
enum vmx_ctls {
	VMX_CTLS_PINBASED,
	VMX_CTLS_PROCBASED,
	VMX_CTLS_PROCBASED2,
	VMX_CTLS_EXIT,
	VMX_CTLS_ENTRY,
	VMX_CTLS_COUNT,
};

/* IA32_VMX_BASIC, decoded (SDM A.1). */
struct vmx_basic {
	uint32_t revision;	/* goes in the first dword of VMXON/VMCS */
	uint32_t region_size;	/* bytes of a VMXON region / VMCS, <= 4096 */
	uint8_t memtype;	/* MEMTYPE_WB on every current CPU */
	bool pa_32bit;		/* region addresses limited to 4 GiB */
	bool dual_monitor;
	bool ins_outs_info;	/* exit instruction info for INS/OUTS */
	bool true_ctls;		/* IA32_VMX_TRUE_*_CTLS exist (bit 55) */
	bool no_errcode_req;	/* may inject HW exceptions w/o error code */
};

/* IA32_VMX_EPT_VPID_CAP, decoded (SDM A.10). */
struct vmx_ept_vpid {
	bool exec_only;		/* X without R allowed in EPT entries */
	bool walk_4, walk_5;	/* page-walk lengths */
	bool memtype_uc, memtype_wb;	/* for the EPT paging structures */
	bool page_2m, page_1g;
	bool invept, invept_single, invept_all;
	bool ad;		/* accessed/dirty flags */
	bool adv_exit_info;
	bool invvpid, invvpid_addr, invvpid_single, invvpid_all;
	bool invvpid_single_globals;
};

struct vmx_caps {
	/* Raw MSR values. ctls[] holds, for each control field, the MSR
	 * that governs it: the TRUE_* variant when IA32_VMX_BASIC bit 55 is
	 * set (its allowed-0 half lets some "default1" bits be cleared),
	 * else the plain one; 0 (nothing allowed) for PROCBASED2 when the
	 * CPU has no secondary controls. */
	uint64_t basic_msr;
	uint64_t misc_msr;
	uint64_t ctls[VMX_CTLS_COUNT];
	uint64_t cr0_fixed0, cr0_fixed1, cr4_fixed0, cr4_fixed1;
	uint64_t ept_vpid_msr;	/* 0 when neither EPT nor VPID exists */

	struct vmx_basic basic;
	struct vmx_ept_vpid ept;
	/* From the allowed-1 halves of the control MSRs. */
	bool has_ept, has_vpid, has_unrestricted_guest, has_preemption_timer;
	bool has_ple;		/* PAUSE-loop exiting (secondary bit 10) */
};

/* Reads one MSR. Called only for MSRs that exist on this CPU. */
typedef uint64_t (*vmx_rdmsr_fn)(void *ctx, uint32_t msr);

/* Read and decode every VMX capability MSR, in an order that never touches
 * an MSR the CPU does not have (PROCBASED_CTLS2 only if the primary controls
 * allow "activate secondary controls"; EPT_VPID_CAP only if EPT or VPID can
 * be enabled; TRUE_* only if IA32_VMX_BASIC says they exist). Returns 0, or
 * -HV_ENOTSUP if the CPU's VMX needs something we do not provide: VMXON/VMCS
 * regions larger than one page, regions below 4 GiB, or non-WB access to
 * them. The struct is filled in either case. */
int vmx_caps_read(struct vmx_caps *caps, vmx_rdmsr_fn rdmsr, void *ctx);

/* Which MSR governs a control field: the TRUE_* one if `basic_msr` has bit
 * 55, else the plain one (PROCBASED2 has no TRUE variant). */
uint32_t vmx_ctls_msr_index(enum vmx_ctls which, uint64_t basic_msr);

/* Compute a control value from its capability MSR (SDM A.3-A.5 and
 * "Algorithms for Determining VMX Capabilities"):
 * bits 31:0 are the allowed-0 settings (a 1 there means the control must be
 * 1), bits 63:32 the allowed-1 settings (a 0 there means it must be 0).
 * *out = want | must-be-1 | (optional & may-be-1). Returns 0;
 * -HV_ENOTSUP if a bit of `want` may not be 1 (then *out holds those bits,
 * for the log); -HV_EINVAL if the MSR requires a bit it does not allow. */
int vmx_adjust_ctls(uint64_t cap_msr, uint32_t want, uint32_t optional,
		    uint32_t *out);

/* Same, for one of the fields in `caps`. */
int vmx_caps_adjust(const struct vmx_caps *caps, enum vmx_ctls which,
		    uint32_t want, uint32_t optional, uint32_t *out);

/* CR0/CR4 in VMX operation (SDM A.7, A.8): bits set in FIXED0 must be 1,
 * bits clear in FIXED1 must be 0. vmx_fix_cr() forces a value to comply. */
uint64_t vmx_fix_cr(uint64_t val, uint64_t fixed0, uint64_t fixed1);
bool vmx_cr_valid(uint64_t val, uint64_t fixed0, uint64_t fixed1);

/* Guest CR0: as vmx_fix_cr(), except that with the "unrestricted guest"
 * control PE and PG may be 0 (SDM 27.3.1.1), which is what lets a guest run
 * real mode or unpaged protected mode directly. */
uint64_t vmx_fix_guest_cr0(const struct vmx_caps *caps, uint64_t cr0,
			   bool unrestricted_guest);
uint64_t vmx_fix_guest_cr4(const struct vmx_caps *caps, uint64_t cr4);

/* Bits of CR0 (CR4) whose value VMX dictates: set in FIXED0 or clear in
 * FIXED1 (minus PE/PG for CR0 with unrestricted guest). These belong in the
 * CR0 (CR4) guest/host mask so the guest reads its own value from the read
 * shadow and its writes to them exit. */
uint64_t vmx_guest_cr0_fixed_bits(const struct vmx_caps *caps,
				  bool unrestricted_guest);
uint64_t vmx_guest_cr4_fixed_bits(const struct vmx_caps *caps);

/* Whether two CPUs report the same VMX capability MSRs: then a VMCS whose
 * controls were computed on one (hv/vmx/vmx.c, on the BSP) is valid on the
 * other, and one VMCS revision serves both (docs/smp.md). */
bool vmx_caps_same(const struct vmx_caps *a, const struct vmx_caps *b);

/* Whether VPIDs can be used: the "enable VPID" control may be 1 and
 * INVVPID exists with a single-context or an all-context type (what
 * vcpu.c flushes a vCPU's VPID with when its mappings must go). `want` is
 * the hv.cfg switch (vmx_vpid=): false keeps the path without VPID, where
 * every VM entry and exit flushes the guest's linear and combined
 * mappings (SDM 28.3.3.1). */
bool vmx_vpid_usable(const struct vmx_caps *caps, bool want);

/* APIC virtualization for a guest's xAPIC page (SDM 29): the secondary
 * controls to add, or 0 when it cannot be used. It needs "use TPR shadow"
 * (primary) and "virtualize APIC accesses" (secondary); "APIC-register
 * virtualization" is added when offered (then most register reads and
 * writes of the page do not need the instruction decoded). Virtual-
 * interrupt delivery is vmx_vid_proc2's, on top of this. `want` is
 * hv.cfg's vmx_apicv=: false keeps the
 * path where every access to the page is an EPT violation. */
uint32_t vmx_apicv_proc2(const struct vmx_caps *caps, bool want);

/* Virtual-interrupt delivery on top of that (SDM 29.2): the secondary
 * control to add (PROC_CTL2_VIRTUAL_INTR_DELIVERY), or 0 when `want`
 * (hv.cfg's vmx_vid=) is false, APIC virtualization is off (`apicv_proc2`
 * without "virtualize APIC accesses") or the CPU cannot set it or the
 * external-interrupt exiting it requires. */
uint32_t vmx_vid_proc2(const struct vmx_caps *caps, uint32_t apicv_proc2,
		       bool want);

void vmx_decode_basic(uint64_t msr, struct vmx_basic *out);
void vmx_decode_ept_vpid(uint64_t msr, struct vmx_ept_vpid *out);

/* One line for the boot log, e.g.
 * "VMX rev 0x2b VMCS 4096B WB true-ctls | EPT 4-level WB 2M 1G A/D ... ".
 * Returns the length of the full line (snprintf convention: >= size means
 * it was truncated), or -HV_EINVAL for a NULL buffer with size > 0. */
int vmx_caps_summary(const struct vmx_caps *caps, char *buf, size_t size);

#endif
