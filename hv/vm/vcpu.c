/* VMCS contents of a vCPU (SDM Vol. 3C chapter 25 for the fields, 27.3
 * for the guest-state checks VM entry makes), entering the guest, and
 * event injection (SDM 27.6). */
#include "hv/vm/vcpu.h"
#include "hv/vm/cpu_state_switch.h"
#include "hv/vm/guest_state_vmcs.h"
#include "hv/vm/vcpu_sipi.h"
#include "hv/vm/vlapic_apicv.h"
#include "hv/console/console.h"
#include "hv/cpu/cpu.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/vmx/exit_reason.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/x86.h"
#include "mini/string.h"

int vmx_enter(struct guest_regs *regs, int launched);
extern const char vmx_exit_stub[];

/* Access rights (SDM Table 25-2): type, S, DPL, P, AVL, L, D/B, G. */
#define AR_CODE64	0xa09bu	/* execute/read, accessed, S, P, L, G */
#define AR_DATA		0xc093u	/* read/write, accessed, S, P, D/B, G */
#define AR_TSS_BUSY	0x008bu	/* 64-bit busy TSS, P */
#define AR_UNUSABLE	0x10000u
#define GUEST_PAT	0x0007040600070406ull	/* the power-on PAT */
#define DR7_INIT	0x400ull

/* Bitmaps shared by every VM: the policy (which ports and MSRs exit) is
 * the same for all, the handlers look at which VM asked. */
static uint8_t *io_bitmaps;	/* two pages: ports 0-7FFF, 8000-FFFF */
static uint8_t *msr_bitmap;	/* one page, SDM 25.6.9 */
static bool msr_reads_direct = true;	/* hv.cfg vmx_msr_reads= */

/* MSRs the guest reads and writes directly. FS/GS base are guest state
 * the CPU switches; the SYSCALL MSRs, KERNEL_GS_BASE and TSC_AUX are
 * switched by cpu_state_switch.c (the hypervisor itself never uses them). */
static const uint32_t passthrough_msrs[] = {
	MSR_IA32_FS_BASE, MSR_IA32_GS_BASE, MSR_IA32_KERNEL_GS_BASE,
	MSR_IA32_STAR, MSR_IA32_LSTAR, MSR_IA32_CSTAR, MSR_IA32_FMASK,
	MSR_IA32_TSC_AUX,
};

/* MSRs the guest reads directly; its writes still exit (exit_msr.c
 * checks them). While a guest runs, the CPU holds the guest's own value
 * of each, never the hypervisor's or another VM's: EFER and PAT are
 * loaded from the guest-state area by every VM entry (the entry controls
 * of hv/vmx/vmx.c), SYSENTER_CS/ESP/EIP always are; the TSC is the one
 * RDTSC already reads without exiting (no TSC offset: every VM sees the
 * host's). What exit_msr.c would answer is these same values. Left out
 * on purpose: DEBUGCTL (a CPU may hold fewer bits than the guest-state
 * field it loads from: Bochs reads BTF back as 0, which
 * tests/emu/cases/hostile-cpu-bochs caught), APIC_BASE, MISC_ENABLE, the
 * MTRRs and every platform MSR (the hardware holds the host's value; the
 * guest gets an emulated one). */
static const uint32_t passthrough_reads[] = {
	MSR_IA32_EFER, MSR_IA32_PAT,
	MSR_IA32_SYSENTER_CS, MSR_IA32_SYSENTER_ESP, MSR_IA32_SYSENTER_EIP,
	MSR_IA32_TIME_STAMP_COUNTER,
};

/* Clears the exit bit of msr in the read (write) bitmap: the read bitmap
 * at +0 (low MSRs) / +1024 (0xC0000000..), the write one 2048 further. */
