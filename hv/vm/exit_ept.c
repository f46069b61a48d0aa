/* EPT violation (48) and EPT misconfiguration (49).
 *
 * A violation is one of: a stale, more restrictive TLB entry (the access
 * is allowed now: resume, the exit itself flushed it, see ept.h); an
 * access to an emulated MMIO region (decode the instruction, call the
 * device, complete it); a store to a write-protected RAM page (hv_ops
 * wp_page: the store is emulated into RAM, so the guest sees plain memory);
 * or an access to nothing at all, which no device can answer: that VM is
 * stopped with the address and the instruction. */
#include "hv/console/console.h"
#include "hv/hv_errno.h"
#include "hv/vm/mmio.h"
#include "hv/vm/mmio_edge.h"
#include "hv/vm/mmio_vec.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm_mem.h"
#include "hv/vm/vmexit.h"
#include "hv/vmx/insn_decode.h"
#include "hv/vmx/vmx_insn.h"

#define AR_L	(1u << 13)	/* CS access rights: 64-bit code */
#define AR_DB	(1u << 14)

static enum insn_mode guest_mode(void)
{
	uint64_t ar = vmread(VMCS_GUEST_CS_AR);

	if ((vmread(VMCS_GUEST_IA32_EFER) & EFER_LMA) && (ar & AR_L))
		return INSN_MODE_64;
	return (ar & AR_DB) ? INSN_MODE_32 : INSN_MODE_16;
}

/* Up to 15 bytes at the guest's RIP; fewer when the code ends at a page
 * with nothing mapped after it (the decoder then asks for more if the
 * instruction really continues). */
static size_t fetch_insn(struct vm *vm, uint8_t *buf)
{
	uint64_t rip = vmread(VMCS_GUEST_RIP) + vmread(VMCS_GUEST_CS_BASE);
	size_t first = 4096 - (rip & 4095);

	if (first > INSN_MAX_LEN)
		first = INSN_MAX_LEN;
	if (vm_read_gva(vm, rip, buf, first))
		return 0;
	if (first < INSN_MAX_LEN &&
	    !vm_read_gva(vm, rip + first, buf + first, INSN_MAX_LEN - first))
		return INSN_MAX_LEN;
	return first;
}

static const char *access_name(uint64_t qual)
{
	return (qual & EPT_QUAL_WRITE) ? "write" :
	       (qual & EPT_QUAL_FETCH) ? "instruction fetch" : "read";
}

static enum exit_action unmapped(struct vm *vm, uint64_t gpa, uint64_t qual)
{
	kprintf("vm '%s': %s of unmapped guest-physical address %llx at rip "
		"%llx\n", vm->name, access_name(qual), (unsigned long long)gpa,
		(unsigned long long)vmread(VMCS_GUEST_RIP));
	vm_dump_regs(vm);
	vm_stop(vm, "access to unmapped guest-physical address %llx",
		(unsigned long long)gpa);
	return EXIT_STOP;
}

/* Write-protected RAM as a device whose registers are the page's bytes. */
static uint64_t wp_read(struct vm *vm, uint64_t off, unsigned size)
{
	uint64_t v = 0;

	vm_read_gpa(vm, off, &v, size);
	return v;
}

/* The store lands in RAM; vm_write_gpa tells the mediator that protected
 * the page (a shadowed GPU page table). */
static void wp_write(struct vm *vm, uint64_t off, unsigned size, uint64_t val)
{
	vm_write_gpa(vm, off, &val, size);
}

static const struct mmio_region wp_ram = {
	"write-protected RAM", 0, 0, wp_read, wp_write,
	NULL,
};

/* The linear address the instruction accesses, in 64-bit mode (where only
 * FS and GS have a base); elsewhere unknown. */
static bool insn_linear(const struct mmio_insn *insn,
			const struct guest_regs *r, uint64_t *lin)
{
	struct guest_regs live = *r;
	uint64_t base = 0;

	if (guest_mode() != INSN_MODE_64)
		return false;
	live.rsp = vmread(VMCS_GUEST_RSP);	/* the VMCS holds it */
	if (!mmio_insn_ea(insn, &live, vmread(VMCS_GUEST_RIP) + insn->len,
			  lin))
		return false;
	if (insn->seg == INSN_SEG_FS)
		base = vmread(VMCS_GUEST_FS_BASE);
	else if (insn->seg == INSN_SEG_GS)
		base = vmread(VMCS_GUEST_GS_BASE);
	*lin += base;
	return true;
}

/* An access that is not one device access: hardware would split it or
 * walk through it; we do neither, and say so. */
static enum exit_action refuse(struct vm *vm, const char *why,
			       const struct mmio_region *reg, uint64_t gpa,
			       uint64_t qual)
{
	vm_dump_regs(vm);
	vm_stop(vm, "%s of %s at %llx by %s: not emulated", access_name(qual),
		reg->name, (unsigned long long)gpa, why);
	return EXIT_STOP;
}

static bool is_vec(const struct mmio_insn *insn)
{
	return insn->kind == INSN_VEC_LOAD || insn->kind == INSN_VEC_STORE;
}

/* One device access of the instruction's width (1-8 bytes), or the pieces
 * of an SSE move (mmio_vec.c). */
