/* The device side of a split virtqueue; see virtq.h. */
#include "hv/vm/virtq.h"

/* A descriptor as the driver lays it out (virtio 1.2, 2.7.5). */
struct vq_desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags, next;
};

#define AVAIL_FLAGS	0
#define AVAIL_IDX	2
#define AVAIL_RING	4
#define USED_IDX	2
#define USED_RING	4
#define USED_ELEM	8	/* { le32 id; le32 len; } */
#define COPY_CHUNK	256	/* bytes moved to the sink at a time */

static const char *const err_names[VIRTQ_E_COUNT] = {
	[VIRTQ_OK] = "no error",
	[VIRTQ_E_MEM] = "a ring or buffer outside the VM's RAM",
	[VIRTQ_E_AVAIL_IDX] = "the available index ran past the queue",
	[VIRTQ_E_HEAD] = "a chain's head index beyond the queue",
	[VIRTQ_E_NEXT] = "a next index beyond the queue",
	[VIRTQ_E_LOOP] = "a chain of more descriptors than the queue has",
	[VIRTQ_E_LONG] = "a chain longer than 64 KiB",
	[VIRTQ_E_INDIRECT] = "an indirect descriptor (not offered)",
	[VIRTQ_E_WRITABLE] = "a device-writable buffer on the transmit queue",
};

const char *virtq_err_name(enum virtq_err e)
{
	return e < VIRTQ_E_COUNT ? err_names[e] : "?";
}

static uint64_t align_up(uint64_t x, uint64_t a)
{
	return (x + a - 1) & ~(a - 1);
}

uint64_t virtq_legacy_size(unsigned num)
{
	uint64_t used_at = align_up(16ull * num + AVAIL_RING + 2ull * num + 2,
				    VIRTQ_ALIGN);

	return used_at + USED_RING + (uint64_t)USED_ELEM * num + 2;
}

void virtq_setup_legacy(struct virtq *q, unsigned num, uint64_t pfn)
{
	*q = (struct virtq){ .num = (uint16_t)num };
	if (!pfn || !num)
		return;		/* the queue is off */
	q->desc = pfn * VIRTQ_ALIGN;
	q->avail = q->desc + 16ull * num;
	q->used = align_up(q->avail + AVAIL_RING + 2ull * num + 2, VIRTQ_ALIGN);
}

static enum virtq_err broke(struct virtq *q, enum virtq_err e)
{
	q->broken = true;
	q->err = e;
	return e;
}

static int rd16(const struct virtq_mem *m, uint64_t gpa, uint16_t *v)
{
	return m->read(m->ctx, gpa, v, 2);
}

/* The buffer's first and last bytes are guest RAM. A VM's RAM has no
 * hole shorter than a chain may be long (hv/vm/vm_layout.h: below the PCI
 * hole, then from 4 GiB), so with both ends in RAM all of it is, and a
 * chain that passes is copied whole or not at all. */
static bool buffer_in_ram(const struct virtq_mem *m, const struct vq_desc *d)
{
	uint8_t b;

	if (!d->len)
		return true;
	return d->addr + d->len - 1 >= d->addr &&
	       !m->read(m->ctx, d->addr, &b, 1) &&
	       !m->read(m->ctx, d->addr + d->len - 1, &b, 1);
}

/* The chain at head, checked whole before any byte moves: its
 * descriptors into d[], their count into *n. */
static enum virtq_err read_chain(const struct virtq *q,
				 const struct virtq_mem *m, uint16_t head,
				 struct vq_desc *d, unsigned *n)
{
	uint64_t bytes = 0;
	uint16_t i = head;