static void msr_bitmap_clear(uint32_t msr, unsigned write_off)
{
	unsigned base = (msr >= 0xc0000000u ? 1024 : 0) + write_off;
	unsigned bit = msr & 0x1fff;

	msr_bitmap[base + bit / 8] &= (uint8_t)~(1u << (bit % 8));
}

static void msr_bitmap_open(uint32_t msr)
{
	msr_bitmap_clear(msr, 0);
	msr_bitmap_clear(msr, 2048);
}

static int bitmaps_init(void)
{
	if (io_bitmaps)
		return 0;
	io_bitmaps = page_alloc_contig(2);
	msr_bitmap = page_alloc();
	if (!io_bitmaps || !msr_bitmap)
		return -HV_ENOMEM;
	memset(io_bitmaps, 0xff, 2 * PAGE_SIZE);
	memset(msr_bitmap, 0xff, PAGE_SIZE);
	for (unsigned i = 0; i < sizeof(passthrough_msrs) / sizeof(uint32_t); i++)
		msr_bitmap_open(passthrough_msrs[i]);
	for (unsigned i = 0; msr_reads_direct &&
	     i < sizeof(passthrough_reads) / sizeof(uint32_t); i++)
		msr_bitmap_clear(passthrough_reads[i], 0);
	return 0;
}

void vcpu_set_msr_reads(bool direct)
{
	if (!io_bitmaps)
		msr_reads_direct = direct;
	pr_info("vmx", "MSR reads of EFER, PAT, SYSENTER_*, TSC: %s",
		msr_reads_direct ? "direct" : "exit (vmx_msr_reads=no)");
}

static int w(uint32_t field, uint64_t val, int *err)
{
	if (vmwrite(field, val) && !*err) {
		pr_err("vmx", "VMWRITE %04x failed: %s", field,
		       vmx_insn_error_name(vmx_insn_error()));
		*err = -HV_EIO;
	}
	return *err;
}

/* The vCPU's VPID (SDM 28.1): never 0, the tag of the hypervisor's own
 * mappings; 1 + the VM's id + VM_MAX * the vCPU's index, which no two
 * vCPUs share (vCPU 0's is 1 + the VM's id, as before vcpus=). */
static uint16_t vcpu_vpid(const struct vm *vm)
{
	_Static_assert(1 + VM_MAX * VM_VCPUS_MAX <= 0xffff, "VPIDs fit");
	return (uint16_t)(1 + vm->id + VM_MAX * vm_vcpu(vm)->idx);
}

/* PAUSE-loop exiting for a VM with several vCPUs (docs/smp.md): a vCPU
 * spinning on a lock or flag its sibling holds exits after PLE_WINDOW
 * ticks of PAUSEs no more than PLE_GAP apart, and gives its turn away
 * (handle_pause) instead of spinning the rest of it. KVM's defaults
 * (arch/x86/kvm/vmx/vmx.c): gap 128, window 4096. With one vCPU there is
 * nobody to give the CPU to: off. */
#define PLE_GAP		128u
#define PLE_WINDOW	4096u

static uint32_t ple_ctl(const struct vm *vm)
{
	return vmx_cpu.caps.has_ple && vm->nr_vcpus > 1
		       ? PROC_CTL2_PAUSE_LOOP_EXITING : 0;
}

