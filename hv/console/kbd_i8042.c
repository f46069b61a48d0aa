/* i8042 keyboard controller, polled. Ports and bits as in the IBM PC/AT
 * technical reference (8042 status register, controller command byte). */
#include "hv/console/kbd_i8042.h"
#include "hv/console/kbd_scancode.h"
#include "hv/cpu/x86.h"

#define I8042_DATA 0x60
#define I8042_STATUS 0x64	/* read */
#define I8042_CMD 0x64		/* write */

#define ST_OUT_FULL 0x01	/* a byte waits at 0x60 */
#define ST_IN_FULL 0x02		/* the controller has not taken our byte */
#define ST_AUX 0x20		/* the waiting byte is from the mouse */

#define CMD_READ_CFG 0x20
#define CMD_WRITE_CFG 0x60
#define CFG_KBD_IRQ 0x01
#define CFG_AUX_IRQ 0x02
#define CFG_KBD_DISABLED 0x10
#define CFG_TRANSLATE 0x40

/* About 0.1 s on hardware (an I/O port read takes ~1 us). */
#define SPIN 100000
#define DRAIN_MAX 32

static bool present;
static struct kbd_state state;
static uint8_t pending[KBD_OUT_MAX];
static unsigned pending_n, pending_at;

static bool wait_status(uint8_t bit, bool set)
{
	for (int i = 0; i < SPIN; i++) {
		if (!!(inb(I8042_STATUS) & bit) == set)
			return true;
		cpu_relax();
	}
	return false;
}

static void drain(void)
{
	for (int i = 0; i < DRAIN_MAX && (inb(I8042_STATUS) & ST_OUT_FULL); i++)
		(void)inb(I8042_DATA);
}

static bool write_cmd(uint8_t cmd)
{
	if (!wait_status(ST_IN_FULL, false))
		return false;
	outb(I8042_CMD, cmd);
	return true;
}

bool kbd_i8042_init(void)
{
	uint8_t cfg, want;

	/* No controller: the status port floats to all ones. */
	if (inb(I8042_STATUS) == 0xff)
		return false;
	drain();
	if (!write_cmd(CMD_READ_CFG) || !wait_status(ST_OUT_FULL, true))
		return false;
	cfg = inb(I8042_DATA);
	want = (uint8_t)((cfg | CFG_TRANSLATE) &
			 ~(CFG_KBD_IRQ | CFG_AUX_IRQ | CFG_KBD_DISABLED));
	if (want != cfg) {
		if (!write_cmd(CMD_WRITE_CFG) ||
		    !wait_status(ST_IN_FULL, false))
			return false;
		outb(I8042_DATA, want);
	}
	present = true;
	return true;
}

/* Reads scancodes until one makes bytes or the controller is empty. */
static void pump(void)
{
	uint8_t st, code;

	while (present && pending_at == pending_n) {
		st = inb(I8042_STATUS);
		if (!(st & ST_OUT_FULL))
			return;
		code = inb(I8042_DATA);
		if (st & ST_AUX)
			continue;	/* mouse bytes are not ours */
		pending_n = kbd_scancode(&state, code, pending);
		pending_at = 0;
	}
}

bool kbd_i8042_getc(uint8_t *out)
{
	pump();
	if (!present || pending_at == pending_n)
		return false;
	*out = pending[pending_at++];
	return true;
}

unsigned kbd_i8042_hotkey(void)
{
	unsigned k;

	pump();
	k = state.hotkey;
	state.hotkey = 0;
	return k;
}