	if (head >= q->num)
		return VIRTQ_E_HEAD;
	for (*n = 0;; (*n)++) {
		if (*n == q->num)
			return VIRTQ_E_LOOP;
		if (m->read(m->ctx, q->desc + 16ull * i, &d[*n], sizeof(d[0])))
			return VIRTQ_E_MEM;
		if (d[*n].flags & VIRTQ_DESC_F_INDIRECT)
			return VIRTQ_E_INDIRECT;
		if (d[*n].flags & VIRTQ_DESC_F_WRITE)
			return VIRTQ_E_WRITABLE;
		bytes += d[*n].len;
		if (bytes > VIRTQ_CHAIN_BYTES)
			return VIRTQ_E_LONG;
		if (!buffer_in_ram(m, &d[*n]))
			return VIRTQ_E_MEM;
		if (!(d[*n].flags & VIRTQ_DESC_F_NEXT))
			break;
		i = d[*n].next;
		if (i >= q->num)
			return VIRTQ_E_NEXT;
	}
	(*n)++;
	return VIRTQ_OK;
}

/* The chain's bytes to the sink, COPY_CHUNK at a time. */
static enum virtq_err copy_chain(const struct virtq_mem *m,
				 const struct vq_desc *d, unsigned n,
				 virtq_sink sink, void *sink_ctx, size_t *bytes)
{
	uint8_t buf[COPY_CHUNK];

	for (unsigned k = 0; k < n; k++) {
		for (uint32_t off = 0; off < d[k].len; off += COPY_CHUNK) {
			uint32_t len = d[k].len - off;

			if (len > COPY_CHUNK)
				len = COPY_CHUNK;
			if (d[k].addr + off < d[k].addr ||
			    m->read(m->ctx, d[k].addr + off, buf, len))
				return VIRTQ_E_MEM;
			sink(sink_ctx, buf, len);
			*bytes += len;
		}
	}
	return VIRTQ_OK;
}

/* Chain head back on the used ring (the element first, the index after:
 * a driver that sees the index sees the element). */
static int put_used(struct virtq *q, const struct virtq_mem *m, uint16_t head)
{
	uint32_t elem[2] = { head, 0 };
	uint16_t idx = (uint16_t)(q->used_idx + 1);

	if (m->write(m->ctx, q->used + USED_RING +
			     (uint64_t)USED_ELEM * (q->used_idx % q->num),
		     elem, sizeof(elem)) ||
	    m->write(m->ctx, q->used + USED_IDX, &idx, 2))
		return -1;
	q->used_idx = idx;
	return 0;
}

/* One available chain: checked, copied, returned. */
static enum virtq_err take_one(struct virtq *q, const struct virtq_mem *m,
			       virtq_sink sink, void *sink_ctx,
			       struct virtq_run *run)
{
	struct vq_desc d[VIRTQ_NUM_MAX];
	uint16_t head;
	unsigned n;
	enum virtq_err e;

	if (rd16(m, q->avail + AVAIL_RING + 2ull * (q->last_avail % q->num),
		 &head))
		return VIRTQ_E_MEM;
	e = read_chain(q, m, head, d, &n);
	if (!e)
		e = copy_chain(m, d, n, sink, sink_ctx, &run->bytes);
	if (!e && put_used(q, m, head))
		e = VIRTQ_E_MEM;
	if (e)
		return e;
	q->last_avail++;
	run->chains++;
	return VIRTQ_OK;
}

enum virtq_err virtq_tx(struct virtq *q, const struct virtq_mem *m,
			size_t budget, virtq_sink sink, void *sink_ctx,
			struct virtq_run *run)
{
	uint16_t idx, flags, pending;
	enum virtq_err e = VIRTQ_OK;

	*run = (struct virtq_run){ 0 };
	if (q->broken || !q->desc || !q->num || q->num > VIRTQ_NUM_MAX)
		return q->broken ? q->err : VIRTQ_OK;
	if (rd16(m, q->avail + AVAIL_IDX, &idx))
		return broke(q, VIRTQ_E_MEM);
	pending = (uint16_t)(idx - q->last_avail);
	if (pending > q->num)
		return broke(q, VIRTQ_E_AVAIL_IDX);
	for (; pending && !e; pending--) {
		if (run->chains && run->bytes >= budget) {
			run->more = true;
			break;
		}
		e = take_one(q, m, sink, sink_ctx, run);
	}
	if (e)
		broke(q, e);
	if (run->chains && !rd16(m, q->avail + AVAIL_FLAGS, &flags))
		run->interrupt = !(flags & VIRTQ_AVAIL_F_NO_INTERRUPT);
	return e;
}