static void setup_controls(struct vm *vm, int *err)
{
	const struct vmx_cpu *v = &vmx_cpu;

	w(VMCS_PIN_BASED_CONTROLS, v->pin_ctls, err);
	w(VMCS_PROC_BASED_CONTROLS, v->proc_ctls, err);
	vm_vcpu(vm)->window_exiting = false;
	w(VMCS_PROC_BASED_CONTROLS2, v->proc2_ctls | v->apicv_proc2 |
	  (v->vpid_on ? PROC_CTL2_ENABLE_VPID : 0) | ple_ctl(vm), err);
	if (ple_ctl(vm)) {
		w(VMCS_PLE_GAP, PLE_GAP, err);
		w(VMCS_PLE_WINDOW, PLE_WINDOW, err);
	}
	if (!*err)
		*err = vlapic_apicv_setup(vm);
	if (v->vpid_on)
		w(VMCS_VPID, vcpu_vpid(vm), err);
	w(VMCS_EXIT_CONTROLS, v->exit_ctls, err);
	w(VMCS_ENTRY_CONTROLS, v->entry_ctls, err);
	w(VMCS_EXCEPTION_BITMAP, 0, err);	/* the guest's own business */
	w(VMCS_IO_BITMAP_A, hv_pa(io_bitmaps), err);
	w(VMCS_IO_BITMAP_B, hv_pa(io_bitmaps) + PAGE_SIZE, err);
	w(VMCS_MSR_BITMAP, hv_pa(msr_bitmap), err);
	w(VMCS_EPT_POINTER, vm->eptp, err);
	w(VMCS_CR3_TARGET_COUNT, 0, err);
	w(VMCS_EXIT_MSR_STORE_COUNT, 0, err);
	w(VMCS_EXIT_MSR_LOAD_COUNT, 0, err);
	w(VMCS_ENTRY_MSR_LOAD_COUNT, 0, err);
	w(VMCS_ENTRY_INTR_INFO, 0, err);
	/* CR bits VMX pins down are owned by us: the guest reads its own
	 * value from the shadow and a write that changes them exits. */
	w(VMCS_CR0_GUEST_HOST_MASK,
	  vmx_guest_cr0_fixed_bits(&v->caps, false), err);
	/* CR4: also every bit the guest may not set (OSXSAVE, PKE, ...),
	 * so that setting one exits and gets the #GP a CPU without the
	 * feature gives (guest_state_vmcs.c). */
	w(VMCS_CR4_GUEST_HOST_MASK, vmx_guest_cr4_fixed_bits(&v->caps) |
	  ~guest_cr4_allowed(), err);
}

static void setup_host_state(int *err)
{
	w(VMCS_HOST_CR0, read_cr0(), err);
	w(VMCS_HOST_CR3, read_cr3(), err);
	w(VMCS_HOST_CR4, read_cr4(), err);
	w(VMCS_HOST_CS_SELECTOR, GDT_CODE64, err);
	w(VMCS_HOST_SS_SELECTOR, GDT_DATA, err);
	w(VMCS_HOST_DS_SELECTOR, GDT_DATA, err);
	w(VMCS_HOST_ES_SELECTOR, GDT_DATA, err);
	w(VMCS_HOST_FS_SELECTOR, 0, err);
	w(VMCS_HOST_GS_SELECTOR, 0, err);
	w(VMCS_HOST_TR_SELECTOR, GDT_TSS, err);
	w(VMCS_HOST_FS_BASE, rdmsr(MSR_IA32_FS_BASE), err);
	w(VMCS_HOST_GS_BASE, rdmsr(MSR_IA32_GS_BASE), err);
	w(VMCS_HOST_TR_BASE, cpu_tss_base(), err);
	w(VMCS_HOST_GDTR_BASE, cpu_gdt_base(), err);
	w(VMCS_HOST_IDTR_BASE, cpu_idt_base(), err);
	w(VMCS_HOST_IA32_SYSENTER_CS, 0, err);
	w(VMCS_HOST_IA32_SYSENTER_ESP, 0, err);
	w(VMCS_HOST_IA32_SYSENTER_EIP, 0, err);
	w(VMCS_HOST_IA32_EFER, rdmsr(MSR_IA32_EFER), err);
	w(VMCS_HOST_IA32_PAT, rdmsr(MSR_IA32_PAT), err);
	w(VMCS_HOST_RIP, (uint64_t)(uintptr_t)vmx_exit_stub, err);
}

