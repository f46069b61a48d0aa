/* Unit tests of the console log ring (hv/console/log_ring.c).
 *
 * A reference model (the whole stream ever written, kept in a big buffer)
 * says what the ring must hold: its last min(total, size) bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/console/log_ring.h"

#define CAP 16

static char storage[CAP + 2]; /* guard bytes on both sides */
static char *const buf = storage + 1;
static struct log_ring ring;

static int setup(void **state)
{
	(void)state;
	memset(storage, '#', sizeof(storage));
	log_ring_init(&ring, buf, CAP);
	return 0;
}

static void check_guards(void)
{
	assert_int_equal(storage[0], '#');
	assert_int_equal(storage[CAP + 1], '#');
}

static void wr(const char *s)
{
	log_ring_write(&ring, s, strlen(s));
	check_guards();
}

/* The ring's whole content, read in one go, equals want. */
static void check_content(const char *want)
{
	char out[CAP + 8];
	size_t n;

	memset(out, 0, sizeof(out));
	assert_int_equal(log_ring_used(&ring), strlen(want));
	n = log_ring_read(&ring, 0, out, sizeof(out));
	assert_int_equal(n, strlen(want));
	assert_memory_equal(out, want, n);
}

static void test_empty(void **state)
{
	char out[4] = "xyz";

	(void)state;
	assert_int_equal(log_ring_used(&ring), 0);
	assert_int_equal(log_ring_read(&ring, 0, out, sizeof(out)), 0);
	assert_int_equal(log_ring_read(&ring, 5, out, sizeof(out)), 0);
	assert_string_equal(out, "xyz"); /* nothing written to out */
	log_ring_write(&ring, "abc", 0);
	assert_int_equal(log_ring_used(&ring), 0);
	assert_int_equal(ring.head, 0);
}

static void test_below_capacity(void **state)
{
	(void)state;
	wr("hello");
	check_content("hello");
	wr(", world");
	check_content("hello, world");
	assert_int_equal(ring.head, 12);
}

static void test_exactly_capacity(void **state)
{
	(void)state;
	wr("0123456789abcdef");
	check_content("0123456789abcdef");
	assert_int_equal(log_ring_used(&ring), CAP);
	/* One more byte drops exactly the oldest. */
	wr("g");
	check_content("123456789abcdefg");
}

static void test_wrap_order(void **state)
{
	(void)state;
	wr("0123456789");   /* 10 */
	wr("abcdefghij");   /* 20: wraps, oldest 4 gone */
	check_content("456789abcdefghij");
	wr("XY");
	check_content("6789abcdefghijXY");
	assert_int_equal(ring.head, 22);
}

static void test_byte_at_a_time(void **state)
{
	char stream[200];

	(void)state;
	for (int i = 0; i < 200; i++) {
		stream[i] = (char)('A' + i % 26);
		log_ring_write(&ring, &stream[i], 1);
		check_guards();
		{
			size_t total = (size_t)i + 1;
			size_t held = total < CAP ? total : CAP;
			char out[CAP];

			assert_int_equal(log_ring_used(&ring), held);
			assert_int_equal(log_ring_read(&ring, 0, out, CAP), held);
			assert_memory_equal(out, stream + total - held, held);
		}
	}
}

static void test_huge_single_write(void **state)
{
	char big[1000];
	char out[CAP];

	(void)state;
	for (size_t i = 0; i < sizeof(big); i++)
		big[i] = (char)(' ' + i % 90);
	wr("prefix");
	log_ring_write(&ring, big, sizeof(big));
	check_guards();
	assert_int_equal(ring.head, 6 + sizeof(big));
	assert_int_equal(log_ring_used(&ring), CAP);
	assert_int_equal(log_ring_read(&ring, 0, out, CAP), CAP);
	assert_memory_equal(out, big + sizeof(big) - CAP, CAP);

	/* Exactly size+1 on a fresh ring, and a write landing mid-ring. */
	setup(NULL);
	wr("abc");
	log_ring_write(&ring, big, CAP + 1);
	check_guards();
	assert_int_equal(log_ring_read(&ring, 0, out, CAP), CAP);
	assert_memory_equal(out, big + 1, CAP);
	wr("Z");
	assert_int_equal(log_ring_read(&ring, 0, out, CAP), CAP);
	assert_memory_equal(out, big + 2, CAP - 1);
	assert_int_equal(out[CAP - 1], 'Z');
}

/* Reads of every (from, n) pair against the model, with the ring wrapped at
 * every possible phase. */
