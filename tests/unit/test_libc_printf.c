/* libc-mini printf.c against the host (glibc) snprintf.
 *
 * The bulk of the cases are generated: every integer conversion x length
 * modifier x flag set x width x precision x edge value, and the same for
 * %s, %c and %p. Each case is formatted by both implementations into a
 * large buffer (return value and bytes must match), with size 0 and a NULL
 * buffer (return value must match), and for a sample of cases at every
 * buffer size from 0 to past the end (return value, bytes, and no write
 * past size). Formats are built at run time, so -Wformat has nothing to
 * check here; the argument types are chosen by hand to match each length
 * modifier. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mini/stdio.h"

typedef int (*snprintf_fn)(char *, size_t, const char *, ...);

/* The argument passed after any '*' width/precision arguments. */
enum kind {
	K_INT, K_UINT, K_LONG, K_ULONG, K_LLONG, K_ULLONG,
	K_PTRDIFF, K_SIZE, K_INTMAX, K_UINTMAX, K_PTR, K_STR,
};

struct tcase {
	char fmt[48];
	int nstar;  /* 0, 1 or 2 '*' arguments before the value */
	int star[2];
	enum kind kind;
	unsigned long long v; /* integer kinds, reinterpreted per kind */
	const void *p;        /* K_PTR and K_STR */
};

#define BIG 1024
#define CANARY 0xa5

static unsigned long n_cases, n_trunc, n_fail;

/* Calls f with the arguments of c, each with the type its length modifier
 * asks for. */
static int call(snprintf_fn f, char *buf, size_t size, const struct tcase *c)
{
	const char *fmt = c->fmt;
	int a = c->star[0], b = c->star[1];

#define CALL(val)                                                              \
	(c->nstar == 0 ? f(buf, size, fmt, val)                                \
	 : c->nstar == 1 ? f(buf, size, fmt, a, val)                           \
			 : f(buf, size, fmt, a, b, val))
	switch (c->kind) {
	case K_INT: return CALL((int)c->v);
	case K_UINT: return CALL((unsigned int)c->v);
	case K_LONG: return CALL((long)c->v);
	case K_ULONG: return CALL((unsigned long)c->v);
	case K_LLONG: return CALL((long long)c->v);
	case K_ULLONG: return CALL((unsigned long long)c->v);
	case K_PTRDIFF: return CALL((ptrdiff_t)c->v);
	case K_SIZE: return CALL((size_t)c->v);
	case K_INTMAX: return CALL((intmax_t)c->v);
	case K_UINTMAX: return CALL((uintmax_t)c->v);
	case K_PTR: return CALL((void *)c->p);
	case K_STR: return CALL((const char *)c->p);
	}
#undef CALL
	return -12345;
}

static void report(const struct tcase *c, size_t size, int rh, int rm,
		   const unsigned char *h, const unsigned char *m,
		   const char *why)
{
	/* Show only what was written: up to size-1 bytes, up to a NUL. */
	int nh = size ? (int)strnlen((const char *)h, size - 1) : 0;
	int nm = size ? (int)strnlen((const char *)m, size - 1) : 0;

	if (n_fail++ >= 20)
		return;
	print_error("%s: fmt=\"%s\" v=%#llx stars=%d,%d size=%zu: "
		    "host %d \"%.*s\" mini %d \"%.*s\"\n",
		    why, c->fmt, c->v, c->star[0], c->star[1], size, rh, nh,
		    (const char *)h, rm, nm, (const char *)m);
}

/* One buffer size: same return value, same bytes up to the terminator,
 * nothing written at or past size. */
static void check_size(const struct tcase *c, size_t size)
{
	static unsigned char h[BIG + 16], m[BIG + 16];
	int rh, rm;

	memset(h, CANARY, sizeof(h));
	memset(m, CANARY, sizeof(m));
	rh = call(snprintf, size ? (char *)h : NULL, size, c);
	rm = call(mini_snprintf, size ? (char *)m : NULL, size, c);
	for (size_t i = size; i < sizeof(m); i++) {
		if (m[i] != CANARY) {
			report(c, size, rh, rm, h, m, "WRITE PAST SIZE");
			return;
		}
	}
	if (rh != rm || memcmp(h, m, sizeof(h)) != 0)
		report(c, size, rh, rm, h, m, "MISMATCH");
}

