/* Unit tests for hv/vm/virtq.c, the device side of a split virtqueue as
 * the virtio console walks its transmit queue: the legacy layout, a chain
 * of several descriptors, the available index wrapping at 65536, the byte
 * budget and its resume point, the interrupt suppression flag, and every
 * refusal (each breaks the queue before a byte of the bad chain moves,
 * and a broken queue reads nothing more). Guest memory is a byte array
 * whose accessors refuse anything outside it, as vm_read_gpa does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "hv/vm/virtq.h"

#define RAM_SIZE	0x10000u
#define NUM		8u
#define PFN		1u		/* the queue at 0x1000 */
#define DESC		0x1000u
#define AVAIL		(DESC + 16u * NUM)
#define USED		0x2000u
#define BUF		0x8000u

static uint8_t ram[RAM_SIZE];
static unsigned reads;
static char out[4096];
static size_t out_len;
static uint16_t avail_idx;

static int rd(void *ctx, uint64_t gpa, void *buf, size_t len)
{
	(void)ctx;
	reads++;
	if (gpa >= RAM_SIZE || len > RAM_SIZE - gpa)
		return -1;
	memcpy(buf, ram + gpa, len);
	return 0;
}

static int wr(void *ctx, uint64_t gpa, const void *buf, size_t len)
{
	(void)ctx;
	if (gpa >= RAM_SIZE || len > RAM_SIZE - gpa)
		return -1;
	memcpy(ram + gpa, buf, len);
	return 0;
}

static void sink(void *ctx, const uint8_t *buf, size_t len)
{
	(void)ctx;
	assert_true(out_len + len <= sizeof(out));
	memcpy(out + out_len, buf, len);
	out_len += len;
}

static const struct virtq_mem mem = { rd, wr, NULL };

static void put16(uint64_t gpa, uint16_t v) { memcpy(ram + gpa, &v, 2); }
static uint16_t get16(uint64_t gpa)
{
	uint16_t v;

	memcpy(&v, ram + gpa, 2);
	return v;
}
static uint32_t get32(uint64_t gpa)
{
	uint32_t v;

	memcpy(&v, ram + gpa, 4);
	return v;
}

static void set_desc(unsigned i, uint64_t addr, uint32_t len, uint16_t flags,
		     uint16_t next)
{
	uint8_t *d = ram + DESC + 16 * i;

	memcpy(d, &addr, 8);
	memcpy(d + 8, &len, 4);
	memcpy(d + 12, &flags, 2);
	memcpy(d + 14, &next, 2);
}

/* A one-descriptor chain at desc i holding text (at BUF + 0x100 * i). */
static void text_desc(unsigned i, const char *text, uint16_t flags,
		      uint16_t next)
{
	memcpy(ram + BUF + 0x100 * i, text, strlen(text));
	set_desc(i, BUF + 0x100 * i, (uint32_t)strlen(text), flags, next);
}

static void offer(uint16_t head)
{
	put16(AVAIL + 4 + 2 * (avail_idx % NUM), head);
	avail_idx++;
	put16(AVAIL + 2, avail_idx);
}

static struct virtq q;

static int setup(void **state)
{
	(void)state;
	memset(ram, 0, sizeof(ram));
	memset(out, 0, sizeof(out));
	out_len = 0;
	reads = 0;
	avail_idx = 0;
	virtq_setup_legacy(&q, NUM, PFN);
	return 0;
}

/* A wrapped index: the driver's and ours start at start. */
static void start_at(uint16_t start)
{
	avail_idx = start;
	put16(AVAIL + 2, start);
	q.last_avail = q.used_idx = start;
}

static void test_legacy_layout(void **state)
{
	(void)state;
	assert_int_equal(q.desc, DESC);
	assert_int_equal(q.avail, AVAIL);
	assert_int_equal(q.used, USED);	/* the next 4 KiB boundary */
	/* Linux's vring_size(64, 4096): 1024 + 6 + 128 -> 4096, + 6 + 512 */
	assert_int_equal(virtq_legacy_size(64), 4096 + 6 + 8 * 64);
	virtq_setup_legacy(&q, NUM, 0);
	assert_int_equal(q.desc, 0);	/* pfn 0: the queue is off */
}

static void test_chain_of_three(void **state)
{
	struct virtq_run run;

	(void)state;
	text_desc(2, "hel", VIRTQ_DESC_F_NEXT, 5);
	text_desc(5, "lo ", VIRTQ_DESC_F_NEXT, 7);
	text_desc(7, "world\n", 0, 0);
	offer(2);
	assert_int_equal(virtq_tx(&q, &mem, 4096, sink, NULL, &run), VIRTQ_OK);
	assert_int_equal(out_len, 12);
	assert_memory_equal(out, "hello world\n", 12);
	assert_int_equal(run.chains, 1);
	assert_int_equal(run.bytes, 12);
	assert_false(run.more);
	assert_true(run.interrupt);
	assert_int_equal(get16(USED + 2), 1);
	assert_int_equal(get32(USED + 4), 2);	/* id: the head */
	assert_int_equal(get32(USED + 8), 0);	/* len: nothing written */
	/* Nothing new: nothing taken, nothing written. */
	assert_int_equal(virtq_tx(&q, &mem, 4096, sink, NULL, &run), VIRTQ_OK);
	assert_int_equal(run.chains, 0);
	assert_false(run.interrupt);
}

