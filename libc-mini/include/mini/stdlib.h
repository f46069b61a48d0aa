/* libc-mini: number parsing and binary search. */
#ifndef MINI_STDLIB_H
#define MINI_STDLIB_H

#include <stddef.h>
#include "mini/lm.h"

#if LM_HOSTED && !defined(LM_TEST_PREFIX)
#include <stdlib.h>
#else
/* C semantics: skips leading whitespace, takes an optional sign (a '-'
 * negates the result modulo 2^64) and, for base 16 or 0, an optional
 * 0x/0X; base 0 picks 16, 8 or 10 from the prefix. On overflow returns
 * ULLONG_MAX (there is no errno here). When no digits are found returns 0
 * and sets *end to s. Bases other than 0 and 2..36 return 0 with *end = s. */
unsigned long long LM(strtoull)(const char *s, char **end, int base);

/* C semantics: the element of base[0..n) (sorted by cmp, each `size`
 * bytes) that cmp(key, element) calls equal, or NULL. cmp returns <0, 0 or
 * >0 as key is before, inside or after the element, so a table of
 * [start, end] ranges is searched by an offset as well as a sorted list of
 * keys. */
void *LM(bsearch)(const void *key, const void *base, size_t n, size_t size,
		  int (*cmp)(const void *key, const void *element));
#endif

#endif
