/* APIC virtualization for the vLAPIC's xAPIC page (SDM Vol. 3C chapter
 * 29), where the CPU offers it (hv/vmx/vmx_caps.h vmx_apicv_proc2) and
 * hv.cfg's vmx_apicv= is not no.
 *
 * Each VM has two pages of its own: the virtual-APIC page, which the CPU
 * reads the guest's xAPIC registers from (APIC-register virtualization)
 * and keeps the guest's TPR in (TPR shadow), and the APIC-access page,
 * which the EPT maps at 0xFEE00000 while the guest is in xAPIC mode (and
 * nowhere else, never as data: every access to it is virtualized or
 * exits). The host's LAPIC is on neither. In x2APIC or disabled mode the
 * page is unmapped and accesses take the EPT-violation path as before.
 *
 * The vLAPIC model (vlapic.c) stays the source of truth: the page is
 * rewritten from it before an entry when the model changed (timer,
 * IRR/ISR, EOI, writes). Without virtual-interrupt delivery interrupts
 * are injected by vcpu_prepare_events, with the TPR threshold set so
 * that a guest lowering its TPR under a held-back interrupt exits.
 *
 * With it (hv.cfg vmx_vid, vmx_cpu.vid_on; SDM 29.2), a vCPU in xAPIC
 * mode is not injected: the entry gives the CPU RVI/SVI (guest interrupt
 * status) computed from the model with the IRR/ISR written to the page,
 * and the CPU delivers when the guest can take it (no interrupt-window
 * exits) and retires EOIs in the page without an exit, except for the
 * vectors in the EOI-exit bitmap: the vIOAPIC's level-triggered ones
 * (vlapic_eoi_exit_map), which exit after the CPU retired them (45,
 * handle_virtualized_eoi). Right after every exit the page's IRR/ISR
 * are pulled back into the model (vlapic_apicv_after_exit), so every
 * handler and the scheduler see what the CPU did. In x2APIC mode RVI
 * and SVI are 0 and the old path runs. What exits:
 *   - APIC-write (56, trap-like): a register write the CPU virtualized
 *     into the page (LVTs, ICR, SVR, timer, ...); the value is taken from
 *     the page and given to the model as an MMIO write would be.
 *   - APIC-access (44, fault-like): what the CPU does not virtualize: the
 *     EOI (retired without decoding the instruction), the timer's current
 *     count, writes to read-only registers, accesses that are not 32-bit
 *     and aligned. A MOV is emulated; anything else stops the VM.
 *   - TPR below threshold (43, trap-like): the interrupt is injected at
 *     the next entry. */
#include "hv/console/console.h"
#include "hv/hv_errno.h"
#include "hv/mm/mem.h"
#include "hv/platform/tsc.h"
#include "hv/vm/mmio.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vlapic.h"
#include "hv/vm/vlapic_apicv.h"
#include "hv/vm/vioapic.h"
#include "hv/vm/vm.h"
#include "hv/vm/vm_mem.h"
#include "hv/vm/vmexit.h"
#include "hv/vmx/ept.h"
#include "hv/vmx/insn_decode.h"
#include "hv/vmx/vmx.h"
#include "hv/vmx/vmx_insn.h"
#include "hv/cpu/x86.h"
#include "mini/string.h"

#define XAPIC_EOI		0x0b0
#define AR_L	(1u << 13)	/* CS access rights: 64-bit code */
#define AR_DB	(1u << 14)
/* Exit qualification of an APIC-access exit (SDM Table 28-6). */
#define APIC_ACCESS_OFFSET(q)	((uint32_t)(q) & 0xfffu)
#define APIC_ACCESS_TYPE(q)	((unsigned)((q) >> 12) & 0xfu)
#define APIC_ACCESS_READ	0u	/* linear access for a data read */
#define APIC_ACCESS_WRITE	1u	/* linear access for a data write */

/* One APIC-access page per VM, in every vCPU's VMCS: the EPT maps one
 * page at 0xFEE00000 for all of them, and the CPU tells the vCPUs apart
 * by their own virtual-APIC pages (SDM 29.4). Kept in vCPU 0's vLAPIC;
 * whichever vCPU is set up first allocates it. */
static void *shared_access_page(struct vm *vm)
{
	struct vlapic *l0 = &vm->lapics[0];

	if (!l0->apic_access) {
		l0->apic_access = page_alloc();
		if (l0->apic_access)
			memset(l0->apic_access, 0, PAGE_SIZE);
	}
	return l0->apic_access;
}

