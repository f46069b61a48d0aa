/* I/O instructions (exit reason 30). The I/O bitmaps send every port here;
 * a small table says which virtual device owns which ports. Unclaimed
 * ports behave like an empty ISA bus (reads all ones, writes vanish) and
 * are counted. */
#include "hv/vm/vcpu.h"
#include "hv/vm/vmexit.h"
#include "hv/vm/vpci.h"
#include "hv/vm/vuart.h"
#include "hv/vmx/vmx_insn.h"

#define POST_PORT 0x80	/* POST codes; Linux also uses it as a delay */

typedef void (*port_fn)(struct vm *vm, uint16_t port, unsigned size, bool in,
			uint32_t *val);

static void uart_port(struct vm *vm, uint16_t port, unsigned size, bool in,
		      uint32_t *val)
{
	(void)size;
	vuart_io(vm, port - VUART_BASE, in, val);
}

static void ignore_port(struct vm *vm, uint16_t port, unsigned size, bool in,
			uint32_t *val)
{
	(void)vm;
	(void)port;
	(void)size;
	if (in)
		*val = 0xffffffffu;
}

static const struct {
	uint16_t first, last;
	port_fn fn;
} port_table[] = {
	{ VUART_BASE, VUART_BASE + VUART_PORTS - 1, uart_port },
	{ VPCI_ADDR_PORT, VPCI_DATA_PORT + 3, vpci_io },
	{ POST_PORT, POST_PORT, ignore_port },
};

static port_fn find_port(uint16_t port)
{
	for (unsigned i = 0; i < sizeof(port_table) / sizeof(port_table[0]); i++)
		if (port >= port_table[i].first && port <= port_table[i].last)
			return port_table[i].fn;
	return NULL;
}

enum exit_action handle_io(struct vm *vm, const struct vm_exit *ex)
{
	uint16_t port = IO_QUAL_PORT(ex->qual);
	unsigned size = IO_QUAL_SIZE(ex->qual);
	bool in = ex->qual & IO_QUAL_IN;
	struct guest_regs *r = &vm->vcpu.regs;
	uint64_t mask = size == 1 ? 0xff : size == 2 ? 0xffff : 0xffffffff;
	uint32_t val = in ? 0xffffffffu : (uint32_t)(r->rax & mask);
	port_fn fn = find_port(port);

	if (ex->qual & IO_QUAL_STRING) {
		/* INS/OUTS: no device of ours is used that way. */
		vm_event(vm, VM_EV_UNCLAIMED_IO, "string I/O on port %x not "
			 "emulated (skipped)", port);
		vcpu_skip_insn();
		return EXIT_RESUME;
	}
	if (fn) {
		fn(vm, port, size, in, &val);
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
