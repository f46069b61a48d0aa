/* hv/shell/screen_ppm.c alone: the marker lines, 64-character base64
 * lines, the P6 header, padding, pixels fed in odd pieces giving the
 * same text as all at once; decoded back, the bytes are the picture. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hv/shell/screen_ppm.h"

struct sink {
	char buf[65536];
	size_t len;
	unsigned calls;
};

static void emit(void *arg, const char *s, size_t n)
{
	struct sink *k = arg;

	assert_true(k->len + n < sizeof(k->buf));
	memcpy(k->buf + k->len, s, n);
	k->len += n;
	k->buf[k->len] = 0;
	k->calls++;
}

static int b64val(char c)
{
	const char *a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = strchr(a, c);

	return c && p ? (int)(p - a) : -1;
}

/* The block's payload decoded; asserts every line's shape. */
static size_t decode(const char *text, uint8_t *out, size_t cap, char *begin,
		     size_t begin_cap)
{
	const char *nl = strchr(text, '\n'), *line;
	size_t n = 0;
	uint32_t acc = 0;
	unsigned bits = 0;

	assert_non_null(nl);
	assert_true((size_t)(nl - text) < begin_cap);
	memcpy(begin, text, (size_t)(nl - text));
	begin[nl - text] = 0;
	for (line = nl + 1; strncmp(line, "-----END PPM-----\n", 18); line = nl + 1) {
		size_t len;

		nl = strchr(line, '\n');
		assert_non_null(nl);
		len = (size_t)(nl - line);
		assert_true(len > 0 && len <= PPM_LINE_CHARS && len % 4 == 0);
		for (size_t i = 0; i < len; i++) {
			int v = b64val(line[i]);

			if (line[i] == '=') {
				assert_ptr_equal(nl, line + len); /* padding only at the end */
				continue;
			}
			assert_true(v >= 0);
			acc = acc << 6 | (uint32_t)v;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				assert_true(n < cap);
				out[n++] = (uint8_t)(acc >> bits);
			}
		}
	}
	assert_string_equal(line, "-----END PPM-----\n");
	return n;
}

static void test_roundtrip(void **state)
{
	static struct sink k;
	struct ppm_out o;
	uint32_t px[7 * 5];
	uint8_t out[4096];
	char begin[80];
	size_t n, i;

	(void)state;
	memset(&k, 0, sizeof(k));
	for (i = 0; i < 35; i++)
		px[i] = (uint32_t)(i * 0x030507u) & 0xffffffu;
	ppm_begin(&o, emit, &k, "vm1", 7, 5);
	ppm_pixels(&o, px, 35);
	ppm_end(&o);
	n = decode(k.buf, out, sizeof(out), begin, sizeof(begin));
	assert_string_equal(begin, "-----BEGIN PPM vm1 7x5-----");
	assert_int_equal(n, strlen("P6\n7 5\n255\n") + 35 * 3);
	assert_memory_equal(out, "P6\n7 5\n255\n", 11);
	for (i = 0; i < 35; i++) {
		assert_int_equal(out[11 + 3 * i], (px[i] >> 16) & 0xff);
		assert_int_equal(out[11 + 3 * i + 1], (px[i] >> 8) & 0xff);
		assert_int_equal(out[11 + 3 * i + 2], px[i] & 0xff);
	}
	assert_int_equal(o.bytes, n);
}

/* Fed one pixel at a time or in uneven pieces: the same text. */
static void test_pieces_same_text(void **state)
{
	static struct sink a, b;
	struct ppm_out o;
	uint32_t px[100];
	size_t i;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (i = 0; i < 100; i++)
		px[i] = (uint32_t)(i * 2654435761u) & 0xffffffu;
	ppm_begin(&o, emit, &a, "gop", 10, 10);
	ppm_pixels(&o, px, 100);
	ppm_end(&o);
	ppm_begin(&o, emit, &b, "gop", 10, 10);
	for (i = 0; i < 100;) {
		size_t n = (i % 3) + 1;

		n = n < 100 - i ? n : 100 - i;
		ppm_pixels(&o, px + i, n);
		i += n;
	}
	ppm_end(&o);
	assert_string_equal(a.buf, b.buf);
}

/* Padding: "P6\n1 1\n255\n" is 11 bytes, + 3 = 14: one '='; "P6\n10 10\n255\n"
 * is 13, + 300 = 313: "==". The name stops at a space. */
static void test_padding_and_name(void **state)
{
	static struct sink k;
	static uint32_t px[100];
	struct ppm_out o;
	const char *last;

	(void)state;
	memset(&k, 0, sizeof(k));
	px[0] = 0xffffff;
	ppm_begin(&o, emit, &k, "a b", 1, 1);
	ppm_pixels(&o, px, 1);
	ppm_end(&o);
	assert_non_null(strstr(k.buf, "-----BEGIN PPM a 1x1-----\n"));
	last = strstr(k.buf, "\n-----END");
	assert_non_null(last);
	assert_true(last[-1] == '=' && last[-2] != '=');
	memset(&k, 0, sizeof(k));
	ppm_begin(&o, emit, &k, "x", 10, 10);
	ppm_pixels(&o, px, 100);
	ppm_end(&o);
	last = strstr(k.buf, "\n-----END");
	assert_true(last[-1] == '=' && last[-2] == '=' && last[-3] != '=');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_pieces_same_text),
		cmocka_unit_test(test_padding_and_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