int vlapic_apicv_setup(struct vm *vm)
{
	struct vlapic *l = vm_vcpu(vm)->lapic;
	int err = 0;

	if (!vmx_cpu.apicv_proc2)
		return 0;
	if (!l->vapic) {
		l->vapic = page_alloc();
		l->apic_access = shared_access_page(vm);
		if (!l->vapic || !l->apic_access)
			return -HV_ENOMEM;
		memset(l->vapic, 0, PAGE_SIZE);
		l->vapic[0x080 / 4] = l->tpr;
		l->access_mapped = false;
	}
	l->vapic_dirty = VAPIC_DIRTY_ALL;
	l->tpr_threshold = 0;
	if (vmx_cpu.vid_on) {
		/* A fresh VMCS: nothing requested or in service, no EOI
		 * exits until the first entry in xAPIC mode says. */
		l->vid = false;
		l->eoi_gen = 0;
		memset(l->eoi_exit, 0, sizeof(l->eoi_exit));
		err |= vmwrite(VMCS_GUEST_INTR_STATUS, 0);
		for (unsigned i = 0; i < 4; i++)
			err |= vmwrite(VMCS_EOI_EXIT_BITMAP0 + 2 * i, 0);
	}
	err |= vmwrite(VMCS_VIRTUAL_APIC_ADDR, hv_pa(l->vapic));
	err |= vmwrite(VMCS_APIC_ACCESS_ADDR, hv_pa(l->apic_access));
	err |= vmwrite(VMCS_TPR_THRESHOLD, 0);
	return err ? -HV_EIO : 0;
}

/* The APIC-access page in the EPT exactly while a vCPU of the VM is in
 * xAPIC mode (one mapping for all: shared_access_page); the VM's state
 * is vCPU 0's access_mapped. */
static int place_access_page(struct vm *vm, bool xapic)
{
	struct vlapic *l = &vm->lapics[0];
	int rc = xapic ? vm_ept_map(vm, APIC_BASE_ADDR, hv_pa(l->apic_access),
				    EPT_PAGE_4K, EPT_RW, MEMTYPE_WB)
		       : vm_ept_unmap(vm, APIC_BASE_ADDR, EPT_PAGE_4K);

	if (rc) {
		vm_stop(vm, "APIC-access page %s failed (%d)",
			xapic ? "mapping" : "unmapping", rc);
		return rc;
	}
	l->access_mapped = xapic;
	return 0;
}

/* Whether the page must be mapped: this vCPU is in xAPIC mode, or
 * another is (a vCPU in x2APIC mode then reaches the page too, as an
 * xAPIC access: Linux switches every CPU together). */
static bool vm_wants_access_page(const struct vm *vm, bool xapic)
{
	if (vm->nr_vcpus == 1)
		return xapic;	/* this vCPU is the only one */
	for (unsigned i = 0; !xapic && i < vm->nr_vcpus; i++)
		xapic = vm->lapics[i].vapic &&
			vlapic_xapic_mode(&vm->lapics[i]) &&
			vm->vcpus[i].run != VCPU_WAIT_SIPI;
	return xapic;
}

/* ICR high as the guest last wrote it into the page: APIC-write
 * emulation stores a write of offset 310H there (bits 23:0 cleared)
 * without an APIC-write exit (SDM 29.4.3.3; Bochs does so), so the page,
 * not the model, holds the destination until the ICR-low write that sends
 * the IPI (Linux's INIT to vCPU 1 reached vCPU 0 before this). Read
 * before anything rewrites the page from the model. */
static void take_icr_hi(struct vlapic *l)
{
	l->icr_hi = l->vapic[0x310 / 4] & 0xff000000u;
}

/* The EOI-exit bitmap from the vIOAPIC's entries, recomputed when they
 * changed since (vioapic gen: any vCPU's write) and written only when it
 * differs: most entries pay one compare. */
static void set_eoi_exit(struct vm *vm, struct vlapic *l)
{
	uint64_t m[4];

	if (l->eoi_gen == vm->ioapic.gen + 1)
		return;
	l->eoi_gen = vm->ioapic.gen + 1;
	vlapic_eoi_exit_map(vm->ioapic.redir, VIOAPIC_PINS, m);
	if (!memcmp(m, l->eoi_exit, sizeof(m)))
		return;
	for (unsigned i = 0; i < 4; i++)
		vmwrite(VMCS_EOI_EXIT_BITMAP0 + 2 * i, m[i]);
	memcpy(l->eoi_exit, m, sizeof(m));
}

