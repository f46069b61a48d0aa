/* libc-mini: formatted output.
 *
 * Supported: %d %i %u %x %X %p %s %c %%; length modifiers hh, h, l, ll, z,
 * j, t; field width and precision (literal or *; a precision on %s bounds
 * how much is read, so "%.*s" prints buffers without terminator); the
 * flags '-', '0', '+', ' ' and '#' (for %x/%X). No floating point. Output
 * matches glibc byte for byte for these, including "%p" (0x... or "(nil)")
 * and a NULL "%s" ("(null)"). Any other conversion (%o, %f, %n, ...) is
 * printed as written and consumes no argument.
 * Output is always NUL-terminated when size > 0; buf may be NULL when size
 * is 0. The return value is the length the full output would have had (C99
 * semantics), so truncation is detectable. */
#ifndef MINI_STDIO_H
#define MINI_STDIO_H

#include <stdarg.h>
#include <stddef.h>
#include "mini/lm.h"

#if LM_HOSTED && !defined(LM_TEST_PREFIX)
#include <stdio.h>
#else
int LM(vsnprintf)(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int LM(snprintf)(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#endif

#endif
