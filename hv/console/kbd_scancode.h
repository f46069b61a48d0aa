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
	uint8_t hotkey;		/* enum kbd_hotkey pressed, 0: none */
};

/* Keys the hypervisor keeps for itself (no terminal bytes): who owns the
 * box's screen (hv/gpu/screen_compose.c, docs/display.md). */
enum kbd_hotkey {
	KBD_HOTKEY_CONSOLE = 1,	/* F11: back to the hypervisor console */
	KBD_HOTKEY_NEXT,	/* F12: the next owner, the console last */
};

#define KBD_OUT_MAX 4

/* Feeds one scancode byte; returns how many bytes it produced in out
 * (0 for key releases, modifiers and keys without a terminal byte). F11
 * and F12 produce none and set s->hotkey (the caller clears it). */
unsigned kbd_scancode(struct kbd_state *s, uint8_t code,
		      uint8_t out[KBD_OUT_MAX]);

#endif