/* Virtual-interrupt delivery at this entry, after the page was synced:
 * in xAPIC mode RVI/SVI from the model whenever the model changed the
 * interrupt state (`pushed`) or delivery starts (otherwise the CPU keeps
 * them as it delivers and retires); outside it 0, so nothing is
 * delivered from the page and injection takes over. */
static void vid_prepare(struct vm *vm, struct vlapic *l, bool xapic,
			bool pushed)
{
	if (!xapic) {
		if (l->vid)
			vmwrite(VMCS_GUEST_INTR_STATUS, 0);
		l->vid = false;
		return;
	}
	if (pushed || !l->vid)
		vmwrite(VMCS_GUEST_INTR_STATUS, vlapic_intr_status(l));
	l->vid = true;
	set_eoi_exit(vm, l);
}

void vlapic_apicv_prepare(struct vm *vm)
{
	struct vlapic *l = vm_vcpu(vm)->lapic;
	bool xapic = vlapic_xapic_mode(l), want;
	uint32_t th, tpr;

	if (!l->vapic)
		return;
	if (xapic)
		take_icr_hi(l);
	want = vm_wants_access_page(vm, xapic);
	if (want != vm->lapics[0].access_mapped && place_access_page(vm, want))
		return;
	/* A TPR the guest stored without an exit moves the PPR. */
	tpr = vlapic_tpr(l);
	if (l->tpr != tpr) {
		l->tpr = tpr;
		l->vapic_dirty |= VAPIC_DIRTY_IRQ;
	}
	/* Every change of IRR, ISR, TPR or SVR marks vapic_dirty (vlapic.c),
	 * so a clean APIC keeps both the page and the threshold: most exits
	 * (CPUID, port I/O, the vGPU's BAR0) end here. In x2APIC mode the
	 * page holds only the TPR; going back to xAPIC maps the page again
	 * and marks every register dirty (place_access_page). */
	if (!l->vapic_dirty) {
		if (l->vid || (xapic && vmx_cpu.vid_on))
			vid_prepare(vm, l, xapic, false);
		return;
	}
	if (xapic)
		vlapic_vapic_sync(l, rdtsc());
	else
		l->vapic_dirty = 0;
	if (vmx_cpu.vid_on) {
		vid_prepare(vm, l, xapic, true);
		if (xapic)
			return;	/* no TPR-below-threshold exits with it */
	}
	th = vlapic_tpr_threshold(l);
	if (th != l->tpr_threshold) {
		vmwrite(VMCS_TPR_THRESHOLD, th);
		l->tpr_threshold = th;
	}
}

enum exit_action handle_apic_write(struct vm *vm, const struct vm_exit *ex)
{
	uint32_t off = APIC_ACCESS_OFFSET(ex->qual) & ~3u;
	struct vlapic *l = vm_vcpu(vm)->lapic;
	uint8_t was;

	if (!l->vapic) {
		vm_stop(vm, "APIC-write exit without APIC virtualization");
		return EXIT_STOP;
	}
	was = l->vapic_dirty;
	take_icr_hi(l);
	vlapic_xapic_mmio.write(vm, off, 4, l->vapic[off / 4]);
	/* The page shows what the model kept of that register; what the
	 * write may do to others (EOI, self-IPI) is interrupt state. */
	vlapic_vapic_sync_reg(l, off, rdtsc());
	l->vapic_dirty = was | VAPIC_DIRTY_IRQ;
	return EXIT_RESUME;
}

/* EOI-induced exit (45): the CPU already cleared the vector's ISR bit
 * in the page and the exit's pull gave the model the same; the vector
 * (the qualification) is one the vIOAPIC routes level-triggered, whose
 * entries behave as edge (no Remote IRR, hv/vm/vioapic.h), so the
 * IOAPIC has nothing to clear: counted, and the guest goes on. */
enum exit_action handle_virtualized_eoi(struct vm *vm,
					const struct vm_exit *ex)
{
	struct vlapic *l = vm_vcpu(vm)->lapic;

	(void)ex;
	l->vid_eoi_exits++;
	return EXIT_RESUME;
}