static void test_no_interrupt_flag(void **state)
{
	struct virtq_run run;

	(void)state;
	put16(AVAIL, VIRTQ_AVAIL_F_NO_INTERRUPT);
	text_desc(0, "x", 0, 0);
	offer(0);
	assert_int_equal(virtq_tx(&q, &mem, 4096, sink, NULL, &run), VIRTQ_OK);
	assert_int_equal(run.chains, 1);
	assert_false(run.interrupt);
}

/* 65534, 65535, 0: the ring positions and the used index wrap too. */
static void test_avail_index_wraps(void **state)
{
	struct virtq_run run;

	(void)state;
	start_at(0xfffe);
	text_desc(0, "a", 0, 0);
	text_desc(1, "b", 0, 0);
	text_desc(2, "c", 0, 0);
	offer(0);
	offer(1);
	offer(2);
	assert_int_equal(avail_idx, 1);
	assert_int_equal(virtq_tx(&q, &mem, 4096, sink, NULL, &run), VIRTQ_OK);
	assert_int_equal(run.chains, 3);
	assert_memory_equal(out, "abc", 3);
	assert_int_equal(get16(USED + 2), 1);
	assert_int_equal(q.last_avail, 1);
	/* 0xfffe % 8 = 6, 0xffff % 8 = 7, 0 % 8 = 0 */
	assert_int_equal(get32(USED + 4 + 8 * 6), 0);
	assert_int_equal(get32(USED + 4 + 8 * 7), 1);
	assert_int_equal(get32(USED + 4 + 8 * 0), 2);
}

/* Budget 15, chains of 10: two taken (the first leaves 5 under it), the
 * third at the next call. */
static void test_budget_resumes(void **state)
{
	struct virtq_run run;

	(void)state;
	text_desc(0, "0123456789", 0, 0);
	text_desc(1, "abcdefghij", 0, 0);
	text_desc(2, "ABCDEFGHIJ", 0, 0);
	offer(0);
	offer(1);
	offer(2);
	assert_int_equal(virtq_tx(&q, &mem, 15, sink, NULL, &run), VIRTQ_OK);
	assert_int_equal(run.chains, 2);
	assert_true(run.more);
	assert_int_equal(get16(USED + 2), 2);
	assert_int_equal(virtq_tx(&q, &mem, 15, sink, NULL, &run), VIRTQ_OK);
	assert_int_equal(run.chains, 1);
	assert_false(run.more);
	assert_int_equal(out_len, 30);
	assert_memory_equal(out + 20, "ABCDEFGHIJ", 10);
}

/* A chain longer than the copy chunk, and a budget smaller than one
 * chain: the chain goes whole (at least one is taken). */
static void test_long_buffer(void **state)
{
	static char big[3000];
	struct virtq_run run;

	(void)state;
	for (unsigned i = 0; i < sizeof(big); i++)
		big[i] = (char)('a' + i % 26);
	memcpy(ram + BUF, big, sizeof(big));
	set_desc(0, BUF, sizeof(big), 0, 0);
	offer(0);
	assert_int_equal(virtq_tx(&q, &mem, 1, sink, NULL, &run), VIRTQ_OK);
	assert_int_equal(run.bytes, sizeof(big));
	assert_memory_equal(out, big, sizeof(big));
}

/* Each refusal: the error, the queue broken, no byte of the bad chain
 * out, the used ring untouched, and nothing read on the next call. */
static void refused(enum virtq_err want)
{
	struct virtq_run run;

	assert_int_equal(virtq_tx(&q, &mem, 4096, sink, NULL, &run), want);
	assert_true(q.broken);
	assert_int_equal(q.err, want);
	assert_int_equal(out_len, 0);
	assert_int_equal(run.chains, 0);
	assert_int_equal(get16(USED + 2), 0);
	reads = 0;
	assert_int_equal(virtq_tx(&q, &mem, 4096, sink, NULL, &run), want);
	assert_int_equal(reads, 0);
}

static void test_refuse_avail_idx(void **state)
{
	(void)state;
	put16(AVAIL + 2, NUM + 1);	/* more entries than the ring holds */
	refused(VIRTQ_E_AVAIL_IDX);
}

static void test_refuse_head(void **state)
{
	(void)state;
	offer(NUM);
	refused(VIRTQ_E_HEAD);
}

