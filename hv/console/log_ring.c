#include "hv/console/log_ring.h"

void log_ring_init(struct log_ring *r, char *buf, size_t size)
{
	r->buf = buf;
	r->size = size;
	r->head = 0;
}

void log_ring_write(struct log_ring *r, const char *s, size_t n)
{
	/* Only the last `size` bytes of a huge write can survive anyway. */
	if (n > r->size) {
		r->head += n - r->size;
		s += n - r->size;
		n = r->size;
	}
	for (size_t i = 0; i < n; i++)
		r->buf[(r->head + i) % r->size] = s[i];
	r->head += n;
}

size_t log_ring_used(const struct log_ring *r)
{
	return r->head < r->size ? (size_t)r->head : r->size;
}

size_t log_ring_read(const struct log_ring *r, size_t from, char *out, size_t n)
{
	size_t used = log_ring_used(r);
	uint64_t oldest = r->head - used;
	size_t i;

	if (from >= used)
		return 0;
	if (n > used - from)
		n = used - from;
	for (i = 0; i < n; i++)
		out[i] = r->buf[(oldest + from + i) % r->size];
	return n;
}

static char byte_at(const struct log_ring *r, size_t at)
{
	char c = 0;

	log_ring_read(r, at, &c, 1);
	return c;
}

size_t log_ring_line_start(const struct log_ring *r, size_t end,
			   unsigned lines)
{
	size_t pos = end;
	unsigned seen = 0;

	if (!lines)
		return end;
	if (pos && byte_at(r, pos - 1) == '\n')
		pos--;		/* the last line's own terminator */
	for (; pos > 0; pos--)
		if (byte_at(r, pos - 1) == '\n' && ++seen == lines)
			return pos;
	return 0;
}
