/* Port 0x80, the POST-code port. Firmware writes boot progress there and
 * Linux uses `outb 0x80` as a short I/O delay; nothing reads it back on a
 * PC (reads float to all ones), so writes are dropped without counting:
 * they are expected, not a guest mistake. */
#include "hv/vm/vpost.h"

static void post_io(struct vm *vm, uint16_t port, unsigned size, bool in,
		    uint32_t *val)
{
	(void)vm;
	(void)port;
	(void)size;
	if (in)
		*val = 0xffffffffu;
}

const struct pio_region vpost_pio = { "POST", 0x80, 1, post_io };
