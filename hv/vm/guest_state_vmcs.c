/* Guest CR/MSR writes into the VMCS, checked first; see guest_state_vmcs.h. */
#include "hv/vm/guest_state_vmcs.h"
#include "hv/console/console.h"
#include "hv/hv.h"
#include "hv/vm/guest_state_check.h"
#include "hv/vm/vcpu.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "mini/stdio.h"

#define AR_L	(1u << 13)	/* CS access rights: 64-bit code */

/* The guest's own view of a CR: its bits where the mask gives them to it,
 * the read shadow where we own them. */
static uint64_t guest_view(uint32_t real, uint32_t shadow, uint32_t mask)
{
	uint64_t m = vmread(mask);

	return (vmread(real) & ~m) | (vmread(shadow) & m);
}

uint64_t guest_cr4_allowed(void)
{
	return vmx_cpu.caps.cr4_fixed1 & GSC_CR4_GUEST_BITS;
}

static void current_ctx(struct gsc_ctx *c)
{
	c->cr0 = guest_view(VMCS_GUEST_CR0, VMCS_CR0_READ_SHADOW,
			    VMCS_CR0_GUEST_HOST_MASK);
	c->cr4 = guest_view(VMCS_GUEST_CR4, VMCS_CR4_READ_SHADOW,
			    VMCS_CR4_GUEST_HOST_MASK);
	c->efer = vmread(VMCS_GUEST_IA32_EFER);
	c->cs_l = (vmread(VMCS_GUEST_CS_AR) & AR_L) != 0;
	c->maxphyaddr = hv_platform.paging.phys_bits;
	c->cr4_allowed = guest_cr4_allowed();
}

static int refuse(struct vm *vm, const char *what, uint64_t val,
		  gsc_result why)
{
	vm_event(vm, VM_EV_BAD_CPU_STATE, "%s <- %llx: %s: #GP injected", what,
		 (unsigned long long)val, why);
	vcpu_inject_exception(vm, EXC_GP, true, 0);
	return -1;
}

/* A CR0 write that moves PG under "unrestricted guest": EFER.LMA and the
 * "IA-32e mode guest" entry control follow PG with EFER.LME (SDM Vol. 3A
 * 9.8.5; VM entry wants the two equal, Vol. 3C 27.3.1.1), as the CPU
 * would set them had the write not exited. */
static void store_efer_lma(const struct gsc_ctx *c, uint64_t cr0)
{
	uint64_t efer = gsc_cr0_efer(c, cr0);
	uint32_t entry = (uint32_t)vmread(VMCS_ENTRY_CONTROLS);

	if (efer & GSC_EFER_LMA)
		entry |= ENTRY_CTL_IA32E_MODE_GUEST;
	else
		entry &= ~(uint32_t)ENTRY_CTL_IA32E_MODE_GUEST;
	vmwrite(VMCS_GUEST_IA32_EFER, efer);
	vmwrite(VMCS_ENTRY_CONTROLS, entry);
}

static void store_cr(const struct vcpu *vc, unsigned cr, uint64_t val)
{
	const struct vmx_caps *caps = &vmx_cpu.caps;

	if (cr == 0) {
		vmwrite(VMCS_GUEST_CR0,
			vmx_fix_guest_cr0(caps, val, vc->unrestricted));
		vmwrite(VMCS_CR0_READ_SHADOW, val);
	} else if (cr == 4) {
		vmwrite(VMCS_GUEST_CR4, vmx_fix_guest_cr4(caps, val));
		vmwrite(VMCS_CR4_READ_SHADOW, val);
	} else {
		vmwrite(VMCS_GUEST_CR3, val);
	}
}

/* CR0 values a vCPU cannot run, whichever the CPU allows: without
 * unrestricted guest, no paging or no protection; with it, PAE paging
 * outside long mode (VM entry would load the four PDPTEs from VMCS
 * fields this hypervisor does not fill). Stops the VM, saying so. */
static int cr0_unsupported(struct vm *vm, const struct gsc_ctx *c,
			   uint64_t v)
{
	bool pg_on = (v & CR0_PG) && !(c->cr0 & CR0_PG);

	if (!vm_vcpu(vm)->unrestricted && (!(v & CR0_PE) || !(v & CR0_PG))) {
		vm_stop(vm, "turned paging off (CR0 %llx): not supported "
			"without unrestricted guest", (unsigned long long)v);
		return -2;
	}
	if (pg_on && (c->cr4 & CR4_PAE) && !(c->efer & GSC_EFER_LME)) {
		vm_stop(vm, "vCPU %u turned on PAE paging outside long mode "
			"(CR0 %llx): not supported", vm_vcpu(vm)->idx,
			(unsigned long long)v);
		return -2;
	}
	return 0;
}

