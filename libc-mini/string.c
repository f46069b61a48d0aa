/* libc-mini: memory and string functions.
 *
 * These are the functions the compiler itself calls on the machine (struct
 * copies become memcpy, zero-initialisation becomes memset), so they must
 * never call themselves: GCC's loop-distribution pass recognises a byte loop
 * as "a memset" and replaces it with a call to memset even under
 * -ffreestanding -fno-builtin. LM_NOLIBCALL switches that pass off per
 * function. Clang's equivalent is the no_builtin attribute.
 *
 * Copies move 8-byte words when source and destination are equally aligned,
 * which is the common case for the page-table and GTT copies in hv/ and
 * gpu/; everything else goes a byte at a time. */
#include <stdint.h>
#include "mini/string.h"

#if defined(__clang__)
#define LM_NOLIBCALL __attribute__((no_builtin))
#elif defined(__GNUC__)
#define LM_NOLIBCALL \
	__attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define LM_NOLIBCALL
#endif

/* may_alias: words are read from and written to memory of any type. */
typedef uint64_t __attribute__((may_alias)) lm_word_t;
#define WORD_SIZE sizeof(lm_word_t)
#define WORD_MASK (WORD_SIZE - 1)

/* Ascending copy. Also correct for overlapping buffers when dst < src:
 * every byte (or word) is read before the write that could clobber it. */
LM_NOLIBCALL
static void copy_fwd(unsigned char *d, const unsigned char *s, size_t n)
{
	if ((((uintptr_t)d ^ (uintptr_t)s) & WORD_MASK) == 0) {
		while (n && ((uintptr_t)d & WORD_MASK)) {
			*d++ = *s++;
			n--;
		}
		while (n >= WORD_SIZE) {
			*(lm_word_t *)d = *(const lm_word_t *)s;
			d += WORD_SIZE;
			s += WORD_SIZE;
			n -= WORD_SIZE;
		}
	}
	while (n--)
		*d++ = *s++;
}

/* Descending copy, for overlapping buffers with dst > src. */
LM_NOLIBCALL
static void copy_bwd(unsigned char *d, const unsigned char *s, size_t n)
{
	d += n;
	s += n;
	if ((((uintptr_t)d ^ (uintptr_t)s) & WORD_MASK) == 0) {
		while (n && ((uintptr_t)d & WORD_MASK)) {
			*--d = *--s;
			n--;
		}
		while (n >= WORD_SIZE) {
			d -= WORD_SIZE;
			s -= WORD_SIZE;
			*(lm_word_t *)d = *(const lm_word_t *)s;
			n -= WORD_SIZE;
		}
	}
	while (n--)
		*--d = *--s;
}

LM_NOLIBCALL
void *LM(memcpy)(void *dst, const void *src, size_t n)
{
	copy_fwd(dst, src, n);
	return dst;
}

LM_NOLIBCALL
void *LM(memmove)(void *dst, const void *src, size_t n)
{
	/* Compare as integers: the buffers may be unrelated objects. */
	if ((uintptr_t)dst <= (uintptr_t)src ||
	    (uintptr_t)dst >= (uintptr_t)src + n)
		copy_fwd(dst, src, n);
	else
		copy_bwd(dst, src, n);
	return dst;
}

LM_NOLIBCALL
void *LM(memset)(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	unsigned char b = (unsigned char)c;
	lm_word_t w;

	while (n && ((uintptr_t)d & WORD_MASK)) {
		*d++ = b;
		n--;
	}
	if (n >= WORD_SIZE) {
		/* Replicate the byte into every lane of a word. */
		w = (lm_word_t)b * (lm_word_t)0x0101010101010101ULL;
		/* Four words a round: the loop's own add, compare and branch
		 * once per 32 bytes (a context image's 3.4 KiB of gaps cost
		 * 1,930 instructions a word at a time; docs/performance.md). */
		while (n >= 4 * WORD_SIZE) {
			((lm_word_t *)d)[0] = w;
			((lm_word_t *)d)[1] = w;
			((lm_word_t *)d)[2] = w;
			((lm_word_t *)d)[3] = w;
			d += 4 * WORD_SIZE;
			n -= 4 * WORD_SIZE;
		}
		while (n >= WORD_SIZE) {
			*(lm_word_t *)d = w;
			d += WORD_SIZE;
			n -= WORD_SIZE;
		}
	}
	while (n--)
		*d++ = b;
	return dst;
}

LM_NOLIBCALL
int LM(memcmp)(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return (int)*x - (int)*y;
	}
	return 0;
}

LM_NOLIBCALL
size_t LM(strlen)(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

/* Never looks at s[max] or beyond: callers use it on fixed-size fields that
 * need not be terminated. */
LM_NOLIBCALL
size_t LM(strnlen)(const char *s, size_t max)
{
	size_t i = 0;

	while (i < max && s[i])
		i++;
	return i;
}

/* Bytes compare as unsigned char, as C requires. */
LM_NOLIBCALL
int LM(strcmp)(const char *a, const char *b)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	while (*x && *x == *y) {
		x++;
		y++;
	}
	return (int)*x - (int)*y;
}

LM_NOLIBCALL
int LM(strncmp)(const char *a, const char *b, size_t n)
{
	const unsigned char *x = (const unsigned char *)a;
	const unsigned char *y = (const unsigned char *)b;

	for (; n; n--, x++, y++) {
		if (*x != *y)
			return (int)*x - (int)*y;
		if (!*x)
			break;
	}
	return 0;
}

/* c is converted to char; searching for '\0' finds the terminator. */
LM_NOLIBCALL
char *LM(strchr)(const char *s, int c)
{
	char ch = (char)c;

	for (;; s++) {
		if (*s == ch)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

LM_NOLIBCALL
char *LM(strrchr)(const char *s, int c)
{
	char ch = (char)c;
	const char *last = NULL;

	for (;; s++) {
		if (*s == ch)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

LM_NOLIBCALL
size_t LM(strlcpy)(char *dst, const char *src, size_t size)
{
	size_t len = LM(strlen)(src);
	size_t n;

	if (size) {
		n = len < size - 1 ? len : size - 1;
		copy_fwd((unsigned char *)dst, (const unsigned char *)src, n);
		dst[n] = '\0';
	}
	return len;
}
