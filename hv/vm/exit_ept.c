/* EPT violation (48) and EPT misconfiguration (49).
 *
 * A violation is one of: a stale, more restrictive TLB entry (the access
 * is allowed now: resume, the exit itself flushed it, see ept.h); an
 * access to an emulated MMIO region (the instruction emulated,
 * mmio_access.h); a store to a write-protected RAM page (hv_ops wp_page:
 * the store is emulated into RAM, so the guest sees plain memory);
 * or an access to nothing at all, which no device can answer: that VM is
 * stopped with the address and the instruction. */
#include "hv/console/console.h"
#include "hv/hv_errno.h"
#include "hv/vm/mmio.h"
#include "hv/vm/mmio_edge.h"
#include "hv/vm/mmio_access.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm_mem.h"
#include "hv/vm/vmexit.h"
#include "hv/vmx/vmx_insn.h"

static enum exit_action unmapped(struct vm *vm, uint64_t gpa, uint64_t qual)
{
	kprintf("vm '%s': %s of unmapped guest-physical address %llx at rip "
		"%llx\n", vm->name, mmio_access_name(qual), (unsigned long long)gpa,
		(unsigned long long)vmread(VMCS_GUEST_RIP));
	vm_dump_regs(vm);
	vm_stop(vm, "access to unmapped guest-physical address %llx",
		(unsigned long long)gpa);
	return EXIT_STOP;
}

/* Write-protected RAM, by name: the emulator routes every part by its
 * address (mmio_access.c: RAM without EPT write, so the store goes through
 * vm_write_gpa and the device that protected the page hears of it). */
static const struct mmio_region wp_ram = {
	"write-protected RAM", 0, 0, NULL, NULL, NULL,
};

/* The CPU's own page walk through MMIO: no instruction made that access,
 * so there is nothing to emulate; say so. */
static enum exit_action refuse(struct vm *vm, const char *why,
			       const struct mmio_region *reg, uint64_t gpa,
			       uint64_t qual)
{
	vm_dump_regs(vm);
	vm_stop(vm, "%s of %s at %llx by %s: not emulated", mmio_access_name(qual),
		reg->name, (unsigned long long)gpa, why);
	return EXIT_STOP;
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
		return mmio_emulate(vm, reg, gpa, ex->qual);
	if (mapped && need == EPT_W && (x.perms & EPT_R))
		return mmio_emulate(vm, &wp_ram, gpa, ex->qual);
	/* The PC's device window below 4 GiB with no device there: an empty
	 * bus (OSes probe it), unless the guest executes from it. Elsewhere
	 * an access to nothing is a wild pointer: the VM stops. */
	if (!mapped && need != EPT_X && gpa >= MMIO_HOLE_BASE &&
	    gpa < MMIO_HOLE_END && !vm_ram_contains(&vm->ram_layout, gpa, 1))
		return mmio_emulate(vm, &mmio_unclaimed, gpa, ex->qual);
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
