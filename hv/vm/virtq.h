/* One split virtqueue as the device side walks it (virtio 1.2, section
 * 2.7; the legacy layout of section 4.1.5.1's "Legacy Interfaces": the
 * descriptor table at the queue's page, the available ring right after
 * it, the used ring at the next VIRTQ_ALIGN boundary). The walk touches
 * guest memory only through a struct virtq_mem, so the host tests and the
 * fuzz target (tests/unit/test_virtq.c, tests/fuzz/fuzz_virtq.c) run it
 * on a byte array and the device (hv/vm/vvirtio.c) on the VM's RAM.
 *
 * Everything the guest controls is bounded: at most `num` chains per
 * call, at most `num` descriptors per chain (a longer one loops), at most
 * VIRTQ_CHAIN_BYTES bytes per chain, at most the caller's byte budget per
 * call (then it stops between chains; the next call resumes there). Any
 * bad field breaks the queue: it is taken no further until the driver
 * resets the device, and the error says which rule was broken. */
#ifndef HV_VM_VIRTQ_H
#define HV_VM_VIRTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define VIRTQ_NUM_MAX		64	/* the largest queue (a chain is read onto the stack) */
#define VIRTQ_ALIGN		4096	/* legacy: the used ring's alignment */
#define VIRTQ_CHAIN_BYTES	65536	/* one chain's bytes, at most */

#define VIRTQ_DESC_F_NEXT	1
#define VIRTQ_DESC_F_WRITE	2
#define VIRTQ_DESC_F_INDIRECT	4
#define VIRTQ_AVAIL_F_NO_INTERRUPT 1

/* How the walk reads and writes guest memory: 0, or nonzero when the
 * range is not all RAM of the guest (nothing is copied then). */
struct virtq_mem {
	int (*read)(void *ctx, uint64_t gpa, void *buf, size_t len);
	int (*write)(void *ctx, uint64_t gpa, const void *buf, size_t len);
	void *ctx;
};

/* The bytes of one device-readable descriptor, in chain order. */
typedef void (*virtq_sink)(void *ctx, const uint8_t *buf, size_t len);

enum virtq_err {
	VIRTQ_OK,
	VIRTQ_E_MEM,		/* a ring or buffer not in the guest's RAM */
	VIRTQ_E_AVAIL_IDX,	/* avail idx ran more than num ahead */
	VIRTQ_E_HEAD,		/* a chain's head index >= num */
	VIRTQ_E_NEXT,		/* a next index >= num */
	VIRTQ_E_LOOP,		/* more than num descriptors in a chain */
	VIRTQ_E_LONG,		/* a chain longer than VIRTQ_CHAIN_BYTES */
	VIRTQ_E_INDIRECT,	/* an indirect descriptor (not offered) */
	VIRTQ_E_WRITABLE,	/* a device-writable buffer on a transmit
				 * queue */
	VIRTQ_E_COUNT,
};

struct virtq {
	uint64_t desc, avail, used;	/* guest-physical; desc 0 = off */
	uint16_t num;			/* a power of two, <= VIRTQ_NUM_MAX */
	uint16_t last_avail;		/* the next available entry we take */
	uint16_t used_idx;		/* our used->idx */
	bool broken;			/* until the device is reset */
	enum virtq_err err;		/* why it broke */
};

/* What one virtq_tx call did. */
struct virtq_run {
	unsigned chains;	/* returned on the used ring */
	size_t bytes;		/* handed to the sink */
	bool more;		/* stopped at the budget with chains left */
	bool interrupt;		/* chains returned and the driver did not
				 * set VIRTQ_AVAIL_F_NO_INTERRUPT */
};

/* Bytes of the legacy layout of a num-entry queue (desc + avail padded to
 * VIRTQ_ALIGN, then the used ring). */
uint64_t virtq_legacy_size(unsigned num);

/* The legacy layout at guest-physical page pfn (the driver's QUEUE_PFN
 * write): desc, avail and used set, the walk starts over. */
void virtq_setup_legacy(struct virtq *q, unsigned num, uint64_t pfn);

/* Takes the transmit queue's available chains: each device-readable
 * descriptor's bytes go to sink, the chain goes back on the used ring
 * with length 0 (the device wrote nothing). Stops once budget bytes were
 * taken (between chains; at least one chain is taken if any is there).
 * VIRTQ_OK, or the error that broke the queue (then q->broken; chains
 * taken before it stay taken). */
enum virtq_err virtq_tx(struct virtq *q, const struct virtq_mem *m,
			size_t budget, virtq_sink sink, void *sink_ctx,
			struct virtq_run *run);

/* "avail index ran ahead" and the like, for the device's log line. */
const char *virtq_err_name(enum virtq_err e);

#endif
