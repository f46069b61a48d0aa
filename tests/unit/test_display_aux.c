/* Unit tests of the virtual monitor's DP AUX channel and DPCD
 * (gpu/display/vdisp_aux.c, vdisp_dpcd.c).
 *
 * The helpers below replay what Linux 6.1 does, layer by layer:
 *   xfer()          i915's intel_dp_aux_xfer on Skylake: pack the request
 *                   big-endian into DP_AUX_CH_DATA1..5, write CTL with
 *                   SEND_BUSY and the w1c bits, poll, clear the status,
 *                   map TIME_OUT/RECEIVE errors, unpack the reply;
 *   aux_transfer()  intel_dp_aux_transfer: the 4-byte header (3 for an
 *                   address-only request) and the reply's first byte;
 *   dpcd_read()/dpcd_write()  drm_dp_dpcd_read/write;
 *   i2c_transfer()  drm_dp_i2c_xfer: a bare address with MOT to start
 *                   each message, 16-byte chunks, a bare address without
 *                   MOT to stop; what drm_do_probe_ddc_edid asks of it. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/display/vdisp_aux.h"

static struct vdisp_aux aux;
static int irqs;

/* skl_get_aux_send_ctl: 32 sync pulses, the longest timeout. */
#define SKL_SYNC ((32u - 1) << 5 | (32u - 1))
#define SEND_CTL (DP_AUX_CH_CTL_SEND_BUSY | DP_AUX_CH_CTL_DONE | \
		  DP_AUX_CH_CTL_INTERRUPT | DP_AUX_CH_CTL_TIME_OUT_ERROR | \
		  DP_AUX_CH_CTL_TIME_OUT_MASK | DP_AUX_CH_CTL_RECEIVE_ERROR | \
		  SKL_SYNC)
#define W1C (DP_AUX_CH_CTL_DONE | DP_AUX_CH_CTL_TIME_OUT_ERROR | \
	     DP_AUX_CH_CTL_RECEIVE_ERROR)

static void setup_aux(void)
{
	vdisp_aux_init(&aux, vdisp_mode_default(), 29);
	irqs = 0;
}

static int setup(void **state)
{
	(void)state;
	setup_aux();
	return 0;
}

static uint32_t pack(const uint8_t *src, unsigned n)
{
	uint32_t v = 0;

	for (unsigned i = 0; i < 4 && i < n; i++)
		v |= (uint32_t)src[i] << (24 - 8 * i);
	return v;
}

/* Sends with message size `size` (normally txn) so a test can lie. */
static int xfer_sized(const uint8_t *tx, unsigned txn, unsigned size,
		      uint8_t *rx, unsigned rxsize)
{
	uint32_t status;
	unsigned n;

	for (unsigned i = 0; i < txn; i += 4)
		vdisp_aux_write(&aux, VDISP_AUX_DATA(i / 4), pack(tx + i, txn - i));
	irqs += vdisp_aux_write(&aux, VDISP_AUX_CTL,
				SEND_CTL | size << DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT);
	status = vdisp_aux_read(&aux, VDISP_AUX_CTL);
	assert_false(status & DP_AUX_CH_CTL_SEND_BUSY);
	assert_true(status & DP_AUX_CH_CTL_DONE);
	assert_int_equal(status & SKL_SYNC, SKL_SYNC);	/* kept as written */
	vdisp_aux_write(&aux, VDISP_AUX_CTL, status | W1C);
	assert_int_equal(vdisp_aux_read(&aux, VDISP_AUX_CTL) & W1C, 0);
	if (status & DP_AUX_CH_CTL_RECEIVE_ERROR)
		return -EIO;
	if (status & DP_AUX_CH_CTL_TIME_OUT_ERROR)
		return -ETIMEDOUT;
	n = (status & DP_AUX_CH_CTL_MESSAGE_SIZE_MASK) >>
	    DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT;
	if (n == 0 || n > VDISP_AUX_MSG_MAX)
		return -EBUSY;
	if (n > rxsize)
		n = rxsize;
	for (unsigned i = 0; i < n; i++)
		rx[i] = (uint8_t)(vdisp_aux_read(&aux, VDISP_AUX_DATA(i / 4)) >>
				  (24 - 8 * (i % 4)));
	return (int)n;
}

static int xfer(const uint8_t *tx, unsigned txn, uint8_t *rx, unsigned rxsize)
{
	return xfer_sized(tx, txn, txn, rx, rxsize);
}

