/* The DP AUX channel state machine of one port (see vdisp_aux.h). */
#include "gpu/display/vdisp_aux.h"
#include "mini/string.h"

#define CTL_STICKY (DP_AUX_CH_CTL_DONE | DP_AUX_CH_CTL_TIME_OUT_ERROR | \
		    DP_AUX_CH_CTL_RECEIVE_ERROR)

/* A decoded request. len is the byte count asked for (1-256 as the
 * length byte encodes it), 0 for an address-only ("bare") request; the
 * payload is what followed the header in the data registers. */
struct aux_req {
	uint8_t cmd;
	uint32_t addr;
	unsigned len;
	const uint8_t *payload;
	unsigned payload_len;
};

struct aux_reply {
	uint8_t b[VDISP_AUX_MSG_MAX];
	unsigned len;
};

typedef void (*aux_handler)(struct vdisp_aux *, const struct aux_req *,
			    struct aux_reply *);

/* Byte 0 of a reply: native code in bits 5:4, I2C code in bits 7:6 (the
 * I2C codes are defined pre-shifted by 2, as drm_dp.h has them). */
static void reply(struct aux_reply *r, uint8_t native, uint8_t i2c)
{
	r->b[0] = (uint8_t)((native | i2c) << 4);
	r->len = 1;
}

static void decode(const uint8_t *m, unsigned size, struct aux_req *q)
{
	q->cmd = m[0] >> 4;
	q->addr = (uint32_t)(m[0] & 0xf) << 16 | (uint32_t)m[1] << 8 | m[2];
	q->len = size > VDISP_AUX_BARE_ADDRESS ? m[3] + 1u : 0;
	q->payload = m + VDISP_AUX_HEADER;
	q->payload_len = size > VDISP_AUX_HEADER ? size - VDISP_AUX_HEADER : 0;
}

/* The request's length fits one AUX reply and its payload matches it:
 * writes carry exactly len bytes, reads and bare requests none. */
static bool shape_ok(const struct aux_req *q, bool writes)
{
	if (!q->len)
		return !q->payload_len;
	return q->len <= DP_AUX_MAX_PAYLOAD_BYTES &&
	       q->payload_len == (writes ? q->len : 0);
}

static void native_read(struct vdisp_aux *a, const struct aux_req *q,
			struct aux_reply *r)
{
	if (!q->len || !shape_ok(q, false)) {
		reply(r, DP_AUX_NATIVE_REPLY_NACK, 0);
		return;
	}
	reply(r, DP_AUX_NATIVE_REPLY_ACK, 0);
	for (unsigned i = 0; i < q->len; i++)
		r->b[1 + i] = vdisp_dpcd_read(&a->dpcd,
					      (q->addr + i) & VDISP_DPCD_ADDR_MASK);
	r->len = 1 + q->len;
}

static void native_write(struct vdisp_aux *a, const struct aux_req *q,
			 struct aux_reply *r)
{
	if (!q->len || !shape_ok(q, true)) {
		reply(r, DP_AUX_NATIVE_REPLY_NACK, 0);
		return;
	}
	for (unsigned i = 0; i < q->len; i++)
		vdisp_dpcd_write(&a->dpcd, (q->addr + i) & VDISP_DPCD_ADDR_MASK,
				 q->payload[i]);
	reply(r, DP_AUX_NATIVE_REPLY_ACK, 0);
}

/* The devices on the monitor's DDC bus. The EDID EEPROM keeps its word
 * address between transactions (as a real one does), so a driver must
 * write the offset before reading, as drm does; the E-DDC segment pointer
 * is write-only and falls back to 0 at every stop. */
static void edid_write(struct vdisp_aux *a, const uint8_t *p, unsigned n)
{
	if (n)
		a->i2c_offset = p[0];	/* the rest would be EEPROM writes */
}

static void edid_read(struct vdisp_aux *a, uint8_t *out, unsigned n)
{
	for (unsigned i = 0; i < n; i++, a->i2c_offset++) {
		unsigned at = a->i2c_segment * 256u + a->i2c_offset;

		/* No extension block: the rest of the EEPROM reads blank. */
		out[i] = at < VDISP_EDID_SIZE ? a->edid[at] : 0xff;
	}
}