static void check(const struct tcase *c)
{
	static char full[BIG];
	int len;

	n_cases++;
	check_size(c, BIG);
	check_size(c, 0);
	/* Every 13th case, every size through the end of the output. */
	if (n_cases % 13 == 0) {
		len = call(snprintf, full, sizeof(full), c);
		assert_true(len >= 0 && len < BIG - 2);
		for (size_t size = 1; size <= (size_t)len + 2; size++) {
			check_size(c, size);
			n_trunc++;
		}
	}
}

static int setup(void **state)
{
	(void)state;
	n_cases = n_trunc = n_fail = 0;
	return 0;
}

static void finish(const char *what)
{
	print_message("%s: %lu cases, %lu truncation checks, %lu mismatches\n",
		      what, n_cases, n_trunc, n_fail);
	assert_int_equal(n_fail, 0);
}

/* Widths and precisions, written out; '*' ones take star values in turn. */
static const char *const widths[] = { "", "1", "7", "25", "*" };
static const char *const precs[] = { "", ".", ".0", ".1", ".5", ".22", ".*" };
static const int star_w[] = { -14, 0, 3, 24, -1 };
static const int star_p[] = { -3, 0, 2, 19, 1 };

/* Fills in the format and '*' arguments; returns the next star index. */
static unsigned int make_fmt(struct tcase *c, const char *flags,
			     const char *w, const char *p, const char *len,
			     char conv, unsigned int k)
{
	snprintf(c->fmt, sizeof(c->fmt), "<%%%s%s%s%s%c>", flags, w, p, len,
		 conv);
	c->nstar = 0;
	if (!strcmp(w, "*"))
		c->star[c->nstar++] = star_w[k++ % 5];
	if (!strcmp(p, ".*"))
		c->star[c->nstar++] = star_p[k++ % 5];
	if (c->nstar < 2)
		c->star[1] = 0;
	if (c->nstar < 1)
		c->star[0] = 0;
	return k;
}

static const unsigned long long int_values[] = {
	0, 1, (unsigned long long)-1, 7, (unsigned long long)-42, 127, 128,
	(unsigned long long)-128, 255, 256, 32767, (unsigned long long)-32768,
	65535, 65536, INT_MAX, (unsigned long long)(long long)INT_MIN,
	UINT_MAX, 0x100000000ULL, LLONG_MAX, (unsigned long long)LLONG_MIN,
	0x0123456789abcdefULL, 0xdeadbeefcafebabeULL, 10000000000000000000ULL,
	999999999, 1000000000, SIZE_MAX, ULLONG_MAX - 1,
};

struct lenmod {
	const char *s;
	enum kind sk, uk; /* argument type for signed / unsigned conversions */
};

static const struct lenmod lens[] = {
	{ "hh", K_INT, K_UINT },  { "h", K_INT, K_UINT },
	{ "", K_INT, K_UINT },    { "l", K_LONG, K_ULONG },
	{ "ll", K_LLONG, K_ULLONG }, { "z", K_PTRDIFF, K_SIZE },
	{ "j", K_INTMAX, K_UINTMAX }, { "t", K_PTRDIFF, K_SIZE },
};

/* Every subset of "-0+ #" in a fixed order, plus a few reorderings and
 * repeats (flags may come in any order and more than once). */
static void flag_sets(char out[40][8], int *n, bool with_alt)
{
	static const char all[] = "-0+ #";
	int k = 0;

	for (int m = 0; m < 32; m++) {
		int j = 0;

		if ((m & 16) && !with_alt)
			continue;
		for (int b = 0; b < 5; b++)
			if (m & (1 << b))
				out[k][j++] = all[b];
		out[k++][j] = '\0';
	}
	strcpy(out[k++], "0-");
	strcpy(out[k++], " +");
	strcpy(out[k++], "00");
	if (with_alt)
		strcpy(out[k++], "#0#");
	*n = k;
}