static void test_refuse_next(void **state)
{
	(void)state;
	text_desc(0, "no", VIRTQ_DESC_F_NEXT, NUM);
	offer(0);
	refused(VIRTQ_E_NEXT);
}

static void test_refuse_loop(void **state)
{
	(void)state;
	text_desc(0, "a", VIRTQ_DESC_F_NEXT, 1);
	text_desc(1, "b", VIRTQ_DESC_F_NEXT, 0);	/* back to 0 */
	offer(0);
	refused(VIRTQ_E_LOOP);
}

static void test_refuse_too_long(void **state)
{
	(void)state;
	/* 32 KiB + 32 KiB + 1, each buffer inside RAM */
	set_desc(0, 0, VIRTQ_CHAIN_BYTES / 2, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, 0, VIRTQ_CHAIN_BYTES / 2, VIRTQ_DESC_F_NEXT, 2);
	set_desc(2, 0, 1, 0, 0);
	offer(0);
	refused(VIRTQ_E_LONG);
}

static void test_refuse_indirect(void **state)
{
	(void)state;
	set_desc(0, BUF, 16, VIRTQ_DESC_F_INDIRECT, 0);
	offer(0);
	refused(VIRTQ_E_INDIRECT);
}

static void test_refuse_writable(void **state)
{
	(void)state;
	set_desc(0, BUF, 16, VIRTQ_DESC_F_WRITE, 0);
	offer(0);
	refused(VIRTQ_E_WRITABLE);
}

static void test_refuse_buffer_outside_ram(void **state)
{
	(void)state;
	set_desc(0, RAM_SIZE - 4, 8, 0, 0);	/* its end is past RAM */
	offer(0);
	refused(VIRTQ_E_MEM);
	setup(NULL);
	set_desc(0, UINT64_MAX - 2, 8, 0, 0);	/* wraps around 2^64 */
	offer(0);
	refused(VIRTQ_E_MEM);
}

/* A good first buffer, a second one past RAM: nothing of the chain
 * goes out (both ends of every buffer are checked before the copy). */
static void test_refuse_second_buffer_outside_ram(void **state)
{
	(void)state;
	text_desc(0, "visible?", VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, RAM_SIZE - 1, 2, 0, 0);
	offer(0);
	refused(VIRTQ_E_MEM);
}

static void test_refuse_ring_outside_ram(void **state)
{
	(void)state;
	virtq_setup_legacy(&q, NUM, RAM_SIZE / VIRTQ_ALIGN);
	refused(VIRTQ_E_MEM);
}

/* A good chain, then a bad one: the first is delivered and returned,
 * the queue stops at the second. */
static void test_good_then_bad(void **state)
{
	struct virtq_run run;

	(void)state;
	text_desc(0, "ok\n", 0, 0);
	offer(0);
	offer(NUM + 3);
	assert_int_equal(virtq_tx(&q, &mem, 4096, sink, NULL, &run),
			 VIRTQ_E_HEAD);
	assert_int_equal(run.chains, 1);
	assert_memory_equal(out, "ok\n", 3);
	assert_int_equal(get16(USED + 2), 1);
	assert_true(q.broken);
	assert_int_equal(q.last_avail, 1);	/* the bad one stays */
}

/* Every error has a name for the device's console line. */
static void test_err_names(void **state)
{
	(void)state;
	for (int e = 0; e < VIRTQ_E_COUNT; e++)
		assert_true(strlen(virtq_err_name(e)) > 3);
	assert_string_equal(virtq_err_name(VIRTQ_E_COUNT), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_legacy_layout, setup),
		cmocka_unit_test_setup(test_chain_of_three, setup),
		cmocka_unit_test_setup(test_no_interrupt_flag, setup),
		cmocka_unit_test_setup(test_avail_index_wraps, setup),
		cmocka_unit_test_setup(test_budget_resumes, setup),
		cmocka_unit_test_setup(test_long_buffer, setup),
		cmocka_unit_test_setup(test_refuse_avail_idx, setup),
		cmocka_unit_test_setup(test_refuse_head, setup),
		cmocka_unit_test_setup(test_refuse_next, setup),
		cmocka_unit_test_setup(test_refuse_loop, setup),
		cmocka_unit_test_setup(test_refuse_too_long, setup),
		cmocka_unit_test_setup(test_refuse_indirect, setup),
		cmocka_unit_test_setup(test_refuse_writable, setup),
		cmocka_unit_test_setup(test_refuse_buffer_outside_ram, setup),
		cmocka_unit_test_setup(test_refuse_second_buffer_outside_ram,
				       setup),
		cmocka_unit_test_setup(test_refuse_ring_outside_ram, setup),
		cmocka_unit_test_setup(test_good_then_bad, setup),
		cmocka_unit_test_setup(test_err_names, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
