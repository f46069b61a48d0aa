/* The key handling of `console <vm>`, pure (unit test test_attach_keys).
 *
 * While the console is attached to a VM every typed byte goes to the VM's
 * UART except the detach sequence: Ctrl-A then '.'. Ctrl-C and Ctrl-] are
 * not taken: `make run`'s terminal client leaves on them, and the guest
 * wants Ctrl-C. Ctrl-A Ctrl-A sends one Ctrl-A; Ctrl-A followed by any
 * other byte sends both, so nothing typed is lost. */
#ifndef HV_SHELL_ATTACH_KEYS_H
#define HV_SHELL_ATTACH_KEYS_H

#include <stdbool.h>
#include <stdint.h>

#define ATTACH_ESC	0x01	/* Ctrl-A */
#define ATTACH_DETACH	'.'
/* The most bytes one typed byte can release to the VM. */
#define ATTACH_MAX_OUT	2

struct attach_keys {
	bool esc;	/* Ctrl-A seen, waiting for the next byte */
};

/* Feeds one typed byte. Returns true when it completes the detach
 * sequence (nothing to send); otherwise out[0..*n) are the bytes to send to
 * the VM (0, 1 or 2). */
bool attach_keys_feed(struct attach_keys *k, uint8_t c,
		      uint8_t out[ATTACH_MAX_OUT], unsigned *n);

#endif
