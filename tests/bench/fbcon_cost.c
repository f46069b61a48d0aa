/* fbcon_cost WIDTH HEIGHT LOG [REPEAT]: prints the console log LOG through
 * the framebuffer console (hv/console/fbcon.c, the code the hypervisor runs) on a
 * WIDTHxHEIGHT 32-bit framebuffer in memory, line by line as the console
 * hands it over, REPEAT times (default 20), and reports bytes, cells drawn
 * and scrolls. tools/fbcon-cost runs it under callgrind, counting only
 * fbcon_write, to give the instructions per character printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hv/console/fbcon.h"

static struct fbcon con;

int main(int argc, char **argv)
{
	struct fbcon_fb fb = { .red_mask = 0xff0000, .green_mask = 0xff00,
			       .blue_mask = 0xff };
	static char text[1 << 20];
	size_t len;
	FILE *f;
	int repeat = argc > 4 ? atoi(argv[4]) : 20;

	if (argc < 4) {
		fprintf(stderr, "usage: fbcon_cost WIDTH HEIGHT LOG [REPEAT]\n");
		return 2;
	}
	fb.width = (uint32_t)atoi(argv[1]);
	fb.height = (uint32_t)atoi(argv[2]);
	fb.pitch = fb.width * 4;
	fb.base = calloc((size_t)fb.pitch, fb.height);
	f = fopen(argv[3], "rb");
	if (!fb.base || !f)
		return 2;
	len = fread(text, 1, sizeof(text), f);
	fclose(f);
	if (fbcon_init(&con, &fb, 0xaaaaaa, 0))
		return 2;
	con.st.glyphs = 0;	/* count the log, not the clearing */
	for (int r = 0; r < repeat; r++)
		for (size_t at = 0; at < len;) {
			const char *nl = memchr(text + at, '\n', len - at);
			size_t n = nl ? (size_t)(nl - (text + at)) + 1 : len - at;

			fbcon_write(&con, text + at, n);
			at += n;
		}
	printf("%ux%u (%ux%u cells): %llu bytes, %llu cells drawn, %llu "
	       "scrolls\n", fb.width, fb.height, con.cols, con.rows,
	       (unsigned long long)con.st.bytes,
	       (unsigned long long)con.st.glyphs,
	       (unsigned long long)con.st.scrolls);
	free(fb.base);
	return 0;
}