/* One AUX message; returns the reply code (rxbuf[0] >> 4) or a negative
 * errno, and for reads the data bytes in buf (*got of them). */
static int aux_transfer(uint8_t request, uint32_t addr, uint8_t *buf,
			unsigned size, unsigned *got)
{
	bool is_write = !(request & DP_AUX_I2C_READ) ||
			request == DP_AUX_NATIVE_WRITE;
	uint8_t tx[20] = { (uint8_t)(request << 4 | (addr >> 16 & 0xf)),
			   (uint8_t)(addr >> 8), (uint8_t)addr,
			   (uint8_t)(size - 1) };
	uint8_t rx[20];
	unsigned txn = size ? VDISP_AUX_HEADER : VDISP_AUX_BARE_ADDRESS;
	int ret;

	if (request == DP_AUX_NATIVE_READ)
		is_write = false;
	if (is_write && size) {
		memcpy(tx + VDISP_AUX_HEADER, buf, size);
		txn += size;
	}
	ret = xfer(tx, txn, rx, is_write ? 2 : size + 1);
	if (ret <= 0)
		return ret < 0 ? ret : -EBUSY;
	if (got) {
		*got = (unsigned)ret - 1;
		if (!is_write && *got)
			memcpy(buf, rx + 1, *got);
	}
	return rx[0] >> 4;
}

static int dpcd_read(uint32_t addr, uint8_t *buf, unsigned n)
{
	unsigned got = 0;
	int r = aux_transfer(DP_AUX_NATIVE_READ, addr, buf, n, &got);

	if (r != DP_AUX_NATIVE_REPLY_ACK)
		return r < 0 ? r : -EIO;
	return (int)got;
}

static int dpcd_write(uint32_t addr, const uint8_t *buf, unsigned n)
{
	uint8_t copy[16];

	memcpy(copy, buf, n);
	return aux_transfer(DP_AUX_NATIVE_WRITE, addr, copy, n, NULL) ==
	       DP_AUX_NATIVE_REPLY_ACK ? (int)n : -EIO;
}

static void dpcd_writeb(uint32_t addr, uint8_t v)
{
	assert_int_equal(dpcd_write(addr, &v, 1), 1);
}

struct i2c_msg {
	uint8_t addr;
	bool read;
	uint8_t *buf;
	unsigned len;
};

/* One I2C-over-AUX request: 0 on I2C ACK, -EREMOTEIO on I2C NACK,
 * -EIO on a native NACK. */
static int i2c_do_msg(uint8_t req, uint8_t addr, uint8_t *buf, unsigned n)
{
	unsigned got = 0;
	int r = aux_transfer(req, addr, buf, n, &got);

	if (r < 0)
		return r;
	if ((r & 0x3) != DP_AUX_NATIVE_REPLY_ACK)
		return -EIO;
	if ((r & 0xc) == DP_AUX_I2C_REPLY_NACK)
		return -EREMOTEIO;
	assert_int_equal(r & 0xc, DP_AUX_I2C_REPLY_ACK);
	if (req & DP_AUX_I2C_READ)
		assert_int_equal(got, n);
	return 0;
}

static int i2c_transfer(struct i2c_msg *msgs, unsigned num)
{
	uint8_t req = 0;
	int err = 0;

	for (unsigned i = 0; i < num && !err; i++) {
		req = (msgs[i].read ? DP_AUX_I2C_READ : DP_AUX_I2C_WRITE) |
		      DP_AUX_I2C_MOT;
		err = i2c_do_msg(req, msgs[i].addr, NULL, 0);
		for (unsigned j = 0; !err && j < msgs[i].len;
		     j += DP_AUX_MAX_PAYLOAD_BYTES) {
			unsigned n = msgs[i].len - j;

			if (n > DP_AUX_MAX_PAYLOAD_BYTES)
				n = DP_AUX_MAX_PAYLOAD_BYTES;
			err = i2c_do_msg(req, msgs[i].addr, msgs[i].buf + j, n);
		}
	}
	i2c_do_msg(req & ~DP_AUX_I2C_MOT, msgs[num - 1].addr, NULL, 0);
	return err ? err : (int)num;
}

/* drm_do_probe_ddc_edid: segment (only for blocks 2 and up), offset,
 * read. */