int guest_write_cr(struct vm *vm, unsigned cr, uint64_t val)
{
	static const char *const names[] = { "CR0", "CR1", "CR2", "CR3",
					     "CR4" };
	struct gsc_ctx c;
	uint64_t v = val;
	gsc_result why;

	if (cr == 8)	/* only called with bits 63:4 set */
		return refuse(vm, "CR8", val, "CR8: bits 63:4 set");
	if (cr != 0 && cr != 3 && cr != 4)
		return refuse(vm, "CR?", val, "no such control register");
	current_ctx(&c);
	if (!c.cs_l)	/* outside 64-bit code the operand is 32 bits */
		v = (uint32_t)v;
	why = cr == 0 ? gsc_check_cr0(&c, &v) :
	      cr == 3 ? gsc_check_cr3(&c, &v) : gsc_check_cr4(&c, &v);
	if (why)
		return refuse(vm, names[cr], val, why);
	if (cr == 0 && cr0_unsupported(vm, &c, v))
		return -2;
	if (cr == 0 && vm_vcpu(vm)->unrestricted && ((v ^ c.cr0) & CR0_PG))
		store_efer_lma(&c, v);
	store_cr(vm_vcpu(vm), cr, v);
	return 0;
}

int guest_write_vmcs_msr(struct vm *vm, uint32_t msr, uint32_t field,
			 uint64_t val)
{
	char what[24];
	struct gsc_ctx c;
	uint64_t v = val;
	gsc_result why;

	current_ctx(&c);
	why = gsc_check_wrmsr(&c, msr, &v);
	if (why) {
		snprintf(what, sizeof(what), "wrmsr %x", msr);
		return refuse(vm, what, val, why);
	}
	return vmwrite(field, v) ? refuse(vm, "wrmsr", val, "VMWRITE failed")
				 : 0;
}

void guest_entry_failure_explain(struct vm *vm)
{
	const struct vmx_caps *caps = &vmx_cpu.caps;
	uint32_t entry = (uint32_t)vmread(VMCS_ENTRY_CONTROLS);
	struct gsc_entry_state s = {
		.cr0 = vmread(VMCS_GUEST_CR0),
		.cr3 = vmread(VMCS_GUEST_CR3),
		.cr4 = vmread(VMCS_GUEST_CR4),
		.dr7 = vmread(VMCS_GUEST_DR7),
		.rflags = vmread(VMCS_GUEST_RFLAGS),
		.efer = vmread(VMCS_GUEST_IA32_EFER),
		.pat = vmread(VMCS_GUEST_IA32_PAT),
		.debugctl = vmread(VMCS_GUEST_IA32_DEBUGCTL),
		.sysenter_esp = vmread(VMCS_GUEST_IA32_SYSENTER_ESP),
		.sysenter_eip = vmread(VMCS_GUEST_IA32_SYSENTER_EIP),
		.fs_base = vmread(VMCS_GUEST_FS_BASE),
		.gs_base = vmread(VMCS_GUEST_GS_BASE),
		.cr0_fixed0 = caps->cr0_fixed0,
		.cr0_fixed1 = caps->cr0_fixed1,
		.cr4_fixed0 = caps->cr4_fixed0,
		.cr4_fixed1 = caps->cr4_fixed1,
		.ia32e_mode_guest = (entry & ENTRY_CTL_IA32E_MODE_GUEST) != 0,
		.load_efer = (entry & ENTRY_CTL_LOAD_IA32_EFER) != 0,
		.load_pat = (entry & ENTRY_CTL_LOAD_IA32_PAT) != 0,
		.load_debugctl = (entry & ENTRY_CTL_LOAD_DEBUG_CONTROLS) != 0,
		.maxphyaddr = hv_platform.paging.phys_bits,
	};
	gsc_result why = gsc_entry_check(&s);

	kprintf("vm '%s': VM-entry failure (a hypervisor bug: guest input is "
		"checked before it reaches the VMCS): %s\n", vm->name,
		why ? why : "no check of ours fails; Bochs's log names it");
}
