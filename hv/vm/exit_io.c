/* I/O instructions (exit reason 30). The I/O bitmaps send every port here;
 * the VM's device registry (hv/vm/mmio.h) says which device owns it. Unclaimed
 * ports behave like an empty ISA bus (reads all ones, writes vanish) and
 * are counted. */
#include "hv/vm/exit_io_string.h"
#include "hv/vm/vcpu.h"
#include "hv/vm/vuart.h"
#include "hv/vm/vmexit.h"
#include "hv/vmx/vmx_insn.h"

enum exit_action handle_io(struct vm *vm, const struct vm_exit *ex)
{
	uint16_t port = IO_QUAL_PORT(ex->qual);
	unsigned size = IO_QUAL_SIZE(ex->qual);
	bool in = ex->qual & IO_QUAL_IN;
	struct guest_regs *r = &vm_vcpu(vm)->regs;
	uint64_t mask = size == 1 ? 0xff : size == 2 ? 0xffff : 0xffffffff;
	uint32_t val = in ? 0xffffffffu : (uint32_t)(r->rax & mask);
	const struct pio_region *dev = pio_find(vm, port);

	/* The console's exits, counted apart (vm_report.c): a 16550
	 * console costs two per byte whatever the hypervisor does. */
	if (port >= VUART_BASE && port < VUART_BASE + 8)
		vm->stats.com1_io_exits++;
	if (ex->qual & IO_QUAL_STRING)
		return handle_io_string(vm, ex->qual, dev);
	if (dev) {
		dev->io(vm, port, size, in, &val);
	} else {
		vm_event(vm, VM_EV_UNCLAIMED_IO, "%s port %x (%u bytes): "
			 "unclaimed", in ? "in from" : "out to", port, size);
		val = 0xffffffffu;
	}
	if (in) {
		/* IN to AL/AX keeps the rest of RAX; IN to EAX zero-extends. */
		if (size == 4)
			r->rax = val;
		else
			r->rax = (r->rax & ~mask) | (val & mask);
	}
	vcpu_skip_insn();
	return EXIT_RESUME;
}