static int read_edid_block(unsigned block, uint8_t *buf, unsigned len)
{
	uint8_t start = (uint8_t)(block * VDISP_EDID_SIZE);
	uint8_t segment = (uint8_t)(block >> 1);
	struct i2c_msg msgs[3] = {
		{ DDC_SEGMENT_ADDR, false, &segment, 1 },
		{ DDC_ADDR, false, &start, 1 },
		{ DDC_ADDR, true, buf, len },
	};
	unsigned xfers = segment ? 3 : 2;

	return i2c_transfer(&msgs[3 - xfers], xfers) == (int)xfers ? 0 : -EIO;
}

static void test_detect_reads_receiver_caps(void **state)
{
	uint8_t caps[16];

	(void)state;
	/* drm_dp_read_dpcd_caps reads DP_RECEIVER_CAP_SIZE (15) bytes; a
	 * 16-byte read is the most one message carries. */
	assert_int_equal(dpcd_read(DP_DPCD_REV, caps, 15), 15);
	assert_int_equal(dpcd_read(DP_DPCD_REV, caps, 16), 16);
	assert_int_equal(caps[DP_DPCD_REV], 0x12);
	assert_int_equal(caps[DP_MAX_LINK_RATE], DP_LINK_BW_5_4);
	assert_int_equal(caps[DP_MAX_LANE_COUNT] & DP_MAX_LANE_COUNT_MASK, 4);
	assert_true(caps[DP_MAX_LANE_COUNT] & DP_ENHANCED_FRAME_CAP);
	assert_int_equal(caps[DP_DOWNSTREAMPORT_PRESENT], 0);	/* no branch */
	assert_int_equal(caps[DP_MAIN_LINK_CHANNEL_CODING], DP_CAP_ANSI_8B10B);
	assert_int_equal(caps[DP_EDP_CONFIGURATION_CAP], 0);
	assert_int_equal(caps[DP_TRAINING_AUX_RD_INTERVAL] & 0x80, 0);
	assert_int_equal(dpcd_read(DP_SINK_COUNT, caps, 1), 1);
	assert_int_equal(caps[0] & 0x3f, 1);
	assert_int_equal(dpcd_read(DP_MSTM_CAP, caps, 1), 1);
	assert_int_equal(caps[0], 0);
	assert_int_equal(dpcd_read(DP_PSR_SUPPORT, caps, 2), 2);
	assert_int_equal(caps[0] | caps[1], 0);
	/* Far and reserved addresses read 0. */
	assert_int_equal(dpcd_read(0x2200, caps, 16), 16);
	for (int i = 0; i < 16; i++)
		assert_int_equal(caps[i], 0);
	assert_int_equal(dpcd_read(0xffff8, caps, 16), 16);	/* wraps */
	assert_int_equal(caps[8], 0x12);
	/* INTERRUPT was set in every send. */
	assert_int_equal(irqs, 7);
	assert_int_equal(aux.stats.transactions, 7);
	assert_int_equal(aux.stats.native, 7);
	assert_int_equal(aux.stats.nacks + aux.stats.errors, 0);
}

static void test_edid_over_i2c(void **state)
{
	uint8_t want[VDISP_EDID_SIZE], got[VDISP_EDID_SIZE], one;

	(void)state;
	vdisp_edid_build(want, vdisp_mode_default(), 29);
	/* drm_probe_ddc: one byte at offset 0. */
	assert_int_equal(read_edid_block(0, &one, 1), 0);
	assert_int_equal(one, 0x00);
	aux.stats.transactions = 0;
	memset(got, 0xaa, sizeof(got));
	assert_int_equal(read_edid_block(0, got, sizeof(got)), 0);
	assert_memory_equal(got, want, sizeof(want));
	/* start + offset write + start + 8 reads of 16 + stop */
	assert_int_equal(aux.stats.transactions, 12);
	assert_int_equal(aux.stats.nacks, 0);
	/* Block 1 does not exist (extension count 0): it reads blank. */
	assert_int_equal(read_edid_block(1, got, sizeof(got)), 0);
	for (unsigned i = 0; i < sizeof(got); i++)
		assert_int_equal(got[i], 0xff);
	/* Block 2 through the segment pointer: blank too; and the segment
	 * is back to 0 after the stop, so block 0 reads again. */
	assert_int_equal(read_edid_block(2, got, sizeof(got)), 0);
	assert_int_equal(got[0], 0xff);
	assert_int_equal(aux.i2c_segment, 0);
	assert_int_equal(read_edid_block(0, got, sizeof(got)), 0);
	assert_memory_equal(got, want, sizeof(want));
}