static void access_device(struct vm *vm, const struct mmio_region *reg,
			  uint64_t gpa, const struct mmio_insn *insn,
			  bool write)
{
	struct guest_regs *r = &vm->vcpu.regs;

	if (is_vec(insn))
		mmio_vec_access(vm, reg, gpa, insn);
	else if (write)
		reg->write(vm, gpa - reg->gpa, insn->size,
			   mmio_insn_store_value(insn, r));
	else
		mmio_insn_complete_load(insn, r,
					reg->read(vm, gpa - reg->gpa,
						  insn->size));
}

static enum exit_action emulate_mmio(struct vm *vm,
				     const struct mmio_region *reg,
				     uint64_t gpa, uint64_t qual)
{
	struct guest_regs *r = &vm->vcpu.regs;
	uint8_t buf[INSN_MAX_LEN];
	struct mmio_insn insn;
	size_t len = fetch_insn(vm, buf);
	unsigned want = (qual & EPT_QUAL_WRITE) ? MMIO_ACCESS_WRITE
						: MMIO_ACCESS_READ;
	int err = len ? insn_decode(buf, len, guest_mode(), &insn) : -HV_EFAULT;
	struct mmio_access acc = { 0 };
	const char *edge;

	/* The decode must agree with what the CPU saw; MOVS (memory on both
	 * sides) is beyond this emulator. */
	if (err || !(mmio_insn_access(&insn) & want) ||
	    insn.kind == INSN_MOVS) {
		vm_dump_regs(vm);
		vm_stop(vm, "cannot emulate %s of %s at %llx (instruction %02x "
			"%02x %02x, decode %d)", access_name(qual), reg->name,
			(unsigned long long)gpa, buf[0], buf[1], buf[2], err);
		return EXIT_STOP;
	}
	acc.qual = qual;
	acc.gla = vmread(VMCS_GUEST_LINEAR_ADDRESS);
	acc.gpa = gpa;
	acc.size = insn.size;
	acc.have_ea = insn_linear(&insn, r, &acc.ea);
	/* What the CPU checks before touching memory comes first. */
	if (mmio_vec_fault(vm, &insn, acc.have_ea ? acc.ea : acc.gla))
		return EXIT_RESUME;
	edge = mmio_span_problem(&acc, reg->gpa, reg->size);
	if (edge)
		return refuse(vm, edge, reg, gpa, qual);
	access_device(vm, reg, gpa, &insn, want == MMIO_ACCESS_WRITE);
	if (mmio_insn_string_step(&insn, r,
				  vmread(VMCS_GUEST_RFLAGS) & RFLAGS_DF))
		vmwrite(VMCS_GUEST_RIP, vmread(VMCS_GUEST_RIP) + insn.len);
	return EXIT_RESUME;
}

enum exit_action handle_ept_violation(struct vm *vm, const struct vm_exit *ex)
{
	uint64_t gpa = vmread(VMCS_GUEST_PHYSICAL_ADDRESS);
	const struct mmio_region *reg;
	struct ept_xlat x;
	unsigned need = (ex->qual & EPT_QUAL_WRITE) ? EPT_W :
			(ex->qual & EPT_QUAL_FETCH) ? EPT_X : EPT_R;
	bool mapped = !vm_ept_translate(vm, gpa, &x);

	/* First: a page mapped since the access (an aperture page the
	 * ladder just mapped) takes the access itself on resume. */
	const char *walk;

	if (mapped && (x.perms & need) == need)
		return EXIT_RESUME;	/* stale translation, flushed */
	reg = mmio_find(vm, gpa);
	walk = mmio_walk_problem(ex->qual);
	if (reg && reg->fault && !mapped && !walk) {
		reg->fault(vm, gpa - reg->gpa);
		if (!vm_ept_translate(vm, gpa, &x) && (x.perms & need) == need)
			return EXIT_RESUME;	/* mapped on demand */
	}
	if (walk && (mapped || reg))
		return refuse(vm, walk, reg ? reg : &wp_ram, gpa, ex->qual);
	if (reg)
		return emulate_mmio(vm, reg, gpa, ex->qual);
	if (mapped && need == EPT_W && (x.perms & EPT_R))
		return emulate_mmio(vm, &wp_ram, gpa, ex->qual);
	/* The PC's device window below 4 GiB with no device there: an empty
	 * bus (OSes probe it), unless the guest executes from it. Elsewhere
	 * an access to nothing is a wild pointer: the VM stops. */
	if (!mapped && need != EPT_X && gpa >= MMIO_HOLE_BASE &&
	    gpa < MMIO_HOLE_END && gpa >= vm->mem_bytes)
		return emulate_mmio(vm, &mmio_unclaimed, gpa, ex->qual);
	return unmapped(vm, gpa, ex->qual);
}

/* Our EPT entries are wrong: a hypervisor bug, but only this VM's. */
enum exit_action handle_ept_misconfig(struct vm *vm, const struct vm_exit *ex)
{
	(void)ex;
	vm_stop(vm, "EPT misconfiguration at guest-physical %llx (a "
		"hypervisor bug)",
		(unsigned long long)vmread(VMCS_GUEST_PHYSICAL_ADDRESS));
	return EXIT_STOP;
}
