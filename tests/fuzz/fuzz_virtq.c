/* libFuzzer target for the virtio console's queue walk (hv/vm/virtq.c):
 * the input is everything a guest controls - the queue size it is told
 * (from the header), where both indexes start, the byte budget, and the
 * whole of guest memory holding the rings and buffers (32 KiB; the
 * accessors refuse what lies outside, as vm_read_gpa does). Invariants
 * after every call: no more chains than the queue holds, each chain's
 * bytes bounded, the sink got exactly what the run says, the indexes
 * moved by the chains taken, the device wrote only into the used ring,
 * a run stops near its budget, and a broken queue reads nothing more. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hv/vm/virtq.h"

#define CHECK(cond)                                                            \
	do {                                                                   \
		if (!(cond))                                                   \
			abort();                                               \
	} while (0)

#define RAM_SIZE	0x8000u
#define HDR		8

static uint8_t ram[RAM_SIZE];
static uint64_t used_lo, used_hi;
static unsigned reads;
static size_t sunk;

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
	CHECK(gpa >= used_lo && gpa + len <= used_hi);
	if (gpa >= RAM_SIZE || len > RAM_SIZE - gpa)
		return -1;
	memcpy(ram + gpa, buf, len);
	return 0;
}

static void sink(void *ctx, const uint8_t *buf, size_t len)
{
	(void)ctx;
	CHECK(buf && len);
	sunk += len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct virtq_mem mem = { rd, wr, NULL };
	struct virtq q;
	struct virtq_run run;
	uint16_t start, used0;
	uint32_t budget;
	unsigned num;

	uint8_t hdr[HDR] = { 0 };

	memcpy(hdr, data, size < HDR ? size : HDR);	/* short: zeros */
	num = 1u << (hdr[0] % 7);		/* 1 .. 64 */
	memcpy(&start, hdr + 1, 2);
	memcpy(&budget, hdr + 3, 4);
	budget %= 3 * VIRTQ_CHAIN_BYTES;
	memset(ram, 0, sizeof(ram));
	if (size > HDR)
		memcpy(ram, data + HDR,
		       size - HDR < RAM_SIZE ? size - HDR : RAM_SIZE);
	/* The queue at page 1 or, by the header, partly outside RAM. */
	virtq_setup_legacy(&q, num, hdr[7] & 1 ? RAM_SIZE / 4096 - 1 : 1);
	q.last_avail = q.used_idx = start;
	used_lo = q.used;
	used_hi = q.used + 4 + 8ull * num;
	for (int round = 0; round < 3; round++) {
		uint16_t last0 = q.last_avail;
		bool was_broken = q.broken;
		enum virtq_err e;

		used0 = q.used_idx;
		reads = 0;
		sunk = 0;
		e = virtq_tx(&q, &mem, budget, sink, NULL, &run);
		CHECK(run.chains <= num);
		CHECK(run.bytes == sunk);
		CHECK(run.bytes <= (size_t)run.chains * VIRTQ_CHAIN_BYTES);
		CHECK((uint16_t)(q.used_idx - used0) == run.chains);
		CHECK((uint16_t)(q.last_avail - last0) == run.chains);
		CHECK(!run.more || run.bytes >= budget);
		CHECK(!run.chains || run.bytes < (size_t)budget +
						  VIRTQ_CHAIN_BYTES + 1);
		CHECK(e == VIRTQ_OK || q.broken);
		CHECK(e < VIRTQ_E_COUNT);
		/* Reads: the index, then per chain its head, at most num
		 * descriptors with their buffers' two ends, its bytes in
		 * 256-byte pieces per descriptor, then the flags. */
		CHECK(reads <= 2 + (run.chains + 1) *
				   (1 + 3 * num + num + VIRTQ_CHAIN_BYTES / 256));
		if (was_broken)
			CHECK(reads == 0 && run.chains == 0);
	}
	return 0;
}