static void test_edid_offset_and_odd_chunks(void **state)
{
	uint8_t want[VDISP_EDID_SIZE], got[5], off = 120;
	struct i2c_msg msgs[2] = {
		{ DDC_ADDR, false, &off, 1 },
		{ DDC_ADDR, true, got, 5 },
	};

	(void)state;
	vdisp_edid_build(want, vdisp_mode_default(), 29);
	assert_int_equal(i2c_transfer(msgs, 2), 2);
	assert_memory_equal(got, want + 120, 5);
	/* The EEPROM's address carries on: a read without an offset write
	 * continues at 125, and past 127 reads blank. */
	assert_int_equal(i2c_transfer(&msgs[1], 1), 1);
	assert_memory_equal(got, want + 125, 3);
	assert_int_equal(got[3], 0xff);
}

static void test_ddc_ci_nacked(void **state)
{
	uint8_t cmd[4] = { 0x51, 0x82, 0x01, 0x10 };
	struct i2c_msg msg = { DDC_CI_ADDR, false, cmd, 4 };
	struct i2c_msg rd = { 0x3a, true, cmd, 1 };

	(void)state;
	assert_int_equal(i2c_transfer(&msg, 1), -EREMOTEIO);
	assert_int_equal(i2c_transfer(&rd, 1), -EREMOTEIO);
	/* The segment pointer is write-only. */
	rd.addr = DDC_SEGMENT_ADDR;
	assert_int_equal(i2c_transfer(&rd, 1), -EREMOTEIO);
	/* An I2C address beyond 7 bits is nobody's. */
	assert_int_equal(i2c_do_msg(DP_AUX_I2C_READ, 0, NULL, 0), -EREMOTEIO);
	assert_int_equal(aux_transfer(DP_AUX_I2C_READ | DP_AUX_I2C_MOT,
				      0x10050, NULL, 0, NULL),
			 DP_AUX_I2C_REPLY_NACK);
}

/* intel_dp_link_train (intel_dp_link_training.c): link config, TPS1 with
 * scrambling off and the lane drive settings in one write, read the link
 * status, TPS2/TPS3, read it again, training off. */
static void read_status(uint8_t st[6])
{
	assert_int_equal(dpcd_read(DP_LANE0_1_STATUS, st, 6), 6);
}

static void train(uint8_t lanes, uint8_t eq_pattern, const uint8_t cr[6],
		  const uint8_t eq[6])
{
	uint8_t cfg[2] = { DP_LINK_BW_5_4, lanes | DP_LANE_COUNT_ENHANCED_FRAME_EN };
	uint8_t tps[5] = { DP_TRAINING_PATTERN_1 | 0x20 };
	uint8_t st[6];

	assert_int_equal(dpcd_write(DP_LINK_BW_SET, cfg, 2), 2);
	assert_int_equal(dpcd_write(DP_TRAINING_PATTERN_SET, tps, 1 + lanes),
			 1 + lanes);
	read_status(st);
	assert_memory_equal(st, cr, 6);
	tps[0] = eq_pattern | 0x20;
	assert_int_equal(dpcd_write(DP_TRAINING_PATTERN_SET, tps, 1 + lanes),
			 1 + lanes);
	read_status(st);
	assert_memory_equal(st, eq, 6);
	dpcd_writeb(DP_TRAINING_PATTERN_SET, DP_TRAINING_PATTERN_DISABLE);
	read_status(st);
	assert_memory_equal(st, eq, 6);
}

static void test_link_training(void **state)
{
	static const uint8_t cr4[6] = { 0x11, 0x11, 0, 0, 0, 0 };
	static const uint8_t eq4[6] = { 0x77, 0x77, 0x01, 0x01, 0, 0 };
	static const uint8_t cr2[6] = { 0x11, 0x00, 0, 0, 0, 0 };
	static const uint8_t eq2[6] = { 0x77, 0x00, 0x01, 0x01, 0, 0 };
	static const uint8_t cr1[6] = { 0x01, 0x00, 0, 0, 0, 0 };
	static const uint8_t eq1[6] = { 0x07, 0x00, 0x01, 0x01, 0, 0 };
	uint8_t st[6], v;

	(void)state;
	read_status(st);	/* untrained at first */
	assert_int_equal(st[0] | st[1] | st[2], 0);
	train(4, DP_TRAINING_PATTERN_3, cr4, eq4);
	train(2, DP_TRAINING_PATTERN_2, cr2, eq2);	/* fallback */
	train(1, DP_TRAINING_PATTERN_2, cr1, eq1);
	assert_int_equal(dpcd_read(DP_LANE_COUNT_SET, &v, 1), 1);
	assert_int_equal(v, 1 | DP_LANE_COUNT_ENHANCED_FRAME_EN);
	assert_int_equal(dpcd_read(DP_TRAINING_LANE0_SET, &v, 1), 1);
	assert_int_equal(v, 0);
	dpcd_writeb(DP_TRAINING_LANE0_SET, 0xff);	/* reserved bits dropped */
	assert_int_equal(dpcd_read(DP_TRAINING_LANE0_SET, &v, 1), 1);
	assert_int_equal(v, 0x3f);
}