static void run_int(char conv)
{
	bool is_signed = conv == 'd' || conv == 'i';
	/* C leaves '#' undefined for d, i and u: only x and X get it. */
	bool with_alt = conv == 'x' || conv == 'X';
	char flags[40][8];
	int nflags;
	unsigned int k = 0;
	struct tcase c = { 0 };

	flag_sets(flags, &nflags, with_alt);
	for (size_t l = 0; l < sizeof(lens) / sizeof(lens[0]); l++)
	for (int f = 0; f < nflags; f++)
	for (size_t w = 0; w < sizeof(widths) / sizeof(widths[0]); w++)
	for (size_t p = 0; p < sizeof(precs) / sizeof(precs[0]); p++)
	for (size_t v = 0; v < sizeof(int_values) / sizeof(int_values[0]); v++) {
		k = make_fmt(&c, flags[f], widths[w], precs[p], lens[l].s,
			     conv, k);
		c.kind = is_signed ? lens[l].sk : lens[l].uk;
		c.v = int_values[v];
		check(&c);
	}
}

static void test_d(void **state)
{
	(void)state;
	run_int('d');
	finish("%d");
}

static void test_i(void **state)
{
	(void)state;
	run_int('i');
	finish("%i");
}

static void test_u(void **state)
{
	(void)state;
	run_int('u');
	finish("%u");
}

static void test_x(void **state)
{
	(void)state;
	run_int('x');
	finish("%x");
}

static void test_X(void **state)
{
	(void)state;
	run_int('X');
	finish("%X");
}

static const char *const strings[] = {
	NULL, "", "a", "hello", "(null)", "tab\there\nnewline",
	"\xc3\xa9t\xc3\xa9 \xff\x80", "0123456789abcdefghijklmnopqrstuvwxyz",
};

static void test_s(void **state)
{
	static const char *const s_flags[] = { "", "-", "--" };
	static const char *const s_widths[] = { "", "0", "1", "5", "6", "40",
						"*" };
	static const char *const s_precs[] = { "", ".", ".0", ".1", ".3",
					       ".5", ".6", ".7", ".100", ".*" };
	struct tcase c = { 0 };
	unsigned int k = 0;

	(void)state;
	for (size_t f = 0; f < 3; f++)
	for (size_t w = 0; w < sizeof(s_widths) / sizeof(s_widths[0]); w++)
	for (size_t p = 0; p < sizeof(s_precs) / sizeof(s_precs[0]); p++)
	for (size_t s = 0; s < sizeof(strings) / sizeof(strings[0]); s++)
	/* Twice over, so each '*' meets more star values. */
	for (int rep = 0; rep < 3; rep++) {
		k = make_fmt(&c, s_flags[f], s_widths[w], s_precs[p], "", 's',
			     k);
		c.kind = K_STR;
		c.p = strings[s];
		c.v = s;
		check(&c);
	}
	finish("%s");
}

/* A precision bounds how much of the string is read, so it may be a buffer
 * without terminator; the heap buffer is exactly n bytes and ASan reports
 * any read past it. */
static void test_s_unterminated(void **state)
{
	char out[128];

	(void)state;
	for (int n = 0; n < 40; n++) {
		char *p = malloc((size_t)n + 1);
		char want[64];

		assert_non_null(p);
		for (int i = 0; i < n; i++)
			p[i] = (char)('a' + i % 26);
		/* Terminated copy only to build the expectation. */
		memcpy(want, p, (size_t)n);
		want[n] = '\0';
		assert_int_equal(mini_snprintf(out, sizeof(out), "[%.*s]", n,
					       p),
				 n + 2);
		assert_memory_equal(out + 1, want, (size_t)n);
		assert_string_equal(out + n + 1, "]");
		if (n >= 3) {
			assert_int_equal(mini_snprintf(out, sizeof(out),
						       "%-5.3s|", p), 6);
			assert_string_equal(out, "abc  |");
		}
		free(p);
	}
}

