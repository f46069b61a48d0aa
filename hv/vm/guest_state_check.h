/* Guest-written CPU state checked the way the CPU checks it (SDM Vol. 3A
 * 2.5 for CR0/CR3/CR4, Vol. 4 for the MSRs, Vol. 3C 27.3.1 for what VM
 * entry refuses). Every value a guest writes that ends up in a VMCS field
 * (an exiting MOV to CR0/CR3/CR4, WRMSR to EFER, PAT, SYSENTER_*,
 * DEBUGCTL) goes through these first: an illegal value gives the guest the
 * #GP real hardware gives, so no guest input can make VM entry fail.
 *
 * Pure functions over plain numbers: no VMCS access (unit-tested on the
 * host, tests/unit/test_guest_state_check.c). */
#ifndef HV_VM_GUEST_STATE_CHECK_H
#define HV_VM_GUEST_STATE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What a check needs to know about the guest and the CPU under it. */
struct gsc_ctx {
	uint64_t cr0, cr4, efer;	/* the guest's current view */
	bool cs_l;			/* CS.L: the guest runs 64-bit code */
	unsigned maxphyaddr;		/* CPUID 0x80000008 EAX[7:0] */
	uint64_t cr4_allowed;		/* CR4 bits the guest may set */
};

/* DEBUGCTL bits a guest may set: BTF only. LBR, BTS and the freeze bits
 * would make the CPU record into MSRs/memory this hypervisor does not
 * switch between VMs, so they are refused like reserved bits. */
#define GSC_DEBUGCTL_BTF	(1ull << 1)
#define GSC_DEBUGCTL_ALLOWED	GSC_DEBUGCTL_BTF

/* EFER bits an Intel CPU defines: SCE, LME, LMA (read-only), NXE. */
#define GSC_EFER_SCE		(1ull << 0)
#define GSC_EFER_LME		(1ull << 8)
#define GSC_EFER_LMA		(1ull << 10)
#define GSC_EFER_NXE		(1ull << 11)

/* CR4 bits a guest of this hypervisor may ever set (intersected with what
 * the CPU allows under VMX). Not here: VMXE/SMXE (CPUID hides VMX/SMX),
 * OSXSAVE (XSAVE is hidden: no per-VM XCR0 switching), PKE (PKRU is not
 * switched), LA57 (4-level paging only), CET and the rest. */
#define GSC_CR4_GUEST_BITS	(0x1ull | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | \
				 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | \
				 0x800 | (1ull << 16) | (1ull << 17) | \
				 (1ull << 20) | (1ull << 21))

/* A result: NULL if the write is legal, else why the CPU refuses it (the
 * caller injects #GP and counts it). */
typedef const char *gsc_result;

bool gsc_canonical(uint64_t va);	/* 48-bit linear addresses */
bool gsc_pat_valid(uint64_t pat);	/* each type 0, 1, 4, 5, 6 or 7 */

/* WRMSR of one of the VMCS-backed MSRs. *val may be adjusted the way the
 * CPU stores it (EFER.LMA kept as it is). MSRs not checked here: NULL. */
gsc_result gsc_check_wrmsr(const struct gsc_ctx *c, uint32_t msr,
			   uint64_t *val);

/* MOV to CR0/CR3/CR4 with the new value. *val is adjusted as the CPU
 * stores it (CR0 bits 31:0 reserved bits ignored, CR3 bit 63 "no flush"
 * dropped with PCIDE). */
gsc_result gsc_check_cr0(const struct gsc_ctx *c, uint64_t *val);
gsc_result gsc_check_cr3(const struct gsc_ctx *c, uint64_t *val);
/* EFER after a legal MOV to CR0 of cr0 (checked by gsc_check_cr0): LMA
 * is LME and PG (SDM Vol. 3A 9.8.5: setting PG with LME activates IA-32e
 * mode, clearing it deactivates it). Only a guest under "unrestricted
 * guest" gets here with PG changing (hv/vm/guest_state_vmcs.c). */
uint64_t gsc_cr0_efer(const struct gsc_ctx *c, uint64_t cr0);
gsc_result gsc_check_cr4(const struct gsc_ctx *c, uint64_t *val);

/* The guest-state area as VM entry sees it (the subset guests influence).
 * gsc_entry_check names the first check of SDM 27.3.1 that fails, in the
 * words Bochs's log uses, or NULL. Used to explain a VM-entry failure that
 * happened anyway: that is a hypervisor bug, and the log must say which
 * check it was. */
struct gsc_entry_state {
	uint64_t cr0, cr3, cr4, dr7, rflags, efer, pat, debugctl;
	uint64_t sysenter_esp, sysenter_eip, fs_base, gs_base;
	uint64_t cr0_fixed0, cr0_fixed1, cr4_fixed0, cr4_fixed1;
	bool ia32e_mode_guest, load_efer, load_pat, load_debugctl;
	unsigned maxphyaddr;
};
gsc_result gsc_entry_check(const struct gsc_entry_state *s);

#endif
