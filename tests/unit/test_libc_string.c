/* libc-mini string.c against the host C library.
 *
 * Built with -DLM_TEST_PREFIX, so our functions are mini_* and the host's
 * keep their names. Inputs are pseudo-random from a fixed seed (the same
 * cases on every run); offsets are random in 0..15 so both the word-copy
 * path (equal alignment) and the byte path are taken. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mini/string.h"

#define ITERS 20000
#define ARENA 1024

static uint64_t rng_state;

/* xorshift64*: deterministic and independent of the host's rand(). */
static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static size_t rnd_below(size_t n)
{
	return n ? (size_t)(rnd() % n) : 0;
}

static int setup(void **state)
{
	(void)state;
	rng_state = 0x9E3779B97F4A7C15ULL;
	return 0;
}

static void fill_random(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)rnd();
}

static int sgn(int x)
{
	return (x > 0) - (x < 0);
}

/* Random bytes without NUL, then a NUL: a string of length len. */
static void random_str(char *p, size_t len, unsigned int alphabet)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (char)(1 + rnd_below(alphabet));
	p[len] = '\0';
}

static void test_memcpy(void **state)
{
	static unsigned char src[ARENA], a[ARENA], b[ARENA];

	(void)state;
	for (int i = 0; i < ITERS; i++) {
		size_t so = rnd_below(16), doff = rnd_below(16);
		size_t n = rnd_below(i % 8 ? 64 : ARENA - 16);
		void *r;

		fill_random(src, sizeof(src));
		fill_random(a, sizeof(a));
		memcpy(b, a, sizeof(a));
		r = mini_memcpy(a + doff, src + so, n);
		memcpy(b + doff, src + so, n);
		assert_ptr_equal(r, a + doff);
		/* Whole arena: also catches writes outside [doff, doff+n). */
		assert_memory_equal(a, b, sizeof(a));
	}
}

static void test_memmove_overlap(void **state)
{
	static unsigned char a[ARENA], b[ARENA];

	(void)state;
	for (int i = 0; i < ITERS; i++) {
		size_t n = rnd_below(i % 8 ? 80 : ARENA / 2);
		size_t so = rnd_below(ARENA - n), doff;
		long d = (long)so;
		void *r;

		/* Mostly overlapping, in both directions, plus exact alias. */
		if (i % 4)
			d += (long)rnd_below(2 * n + 17) - (long)n - 8;
		if (d < 0)
			d = 0;
		doff = (size_t)d > ARENA - n ? ARENA - n : (size_t)d;
		fill_random(a, sizeof(a));
		memcpy(b, a, sizeof(a));
		r = mini_memmove(a + doff, a + so, n);
		memmove(b + doff, b + so, n);
		assert_ptr_equal(r, a + doff);
		assert_memory_equal(a, b, sizeof(a));
	}
}

static void test_memmove_disjoint(void **state)
{
	static unsigned char src[ARENA], a[ARENA], b[ARENA];

	(void)state;
	for (int i = 0; i < ITERS / 4; i++) {
		size_t so = rnd_below(16), doff = rnd_below(16);
		size_t n = rnd_below(ARENA - 16);

		fill_random(src, sizeof(src));
		fill_random(a, sizeof(a));
		memcpy(b, a, sizeof(a));
		mini_memmove(a + doff, src + so, n);
		memmove(b + doff, src + so, n);
		assert_memory_equal(a, b, sizeof(a));
	}
}

static void test_memset(void **state)
{
	static unsigned char a[ARENA], b[ARENA];
	/* Only the low byte of c counts, including for negative c. */
	static const int special[] = { 0, 0xff, -1, 0x100, 0x1ab, -128, 0x80 };

	(void)state;
	for (int i = 0; i < ITERS; i++) {
		size_t off = rnd_below(16);
		size_t n = rnd_below(i % 8 ? 64 : ARENA - 16);
		int c = i % 3 ? (int)rnd() : special[rnd_below(7)];
		void *r;

		fill_random(a, sizeof(a));
		memcpy(b, a, sizeof(a));
		r = mini_memset(a + off, c, n);
		memset(b + off, c, n);
		assert_ptr_equal(r, a + off);
		assert_memory_equal(a, b, sizeof(a));
	}
}

static void test_memcmp(void **state)
{
	static unsigned char a[256], b[256];

	(void)state;
	for (int i = 0; i < ITERS; i++) {
		size_t n = rnd_below(sizeof(a) + 1);

		fill_random(a, sizeof(a));
		memcpy(b, a, sizeof(a));
		/* Sometimes equal, sometimes one difference (often with the
		 * high bit, which must compare as unsigned). */
		if (i % 3 && n) {
			size_t at = rnd_below(n);

			b[at] = (unsigned char)rnd();
		}
		assert_int_equal(sgn(mini_memcmp(a, b, n)), sgn(memcmp(a, b, n)));
		assert_int_equal(sgn(mini_memcmp(b, a, n)), sgn(memcmp(b, a, n)));
	}
	assert_int_equal(mini_memcmp(NULL, NULL, 0), 0);
}