static void test_c(void **state)
{
	static const int chars[] = { 'a', ' ', '%', 0, 0xff, 0x80, 0x141, -1 };
	static const char *const c_flags[] = { "", "-" };
	static const char *const c_widths[] = { "", "0", "1", "2", "9", "*" };
	struct tcase c = { 0 };
	unsigned int k = 0;

	(void)state;
	for (size_t f = 0; f < 2; f++)
	for (size_t w = 0; w < sizeof(c_widths) / sizeof(c_widths[0]); w++)
	for (size_t v = 0; v < sizeof(chars) / sizeof(chars[0]); v++)
	for (int rep = 0; rep < 5; rep++) {
		k = make_fmt(&c, c_flags[f], c_widths[w], "", "", 'c', k);
		c.kind = K_INT;
		c.v = (unsigned long long)(long long)chars[v];
		check(&c);
	}
	finish("%c");
}

static void test_p(void **state)
{
	static int local;
	const void *ptrs[] = {
		NULL, (void *)1, (void *)0xdeadbeef, (void *)0x7fffffffffffULL,
		(void *)UINTPTR_MAX, &local, (void *)0xffff800000000000ULL,
	};
	/* glibc handles these flags on %p like on %#lx; so do we. */
	static const char *const p_flags[] = { "", "-", "0", "+", " ", "-0",
					       "#" };
	static const char *const p_widths[] = { "", "1", "5", "14", "25",
						"*" };
	static const char *const p_precs[] = { "", ".0", ".3", ".16", ".*" };
	struct tcase c = { 0 };
	unsigned int k = 0;

	(void)state;
	for (size_t f = 0; f < sizeof(p_flags) / sizeof(p_flags[0]); f++)
	for (size_t w = 0; w < sizeof(p_widths) / sizeof(p_widths[0]); w++)
	for (size_t p = 0; p < sizeof(p_precs) / sizeof(p_precs[0]); p++)
	for (size_t v = 0; v < sizeof(ptrs) / sizeof(ptrs[0]); v++) {
		k = make_fmt(&c, p_flags[f], p_widths[w], p_precs[p], "", 'p',
			     k);
		c.kind = K_PTR;
		c.p = ptrs[v];
		c.v = (uintptr_t)ptrs[v];
		check(&c);
	}
	finish("%p");
}

/* Several conversions and literal text in one format, as log lines have.
 * Literal formats, so -Wformat checks the argument types here. */
#define CMP(...)                                                               \
	do {                                                                   \
		char h_[256], m_[256];                                         \
		int rh_ = snprintf(h_, sizeof(h_), __VA_ARGS__);               \
		int rm_ = mini_snprintf(m_, sizeof(m_), __VA_ARGS__);          \
		assert_int_equal(rm_, rh_);                                    \
		assert_string_equal(m_, h_);                                   \
		for (size_t n_ = 0; n_ <= (size_t)rh_ + 1; n_++) {             \
			memset(h_, CANARY, sizeof(h_));                        \
			memset(m_, CANARY, sizeof(m_));                        \
			rh_ = snprintf(h_, n_, __VA_ARGS__);                   \
			rm_ = mini_snprintf(m_, n_, __VA_ARGS__);              \
			assert_int_equal(rm_, rh_);                            \
			assert_memory_equal(m_, h_, sizeof(h_));               \
		}                                                              \
	} while (0)

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-truncation"
#pragma GCC diagnostic ignored "-Wformat-zero-length"
#pragma GCC diagnostic ignored "-Wformat-overflow"
static void test_mixed(void **state)
{
	int x = 3;

	(void)state;
	CMP("plain text, no conversions");
	CMP("");
	CMP("100%% sure, %d%%", 42);
	CMP("[%s] vm%d: exit %u at rip=%#llx (%p)", "hv", 2, 48u,
	    0xffffffff81000000ULL, (void *)&x);
	CMP("%-10s|%10s|%-*d|%*d|", "left", "right", 6, -5, -6, 7);
	CMP("%c%c%c %5.2s %-4c|", 'a', 'b', 'c', "xyz", 'q');
	CMP("%zu %zx %td %jd %ju", (size_t)SIZE_MAX, (size_t)4096,
	    (ptrdiff_t)-8, (intmax_t)INTMAX_MIN, (uintmax_t)UINTMAX_MAX);
	CMP("%hhd %hhu %hd %hu", (signed char)-5, (unsigned char)250,
	    (short)-300, (unsigned short)65000);
	CMP("%08x:%08x %016llx", 0xdeadu, 0u, 0x1234ULL);
	CMP("%ld %lu %lx %lld %llu", LONG_MIN, ULONG_MAX, 0xabcdefUL,
	    LLONG_MIN, ULLONG_MAX);
	CMP("gtt[%5u] = %#010x (%s)", 17u, 0xfee00001u, "valid");
	CMP("%.0d|%.0u|%.0x|%+.0d|% .0d|%#.0x|%5.0d|", 0, 0u, 0u, 0, 0, 0u, 0);
	CMP("%s=%s", (const char *)NULL, "");
}
#pragma GCC diagnostic pop

