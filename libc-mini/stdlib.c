/* libc-mini: number parsing and binary search. */
#include <limits.h>
#include <stdbool.h>
#include "mini/ctype.h"
#include "mini/stdlib.h"

/* Value of c as a digit in bases up to 36, or 36 when it is none. */
static unsigned int digit_val(int c)
{
	if (lm_isdigit(c))
		return (unsigned int)(c - '0');
	if (lm_isalpha(c))
		return (unsigned int)(lm_tolower(c) - 'a' + 10);
	return 36;
}

/* "0x" counts as a prefix only when a hex digit follows: in "0xg" the
 * number is the 0 and parsing stops at the x, as in C. */
static bool has_hex_prefix(const char *p)
{
	return p[0] == '0' && (p[1] == 'x' || p[1] == 'X') &&
	       digit_val((unsigned char)p[2]) < 16;
}

unsigned long long LM(strtoull)(const char *s, char **end, int base)
{
	const char *p = s;
	const char *digits;
	unsigned long long v = 0;
	unsigned int d;
	bool neg = false, overflow = false;

	if (base < 0 || base == 1 || base > 36) {
		if (end)
			*end = (char *)s;
		return 0;
	}
	while (lm_isspace((unsigned char)*p))
		p++;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	if ((base == 0 || base == 16) && has_hex_prefix(p)) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = *p == '0' ? 8 : 10;
	}

	digits = p;
	for (; (d = digit_val((unsigned char)*p)) < (unsigned int)base; p++) {
		if (v > (ULLONG_MAX - d) / (unsigned int)base)
			overflow = true;
		else
			v = v * (unsigned int)base + d;
	}
	if (end)
		*end = (char *)(p == digits ? s : p);
	if (overflow)
		return ULLONG_MAX;
	return neg ? 0ULL - v : v;
}

void *LM(bsearch)(const void *key, const void *base, size_t n, size_t size,
		  int (*cmp)(const void *key, const void *element))
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const void *e = (const char *)base + mid * size;
		int c = cmp(key, e);

		if (c < 0)
			hi = mid;
		else if (c > 0)
			lo = mid + 1;
		else
			return (void *)e;
	}
	return NULL;
}