static void guest_seg(uint32_t sel_f, uint16_t sel, uint32_t ar, int *err)
{
	/* Fields of one segment are laid out at fixed strides from ES. */
	unsigned i = (sel_f - VMCS_GUEST_ES_SELECTOR) / 2;

	w(sel_f, sel, err);
	w(VMCS_GUEST_ES_BASE + 2 * i, 0, err);
	w(VMCS_GUEST_ES_LIMIT + 2 * i, 0xffffffffu, err);
	w(VMCS_GUEST_ES_AR + 2 * i, ar, err);
}

static void setup_guest_state(const struct vcpu_boot_state *bs, int *err)
{
	const struct vmx_caps *caps = &vmx_cpu.caps;
	uint64_t cr0 = CR0_PE | CR0_ET | CR0_NE | CR0_PG;
	uint64_t cr4 = CR4_PAE;
	uint16_t cs = bs->cs_sel ? bs->cs_sel : 0x08;
	uint16_t ds = bs->ds_sel ? bs->ds_sel : 0x10;

	w(VMCS_GUEST_CR0, vmx_fix_guest_cr0(caps, cr0, false), err);
	w(VMCS_CR0_READ_SHADOW, cr0, err);
	w(VMCS_GUEST_CR4, vmx_fix_guest_cr4(caps, cr4), err);
	w(VMCS_CR4_READ_SHADOW, cr4, err);
	w(VMCS_GUEST_CR3, bs->cr3, err);
	w(VMCS_GUEST_IA32_EFER, EFER_LME | EFER_LMA, err);
	w(VMCS_GUEST_IA32_PAT, GUEST_PAT, err);
	w(VMCS_GUEST_DR7, DR7_INIT, err);
	w(VMCS_GUEST_IA32_DEBUGCTL, 0, err);

	guest_seg(VMCS_GUEST_CS_SELECTOR, cs, AR_CODE64, err);
	guest_seg(VMCS_GUEST_SS_SELECTOR, ds, AR_DATA, err);
	guest_seg(VMCS_GUEST_DS_SELECTOR, ds, AR_DATA, err);
	guest_seg(VMCS_GUEST_ES_SELECTOR, ds, AR_DATA, err);
	guest_seg(VMCS_GUEST_FS_SELECTOR, ds, AR_DATA, err);
	guest_seg(VMCS_GUEST_GS_SELECTOR, ds, AR_DATA, err);
	w(VMCS_GUEST_LDTR_SELECTOR, 0, err);
	w(VMCS_GUEST_LDTR_BASE, 0, err);
	w(VMCS_GUEST_LDTR_LIMIT, 0, err);
	w(VMCS_GUEST_LDTR_AR, AR_UNUSABLE, err);
	/* VM entry wants a usable busy TSS even if the guest never uses
	 * one; a null selector with these rights is accepted. */
	w(VMCS_GUEST_TR_SELECTOR, 0, err);
	w(VMCS_GUEST_TR_BASE, 0, err);
	w(VMCS_GUEST_TR_LIMIT, 0x67, err);
	w(VMCS_GUEST_TR_AR, AR_TSS_BUSY, err);
	w(VMCS_GUEST_GDTR_BASE, bs->gdt_base, err);
	w(VMCS_GUEST_GDTR_LIMIT, bs->gdt_limit, err);
	w(VMCS_GUEST_IDTR_BASE, 0, err);
	w(VMCS_GUEST_IDTR_LIMIT, 0, err);

	w(VMCS_GUEST_RIP, bs->rip, err);
	w(VMCS_GUEST_RSP, bs->rsp, err);
	w(VMCS_GUEST_RFLAGS, RFLAGS_FIXED1, err);
	w(VMCS_GUEST_INTERRUPTIBILITY, 0, err);
	w(VMCS_GUEST_ACTIVITY_STATE, ACTIVITY_STATE_ACTIVE, err);
	w(VMCS_GUEST_PENDING_DBG_EXCEPTIONS, 0, err);
	w(VMCS_GUEST_IA32_SYSENTER_CS, 0, err);
	w(VMCS_GUEST_IA32_SYSENTER_ESP, 0, err);
	w(VMCS_GUEST_IA32_SYSENTER_EIP, 0, err);
	w(VMCS_VMCS_LINK_POINTER, ~0ull, err);	/* no shadow VMCS */
}