/* What glibc cannot be compared on: conversions we do not support are
 * printed as written and consume no argument (the %d after them still gets
 * its own argument), and a format ending inside a conversion prints what
 * there was. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat"
#pragma GCC diagnostic ignored "-Wformat-extra-args"
static void expect(const char *want, int got_ret, const char *got)
{
	assert_string_equal(got, want);
	assert_int_equal(got_ret, (int)strlen(want));
}

static void test_unknown(void **state)
{
	char b[64];
	int r;

	(void)state;
	r = mini_snprintf(b, sizeof(b), "%q");
	expect("%q", r, b);
	r = mini_snprintf(b, sizeof(b), "a%qb%d", 5);
	expect("a%qb5", r, b);
	r = mini_snprintf(b, sizeof(b), "%-5q|%d", 7);
	expect("%-5q|7", r, b);
	r = mini_snprintf(b, sizeof(b), "%lq%s", "x");
	expect("%lqx", r, b);
	r = mini_snprintf(b, sizeof(b), "%f|%d", 3);
	expect("%f|3", r, b);
	/* %n would write through a pointer: never supported. */
	r = mini_snprintf(b, sizeof(b), "%n|%s", "ok");
	expect("%n|ok", r, b);
	r = mini_snprintf(b, sizeof(b), "%o %d", 9);
	expect("%o 9", r, b);
	r = mini_snprintf(b, sizeof(b), "%");
	expect("%", r, b);
	r = mini_snprintf(b, sizeof(b), "abc%");
	expect("abc%", r, b);
	r = mini_snprintf(b, sizeof(b), "x%-08l");
	expect("x%-08l", r, b);
	r = mini_snprintf(b, sizeof(b), "%5");
	expect("%5", r, b);
	/* Truncated in the middle of an unknown conversion. */
	r = mini_snprintf(b, 3, "ab%q");
	assert_int_equal(r, 4);
	assert_string_equal(b, "ab");
}
#pragma GCC diagnostic pop

/* size 0 with a NULL buffer is the "how long would it be" idiom. */
static void test_size_zero(void **state)
{
	char b[4] = "xyz";

	(void)state;
	assert_int_equal(mini_snprintf(NULL, 0, "%d-%s", 12345, "ab"), 8);
	assert_int_equal(mini_snprintf(b, 0, "%d", 1), 1);
	assert_string_equal(b, "xyz"); /* untouched */
	assert_int_equal(mini_snprintf(b, 1, "%d", 123), 3);
	assert_string_equal(b, "");
}

/* vsnprintf through a caller's va_list, as a log() wrapper does. */
static int wrap(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int wrap(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = mini_vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return r;
}

static void test_vsnprintf(void **state)
{
	char b[64];

	(void)state;
	assert_int_equal(wrap(b, sizeof(b), "[vm%u] %s: %d", 3u, "exit", -1),
			 14);
	assert_string_equal(b, "[vm3] exit: -1");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_d, setup),
		cmocka_unit_test_setup(test_i, setup),
		cmocka_unit_test_setup(test_u, setup),
		cmocka_unit_test_setup(test_x, setup),
		cmocka_unit_test_setup(test_X, setup),
		cmocka_unit_test_setup(test_s, setup),
		cmocka_unit_test(test_s_unterminated),
		cmocka_unit_test_setup(test_c, setup),
		cmocka_unit_test_setup(test_p, setup),
		cmocka_unit_test(test_mixed),
		cmocka_unit_test(test_unknown),
		cmocka_unit_test(test_size_zero),
		cmocka_unit_test(test_vsnprintf),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
