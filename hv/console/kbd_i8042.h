/* Polled PC keyboard on the i8042 controller (ports 0x60/0x64): the console's
 * input on a PC without COM1. A PS/2 keyboard talks to it directly; a USB
 * keyboard does only while the firmware's legacy USB emulation (SMM) is on,
 * which many PC firmwares keep after boot services until an OS takes the
 * xHCI controller (g9hv never does). UEFI's own keyboard input is gone
 * after ExitBootServices. */
#ifndef HV_KBD_I8042_H
#define HV_KBD_I8042_H

#include <stdbool.h>
#include <stdint.h>

/* Finds the controller (status port not floating), drains it, turns its
 * interrupts off (we poll) and scancode translation on (set 1). False when
 * there is no controller or it does not answer. */
bool kbd_i8042_init(void);
/* The next byte typed, as a terminal would send it; never blocks. */
bool kbd_i8042_getc(uint8_t *out);
/* A hotkey pressed since the last call (enum kbd_hotkey), or 0; reads
 * what the controller holds, keeping typed bytes for kbd_i8042_getc. */
unsigned kbd_i8042_hotkey(void);

#endif