static void segment_write(struct vdisp_aux *a, const uint8_t *p, unsigned n)
{
	if (n)
		a->i2c_segment = p[0];
}

struct i2c_dev {
	uint8_t addr;
	void (*write)(struct vdisp_aux *, const uint8_t *, unsigned);
	void (*read)(struct vdisp_aux *, uint8_t *, unsigned);	/* or NULL */
};

static const struct i2c_dev i2c_devs[] = {
	{ DDC_ADDR, edid_write, edid_read },
	{ DDC_SEGMENT_ADDR, segment_write, NULL },
};

static const struct i2c_dev *i2c_find(uint32_t addr)
{
	for (size_t i = 0; i < sizeof(i2c_devs) / sizeof(i2c_devs[0]); i++)
		if (i2c_devs[i].addr == addr)
			return &i2c_devs[i];
	return NULL;
}

/* One I2C-over-AUX request. An absent device (DDC/CI at 0x37 included)
 * does not acknowledge its address: I2C NACK, the AUX part ACKed. A
 * write status update asks whether a short write finished; every write
 * here finishes at once. */
static void i2c_xfer(struct vdisp_aux *a, const struct aux_req *q,
		     struct aux_reply *r)
{
	unsigned op = q->cmd & ~DP_AUX_I2C_MOT;
	const struct i2c_dev *dev = i2c_find(q->addr);

	if (!shape_ok(q, op != DP_AUX_I2C_READ)) {
		reply(r, DP_AUX_NATIVE_REPLY_NACK, 0);
		return;
	}
	if (!dev || (op == DP_AUX_I2C_READ && q->len && !dev->read)) {
		reply(r, DP_AUX_NATIVE_REPLY_ACK, DP_AUX_I2C_REPLY_NACK);
	} else {
		reply(r, DP_AUX_NATIVE_REPLY_ACK, DP_AUX_I2C_REPLY_ACK);
		if (op == DP_AUX_I2C_WRITE)
			dev->write(a, q->payload, q->payload_len);
		else if (op == DP_AUX_I2C_READ && q->len) {
			dev->read(a, r->b + 1, q->len);
			r->len = 1 + q->len;
		}
	}
	if (!(q->cmd & DP_AUX_I2C_MOT))
		a->i2c_segment = 0;	/* stop condition */
}

/* Commands 0x3, 0x7 and 0xa-0xf are undefined: NACKed. */
static const aux_handler handlers[16] = {
	[DP_AUX_I2C_WRITE] = i2c_xfer,
	[DP_AUX_I2C_READ] = i2c_xfer,
	[DP_AUX_I2C_WRITE_STATUS_UPDATE] = i2c_xfer,
	[DP_AUX_I2C_MOT | DP_AUX_I2C_WRITE] = i2c_xfer,
	[DP_AUX_I2C_MOT | DP_AUX_I2C_READ] = i2c_xfer,
	[DP_AUX_I2C_MOT | DP_AUX_I2C_WRITE_STATUS_UPDATE] = i2c_xfer,
	[DP_AUX_NATIVE_WRITE] = native_write,
	[DP_AUX_NATIVE_READ] = native_read,
};

static void count(struct vdisp_aux *a, const struct aux_req *q,
		  const struct aux_reply *r)
{
	uint8_t code = r->b[0] >> 4;

	if (q->cmd & DP_AUX_NATIVE_WRITE)
		a->stats.native++;
	else
		a->stats.i2c++;
	if (code & (DP_AUX_NATIVE_REPLY_NACK | DP_AUX_I2C_REPLY_NACK))
		a->stats.nacks++;
	if (code & (DP_AUX_NATIVE_REPLY_DEFER | DP_AUX_I2C_REPLY_DEFER))
		a->stats.defers++;
}

/* Runs the request of size bytes in the data registers; returns the
 * CTL error bits, the reply in r. */
static uint32_t transact(struct vdisp_aux *a, unsigned size,
			 struct aux_reply *r)
{
	struct aux_req q;
	aux_handler h;

