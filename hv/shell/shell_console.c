/* The attached console; see shell_console.h. */
#include "hv/shell/shell_console.h"
#include "hv/console/console.h"
#include "hv/shell/attach_keys.h"
#include "hv/shell/shell.h"
#include "hv/vm/vm.h"
#include "hv/vm/vuart.h"

static struct vm *attached;
static struct attach_keys keys;

bool shell_console_attached(void)
{
	return attached != NULL;
}

int shell_console_attach(struct vm *vm)
{
	if (vm->state == VM_STOPPED) {
		kprintf("vm '%s' has stopped: nothing to attach to\n",
			vm->name);
		return -1;
	}
	/* Its UART is touched by the CPU that runs it only (docs/smp.md). */
	if (vm->cpu) {
		kprintf("vm '%s' runs on cpu %u: its console cannot be "
			"attached (a limit of this step)\n", vm->name, vm->cpu);
		return -1;
	}
	/* A half-printed line keeps its prefix: raw output starts after it. */
	vuart_flush(vm);
	kprintf("console: attached to vm '%s'; Ctrl-A then . detaches\n",
		vm->name);
	keys.esc = false;
	vm->uart.attached = true;
	attached = vm;
	return 0;
}

static void detach(const char *why)
{
	struct vm *vm = attached;

	vm->uart.attached = false;
	attached = NULL;
	kprintf("\nconsole: detached from vm '%s'%s\n", vm->name, why);
	shell_prompt();
}

/* Typed bytes move only while the VM's receive FIFO has room for what one
 * byte can release, so a fast typist (or a script) waits in the console's
 * input ring instead of overrunning the guest's UART. */
static void feed_vm(void)
{
	uint8_t c, out[ATTACH_MAX_OUT];
	unsigned n;

	while (attached && vuart_rx_room(attached) >= ATTACH_MAX_OUT &&
	       console_peekc(&c)) {
		console_getc(&c);
		if (attach_keys_feed(&keys, c, out, &n)) {
			detach("");
			return;
		}
		for (unsigned i = 0; i < n; i++)
			vuart_rx(attached, out[i]);
	}
}

bool shell_console_poll(void)
{
	if (!attached)
		return false;
	if (attached->state == VM_STOPPED) {
		detach(" (it stopped)");
		return false;
	}
	feed_vm();
	return attached != NULL;
}