static void test_set_power_and_read_only(void **state)
{
	uint8_t v;

	(void)state;
	assert_int_equal(dpcd_read(DP_SET_POWER, &v, 1), 1);
	assert_int_equal(v, DP_SET_POWER_D0);
	dpcd_writeb(DP_SET_POWER, DP_SET_POWER_D3);
	assert_int_equal(dpcd_read(DP_SET_POWER, &v, 1), 1);
	assert_int_equal(v, DP_SET_POWER_D3);
	dpcd_writeb(DP_SET_POWER, DP_SET_POWER_D0);
	/* Capabilities ignore writes (ACKed, as a sink does). */
	dpcd_writeb(DP_DPCD_REV, 0x99);
	dpcd_writeb(DP_SINK_COUNT, 0);
	assert_int_equal(dpcd_read(DP_DPCD_REV, &v, 1), 1);
	assert_int_equal(v, 0x12);
	assert_int_equal(dpcd_read(DP_SINK_COUNT, &v, 1), 1);
	assert_int_equal(v, 1);
	/* The service IRQ vector clears by writing 1. */
	aux.dpcd.reg[DP_DEVICE_SERVICE_IRQ_VECTOR] = 0x06;
	dpcd_writeb(DP_DEVICE_SERVICE_IRQ_VECTOR, 0x02);
	assert_int_equal(dpcd_read(DP_DEVICE_SERVICE_IRQ_VECTOR, &v, 1), 1);
	assert_int_equal(v, 0x04);
}

/* The reply code of a raw request, or a negative errno. */
static int raw(const uint8_t *tx, unsigned txn, unsigned size)
{
	uint8_t rx[20];
	int n = xfer_sized(tx, txn, size, rx, sizeof(rx));

	return n < 0 ? n : rx[0] >> 4;
}

static void test_bad_requests(void **state)
{
	static const uint8_t rd17[4] = { 0x90, 0, 0, 16 };
	static const uint8_t rd16[4] = { 0x90, 0, 0, 15 };
	static const uint8_t wr2[5] = { 0x81, 0, 0x00, 1, 0x14 };
	static const uint8_t rd_payload[5] = { 0x90, 0, 0, 0, 0 };
	static const uint8_t i2c17[4] = { 0x50, 0, DDC_ADDR, 16 };
	uint8_t cmd[4] = { 0, 0, 0, 0 };

	(void)state;
	for (unsigned size = 0; size < VDISP_AUX_BARE_ADDRESS; size++)
		assert_int_equal(raw(rd16, 4, size), -EIO);
	for (unsigned size = 21; size < 32; size++)
		assert_int_equal(raw(rd16, 4, size), -EIO);
	assert_int_equal(raw(rd16, 4, 4), DP_AUX_NATIVE_REPLY_ACK);
	assert_int_equal(raw(rd17, 4, 4), DP_AUX_NATIVE_REPLY_NACK);
	assert_int_equal(raw(rd16, 3, 3), DP_AUX_NATIVE_REPLY_NACK); /* bare */
	assert_int_equal(raw(wr2, 5, 5), DP_AUX_NATIVE_REPLY_NACK);  /* short */
	assert_int_equal(raw(rd_payload, 5, 5), DP_AUX_NATIVE_REPLY_NACK);
	assert_int_equal(raw(i2c17, 4, 4), DP_AUX_NATIVE_REPLY_NACK);
	for (unsigned c = 0; c < 16; c++) {
		int defined = c <= 2 || (c >= 4 && c <= 6) || c == 8 || c == 9;

		cmd[0] = (uint8_t)(c << 4);
		if (!defined)
			assert_int_equal(raw(cmd, 4, 4), DP_AUX_NATIVE_REPLY_NACK);
	}
	/* After all that, the channel still works. */
	assert_int_equal(raw(rd16, 4, 4), DP_AUX_NATIVE_REPLY_ACK);
	assert_true(aux.stats.errors >= 14);
}