/* Every control, host and guest field of the current VMCS, and the
 * registers the stub loads, as at power-on (creation and guest reset). */
static int load_boot_state(struct vm *vm, const struct vcpu_boot_state *bs)
{
	struct vcpu *vc = vm_vcpu(vm);
	int err = 0;

	vc->unrestricted = false;
	setup_controls(vm, &err);
	setup_host_state(&err);
	setup_guest_state(bs, &err);
	/* A CPU at power-on has no TLB entries; the VPID's may hold some
	 * from this VM's previous run (a restart) or from the loader's page
	 * tables being rewritten. Guest CR3 writes and INVLPG flush the
	 * VPID's entries themselves; EPT changes go with INVEPT (vm_mem.c),
	 * which drops the combined mappings of every VPID. */
	if (vmx_cpu.vpid_on && !err && vmx_invvpid(vcpu_vpid(vm))) {
		pr_err("vmx", "INVVPID %u failed", vcpu_vpid(vm));
		err = -HV_EIO;
	}
	memset(&vc->regs, 0, sizeof(vc->regs));
	vc->regs.rsi = vc->regs.rdi = bs->rsi;
	vc->regs.rsp = bs->rsp;
	vc->inject_info = 0;
	cpu_state_reset(vc);
	return err;
}

static int vcpu_init_one(struct vm *vm, const struct vcpu_boot_state *bs)
{
	struct vcpu *vc = vm_vcpu(vm);
	int err = bitmaps_init();

	if (err)
		return err;
	vc->vmcs = vmcs_alloc();
	if (!vc->vmcs)
		return -HV_ENOMEM;
	vc->vmcs_pa = hv_pa(vc->vmcs);
	err = vmcs_make_current(vc->vmcs_pa);
	if (err)
		return err;
	return load_boot_state(vm, bs);
}

static int vcpu_reset_one(struct vm *vm, const struct vcpu_boot_state *bs);

/* An AP's boot state: the loader's long mode (its CR3, GDT and
 * selectors), at rip, registers zero. */
static void ap_boot_state(const struct vm *vm, uint64_t rip,
			  struct vcpu_boot_state *bs)
{
	memset(bs, 0, sizeof(*bs));
	bs->rip = rip;
	bs->cr3 = vm->ap_cr3;
	bs->gdt_base = vm->ap_gdt_base;
	bs->gdt_limit = vm->ap_gdt_limit;
	bs->cs_sel = vm->ap_cs;
	bs->ds_sel = vm->ap_ds;
}

/* vCPUs 1..N-1 wait for their SIPI (vipi.c), their VMCS built; vCPU 0
 * ends current, as vm_vcpu(vm). All on the creating CPU (page allocator). */
int vcpu_init(struct vm *vm, const struct vcpu_boot_state *bs)
{
	struct vcpu_boot_state ap;
	int err = 0;

	vm->ap_cr3 = bs->cr3;
	vm->ap_gdt_base = bs->gdt_base;
	vm->ap_gdt_limit = bs->gdt_limit;
	vm->ap_cs = bs->cs_sel;
	vm->ap_ds = bs->ds_sel;
	ap_boot_state(vm, 0, &ap);
	for (unsigned i = vm->nr_vcpus; i-- > 0 && !err;) {
		vm_set_vcpu(vm, &vm->vcpus[i]);
		vm_vcpu(vm)->run = i ? VCPU_WAIT_SIPI : VCPU_RUN;
		err = vcpu_init_one(vm, i ? &ap : bs);
	}
	return err;
}

/* vCPU 0 at bs, the others back to wait-for-SIPI (their VMCS kept; each
 * is rewritten when it starts); vCPU 0's VMCS ends current. */
