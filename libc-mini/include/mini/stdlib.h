/* libc-mini: number parsing. */
#ifndef MINI_STDLIB_H
#define MINI_STDLIB_H

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
#endif

#endif
