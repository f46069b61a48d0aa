/* PC keyboard scancodes (set 1, what the i8042 controller delivers with
 * translation on, as PC firmware leaves it) to the bytes a serial terminal
 * would send for the same keys, US layout. Pure: host-tested
 * (tests/unit/test_kbd_scancode.c); hv/console/kbd_i8042.c feeds it. */
#ifndef HV_KBD_SCANCODE_H
#define HV_KBD_SCANCODE_H

#include <stdbool.h>
#include <stdint.h>

struct kbd_state {
	bool shift_l, shift_r, ctrl, caps;
	bool e0;		/* the previous byte was the 0xE0 prefix */
	uint8_t skip;		/* bytes left of a Pause key sequence */
};

#define KBD_OUT_MAX 4

/* Feeds one scancode byte; returns how many bytes it produced in out
 * (0 for key releases, modifiers and keys without a terminal byte). */
unsigned kbd_scancode(struct kbd_state *s, uint8_t code,
		      uint8_t out[KBD_OUT_MAX]);

#endif