static void test_disconnected_times_out(void **state)
{
	uint8_t v;

	(void)state;
	vdisp_aux_set_connected(&aux, false);
	assert_int_equal(dpcd_read(DP_DPCD_REV, &v, 1), -ETIMEDOUT);
	assert_int_equal(vdisp_aux_read(&aux, VDISP_AUX_DATA(0)), 0);
	vdisp_aux_set_connected(&aux, true);
	assert_int_equal(dpcd_read(DP_DPCD_REV, &v, 1), 1);
}

static void test_defer(void **state)
{
	unsigned got;
	uint8_t v[2];

	(void)state;
	vdisp_aux_defer(&aux, 2);
	assert_int_equal(aux_transfer(DP_AUX_NATIVE_READ, 0, v, 1, &got),
			 DP_AUX_NATIVE_REPLY_DEFER);
	assert_int_equal(aux_transfer(DP_AUX_I2C_READ | DP_AUX_I2C_MOT,
				      DDC_ADDR, v, 1, &got),
			 DP_AUX_NATIVE_REPLY_ACK | DP_AUX_I2C_REPLY_DEFER);
	assert_int_equal(aux_transfer(DP_AUX_NATIVE_READ, 0, v, 1, &got),
			 DP_AUX_NATIVE_REPLY_ACK);
	assert_int_equal(v[0], 0x12);
	assert_int_equal(aux.stats.defers, 2);
}

static void test_registers(void **state)
{
	uint32_t ctl;

	(void)state;
	/* Data registers hold what is written, big-endian bytes. */
	vdisp_aux_write(&aux, VDISP_AUX_DATA(4), 0x11223344);
	assert_int_equal(vdisp_aux_read(&aux, VDISP_AUX_DATA(4)), 0x11223344);
	assert_int_equal(aux.data[16], 0x11);
	/* Outside CTL..DATA5, or unaligned: nothing. */
	assert_int_equal(vdisp_aux_write(&aux, VDISP_AUX_SPAN, ~0u), 0);
	assert_int_equal(vdisp_aux_read(&aux, VDISP_AUX_SPAN), 0);
	vdisp_aux_write(&aux, VDISP_AUX_DATA(0) + 1, ~0u);
	assert_int_equal(vdisp_aux_read(&aux, VDISP_AUX_DATA(0) + 1), 0);
	assert_int_equal(vdisp_aux_read(&aux, VDISP_AUX_DATA(0)), 0);
	/* DONE stays until written as 1; other bits hold what was written;
	 * no INTERRUPT, no IRQ. */
	vdisp_aux_write(&aux, VDISP_AUX_DATA(0), 0x90000000);
	assert_int_equal(vdisp_aux_write(&aux, VDISP_AUX_CTL,
					 DP_AUX_CH_CTL_SEND_BUSY |
					 4u << DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT),
			 0);
	ctl = vdisp_aux_read(&aux, VDISP_AUX_CTL);
	assert_int_equal(ctl, DP_AUX_CH_CTL_DONE |
			 2u << DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT);
	assert_int_equal(vdisp_aux_read(&aux, VDISP_AUX_DATA(0)), 0x00120000);
	vdisp_aux_write(&aux, VDISP_AUX_CTL, DP_AUX_CH_CTL_TIME_OUT_MASK);
	assert_int_equal(vdisp_aux_read(&aux, VDISP_AUX_CTL),
			 DP_AUX_CH_CTL_DONE | DP_AUX_CH_CTL_TIME_OUT_MASK);
	vdisp_aux_write(&aux, VDISP_AUX_CTL, DP_AUX_CH_CTL_DONE);
	assert_int_equal(vdisp_aux_read(&aux, VDISP_AUX_CTL), 0);
	assert_int_equal(VDISP_AUX_PORT_D_CTL, 0x64310);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_detect_reads_receiver_caps, setup),
		cmocka_unit_test_setup(test_edid_over_i2c, setup),
		cmocka_unit_test_setup(test_edid_offset_and_odd_chunks, setup),
		cmocka_unit_test_setup(test_ddc_ci_nacked, setup),
		cmocka_unit_test_setup(test_link_training, setup),
		cmocka_unit_test_setup(test_set_power_and_read_only, setup),
		cmocka_unit_test_setup(test_bad_requests, setup),
		cmocka_unit_test_setup(test_disconnected_times_out, setup),
		cmocka_unit_test_setup(test_defer, setup),
		cmocka_unit_test_setup(test_registers, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