int vcpu_reset(struct vm *vm, const struct vcpu_boot_state *bs)
{
	for (unsigned i = 1; i < vm->nr_vcpus; i++) {
		struct vcpu *vc = &vm->vcpus[i];

		vc->run = VCPU_WAIT_SIPI;
		vc->start_pending = vc->nmi_pending = false;
		vc->inject_info = 0;
	}
	vm_set_vcpu(vm, &vm->vcpus[0]);
	vm_vcpu(vm)->run = VCPU_RUN;
	vm_vcpu(vm)->nmi_pending = false;
	return vcpu_reset_one(vm, bs);
}

static void real_seg(uint32_t sel_f, const struct vcpu_seg_state *g,
		     int *err)
{
	unsigned i = (sel_f - VMCS_GUEST_ES_SELECTOR) / 2;

	w(sel_f, g->sel, err);
	w(VMCS_GUEST_ES_BASE + 2 * i, g->base, err);
	w(VMCS_GUEST_ES_LIMIT + 2 * i, g->limit, err);
	w(VMCS_GUEST_ES_AR + 2 * i, g->ar, err);
}

/* The hardware's SIPI start (vcpu_sipi.h) on the current VMCS, whose
 * controls, host state and other guest fields load_boot_state() wrote:
 * "unrestricted guest" on, "IA-32e mode guest" off until the guest turns
 * paging on with EFER.LME (hv/vm/guest_state_vmcs.c). */
static int load_sipi_state(struct vm *vm, uint8_t vector)
{
	static const uint32_t data_segs[] = {
		VMCS_GUEST_SS_SELECTOR, VMCS_GUEST_DS_SELECTOR,
		VMCS_GUEST_ES_SELECTOR, VMCS_GUEST_FS_SELECTOR,
		VMCS_GUEST_GS_SELECTOR,
	};
	const struct vmx_caps *caps = &vmx_cpu.caps;
	struct vcpu_sipi_state s;
	int err = 0;

	vcpu_sipi_state(vector, &s);
	w(VMCS_PROC_BASED_CONTROLS2, vmread(VMCS_PROC_BASED_CONTROLS2) |
	  PROC_CTL2_UNRESTRICTED_GUEST, &err);
	w(VMCS_ENTRY_CONTROLS, vmx_cpu.entry_ctls &
	  ~(uint32_t)ENTRY_CTL_IA32E_MODE_GUEST, &err);
	w(VMCS_GUEST_CR0, vmx_fix_guest_cr0(caps, s.cr0, true), &err);
	w(VMCS_CR0_READ_SHADOW, s.cr0, &err);
	w(VMCS_GUEST_CR4, vmx_fix_guest_cr4(caps, s.cr4), &err);
	w(VMCS_CR4_READ_SHADOW, s.cr4, &err);
	w(VMCS_GUEST_CR3, s.cr3, &err);
	w(VMCS_GUEST_IA32_EFER, s.efer, &err);
	w(VMCS_GUEST_DR7, s.dr7, &err);
	real_seg(VMCS_GUEST_CS_SELECTOR, &s.cs, &err);
	for (unsigned i = 0; i < sizeof(data_segs) / sizeof(data_segs[0]); i++)
		real_seg(data_segs[i], &s.data, &err);
	real_seg(VMCS_GUEST_TR_SELECTOR, &s.tr, &err);
	real_seg(VMCS_GUEST_LDTR_SELECTOR, &s.ldtr, &err);
	w(VMCS_GUEST_GDTR_BASE, 0, &err);
	w(VMCS_GUEST_GDTR_LIMIT, s.gdtr_limit, &err);
	w(VMCS_GUEST_IDTR_BASE, 0, &err);
	w(VMCS_GUEST_IDTR_LIMIT, s.idtr_limit, &err);
	w(VMCS_GUEST_RIP, s.rip, &err);
	w(VMCS_GUEST_RSP, 0, &err);
	w(VMCS_GUEST_RFLAGS, s.rflags, &err);
	if (!err)
		vm_vcpu(vm)->unrestricted = true;
	return err;
}

