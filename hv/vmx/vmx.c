/* VMX bring-up (SDM Vol. 3C 24.7-24.8) and the controls every VMCS uses. */
#include "hv/vmx/vmx.h"
#include "hv/console/console.h"
#include "hv/cpu/percpu.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/vmx/exit_reason.h"
#include "hv/vmx/vmx_defs.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/x86.h"
#include "mini/string.h"

struct vmx_cpu vmx_cpu;

static uint64_t rdmsr_cb(void *ctx, uint32_t msr)
{
	(void)ctx;
	return rdmsr(msr);
}

static inline void write_cr0(uint64_t v)
{
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

/* Firmware may leave IA32_FEATURE_CONTROL unlocked (OVMF does). VMXON
 * needs it locked with "VMX outside SMX" on; once locked it stays so
 * until reset, which is what the firmware would have done. The MSR is
 * per logical CPU: each AP goes through this too (vmx_ap_enable). 0;
 * -HV_ENOTSUP when locked with VMX off; 1 when we locked it. */
static int feature_control_lock(void)
{
	uint64_t fc = rdmsr(MSR_IA32_FEATURE_CONTROL);

	if (fc & FEATURE_CONTROL_LOCKED)
		return (fc & FEATURE_CONTROL_VMXON_OUTSIDE_SMX) ? 0
								: -HV_ENOTSUP;
	wrmsr(MSR_IA32_FEATURE_CONTROL,
	      fc | FEATURE_CONTROL_VMXON_OUTSIDE_SMX | FEATURE_CONTROL_LOCKED);
	return 1;
}

static int enable_feature_control(void)
{
	int r = feature_control_lock();

	if (r < 0) {
		pr_err("vmx", "IA32_FEATURE_CONTROL is locked with VMX "
		       "off: enable VT-x in the firmware setup");
		return r;
	}
	if (r)
		pr_info("vmx", "IA32_FEATURE_CONTROL was unlocked: VMX enabled "
			"and locked (%llx)",
			(unsigned long long)rdmsr(MSR_IA32_FEATURE_CONTROL));
	return 0;
}

/* CR0/CR4 must satisfy the fixed bits in VMX operation (SDM 24.8): in
 * practice CR0.NE and CR4.VMXE. */
static void fix_crs(const struct vmx_caps *c)
{
	write_cr0(vmx_fix_cr(read_cr0(), c->cr0_fixed0, c->cr0_fixed1));
	write_cr4(vmx_fix_cr(read_cr4() | CR4_VMXE, c->cr4_fixed0,
			     c->cr4_fixed1));
}

/* One control field: what we need, what we would like; the CPU's
 * capability MSR adds what it requires. */
static int adjust(enum vmx_ctls which, const char *name, uint32_t want,
		  uint32_t optional, uint32_t *out)
{
	int err = vmx_caps_adjust(&vmx_cpu.caps, which, want, optional, out);

	if (err)
		pr_err("vmx", "%s controls: CPU cannot provide bits %08x", name,
		       *out);
	return err;
}

static int compute_controls(void)
{
	struct vmx_cpu *v = &vmx_cpu;
	int err = 0;

	/* External interrupts and NMIs belong to the hypervisor; the
	 * preemption timer ends time slices. */
	err |= adjust(VMX_CTLS_PINBASED, "pin-based",
		      PIN_CTL_EXTERNAL_INTERRUPT_EXITING | PIN_CTL_NMI_EXITING |
		      PIN_CTL_PREEMPTION_TIMER, 0, &v->pin_ctls);
	/* Every port and MSR exits unless a bitmap bit says otherwise; HLT
	 * gives the CPU away; MONITOR/MWAIT would let a guest sleep on
	 * memory we do not watch; CR8 is the TPR of the guest's virtual APIC,
	 * not of ours. Interrupt-window exiting is only checked here and set
	 * per entry. */
	err |= adjust(VMX_CTLS_PROCBASED, "processor-based",
		      PROC_CTL_HLT_EXITING | PROC_CTL_USE_IO_BITMAPS |
		      PROC_CTL_USE_MSR_BITMAPS | PROC_CTL_ACTIVATE_SECONDARY |
		      PROC_CTL_MWAIT_EXITING | PROC_CTL_MONITOR_EXITING |
		      PROC_CTL_CR8_LOAD_EXITING | PROC_CTL_CR8_STORE_EXITING |
		      PROC_CTL_INTERRUPT_WINDOW_EXITING, 0, &v->proc_ctls);
	v->proc_ctls &= ~PROC_CTL_INTERRUPT_WINDOW_EXITING;
	err |= adjust(VMX_CTLS_PROCBASED2, "secondary", PROC_CTL2_ENABLE_EPT,
		      PROC_CTL2_ENABLE_RDTSCP | PROC_CTL2_ENABLE_INVPCID,
		      &v->proc2_ctls);
	/* 64-bit host; EFER, PAT, DR7 and DEBUGCTL switched by the CPU on
	 * both edges (a guest's DR7/DEBUGCTL must not outlive its VM);
	 * "acknowledge interrupt on exit" so a host interrupt taken during
	 * a guest is consumed with the exit instead of pending forever (our
	 * IF stays 0). */
	err |= adjust(VMX_CTLS_EXIT, "VM-exit",
		      EXIT_CTL_HOST_ADDR_SPACE_SIZE | EXIT_CTL_LOAD_IA32_EFER |
		      EXIT_CTL_SAVE_IA32_EFER | EXIT_CTL_LOAD_IA32_PAT |
		      EXIT_CTL_SAVE_IA32_PAT | EXIT_CTL_ACK_INTERRUPT_ON_EXIT |
		      EXIT_CTL_SAVE_DEBUG_CONTROLS, 0, &v->exit_ctls);
	err |= adjust(VMX_CTLS_ENTRY, "VM-entry",
		      ENTRY_CTL_IA32E_MODE_GUEST | ENTRY_CTL_LOAD_IA32_EFER |
		      ENTRY_CTL_LOAD_IA32_PAT | ENTRY_CTL_LOAD_DEBUG_CONTROLS,
		      0, &v->entry_ctls);
	return err ? -HV_ENOTSUP : 0;
}

static int check_ept_caps(void)
{
	const struct vmx_ept_vpid *e = &vmx_cpu.caps.ept;

	if (!vmx_cpu.caps.has_ept || !e->walk_4 || !e->memtype_wb ||
	    !e->page_2m || !e->invept ||
	    !(e->invept_single || e->invept_all)) {
		pr_err("vmx", "EPT lacks what we use (4-level walk, WB, 2 MiB "
		       "pages, INVEPT)");
		return -HV_ENOTSUP;
	}
	if (!vmx_cpu.caps.has_preemption_timer) {
		pr_err("vmx", "no VMX-preemption timer: cannot time-slice");
		return -HV_ENOTSUP;
	}
	return 0;
}

int vmx_enable(void)
{
	struct vmx_cpu *v = &vmx_cpu;
	char line[256];
	uint64_t *region;
	int err;

	if (v->on)
		return 0;
	err = enable_feature_control();
	if (err)
		return err;
	err = vmx_caps_read(&v->caps, rdmsr_cb, NULL);
	vmx_caps_summary(&v->caps, line, sizeof(line));
	pr_info("vmx", "%s", line);
	if (err) {
		pr_err("vmx", "unsupported VMX flavour (regions > 4 KiB, "
		       "32-bit or non-WB)");
		return err;
	}
	err = check_ept_caps();
	if (!err)
		err = compute_controls();
	if (err)
		return err;
	v->preempt_shift = (unsigned)(v->caps.misc_msr &
				      VMX_MISC_PREEMPT_TIMER_RATE_MASK);

	fix_crs(&v->caps);

	region = page_alloc();
	if (!region)
		return -HV_ENOMEM;
	*(uint32_t *)region = v->caps.basic.revision;
	if (vmxon(hv_pa(region))) {
		pr_err("vmx", "VMXON failed (CR0 %llx CR4 %llx)",
		       (unsigned long long)read_cr0(),
		       (unsigned long long)read_cr4());
		page_free(region);
		return -HV_EIO;
	}
	v->vmxon_region = region;
	v->on = true;
	pr_info("vmx", "VMX on: pin %08x proc %08x proc2 %08x exit %08x "
		"entry %08x, preemption timer TSC>>%u", v->pin_ctls,
		v->proc_ctls, v->proc2_ctls, v->exit_ctls, v->entry_ctls,
		v->preempt_shift);
	return 0;
}

int vmx_ap_enable(void *region)
{
	struct vmx_caps caps;

	if (!vmx_cpu.on)
		return VMX_AP_BSP_OFF;
	if (feature_control_lock() < 0)
		return VMX_AP_FW_DISABLED;
	memset(&caps, 0, sizeof(caps));
	vmx_caps_read(&caps, rdmsr_cb, NULL);
	if (!vmx_caps_same(&caps, &vmx_cpu.caps))
		return VMX_AP_CAPS_DIFFER;
	fix_crs(&caps);
	*(uint32_t *)region = caps.basic.revision;
	return vmxon(hv_pa(region)) ? VMX_AP_VMXON_FAILED : VMX_AP_ON;
}

const char *vmx_ap_status_name(int status)
{
	switch (status) {
	case VMX_AP_ON:
		return "VMX root";
	case VMX_AP_NO_VMX:
		return "no VMX (CPUID.1:ECX.VMX=0)";
	case VMX_AP_FW_DISABLED:
		return "VMX disabled by the firmware (IA32_FEATURE_CONTROL "
		       "locked)";
	case VMX_AP_CAPS_DIFFER:
		return "VMX capabilities differ from the BSP's";
	case VMX_AP_VMXON_FAILED:
		return "VMXON failed";
	case VMX_AP_BSP_OFF:
		return "the BSP is not in VMX operation";
	}
	return "?";
}

void *vmcs_alloc(void)
{
	uint32_t *vmcs = page_alloc();

	if (!vmcs)
		return NULL;
	vmcs[0] = vmx_cpu.caps.basic.revision;
	if (vmclear(hv_pa(vmcs))) {
		page_free(vmcs);
		return NULL;
	}
	return vmcs;
}

int vmcs_make_current(uint64_t pa)
{
	struct percpu *p = this_cpu();

	if (p->current_vmcs == pa)
		return 0;
	if (vmptrld(pa)) {
		pr_err("vmx", "VMPTRLD %llx failed", (unsigned long long)pa);
		p->current_vmcs = 0;
		return -HV_EIO;
	}
	p->current_vmcs = pa;
	return 0;
}

uint64_t vmcs_current(void)
{
	return this_cpu()->current_vmcs;
}

int vmcs_release(uint64_t pa)
{
	struct percpu *p = this_cpu();

	if (p->current_vmcs == pa)
		p->current_vmcs = 0;
	return vmclear(pa) ? -HV_EIO : 0;
}

uint32_t vmx_insn_error(void)
{
	return (uint32_t)vmread(VMCS_VM_INSTRUCTION_ERROR);
}

int vmx_invept(uint64_t eptp)
{
	const struct vmx_ept_vpid *e = &vmx_cpu.caps.ept;

	if (e->invept_single)
		return invept(INVEPT_TYPE_SINGLE_CONTEXT, eptp) ? -HV_EIO : 0;
	return invept(INVEPT_TYPE_ALL_CONTEXT, 0) ? -HV_EIO : 0;
}

void vmx_vpid_set(bool want)
{
	struct vmx_cpu *v = &vmx_cpu;

	v->vpid_on = vmx_vpid_usable(&v->caps, want);
	pr_info("vmx", "VPID %s", v->vpid_on ? "on: one per vCPU" :
		!want ? "off (vmx_vpid=no): TLB flushed at every entry and exit" :
		"off (the CPU has no usable VPID/INVVPID): TLB flushed at "
		"every entry and exit");
}

void vmx_apicv_set(bool want)
{
	struct vmx_cpu *v = &vmx_cpu;

	v->apicv_proc2 = vmx_apicv_proc2(&v->caps, want);
	if (v->apicv_proc2)
		v->proc_ctls |= PROC_CTL_USE_TPR_SHADOW;
	else
		v->proc_ctls &= ~PROC_CTL_USE_TPR_SHADOW;
	pr_info("vmx", "APIC virtualization %s", v->apicv_proc2 ?
		(v->apicv_proc2 & PROC_CTL2_APIC_REGISTER_VIRT ?
		 "on: TPR shadow, APIC-access page, register virtualization" :
		 "on: TPR shadow, APIC-access page") :
		!want ? "off (vmx_apicv=no): xAPIC accesses are EPT exits" :
		"off (the CPU lacks TPR shadow or APIC-access virtualization):"
		" xAPIC accesses are EPT exits");
}

void vmx_vid_set(bool want)
{
	struct vmx_cpu *v = &vmx_cpu;
	uint32_t vid = vmx_vid_proc2(&v->caps, v->apicv_proc2, want);

	v->apicv_proc2 = (v->apicv_proc2 & ~PROC_CTL2_VIRTUAL_INTR_DELIVERY) |
			 vid;
	v->vid_on = vid != 0;
	pr_info("vmx", "virtual-interrupt delivery %s", v->vid_on ?
		"on: xAPIC-mode vCPUs take interrupts from RVI, edge EOIs "
		"without an exit" :
		!want ? "off (vmx_vid=no): interrupts injected, EOIs exit" :
		"off (no APIC virtualization or the CPU lacks it): interrupts "
		"injected, EOIs exit");
}

int vmx_invvpid(uint16_t vpid)
{
	if (vmx_cpu.caps.ept.invvpid_single)
		return invvpid(INVVPID_TYPE_SINGLE_CONTEXT, vpid) ? -HV_EIO : 0;
	return invvpid(INVVPID_TYPE_ALL_CONTEXT, 0) ? -HV_EIO : 0;
}
