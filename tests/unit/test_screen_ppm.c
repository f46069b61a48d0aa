/* hv/shell/screen_ppm.c alone: the marker lines, 64-character base64
 * lines, padding, pixels fed in odd pieces giving the same text as all
 * at once; decoded back (base64, then PackBits), the pixels are the
 * picture; runs make a screen of text small, literals keep noise at
 * raw size + 1/384. */
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
	char buf[131072];
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
	for (line = nl + 1; strncmp(line, "-----END RLE-----\n", 18); line = nl + 1) {
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
	assert_string_equal(line, "-----END RLE-----\n");
	return n;
}

/* PackBits over 3-byte pixels (screen_ppm.h) back to 0xRRGGBB; asserts
 * the code is whole and gives exactly n pixels. */
static void unpack(const uint8_t *b, size_t len, uint32_t *px, size_t n)
{
	size_t i = 0, got = 0;

	while (i < len) {
		unsigned c = b[i++], k, cnt = c < 128 ? c + 1 : c - 127;

		for (k = 0; k < cnt; k++) {
			const uint8_t *p = b + i + (c < 128 ? 0 : 3 * k);

			assert_true(p + 3 <= b + len && got < n);
			px[got++] = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
		}
		i += c < 128 ? 3 : 3 * cnt;
	}
	assert_int_equal(i, len);
	assert_int_equal(got, n);
}

/* Coded, decoded: the same pixels; returns the coded size. */
static size_t roundtrip(const uint32_t *px, size_t n, uint32_t w, uint32_t h)
{
	static struct sink k;
	static uint8_t out[60000];
	static uint32_t back[16384];
	struct ppm_out o;
	char begin[80], want[80];
	size_t len;

	assert_true(n <= 16384);
	memset(&k, 0, sizeof(k));
	ppm_begin(&o, emit, &k, "vm1", w, h);
	ppm_pixels(&o, px, n);
	ppm_end(&o);
	len = decode(k.buf, out, sizeof(out), begin, sizeof(begin));
	snprintf(want, sizeof(want), "-----BEGIN RLE vm1 %ux%u-----", w, h);
	assert_string_equal(begin, want);
	unpack(out, len, back, n);
	assert_memory_equal(back, px, n * sizeof(*px));
	assert_int_equal(o.bytes, len);
	assert_int_equal(o.pixels, n);
	return len;
}

static void test_roundtrip(void **state)
{
	uint32_t px[7 * 5];
	size_t i;

	(void)state;
	for (i = 0; i < 35; i++)
		px[i] = (uint32_t)(i * 0x030507u) & 0xffffffu;
	/* 35 different pixels: one literal, 1 + 105 bytes */
	assert_int_equal(roundtrip(px, 35, 7, 5), 106);
}

/* Runs and literals of every length around the 128 limits, mixed. */
static void test_runs_and_literals(void **state)
{
	static uint32_t px[16384];
	uint32_t seed = 12345, c = 0;
	size_t n = 0, len;

	(void)state;
	while (n < 16000) {
		unsigned k, run;

		seed = seed * 1103515245u + 12345u;
		run = seed >> 16 & 1 ? (seed >> 8) % 300 + 1 : 1;
		for (k = 0; k < run && n < 16000; k++)
			px[n++] = c;
		c = (c + 0x10101u * (seed >> 24 | 1)) & 0xffffffu;
	}
	roundtrip(px, 16000, 160, 100);
	/* all black: 125 full runs of 128 */
	memset(px, 0, sizeof(px));
	assert_int_equal(roundtrip(px, 16000, 160, 100), 125 * 4);
	/* no two neighbours equal: literals of 128, 1/384 over raw */
	for (n = 0; n < 16384; n++)
		px[n] = (uint32_t)n * 2654435761u & 0xffffffu;
	len = roundtrip(px, 16384, 128, 128);
	assert_int_equal(len, 16384 * 3 + 128);
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

/* Padding: one pixel is a literal of 1 (4 bytes): "=="; A A B is a run
 * of 2 and a literal of 1 (8 bytes): one '='. The name stops at a
 * space. */
static void test_padding_and_name(void **state)
{
	static struct sink k;
	static const uint32_t px[3] = { 0xffffff, 0xffffff, 0x123456 };
	struct ppm_out o;
	const char *last;

	(void)state;
	memset(&k, 0, sizeof(k));
	ppm_begin(&o, emit, &k, "a b", 1, 1);
	ppm_pixels(&o, px + 2, 1);
	ppm_end(&o);
	assert_non_null(strstr(k.buf, "-----BEGIN RLE a 1x1-----\n"));
	last = strstr(k.buf, "\n-----END");
	assert_non_null(last);
	assert_true(last[-1] == '=' && last[-2] == '=' && last[-3] != '=');
	memset(&k, 0, sizeof(k));
	ppm_begin(&o, emit, &k, "x", 3, 1);
	ppm_pixels(&o, px, 3);
	ppm_end(&o);
	last = strstr(k.buf, "\n-----END");
	assert_true(last[-1] == '=' && last[-2] != '=');
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_runs_and_literals),
		cmocka_unit_test(test_pieces_same_text),
		cmocka_unit_test(test_padding_and_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
