/* hv.cfg parser, part 1 of 3 (config_internal.h): character classes,
 * spans and numbers. Freestanding: nothing but libc-mini. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mini/stdio.h"
#include "mini/string.h"
#include "boot/config_internal.h"

/* ---- characters and spans ---------------------------------------------- */

bool cfg_is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

bool cfg_is_alnum(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

bool cfg_is_comment(char c)
{
	return c == '#' || c == ';';
}

static char to_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* What may reach the serial console or a UEFI CHAR16 path unconverted. */
bool cfg_is_print(char c)
{
	return c >= 0x20 && c <= 0x7e;
}

struct span cfg_span_from(struct span v, size_t i)
{
	return (struct span){ v.s + i, v.n - i };
}

struct span cfg_trim_left(struct span v)
{
	while (v.n && cfg_is_space(v.s[0]))
		v = cfg_span_from(v, 1);
	return v;
}

struct span cfg_trim(struct span v)
{
	v = cfg_trim_left(v);
	while (v.n && cfg_is_space(v.s[v.n - 1]))
		v.n--;
	return v;
}

bool cfg_span_eq(struct span v, const char *lit)
{
	size_t i;

	for (i = 0; i < v.n; i++)
		if (!lit[i] || v.s[i] != lit[i])
			return false;
	return !lit[i];
}

/* Keyword values (test_exit=Boot) forgive case; names and keys do not. */
bool cfg_span_ieq(struct span v, const char *lit)
{
	size_t i;

	for (i = 0; i < v.n; i++)
		if (!lit[i] || to_lower(v.s[i]) != to_lower(lit[i]))
			return false;
	return !lit[i];
}

/* Index of the first c in v, or v.n. */
size_t cfg_span_find(struct span v, char c)
{
	size_t i;

	for (i = 0; i < v.n && v.s[i] != c; i++)
		;
	return i;
}

/* Callers check lengths first and report what does not fit; the clamp
 * only keeps a mistake there from writing past dst. */
void cfg_copy_span(char *dst, size_t size, struct span v)
{
	if (v.n >= size)
		v.n = size - 1;
	memcpy(dst, v.s, v.n);
	dst[v.n] = '\0';
}

/* A value as it may appear inside an error reason: bytes that are not
 * printable ASCII become '?' (the reason goes to a serial console), and a
 * value too long for buf ends in "..." so a reader knows it was cut. */
const char *cfg_quote(char *buf, size_t size, struct span v)
{
	size_t i, n = v.n < size - 1 ? v.n : size - 1;

	for (i = 0; i < n; i++)
		buf[i] = cfg_is_print(v.s[i]) ? v.s[i] : '?';
	if (v.n > n && n >= 3)
		memcpy(buf + n - 3, "...", 3);
	buf[n] = '\0';
	return buf;
}

/* ---- numbers ----------------------------------------------------------- */

static int digit_value(char c, unsigned base)
{
	int d;

	if (is_digit(c))
		d = c - '0';
	else if (to_lower(c) >= 'a' && to_lower(c) <= 'f')
		d = to_lower(c) - 'a' + 10;
	else
		return -1;
	return (unsigned)d < base ? d : -1;
}

/* Decimal, or hex after 0x. No sign and no octal: "010" is ten, because
 * people pad numbers and never mean octal in a config file. Consumes the
 * digits from *v; false on no digits or overflow. */
static bool take_u64(struct span *v, uint64_t *out)
{
	unsigned base = 10;
	uint64_t x = 0;
	size_t i = 0, first;
	int d;

	if (v->n >= 2 && v->s[0] == '0' && to_lower(v->s[1]) == 'x') {
		base = 16;
		i = 2;
	}
	for (first = i; i < v->n; i++) {
		d = digit_value(v->s[i], base);
		if (d < 0)
			break;
		if (x > (UINT64_MAX - (unsigned)d) / base)
			return false;
		x = x * base + (unsigned)d;
	}
	if (i == first)
		return false;
	*v = cfg_span_from(*v, i);
	*out = x;
	return true;
}

bool cfg_parse_number(struct span v, uint64_t *out)
{
	return take_u64(&v, out) && !v.n;
}

/* 64M, 64 MB, 64MiB, 0x4000000, 2g: binary units K/M/G, any case, then an
 * optional B or iB. With hex digits greedy, 0x40B is 0x40b bytes. */
bool cfg_parse_size(struct span v, uint64_t *out)
{
	unsigned shift = 0;
	uint64_t x;

	if (!take_u64(&v, &x))
		return false;
	v = cfg_trim_left(v);
	if (v.n) {
		switch (to_lower(v.s[0])) {
		case 'k': shift = 10; break;
		case 'm': shift = 20; break;
		case 'g': shift = 30; break;
		}
	}
	if (shift)
		v = cfg_span_from(v, 1);
	if (shift && v.n == 2 && cfg_span_ieq(v, "ib"))
		v = cfg_span_from(v, 2);
	else if (v.n == 1 && to_lower(v.s[0]) == 'b')
		v = cfg_span_from(v, 1);
	if (v.n || x > (UINT64_MAX >> shift))
		return false;
	*out = x << shift;
	return true;
}
