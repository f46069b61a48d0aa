/* libFuzzer target for the virtual monitor's DP AUX channel
 * (gpu/display/vdisp_aux.c): once wired, every value a guest writes to
 * DP_AUX_CH_CTL / DP_AUX_CH_DATA1..5 of port D reaches it.
 *
 * Input: one byte picks the mode (and so the EDID), then records of 5
 * bytes: an opcode byte and a 32-bit value (little-endian). The opcode's
 * low 3 bits pick the register (0 CTL, 1-5 DATA1..5, 6 an offset outside
 * the span or unaligned, 7 a read), bit 3 sends a well-formed header
 * built from the value instead (so DPCD and I2C paths are reached
 * often), bits 4-5 unplug/replug or arm a DEFER.
 *
 * After every step: SEND_BUSY never reads back set, MESSAGE_SIZE after a
 * send is at most 20 (the 5 data registers), errors come with no reply,
 * the DPCD's capability bytes are unchanged, and the AUX state (segment,
 * offset) stays inside its types - ASan/UBSan watch every access. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/display/vdisp_aux.h"

static struct vdisp_aux aux;

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static const uint32_t offsets[7] = {
	VDISP_AUX_CTL, VDISP_AUX_DATA(0), VDISP_AUX_DATA(1), VDISP_AUX_DATA(2),
	VDISP_AUX_DATA(3), VDISP_AUX_DATA(4), 0,
};

/* A header the decoder accepts often: command from v's top nibble,
 * a DPCD or DDC address, a length of 1-16, size to match. */
static void send_shaped(uint32_t v)
{
	uint8_t cmd = (uint8_t)(v >> 28);
	uint32_t addr = (cmd & DP_AUX_NATIVE_WRITE) ? (v >> 8 & 0x7ff) :
			((v & 0x100) ? DDC_SEGMENT_ADDR : DDC_ADDR);
	unsigned len = (v & 0xf) + 1;
	unsigned size = (v & 0x200) ? VDISP_AUX_BARE_ADDRESS :
			VDISP_AUX_HEADER + (((cmd & 1) && cmd != DP_AUX_NATIVE_WRITE) ?
					    0 : len);

	if (size > VDISP_AUX_MSG_MAX)
		size = VDISP_AUX_MSG_MAX;
	vdisp_aux_write(&aux, VDISP_AUX_DATA(0),
			(uint32_t)cmd << 28 | addr << 8 | (len - 1));
	vdisp_aux_write(&aux, VDISP_AUX_CTL, DP_AUX_CH_CTL_SEND_BUSY |
			(v & DP_AUX_CH_CTL_INTERRUPT) |
			size << DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT);
}

static void check(const uint8_t caps[16], uint32_t before, uint32_t errors,
		  int sent)
{
	uint32_t ctl = vdisp_aux_read(&aux, VDISP_AUX_CTL);
	unsigned size = (ctl & DP_AUX_CH_CTL_MESSAGE_SIZE_MASK) >>
			DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT;
	uint8_t now[16];

	CHECK(!(ctl & DP_AUX_CH_CTL_SEND_BUSY));
	if (sent) {
		CHECK(aux.stats.transactions == before + 1);
		CHECK(ctl & DP_AUX_CH_CTL_DONE);
		CHECK(size <= VDISP_AUX_MSG_MAX);
		/* The error bits are sticky, so ask the count whether this
		 * send failed: then no reply, else at least the reply code. */
		if (aux.stats.errors != errors)
			CHECK(size == 0 && (ctl & (DP_AUX_CH_CTL_TIME_OUT_ERROR |
						   DP_AUX_CH_CTL_RECEIVE_ERROR)));
		else
			CHECK(size >= 1);
		for (unsigned i = size; i < VDISP_AUX_MSG_MAX; i++)
			CHECK(aux.data[i] == 0);
	}
	for (unsigned i = 0; i < 16; i++)
		now[i] = vdisp_dpcd_read(&aux.dpcd, i);
	CHECK(!memcmp(now, caps, 16));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t caps[16];

	if (size < 1)
		return 0;
	vdisp_aux_init(&aux, &vdisp_modes[data[0] % vdisp_mode_count], data[0]);
	for (unsigned i = 0; i < 16; i++)
		caps[i] = vdisp_dpcd_read(&aux.dpcd, i);
	data++, size--;
	for (; size >= 5; data += 5, size -= 5) {
		uint8_t op = data[0];
		uint32_t v = (uint32_t)data[1] | (uint32_t)data[2] << 8 |
			     (uint32_t)data[3] << 16 | (uint32_t)data[4] << 24;
		uint32_t before = aux.stats.transactions;
		uint32_t errors = aux.stats.errors;
		int sent = 0;

		if (op & 0x10)
			vdisp_aux_set_connected(&aux, !aux.connected);
		if (op & 0x20)
			vdisp_aux_defer(&aux, op >> 6);
		if (op & 0x08) {
			send_shaped(v);
			sent = 1;
		} else if ((op & 7) == 7) {
			(void)vdisp_aux_read(&aux, v % (VDISP_AUX_SPAN + 8));
		} else if ((op & 7) == 6) {
			vdisp_aux_write(&aux, VDISP_AUX_SPAN + (v & 0xff) * 4 +
					(v >> 8 & 3), v);
		} else {
			vdisp_aux_write(&aux, offsets[op & 7], v);
			sent = (op & 7) == 0 && (v & DP_AUX_CH_CTL_SEND_BUSY);
		}
		check(caps, before, errors, sent);
	}
	return 0;
}
