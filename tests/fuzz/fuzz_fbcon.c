/* libFuzzer target for the screen console: hv/console/fbcon.c draws whatever the
 * console prints, which includes a Linux guest's serial output when the
 * console is attached to it (escape sequences, UTF-8, any byte), and
 * hv/console/kbd_scancode.c decodes whatever the keyboard controller delivers.
 *
 * Input: 2 bytes of width, 2 of height, 1 of pitch padding (all small),
 * then bytes printed and, the same bytes again, fed as scancodes. The
 * framebuffer is allocated exactly (ASan) with guard bytes after each row's
 * pixels; the cursor must stay on the grid, every drawn cell must hold a
 * glyph, and a scancode never yields more than KBD_OUT_MAX bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/console/fbcon.h"
#include "hv/console/fbcon_font.h"
#include "hv/console/kbd_scancode.h"

#define GUARD 0x5a

static struct fbcon con;

static void check_guards(const uint8_t *mem, uint32_t w, uint32_t h,
			 uint32_t pitch)
{
	for (uint32_t y = 0; y < h; y++)
		for (uint32_t b = w * 4; b < pitch; b++)
			if (mem[(size_t)y * pitch + b] != GUARD)
				abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kbd_state ks = { 0 };
	uint8_t out[KBD_OUT_MAX];
	struct fbcon_fb fb;
	uint32_t w, h, pitch;
	uint8_t *mem;

	if (size < 5)
		return 0;
	w = (uint32_t)(data[0] | data[1] << 8) % 400;
	h = (uint32_t)(data[2] | data[3] << 8) % 300;
	pitch = w * 4 + data[4] % 16;
	data += 5;
	size -= 5;
	mem = malloc((size_t)pitch * h + 1);
	if (!mem)
		return 0;
	memset(mem, GUARD, (size_t)pitch * h + 1);
	fb = (struct fbcon_fb){ .base = mem, .width = w, .height = h,
				.pitch = pitch, .red_mask = 0xff0000,
				.green_mask = 0xff00, .blue_mask = 0xff };
	if (fbcon_init(&con, &fb, 0xaaaaaa, 0) == 0) {
		fbcon_write(&con, (const char *)data, size);
		if (con.cy >= con.rows || con.cx > con.cols)
			abort();
		for (unsigned r = 0; r < con.rows; r++)
			for (unsigned c = 0; c < con.cols; c++)
				if ((unsigned char)con.shown[r][c] < FONT_FIRST ||
				    (unsigned char)con.shown[r][c] > FONT_LAST)
					abort();
		check_guards(mem, w, h, pitch);
	}
	free(mem);
	for (size_t i = 0; i < size; i++)
		if (kbd_scancode(&ks, data[i], out) > KBD_OUT_MAX)
			abort();
	return 0;
}
