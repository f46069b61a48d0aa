/* libc-mini stdlib.c (strtoull, bsearch) and mini/ctype.h against the host C
 * library. The host runs in the "C" locale (nothing here calls setlocale),
 * which is what our ASCII-only classes implement. */
#include <ctype.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "mini/ctype.h"
#include "mini/stdlib.h"

static const int bases[] = { 0, 2, 8, 10, 16, 36 };
#define NBASES (sizeof(bases) / sizeof(bases[0]))

static unsigned long n_cases;

/* Same value and same end position as the host (errno is not compared:
 * libc-mini has none). */
static void cmp_one(const char *s, int base)
{
	char *eh, *em;
	unsigned long long vh = strtoull(s, &eh, base);
	unsigned long long vm = mini_strtoull(s, &em, base);

	if (vh != vm || eh != em)
		print_error("strtoull(\"%s\", %d): host %llu end+%td, "
			    "mini %llu end+%td\n",
			    s, base, vh, eh - s, vm, em - s);
	assert_true(vh == vm);
	assert_ptr_equal(em, eh);
	/* end may be NULL. */
	assert_true(mini_strtoull(s, NULL, base) == vh);
	n_cases++;
}

static void test_strtoull_table(void **state)
{
	static const char *const inputs[] = {
		"", " ", "0", "00", "7", "8", "9", "10", "077", "078", "0x",
		"0X", "0x1f", "0X1F", "0xg", "0x 1", "  42", "\t\n\v\f\r 42",
		"+5", "-5", "+-5", "-", "+", "- 5", "-0x10", "+0x10", "abc",
		"zz", "ZZ", "z", "1z", "101", "0b101", "12abc", "42 tail",
		"18446744073709551615", "18446744073709551616",
		"99999999999999999999999", "-18446744073709551615",
		"-18446744073709551616", "-1", "0xffffffffffffffff",
		"0x10000000000000000", "0xFFFFFFFFFFFFFFFFF",
		"01777777777777777777777", "02000000000000000000000",
		"1111111111111111111111111111111111111111111111111111111111111111",
		"11111111111111111111111111111111111111111111111111111111111111111",
		"3w5e11264sgsf", "3w5e11264sgsg", "\x80" "12", "1\xff",
		"00000000000000000000000000000000000001",
	};

	(void)state;
	n_cases = 0;
	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++)
		for (size_t b = 0; b < NBASES; b++)
			cmp_one(inputs[i], bases[b]);
	print_message("strtoull table: %lu cases\n", n_cases);
}

/* Random strings over the characters that matter to the parser. */
static void test_strtoull_random(void **state)
{
	static const char alphabet[] = " \t+-0123456789abcdefxXgGzZ";
	uint64_t x = 0x243F6A8885A308D3ULL;
	char s[40];

	(void)state;
	n_cases = 0;
	for (int i = 0; i < 50000; i++) {
		size_t len;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		len = x % 32;
		for (size_t j = 0; j < len; j++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			/* Bias to digits so long numbers (overflow) occur. */
			s[j] = (x & 3) ? (char)('0' + (x >> 8) % 10)
				       : alphabet[(x >> 8) % (sizeof(alphabet) - 1)];
		}
		s[len] = '\0';
		cmp_one(s, bases[(x >> 32) % NBASES]);
	}
	print_message("strtoull random: %lu cases\n", n_cases);
}

/* Bases C does not define: 0 and no characters consumed. */
static void test_strtoull_bad_base(void **state)
{
	static const int bad[] = { -1, 1, 37, 100, INT_MIN };
	const char *s = "123";
	char *end;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		end = NULL;
		assert_true(mini_strtoull(s, &end, bad[i]) == 0);
		assert_ptr_equal(end, s);
	}
}

static void test_ctype(void **state)
{
	(void)state;
	/* Every unsigned char value and EOF. */
	for (int c = -1; c < 256; c++) {
		assert_int_equal(lm_isdigit(c), !!isdigit(c));
		assert_int_equal(lm_isxdigit(c), !!isxdigit(c));
		assert_int_equal(lm_isspace(c), !!isspace(c));
		assert_int_equal(lm_isalpha(c), !!isalpha(c));
		assert_int_equal(lm_isalnum(c), !!isalnum(c));
		assert_int_equal(lm_isprint(c), !!isprint(c));
		assert_int_equal(lm_isupper(c), !!isupper(c));
		assert_int_equal(lm_islower(c), !!islower(c));
		assert_int_equal(lm_tolower(c), tolower(c));
		assert_int_equal(lm_toupper(c), toupper(c));
	}
	/* Unlike <ctype.h>, any int is allowed, e.g. a negative char. */
	for (int c = -1000; c < -1; c++) {
		assert_false(lm_isprint(c));
		assert_false(lm_isspace(c));
		assert_int_equal(lm_tolower(c), c);
	}
}

static int cmp_int(const void *k, const void *e)
{
	int a = *(const int *)k, b = *(const int *)e;

	return (a > b) - (a < b);
}

/* Every length 0..40 of a sorted list with gaps: each member is found where
 * the host finds it, each gap and both ends miss. */
static void test_bsearch(void **state)
{
	int list[40], key;

	(void)state;
	for (int i = 0; i < 40; i++)
		list[i] = 3 * i + 1;
	for (size_t n = 0; n <= 40; n++)
		for (key = -1; key <= 3 * 40 + 1; key++) {
			void *h = bsearch(&key, list, n, sizeof(int), cmp_int);
			void *m = mini_bsearch(&key, list, n, sizeof(int),
					       cmp_int);

			assert_ptr_equal(m, h);
			assert_true((m != NULL) == (key % 3 == 1 && key >= 1 &&
						    key < 3 * (int)n + 1));
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_strtoull_table),
		cmocka_unit_test(test_strtoull_random),
		cmocka_unit_test(test_strtoull_bad_base),
		cmocka_unit_test(test_ctype),
		cmocka_unit_test(test_bsearch),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
