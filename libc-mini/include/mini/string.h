/* libc-mini: memory and string functions. */
#ifndef MINI_STRING_H
#define MINI_STRING_H

#include <stddef.h>
#include "mini/lm.h"

#if LM_HOSTED && !defined(LM_TEST_PREFIX)
#include <string.h>
#if defined(__GLIBC__) && (__GLIBC__ == 2 && __GLIBC_MINOR__ < 38)
/* glibc gained strlcpy in 2.38; Debian 12 has 2.36. Same BSD semantics as
 * libc-mini's own. */
static inline size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);

	if (size) {
		size_t n = len < size - 1 ? len : size - 1;

		memcpy(dst, src, n);
		dst[n] = 0;
	}
	return len;
}
#endif
#else
void *LM(memcpy)(void *dst, const void *src, size_t n);
void *LM(memmove)(void *dst, const void *src, size_t n);
void *LM(memset)(void *dst, int c, size_t n);
int LM(memcmp)(const void *a, const void *b, size_t n);
size_t LM(strlen)(const char *s);
size_t LM(strnlen)(const char *s, size_t max);
int LM(strcmp)(const char *a, const char *b);
int LM(strncmp)(const char *a, const char *b, size_t n);
char *LM(strchr)(const char *s, int c);
char *LM(strrchr)(const char *s, int c);
/* Copies at most size-1 bytes and always terminates (when size > 0);
 * returns strlen(src) so truncation can be detected (BSD semantics). */
size_t LM(strlcpy)(char *dst, const char *src, size_t size);
#endif

#endif