static void test_strlen(void **state)
{
	static char buf[ARENA];

	(void)state;
	for (int i = 0; i < ITERS; i++) {
		size_t off = rnd_below(16);
		size_t len = rnd_below(i % 8 ? 40 : ARENA - 17);
		size_t max = rnd_below(len + 10);

		random_str(buf + off, len, 255);
		assert_int_equal(mini_strlen(buf + off), strlen(buf + off));
		assert_int_equal(mini_strnlen(buf + off, max),
				 strnlen(buf + off, max));
	}
}

/* strnlen must not look past max: an unterminated heap buffer of exactly
 * max bytes makes ASan report any over-read. */
static void test_strnlen_unterminated(void **state)
{
	(void)state;
	for (size_t n = 0; n < 64; n++) {
		char *p = malloc(n ? n : 1);

		assert_non_null(p);
		memset(p, 'a', n);
		assert_int_equal(mini_strnlen(p, n), n);
		if (n > 3) {
			p[3] = '\0';
			assert_int_equal(mini_strnlen(p, n), 3);
		}
		free(p);
	}
}

static void test_strcmp(void **state)
{
	static char a[128], b[128];

	(void)state;
	for (int i = 0; i < ITERS; i++) {
		size_t la = rnd_below(40), lb;
		size_t n = rnd_below(50);

		/* Small alphabets make long common prefixes likely. */
		random_str(a, la, i % 2 ? 3 : 255);
		if (i % 4 == 0) {
			memcpy(b, a, la + 1);
		} else if (i % 4 == 1 && la) {
			memcpy(b, a, la + 1);
			b[rnd_below(la)] = (char)(1 + rnd_below(255));
		} else if (i % 4 == 2) {
			/* b is a prefix of a, or a of b */
			lb = rnd_below(la + 1);
			memcpy(b, a, lb);
			b[lb] = '\0';
			if (rnd() & 1) {
				assert_int_equal(sgn(mini_strcmp(b, a)),
						 sgn(strcmp(b, a)));
			}
		} else {
			random_str(b, rnd_below(40), i % 2 ? 3 : 255);
		}
		assert_int_equal(sgn(mini_strcmp(a, b)), sgn(strcmp(a, b)));
		assert_int_equal(sgn(mini_strcmp(b, a)), sgn(strcmp(b, a)));
		assert_int_equal(sgn(mini_strncmp(a, b, n)),
				 sgn(strncmp(a, b, n)));
		assert_int_equal(sgn(mini_strncmp(b, a, n)),
				 sgn(strncmp(b, a, n)));
	}
	/* High bytes compare as unsigned char. */
	assert_true(mini_strcmp("\x80", "\x7f") > 0);
	assert_true(mini_strncmp("a\xff", "a\x01", 2) > 0);
	assert_int_equal(mini_strncmp("abc", "abd", 2), 0);
	assert_int_equal(mini_strncmp("abc", "xyz", 0), 0);
}

static void test_strchr(void **state)
{
	static char buf[128];

	(void)state;
	for (int i = 0; i < ITERS; i++) {
		size_t len = rnd_below(60);
		int c;

		random_str(buf, len, i % 2 ? 8 : 255);
		switch (i % 5) {
		case 0: c = 0; break;               /* finds the terminator */
		case 1: c = 1 + (int)rnd_below(8); break;
		case 2: c = 0x100 + 1 + (int)rnd_below(8); break; /* as char */
		case 3: c = -(int)(1 + rnd_below(128)); break;
		default: c = (int)rnd_below(256); break;
		}
		assert_ptr_equal(mini_strchr(buf, c), strchr(buf, c));
		assert_ptr_equal(mini_strrchr(buf, c), strrchr(buf, c));
	}
}

/* BSD strlcpy by its definition; glibc before 2.38 has none to compare. */
static void test_strlcpy(void **state)
{
	static char src[80], dst[100], ref[100];

	(void)state;
	for (int i = 0; i < ITERS / 4; i++) {
		size_t len = rnd_below(60);

		random_str(src, len, 255);
		for (size_t size = 0; size < len + 4; size++) {
			size_t n = len < size ? len : size ? size - 1 : 0;

			memset(dst, 0x5a, sizeof(dst));
			memset(ref, 0x5a, sizeof(ref));
			memcpy(ref, src, n);
			if (size)
				ref[n] = '\0';
			assert_int_equal(mini_strlcpy(dst, src, size), len);
			assert_memory_equal(dst, ref, sizeof(dst));
		}
	}
	/* size 0 never touches dst, so NULL is fine. */
	assert_int_equal(mini_strlcpy(NULL, "hello", 0), 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_memcpy, setup),
		cmocka_unit_test_setup(test_memmove_overlap, setup),
		cmocka_unit_test_setup(test_memmove_disjoint, setup),
		cmocka_unit_test_setup(test_memset, setup),
		cmocka_unit_test_setup(test_memcmp, setup),
		cmocka_unit_test_setup(test_strlen, setup),
		cmocka_unit_test_setup(test_strnlen_unterminated, setup),
		cmocka_unit_test_setup(test_strcmp, setup),
		cmocka_unit_test_setup(test_strchr, setup),
		cmocka_unit_test_setup(test_strlcpy, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