static void test_read_chunks(void **state)
{
	(void)state;
	for (size_t total = 0; total <= 3 * CAP; total++) {
		char stream[3 * CAP];

		setup(NULL);
		for (size_t i = 0; i < total; i++)
			stream[i] = (char)('a' + (i * 7) % 26);
		/* Written in uneven pieces. */
		for (size_t i = 0; i < total;) {
			size_t n = 1 + i % 5;

			if (n > total - i)
				n = total - i;
			log_ring_write(&ring, stream + i, n);
			i += n;
		}
		check_guards();
		size_t held = total < CAP ? total : CAP;
		const char *want = stream + total - held;

		assert_int_equal(log_ring_used(&ring), held);
		for (size_t from = 0; from <= CAP + 2; from++) {
			for (size_t n = 0; n <= CAP + 2; n++) {
				char out[CAP + 4];
				size_t exp = from >= held ? 0
					   : (n < held - from ? n : held - from);

				memset(out, '!', sizeof(out));
				assert_int_equal(log_ring_read(&ring, from, out, n),
						 exp);
				assert_memory_equal(out, want + from, exp);
				/* Nothing past the count is written. */
				for (size_t k = exp; k < sizeof(out); k++)
					assert_int_equal(out[k], '!');
			}
		}
		/* Walking in chunks of 3 reassembles the content. */
		{
			char all[CAP];
			size_t pos = 0, got;

			while ((got = log_ring_read(&ring, pos, all + pos,
						    3 < CAP - pos ? 3 : CAP - pos)))
				pos += got;
			assert_int_equal(pos, held);
			assert_memory_equal(all, want, held);
		}
	}
}

static void test_read_huge_offset(void **state)
{
	char out[4];

	(void)state;
	wr("abcdef");
	assert_int_equal(log_ring_read(&ring, SIZE_MAX, out, sizeof(out)), 0);
	assert_int_equal(log_ring_read(&ring, 2, out, SIZE_MAX), 4);
	assert_memory_equal(out, "cdef", 4);
}

/* The byte count is 64-bit; a ring that has seen more than 4 GiB (head
 * large) still reads in order. */
static void test_large_head(void **state)
{
	(void)state;
	ring.head = (1ull << 32) + 5; /* as if 4 GiB+5 bytes went by */
	wr("0123456789abcdef");
	check_content("0123456789abcdef");
	wr("XYZ");
	check_content("3456789abcdefXYZ");
}

static void test_size_one(void **state)
{
	char b[3] = "##";
	char out;

	(void)state;
	log_ring_init(&ring, b + 1, 1);
	log_ring_write(&ring, "abc", 3);
	assert_int_equal(log_ring_used(&ring), 1);
	assert_int_equal(log_ring_read(&ring, 0, &out, 1), 1);
	assert_int_equal(out, 'c');
	assert_int_equal(b[0], '#');
	assert_int_equal(b[2], 0);
	log_ring_write(&ring, "d", 1);
	assert_int_equal(log_ring_read(&ring, 0, &out, 5), 1);
	assert_int_equal(out, 'd');
}

/* A zero-sized ring (no buffer) holds nothing and never divides by zero. */
static void test_size_zero(void **state)
{
	char out[2];

	(void)state;
	log_ring_init(&ring, NULL, 0);
	log_ring_write(&ring, "abc", 3);
	assert_int_equal(log_ring_used(&ring), 0);
	assert_int_equal(log_ring_read(&ring, 0, out, sizeof(out)), 0);
}

/* Line starts for the shell's `log N SKIP`: counted back from an end. */
static void test_line_start(void **state)
{
	(void)state;
	wr("ab\ncd\nef\n");
	assert_int_equal(log_ring_line_start(&ring, 9, 0), 9);
	assert_int_equal(log_ring_line_start(&ring, 9, 1), 6);
	assert_int_equal(log_ring_line_start(&ring, 9, 2), 3);
	assert_int_equal(log_ring_line_start(&ring, 9, 3), 0);
	assert_int_equal(log_ring_line_start(&ring, 9, 4), 0);
	/* an unterminated last line counts as a line */
	assert_int_equal(log_ring_line_start(&ring, 5, 1), 3);
	assert_int_equal(log_ring_line_start(&ring, 5, 2), 0);
	assert_int_equal(log_ring_line_start(&ring, 0, 1), 0);
}

/* After wrapping, offsets are into what is held; the oldest (cut) line
 * starts at 0. */
static void test_line_start_wrapped(void **state)
{
	(void)state;
	wr("AAAA\nBBBBBBBBBB\nCC\nD\n");	/* 21 bytes, 16 held */
	assert_int_equal(log_ring_line_start(&ring, 16, 1), 14);
	assert_int_equal(log_ring_line_start(&ring, 16, 2), 11);
	assert_int_equal(log_ring_line_start(&ring, 16, 3), 0);
	assert_int_equal(log_ring_line_start(&ring, 16, 9), 0);
	assert_int_equal(log_ring_line_start(&ring, 14, 1), 11);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_empty, setup),
		cmocka_unit_test_setup(test_line_start, setup),
		cmocka_unit_test_setup(test_line_start_wrapped, setup),
		cmocka_unit_test_setup(test_below_capacity, setup),
		cmocka_unit_test_setup(test_exactly_capacity, setup),
		cmocka_unit_test_setup(test_wrap_order, setup),
		cmocka_unit_test_setup(test_byte_at_a_time, setup),
		cmocka_unit_test_setup(test_huge_single_write, setup),
		cmocka_unit_test_setup(test_read_chunks, setup),
		cmocka_unit_test_setup(test_read_huge_offset, setup),
		cmocka_unit_test_setup(test_large_head, setup),
		cmocka_unit_test_setup(test_size_one, setup),
		cmocka_unit_test_setup(test_size_zero, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
