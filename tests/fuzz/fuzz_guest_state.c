/* libFuzzer target for hv/vm/guest_state_check.c: the promise of issue 19
 * that no guest input can make VM entry fail.
 *
 * Input: byte 0 picks the CPU (MAXPHYADDR, which CR4 bits VMX allows);
 * then records of 9 bytes, an operation (MOV to CR0/CR3/CR4, WRMSR to one
 * of the VMCS-backed MSRs) and a 64-bit value. Each write goes through the
 * check the exit handlers use; an accepted one is stored the way
 * guest_state_vmcs.c stores it (fixed bits forced, LMA kept). After every
 * step the VMCS guest state must pass gsc_entry_check, the model of SDM
 * 27.3.1's checks: an accepted value that would fail VM entry aborts. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/vm/guest_state_check.h"
#include "hv/vmx/vmx_caps.h"
#include "hv/vmx/vmx_defs.h"

struct model {
	struct vmx_caps caps;
	struct gsc_entry_state vmcs;	/* what VM entry checks */
	struct gsc_ctx ctx;		/* what the guest sees */
};

static const uint32_t msrs[] = {
	MSR_IA32_EFER, MSR_IA32_PAT, MSR_IA32_SYSENTER_CS,
	MSR_IA32_SYSENTER_ESP, MSR_IA32_SYSENTER_EIP, MSR_IA32_DEBUGCTL,
};

static void boot(struct model *m, uint8_t cpu)
{
	static const uint64_t cr4_fixed1[] = { 0x3727ffull, 0x1727ffull,
					       0x7fffffull, 0x2627ffull };

	memset(m, 0, sizeof(*m));
	m->caps.cr0_fixed0 = CR0_PE | CR0_NE | CR0_PG;
	m->caps.cr0_fixed1 = cpu & 4 ? 0xe005003full : 0xffffffffull;
	m->caps.cr4_fixed0 = CR4_VMXE;
	m->caps.cr4_fixed1 = cr4_fixed1[cpu & 3];
	m->ctx = (struct gsc_ctx){
		.cr0 = CR0_PE | CR0_ET | CR0_NE | CR0_PG, .cr4 = CR4_PAE,
		.efer = GSC_EFER_LME | GSC_EFER_LMA, .cs_l = true,
		.maxphyaddr = 36 + (cpu >> 3) % 17,
		.cr4_allowed = m->caps.cr4_fixed1 & GSC_CR4_GUEST_BITS,
	};
	m->vmcs = (struct gsc_entry_state){
		.cr0 = vmx_fix_guest_cr0(&m->caps, m->ctx.cr0, false),
		.cr3 = 0x1000,
		.cr4 = vmx_fix_guest_cr4(&m->caps, m->ctx.cr4),
		.dr7 = 0x400, .rflags = 2, .efer = m->ctx.efer,
		.pat = 0x0007040600070406ull,
		.cr0_fixed0 = m->caps.cr0_fixed0,
		.cr0_fixed1 = m->caps.cr0_fixed1,
		.cr4_fixed0 = m->caps.cr4_fixed0,
		.cr4_fixed1 = m->caps.cr4_fixed1,
		.ia32e_mode_guest = true, .load_efer = true, .load_pat = true,
		.load_debugctl = true, .maxphyaddr = m->ctx.maxphyaddr,
	};
}

static void store_msr(struct model *m, uint32_t msr, uint64_t v)
{
	switch (msr) {
	case MSR_IA32_EFER: m->vmcs.efer = m->ctx.efer = v; break;
	case MSR_IA32_PAT: m->vmcs.pat = v; break;
	case MSR_IA32_SYSENTER_ESP: m->vmcs.sysenter_esp = v; break;
	case MSR_IA32_SYSENTER_EIP: m->vmcs.sysenter_eip = v; break;
	case MSR_IA32_DEBUGCTL: m->vmcs.debugctl = v; break;
	default: break;		/* SYSENTER_CS: a 32-bit field, unchecked */
	}
}

static void step(struct model *m, uint8_t op, uint64_t v)
{
	unsigned kind = op % 9;

	if (kind == 0 && !gsc_check_cr0(&m->ctx, &v)) {
		if (!(v & CR0_PE) || !(v & CR0_PG))
			return;		/* the VM is stopped instead */
		m->ctx.cr0 = v;
		m->vmcs.cr0 = vmx_fix_guest_cr0(&m->caps, v, false);
	} else if (kind == 1 && !gsc_check_cr3(&m->ctx, &v)) {
		m->vmcs.cr3 = v;
	} else if (kind == 2 && !gsc_check_cr4(&m->ctx, &v)) {
		m->ctx.cr4 = v;
		m->vmcs.cr4 = vmx_fix_guest_cr4(&m->caps, v);
	} else if (kind >= 3 && !gsc_check_wrmsr(&m->ctx, msrs[kind - 3],
						 &v)) {
		store_msr(m, msrs[kind - 3], v);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model m;

	if (size < 1)
		return 0;
	boot(&m, data[0]);
	if (gsc_entry_check(&m.vmcs))
		abort();	/* the boot state itself must be valid */
	for (size_t i = 1; i + 9 <= size; i += 9) {
		uint64_t v;

		memcpy(&v, data + i + 1, 8);
		step(&m, data[i], v);
		if (gsc_entry_check(&m.vmcs))
			abort();
	}
	return 0;
}
