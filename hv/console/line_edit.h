/* Line editing for the serial console: a byte-at-a-time state machine so it
 * can be fed from a polled UART between VM slices. Pure (host-tested): output
 * goes through the echo callback. */
#ifndef HV_LINE_EDIT_H
#define HV_LINE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#define LINE_EDIT_MAX 128
#define LINE_EDIT_HISTORY 8

struct line_edit {
	char buf[LINE_EDIT_MAX];
	size_t len;
	int esc;          /* 0, or progress through an ESC [ x sequence */
	bool last_cr;     /* swallow the LF of a CR LF pair */
	char hist[LINE_EDIT_HISTORY][LINE_EDIT_MAX];
	unsigned hist_count; /* lines ever stored */
	unsigned hist_pos;   /* browsing offset from newest, 0 = not browsing */
	void (*echo)(void *ctx, const char *s, size_t n);
	void *ctx;
	unsigned dropped; /* bytes refused because the line was full */
};

void line_edit_init(struct line_edit *le,
		    void (*echo)(void *ctx, const char *s, size_t n), void *ctx);
/* Feeds one byte. Returns true when a line is complete: it is then in
 * le->buf (NUL-terminated) until the next call. */
bool line_edit_feed(struct line_edit *le, char c);

#endif
