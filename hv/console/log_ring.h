/* A byte ring that keeps the most recent console output, so the shell's `log`
 * command can show what scrolled past (or what was printed before the serial
 * cable was plugged in). Pure data structure: host-tested. */
#ifndef HV_LOG_RING_H
#define HV_LOG_RING_H

#include <stddef.h>
#include <stdint.h>

struct log_ring {
	char *buf;
	size_t size;    /* capacity in bytes */
	uint64_t head;  /* total bytes ever written; write position = head % size */
};

void log_ring_init(struct log_ring *r, char *buf, size_t size);
void log_ring_write(struct log_ring *r, const char *s, size_t n);
/* Bytes currently held (min(head, size)). */
size_t log_ring_used(const struct log_ring *r);
/* Copies held bytes starting at `from` (0 = oldest held) into out; returns
 * the number copied. Lets a reader walk the ring in chunks. */
size_t log_ring_read(const struct log_ring *r, size_t from, char *out, size_t n);
/* Where the last `lines` lines before offset `end` begin (a line ends with
 * '\n'; a '\n' at end - 1 ends the last of them). 0 when fewer are held:
 * lets a reader show the end of the log page by page. */
size_t log_ring_line_start(const struct log_ring *r, size_t end,
			   unsigned lines);

#endif