	if (!a->connected)
		return DP_AUX_CH_CTL_TIME_OUT_ERROR;
	if (size < VDISP_AUX_BARE_ADDRESS || size > VDISP_AUX_MSG_MAX)
		return DP_AUX_CH_CTL_RECEIVE_ERROR;
	decode(a->data, size, &q);
	h = handlers[q.cmd];
	if (!h)
		reply(r, DP_AUX_NATIVE_REPLY_NACK, 0);
	else if (a->defer) {
		a->defer--;
		if (q.cmd & DP_AUX_NATIVE_WRITE)
			reply(r, DP_AUX_NATIVE_REPLY_DEFER, 0);
		else
			reply(r, DP_AUX_NATIVE_REPLY_ACK, DP_AUX_I2C_REPLY_DEFER);
	} else
		h(a, &q, r);
	count(a, &q, r);
	return 0;
}

static int send(struct vdisp_aux *a, uint32_t val)
{
	unsigned size = (val & DP_AUX_CH_CTL_MESSAGE_SIZE_MASK) >>
			DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT;
	struct aux_reply r = { .len = 0 };
	uint32_t err;

	a->stats.transactions++;
	err = transact(a, size, &r);
	if (err)
		a->stats.errors++;
	/* The reply replaces the request; bytes past it read 0. */
	memset(a->data, 0, sizeof(a->data));
	memcpy(a->data, r.b, r.len);
	a->ctl &= ~(DP_AUX_CH_CTL_SEND_BUSY | DP_AUX_CH_CTL_MESSAGE_SIZE_MASK);
	a->ctl |= DP_AUX_CH_CTL_DONE | err |
		  (uint32_t)r.len << DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT;
	return (a->ctl & DP_AUX_CH_CTL_INTERRUPT) ? VDISP_AUX_RAISE_IRQ : 0;
}

/* DONE and the two error bits are cleared by writing 1 (i915 writes them
 * set with every send and again after reading the status); the other
 * bits hold what was written. SEND_BUSY never reads back set: the
 * transaction is over before the write returns. */
static int ctl_write(struct vdisp_aux *a, uint32_t val)
{
	uint32_t kept = a->ctl & CTL_STICKY & ~val;

	a->ctl = (val & ~(CTL_STICKY | DP_AUX_CH_CTL_SEND_BUSY)) | kept;
	return (val & DP_AUX_CH_CTL_SEND_BUSY) ? send(a, val) : 0;
}

/* The data register at offset, or -1. */
static int data_index(uint32_t offset)
{
	if (offset < VDISP_AUX_DATA(0) || offset >= VDISP_AUX_SPAN ||
	    (offset & 3))
		return -1;
	return (int)(offset - VDISP_AUX_DATA(0)) / 4;
}

int vdisp_aux_write(struct vdisp_aux *a, uint32_t offset, uint32_t val)
{
	int i = data_index(offset);

	if (offset == VDISP_AUX_CTL)
		return ctl_write(a, val);
	for (int b = 0; i >= 0 && b < 4; b++)
		a->data[4 * i + b] = (uint8_t)(val >> (24 - 8 * b));
	return 0;
}

uint32_t vdisp_aux_read(const struct vdisp_aux *a, uint32_t offset)
{
	int i = data_index(offset);
	uint32_t v = 0;

	if (offset == VDISP_AUX_CTL)
		return a->ctl;
	for (int b = 0; i >= 0 && b < 4; b++)
		v |= (uint32_t)a->data[4 * i + b] << (24 - 8 * b);
	return v;
}

void vdisp_aux_init(struct vdisp_aux *a, const struct vdisp_mode *m,
		    uint32_t serial)
{
	memset(a, 0, sizeof(*a));
	a->connected = true;
	vdisp_dpcd_init(&a->dpcd);
	vdisp_edid_build(a->edid, m, serial);
}

void vdisp_aux_set_connected(struct vdisp_aux *a, bool connected)
{
	a->connected = connected;
}

void vdisp_aux_defer(struct vdisp_aux *a, uint32_t n)
{
	a->defer = n;
}
