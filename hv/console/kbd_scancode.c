/* Set-1 scancodes to terminal bytes (see kbd_scancode.h). Key numbers from
 * the IBM PC/AT technical reference's scan code set 1 table. */
#include "hv/console/kbd_scancode.h"
#include "mini/string.h"

#define SC_CTRL 0x1d
#define SC_LSHIFT 0x2a
#define SC_RSHIFT 0x36
#define SC_CAPS 0x3a
#define SC_F11 0x57
#define SC_F12 0x58
#define SC_RELEASE 0x80
#define SC_E0 0xe0
#define SC_E1 0xe1
#define PAUSE_TAIL 5		/* E1 1D 45 E1 9D C5: five bytes after E1 */

/* Index = scancode; '\0' = no byte (modifiers, unused). */
static const char plain[] =
	"\0\x1b" "1234567890-=" "\b\t" "qwertyuiop[]" "\r\0"
	"asdfghjkl;'`" "\0\\" "zxcvbnm,./" "\0*\0 ";
static const char shifted[] =
	"\0\x1b" "!@#$%^&*()_+" "\b\t" "QWERTYUIOP{}" "\r\0"
	"ASDFGHJKL:\"~" "\0|" "ZXCVBNM<>?" "\0*\0 ";

_Static_assert(sizeof(plain) == sizeof(shifted), "key tables differ");

/* Keys behind the E0 prefix that a terminal has bytes for. */
static const struct {
	uint8_t code;
	const char *bytes;
} extended[] = {
	{ 0x1c, "\r" },		/* keypad Enter */
	{ 0x35, "/" },		/* keypad / */
	{ 0x48, "\x1b[A" },	/* up */
	{ 0x50, "\x1b[B" },	/* down */
	{ 0x4d, "\x1b[C" },	/* right */
	{ 0x4b, "\x1b[D" },	/* left */
	{ 0x47, "\x1b[H" },	/* home */
	{ 0x4f, "\x1b[F" },	/* end */
	{ 0x53, "\x1b[3~" },	/* delete */
};

static unsigned copy_out(const char *bytes, uint8_t *out)
{
	size_t n = strlen(bytes);

	memcpy(out, bytes, n);
	return (unsigned)n;
}

static unsigned extended_key(struct kbd_state *s, uint8_t code, uint8_t *out)
{
	bool release = code & SC_RELEASE;

	code &= (uint8_t)~SC_RELEASE;
	if (code == SC_CTRL) {		/* right Ctrl */
		s->ctrl = !release;
		return 0;
	}
	if (release)
		return 0;
	for (unsigned i = 0; i < sizeof(extended) / sizeof(extended[0]); i++)
		if (extended[i].code == code)
			return copy_out(extended[i].bytes, out);
	return 0;			/* E0 2A (fake shift), right Alt, ... */
}

static bool modifier(struct kbd_state *s, uint8_t key, bool down)
{
	switch (key) {
	case SC_LSHIFT: s->shift_l = down; return true;
	case SC_RSHIFT: s->shift_r = down; return true;
	case SC_CTRL: s->ctrl = down; return true;
	case SC_CAPS: if (down) s->caps = !s->caps; return true;
	default: return false;
	}
}

unsigned kbd_scancode(struct kbd_state *s, uint8_t code,
		      uint8_t out[KBD_OUT_MAX])
{
	uint8_t key = code & (uint8_t)~SC_RELEASE;
	bool down = !(code & SC_RELEASE), shift;
	char c;

	if (s->skip) {
		s->skip--;
		return 0;
	}
	if (code == SC_E1) {
		s->skip = PAUSE_TAIL;
		return 0;
	}
	if (code == SC_E0) {
		s->e0 = true;
		return 0;
	}
	if (s->e0) {
		s->e0 = false;
		return extended_key(s, code, out);
	}
	if (down && (key == SC_F11 || key == SC_F12)) {
		s->hotkey = key == SC_F11 ? KBD_HOTKEY_CONSOLE : KBD_HOTKEY_NEXT;
		return 0;
	}
	if (modifier(s, key, down) || !down || key >= sizeof(plain) - 1)
		return 0;
	shift = s->shift_l || s->shift_r;
	c = plain[key];
	if (c >= 'a' && c <= 'z') {
		if (s->ctrl) {
			out[0] = (uint8_t)(c & 0x1f);	/* Ctrl-A = 0x01 */
			return 1;
		}
		shift ^= s->caps;
	}
	c = shift ? shifted[key] : plain[key];
	if (!c)
		return 0;
	out[0] = (uint8_t)c;
	return 1;
}
