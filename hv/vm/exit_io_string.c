/* INS and OUTS, with or without REP (SDM Vol. 2 "INS", "OUTS"; the exit
 * information in SDM Vol. 3C 28.2.5, Table 28-8).
 *
 * Each element goes between the port's device and guest memory at
 * segment base + RDI (INS, always ES) or + RSI (OUTS, DS or an override),
 * through the guest's page tables. One exit does at most STRIO_CHUNK
 * elements (hv/vm/strio.h); if more remain, RIP stays so the instruction
 * exits again with the count left (the guest sees an interruptible REP,
 * as on hardware), and the scheduler may run another VM in between. A
 * fault on guest memory stops the VM: our devices do not take string I/O
 * into unmapped buffers. */
#include "hv/hv_errno.h"
#include "hv/vm/exit_io_string.h"
#include "hv/vm/strio.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vm_mem.h"
#include "hv/vmx/vmx_insn.h"

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

static int guest_bytes(struct vm *vm, uint64_t gpa, void *buf, unsigned n,
		       bool write)
{
	return write ? vm_write_gpa(vm, gpa, buf, n) : vm_read_gpa(vm, gpa, buf, n);
}

/* Guest memory by linear address, one element: one translation, or byte
 * by byte when it straddles a page. */
static int guest_mem(struct vm *vm, uint64_t gva, void *buf, unsigned size,
		     bool write)
{
	uint64_t gpa;

	if ((gva & 4095) + size <= 4096) {
		int err = vm_gva_to_gpa(vm, gva, &gpa);

		return err ? err : guest_bytes(vm, gpa, buf, size, write);
	}
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
	struct guest_regs *r = &vm_vcpu(vm)->regs;
	uint32_t info = (uint32_t)vmread(VMCS_EXIT_INSTRUCTION_INFO);
	unsigned asz = INFO_ADDR_SIZE(info), size = IO_QUAL_SIZE(qual);
	bool in = qual & IO_QUAL_IN;
	uint16_t port = IO_QUAL_PORT(qual);
	uint64_t *idx = in ? &r->rdi : &r->rsi;
	uint64_t base = seg_base(in ? 0 : INFO_SEG(info));
	struct strio s = {
		.idx = *idx, .rcx = r->rcx, .rep = qual & IO_QUAL_REP,
		.amask = asz == 0 ? 0xffff : asz == 1 ? 0xffffffffull : ~0ull,
		.step = (vmread(VMCS_GUEST_RFLAGS) & RFLAGS_DF) ? -(int64_t)size
							       : (int64_t)size,
	};
	uint64_t n = strio_chunk(&s);

	for (uint64_t done = 0; done < n; done++) {
		uint32_t val = 0xffffffffu;
		uint64_t gva = base + (s.idx & s.amask);

		if (!in && guest_mem(vm, gva, &val, size, false))
			goto fault;
		if (dev)
			dev->io(vm, port, size, in, &val);
		else if (done == 0)
			vm_event(vm, VM_EV_UNCLAIMED_IO, "string %s port %x: "
				 "unclaimed", in ? "in from" : "out to", port);
		if (in && guest_mem(vm, gva, &val, size, true))
			goto fault;
		strio_advance(&s);
		*idx = s.idx;
		r->rcx = s.rcx;
	}
	if (!strio_left(&s) || !s.rep)
		vcpu_skip_insn();
	return EXIT_RESUME;
fault:
	vm_stop(vm, "%s port %x with a buffer at unmapped guest address "
		"%llx", in ? "INS from" : "OUTS to", port,
		(unsigned long long)(base + (s.idx & s.amask)));
	return EXIT_STOP;
}