/* A Linux VM's AP starts as hardware starts it (real mode at vector <<
 * 12, vm->ap_real_mode); the test guest's in the loader's long mode. */
int vcpu_start_ap(struct vm *vm)
{
	struct vcpu *vc = vm_vcpu(vm);
	struct vcpu_boot_state bs;
	int err;

	ap_boot_state(vm, vc->start_rip, &bs);
	vc->start_pending = false;
	err = load_boot_state(vm, &bs);
	if (!err && vm->ap_real_mode) {
		err = load_sipi_state(vm, (uint8_t)(vc->start_rip >> 12));
		/* Its local APIC as at power-on: xAPIC, enabled (the BSP's
		 * is so too, hv/vm/loader_linux.c). */
		vc->lapic->apic_base = APIC_BASE_ADDR | APIC_BASE_EN;
		vc->lapic->vapic_dirty |= VAPIC_DIRTY_ALL;
	}
	if (!err)
		vc->regs.rsp = 0;
	return err;
}

static int vcpu_reset_one(struct vm *vm, const struct vcpu_boot_state *bs)
{
	struct vcpu *vc = vm_vcpu(vm);
	int err = vmcs_make_current(vc->vmcs_pa);

	if (err)
		return err;
	/* The VMCS stays launched (VMRESUME loads the new guest state);
	 * every control and guest field is written again, as at creation. */
	return load_boot_state(vm, bs);
}

int vcpu_hand_off(struct vm *vm)
{
	int err = 0;

	for (unsigned i = 0; i < vm->nr_vcpus; i++) {
		vm->vcpus[i].launched = false;
		err |= vmcs_release(vm->vcpus[i].vmcs_pa);
	}
	return err;
}

int vcpu_take(struct vm *vm)
{
	int err = vmcs_make_current(vm_vcpu(vm)->vmcs_pa);

	if (!err)
		setup_host_state(&err);
	if (!err)
		vm_vcpu(vm)->taken = true;
	return err;
}

int vcpu_enter(struct vm *vm)
{
	struct vcpu *vc = vm_vcpu(vm);
	int rc = vmx_enter(&vc->regs, vc->launched);

	if (rc) {
		uint32_t e = rc == VMX_FAIL_VALID ? vmx_insn_error() : 0;

		vm_stop(vm, "%s failed: VM-instruction error %u (%s)",
			vc->launched ? "VMRESUME" : "VMLAUNCH", e,
			rc == VMX_FAIL_VALID ? vmx_insn_error_name(e)
					     : "VMfailInvalid: no current VMCS");
		return -HV_EIO;
	}
	vc->launched = true;
	vc->regs.rsp = vmread(VMCS_GUEST_RSP);
	vlapic_apicv_after_exit(vm);	/* before any handler reads the model */
	return 0;
}

void vcpu_skip_insn(void)
{
	uint64_t rip = vmread(VMCS_GUEST_RIP);
	uint64_t intr = vmread(VMCS_GUEST_INTERRUPTIBILITY);

	vmwrite(VMCS_GUEST_RIP, rip + vmread(VMCS_EXIT_INSTRUCTION_LENGTH));
	if (intr & (INTERRUPTIBILITY_STI | INTERRUPTIBILITY_MOV_SS))
		vmwrite(VMCS_GUEST_INTERRUPTIBILITY,
			intr & ~(uint64_t)(INTERRUPTIBILITY_STI |
					   INTERRUPTIBILITY_MOV_SS));
}