enum exit_action handle_tpr_below_threshold(struct vm *vm,
					    const struct vm_exit *ex)
{
	(void)vm;
	(void)ex;
	return EXIT_RESUME;	/* vcpu_prepare_events injects */
}

static void skip(uint64_t len)
{
	uint64_t intr = vmread(VMCS_GUEST_INTERRUPTIBILITY);

	vmwrite(VMCS_GUEST_RIP, vmread(VMCS_GUEST_RIP) + len);
	if (intr & (INTERRUPTIBILITY_STI | INTERRUPTIBILITY_MOV_SS))
		vmwrite(VMCS_GUEST_INTERRUPTIBILITY,
			intr & ~(uint64_t)(INTERRUPTIBILITY_STI |
					   INTERRUPTIBILITY_MOV_SS));
}

static enum insn_mode guest_mode(void)
{
	uint64_t ar = vmread(VMCS_GUEST_CS_AR);

	if ((vmread(VMCS_GUEST_IA32_EFER) & EFER_LMA) && (ar & AR_L))
		return INSN_MODE_64;
	return (ar & AR_DB) ? INSN_MODE_32 : INSN_MODE_16;
}

static enum exit_action refuse(struct vm *vm, uint32_t off, const char *why)
{
	vm_dump_regs(vm);
	vm_stop(vm, "xAPIC page access at +%x (rip %llx): %s", off,
		(unsigned long long)vmread(VMCS_GUEST_RIP), why);
	return EXIT_STOP;
}

/* The MOV behind a fault-like APIC-access exit: the offset is the
 * exit's, the width and register the decoded instruction's. */
static enum exit_action emulate_mov(struct vm *vm, uint32_t off, bool write)
{
	struct guest_regs *r = &vm_vcpu(vm)->regs;
	uint64_t rip = vmread(VMCS_GUEST_RIP) + vmread(VMCS_GUEST_CS_BASE);
	size_t n = 4096 - (rip & 4095);
	uint8_t buf[INSN_MAX_LEN];
	struct mmio_insn insn;

	if (n > INSN_MAX_LEN)
		n = INSN_MAX_LEN;
	if (vm_read_gva(vm, rip, buf, n))
		return refuse(vm, off, "instruction not readable");
	if (n < INSN_MAX_LEN &&
	    !vm_read_gva(vm, rip + n, buf + n, INSN_MAX_LEN - n))
		n = INSN_MAX_LEN;
	if (insn_decode(buf, n, guest_mode(), &insn))
		return refuse(vm, off, "not a move the emulator knows");
	r->rsp = vmread(VMCS_GUEST_RSP);
	if (write && (insn.kind == INSN_MOV_STORE ||
		      insn.kind == INSN_MOV_STORE_IMM))
		vlapic_xapic_mmio.write(vm, off, insn.size,
					mmio_insn_store_value(&insn, r));
	else if (!write && (insn.kind == INSN_MOV_LOAD ||
			    insn.kind == INSN_MOVZX || insn.kind == INSN_MOVSX))
		mmio_insn_complete_load(&insn, r,
			vlapic_xapic_mmio.read(vm, off, insn.size));
	else
		return refuse(vm, off, "only MOV is emulated there");
	vmwrite(VMCS_GUEST_RSP, r->rsp);
	skip(insn.len);
	return EXIT_RESUME;
}

enum exit_action handle_apic_access(struct vm *vm, const struct vm_exit *ex)
{
	uint32_t off = APIC_ACCESS_OFFSET(ex->qual);
	unsigned type = APIC_ACCESS_TYPE(ex->qual);
	uint64_t len;

	if (type != APIC_ACCESS_READ && type != APIC_ACCESS_WRITE)
		return refuse(vm, off, "not a data access by an instruction "
			      "(fetch, event delivery or page walk)");
	/* EOI: the value does not matter, so the instruction needs no
	 * decoding; the exit's instruction length says what to skip. */
	len = vmread(VMCS_EXIT_INSTRUCTION_LENGTH);
	if (type == APIC_ACCESS_WRITE && off == XAPIC_EOI && len &&
	    len <= INSN_MAX_LEN) {
		vlapic_xapic_mmio.write(vm, off, 4, 0);
		skip(len);
		return EXIT_RESUME;
	}
	return emulate_mov(vm, off, type == APIC_ACCESS_WRITE);
}
