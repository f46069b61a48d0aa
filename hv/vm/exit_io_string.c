/* INS and OUTS, with or without REP (SDM Vol. 2 "INS", "OUTS"; the exit
 * information in SDM Vol. 3C 28.2.5, Table 28-8).
 *
 * Each element goes between the port's device and guest memory at
 * segment base + RDI (INS, always ES) or + RSI (OUTS, DS or an override),
 * through the guest's page tables. With REP the whole count is done in
 * one exit, up to STRING_IO_BATCH elements; if more remain, RIP stays so
 * the instruction exits again (the guest sees an interruptible REP, as
 * on hardware). A fault on guest memory stops the VM: our devices do not
 * take string I/O into unmapped buffers. */
#include "hv/hv_errno.h"
#include "hv/vm/exit_io_string.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm_mem.h"
#include "hv/vmx/vmx_insn.h"

#define STRING_IO_BATCH	4096u
#define INFO_ADDR_SIZE(i)	(((i) >> 7) & 7)	/* 0: 16, 1: 32, 2: 64 */
#define INFO_SEG(i)		(((i) >> 15) & 7)	/* ES CS SS DS FS GS */

static const uint32_t seg_base_field[6] = {
	VMCS_GUEST_ES_BASE, VMCS_GUEST_CS_BASE, VMCS_GUEST_SS_BASE,
	VMCS_GUEST_DS_BASE, VMCS_GUEST_FS_BASE, VMCS_GUEST_GS_BASE,
};

#define AR_L		(1u << 13)	/* CS access rights: 64-bit code */

/* In 64-bit mode only FS and GS have a base (SDM 3.4.4). */
static uint64_t seg_base(unsigned seg)
{
	bool mode64 = (vmread(VMCS_GUEST_IA32_EFER) & EFER_LMA) &&
		      (vmread(VMCS_GUEST_CS_AR) & AR_L);

	if (seg >= 6 || (mode64 && seg < 4))
		return 0;
	return vmread(seg_base_field[seg]);
}

/* Guest memory by linear address, one element (which may straddle a
 * page: then byte by byte). */
static int guest_mem(struct vm *vm, uint64_t gva, void *buf, unsigned size,
		     bool write)
{
	for (unsigned i = 0; i < size; i++) {
		uint64_t gpa;
		int err = vm_gva_to_gpa(vm, gva + i, &gpa);

		if (!err)
			err = write ? vm_write_gpa(vm, gpa, (uint8_t *)buf + i, 1)
				    : vm_read_gpa(vm, gpa, (uint8_t *)buf + i, 1);
		if (err)
			return err;
	}
	return 0;
}

enum exit_action handle_io_string(struct vm *vm, uint64_t qual,
				  const struct pio_region *dev)
{
	struct guest_regs *r = &vm->vcpu.regs;
	uint32_t info = (uint32_t)vmread(VMCS_EXIT_INSTRUCTION_INFO);
	unsigned asz = INFO_ADDR_SIZE(info), size = IO_QUAL_SIZE(qual);
	uint64_t amask = asz == 0 ? 0xffff : asz == 1 ? 0xffffffffull : ~0ull;
	bool in = qual & IO_QUAL_IN, rep = qual & IO_QUAL_REP;
	uint16_t port = IO_QUAL_PORT(qual);
	uint64_t *idx = in ? &r->rdi : &r->rsi;
	unsigned seg = in ? 0 : INFO_SEG(info);
	uint64_t base = seg_base(seg);
	int64_t step = (vmread(VMCS_GUEST_RFLAGS) & RFLAGS_DF) ? -(int64_t)size
							       : (int64_t)size;
	uint64_t count = rep ? (r->rcx & amask) : 1;
	unsigned done = 0;

	for (; count && done < STRING_IO_BATCH; count--, done++) {
		uint32_t val = 0xffffffffu;
		uint64_t gva = base + (*idx & amask);

		if (!in && guest_mem(vm, gva, &val, size, false))
			goto fault;
		if (dev)
			dev->io(vm, port, size, in, &val);
		else if (done == 0)
			vm_event(vm, VM_EV_UNCLAIMED_IO, "string %s port %x: "
				 "unclaimed", in ? "in from" : "out to", port);
		if (in && guest_mem(vm, gva, &val, size, true))
			goto fault;
		*idx = (*idx & ~amask) | ((*idx + (uint64_t)step) & amask);
		if (rep)
			r->rcx = (r->rcx & ~amask) | ((r->rcx - 1) & amask);
	}
	if (!count)
		vcpu_skip_insn();
	return EXIT_RESUME;
fault:
	vm_stop(vm, "%s port %x with a buffer at unmapped guest address "
		"%llx", in ? "INS from" : "OUTS to", port,
		(unsigned long long)(base + (*idx & amask)));
	return EXIT_STOP;
}
