/* libc-mini: character classes, ASCII only.
 *
 * Always our own, on the host too: they are inline, take any int (no
 * undefined behaviour for negative char values as the C ones have), and do
 * not depend on a locale. Named lm_* so they never clash with <ctype.h>. */
#ifndef MINI_CTYPE_H
#define MINI_CTYPE_H

#include <stdbool.h>

static inline bool lm_isdigit(int c)
{
	return c >= '0' && c <= '9';
}

static inline bool lm_isxdigit(int c)
{
	return lm_isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* ' ', \t, \n, \v, \f, \r: the C locale's whitespace. */
static inline bool lm_isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static inline bool lm_isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}

static inline bool lm_islower(int c)
{
	return c >= 'a' && c <= 'z';
}

static inline bool lm_isalpha(int c)
{
	return lm_isupper(c) || lm_islower(c);
}

static inline bool lm_isalnum(int c)
{
	return lm_isalpha(c) || lm_isdigit(c);
}

static inline bool lm_isprint(int c)
{
	return c >= 0x20 && c <= 0x7e;
}

static inline int lm_tolower(int c)
{
	return lm_isupper(c) ? c - 'A' + 'a' : c;
}

static inline int lm_toupper(int c)
{
	return lm_islower(c) ? c - 'a' + 'A' : c;
}

#endif