void vcpu_inject_exception(struct vm *vm, unsigned vector, bool has_errcode,
			   uint32_t errcode)
{
	struct vcpu *vc = vm_vcpu(vm);

	vc->inject_info = INTR_INFO_VALID | INTR_TYPE_HW_EXCEPTION |
			  (vector & INTR_INFO_VECTOR_MASK) |
			  (has_errcode ? INTR_INFO_DELIVER_ERROR_CODE : 0);
	vc->inject_errcode = errcode;
	vc->inject_insn_len = 0;
}

/* Written only when it changes: most entries keep it off. */
static void set_window_exiting(struct vcpu *vc, bool on)
{
	uint32_t proc = vmx_cpu.proc_ctls;

	if (on == vc->window_exiting)
		return;
	if (on)
		proc |= PROC_CTL_INTERRUPT_WINDOW_EXITING;
	vmwrite(VMCS_PROC_BASED_CONTROLS, proc);
	vc->window_exiting = on;
}

static bool can_take_interrupt(void)
{
	return (vmread(VMCS_GUEST_RFLAGS) & RFLAGS_IF) &&
	       !(vmread(VMCS_GUEST_INTERRUPTIBILITY) &
		 (INTERRUPTIBILITY_STI | INTERRUPTIBILITY_MOV_SS));
}

/* An NMI IPI is injected when neither NMI blocking nor MOV-SS/STI
 * blocking holds it back (SDM 26.3.1.5); else it waits for a later
 * entry (the guest's IRET of its NMI handler exits nothing, so that is
 * the next exit of any kind, at the latest the slice's end). */
static bool can_take_nmi(void)
{
	return !(vmread(VMCS_GUEST_INTERRUPTIBILITY) &
		 (INTERRUPTIBILITY_NMI | INTERRUPTIBILITY_STI |
		  INTERRUPTIBILITY_MOV_SS));
}

static void prepare_interrupt(struct vm *vm);

void vcpu_prepare_events(struct vm *vm)
{
	prepare_interrupt(vm);
	vlapic_apicv_prepare(vm);	/* after IRR -> ISR */
}

static void prepare_interrupt(struct vm *vm)
{
	struct vcpu *vc = vm_vcpu(vm);
	/* With virtual-interrupt delivery the CPU takes the vector from
	 * RVI when the guest can (vlapic_apicv_prepare): no injection, no
	 * interrupt window. */
	int vec = vlapic_apicv_vid(vm) ? -1 : vlapic_pending(vc->lapic);

	if (!vc->inject_info && vc->nmi_pending && can_take_nmi()) {
		vc->nmi_pending = false;
		vc->inject_info = INTR_INFO_VALID | INTR_TYPE_NMI | 2;
		vc->inject_insn_len = 0;
	}
	if (vc->inject_info) {
		vmwrite(VMCS_ENTRY_INTR_INFO, vc->inject_info);
		vmwrite(VMCS_ENTRY_EXCEPTION_ERROR_CODE, vc->inject_errcode);
		vmwrite(VMCS_ENTRY_INSTRUCTION_LENGTH, vc->inject_insn_len);
		vc->inject_info = 0;
		/* One event per entry: come back for the interrupt. */
		set_window_exiting(vc, vec >= 0);
		return;
	}
	if (vec < 0) {
		set_window_exiting(vc, false);
		return;
	}
	if (!can_take_interrupt()) {
		set_window_exiting(vc, true);
		return;
	}
	vmwrite(VMCS_ENTRY_INTR_INFO,
		INTR_INFO_VALID | INTR_TYPE_EXTERNAL | (uint32_t)vec);
	vlapic_accept(vm_vcpu(vm)->lapic, vec);
	vm->stats.irqs_injected++;
	set_window_exiting(vc, false);
}

unsigned vcpu_cpl(void)
{
	return (unsigned)(vmread(VMCS_GUEST_SS_AR) >> 5) & 3;
}

void vcpu_switch_out(struct vcpu *vc)
{
	cpu_state_save(vc);
}

void vcpu_switch_in(struct vcpu *vc)
{
	cpu_state_load(vc);
}
