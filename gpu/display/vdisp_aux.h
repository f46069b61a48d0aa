/* The DP AUX channel of one Gen9 (Skylake) display port, with the virtual
 * monitor behind it: DP_AUX_CH_CTL and DP_AUX_CH_DATA1..5 as a source
 * driver (i915's intel_dp_aux_xfer) programs them.
 *
 * A transaction: the driver packs the request big-endian into the data
 * registers (byte 0 in bits 31:24 of DATA1), then writes CTL with
 * SEND_BUSY, the request's length in MESSAGE_SIZE and 1s in the
 * write-1-to-clear status bits. The model answers within that write:
 * the reply goes big-endian into the data registers, MESSAGE_SIZE holds
 * its length, DONE is set and SEND_BUSY clear, so the driver's first
 * poll sees the transaction complete.
 *
 * Requests (DisplayPort 1.2 AUX syntax; drm_dp.h names):
 *   native read/write   the DPCD (vdisp_dpcd.h), 1-16 bytes;
 *   I2C-over-AUX        address 0x50 is the EDID (vdisp_edid.h), 0x30
 *                       its E-DDC segment pointer; any other I2C address
 *                       (0x37 DDC/CI among them) is I2C-NACKed.
 * A request that does not fit (MESSAGE_SIZE below the 3-byte address
 * header or above the 20 bytes of the data registers) ends in
 * RECEIVE_ERROR with no reply; one that fits but is malformed (unknown
 * command, more than 16 bytes, a payload that does not match the length)
 * is NACKed. A disconnected monitor answers nothing: TIME_OUT_ERROR.
 *
 * The mediator wires port D's registers here (gpu/vgpu/display/vgpu_display.c). */
#ifndef GPU_DISPLAY_VDISP_AUX_H
#define GPU_DISPLAY_VDISP_AUX_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/display/vdisp_dpcd.h"
#include "gpu/display/vdisp_edid.h"

/* Skylake's AUX channels sit in the north display at 0x64010 + 0x100 * n
 * (A-D); the virtual monitor is on port D, as GVT-g's is. */
#define DP_AUX_CH_CTL_SKL(n)		(0x64010u + 0x100u * (n))
#define VDISP_AUX_PORT_D_CTL		DP_AUX_CH_CTL_SKL(3)

/* Register offsets from the port's DP_AUX_CH_CTL. */
#define VDISP_AUX_CTL			0x00
#define VDISP_AUX_DATA(i)		(0x04 + 4 * (i))	/* DATA1..5: 0..4 */
#define VDISP_AUX_DATA_REGS		5
#define VDISP_AUX_SPAN			0x18	/* bytes CTL..DATA5 cover */

/* DP_AUX_CH_CTL bits (Gen9). */
#define DP_AUX_CH_CTL_SEND_BUSY		(1u << 31)
#define DP_AUX_CH_CTL_DONE		(1u << 30)	/* write 1 to clear */
#define DP_AUX_CH_CTL_INTERRUPT		(1u << 29)	/* IRQ on done */
#define DP_AUX_CH_CTL_TIME_OUT_ERROR	(1u << 28)	/* write 1 to clear */
#define DP_AUX_CH_CTL_TIME_OUT_MASK	(3u << 26)
#define DP_AUX_CH_CTL_RECEIVE_ERROR	(1u << 25)	/* write 1 to clear */
#define DP_AUX_CH_CTL_MESSAGE_SIZE_SHIFT 20
#define DP_AUX_CH_CTL_MESSAGE_SIZE_MASK	(0x1fu << 20)
#define DP_AUX_CH_CTL_PRECHARGE_2US_MASK (0xfu << 16)
#define DP_AUX_CH_CTL_FW_SYNC_PULSE_SKL_MASK (0x1fu << 5)
#define DP_AUX_CH_CTL_SYNC_PULSE_SKL_MASK 0x1fu

/* AUX request commands (high nibble of byte 0) and reply codes. */
#define DP_AUX_I2C_WRITE		0x0
#define DP_AUX_I2C_READ			0x1
#define DP_AUX_I2C_WRITE_STATUS_UPDATE	0x2
#define DP_AUX_I2C_MOT			0x4	/* middle of transaction */
#define DP_AUX_NATIVE_WRITE		0x8
#define DP_AUX_NATIVE_READ		0x9
#define DP_AUX_NATIVE_REPLY_ACK		0x0
#define DP_AUX_NATIVE_REPLY_NACK	0x1
#define DP_AUX_NATIVE_REPLY_DEFER	0x2
#define DP_AUX_I2C_REPLY_ACK		0x0
#define DP_AUX_I2C_REPLY_NACK		0x4
#define DP_AUX_I2C_REPLY_DEFER		0x8

#define DP_AUX_MAX_PAYLOAD_BYTES	16
#define VDISP_AUX_MSG_MAX		20	/* 5 data registers */
#define VDISP_AUX_HEADER		4	/* command/address + length */
#define VDISP_AUX_BARE_ADDRESS		3	/* address-only: no length */

#define DDC_SEGMENT_ADDR		0x30
#define DDC_CI_ADDR			0x37
#define DDC_ADDR			0x50

/* vdisp_aux_write's result: the transaction completed with
 * DP_AUX_CH_CTL_INTERRUPT set, so the caller raises the port's AUX
 * interrupt (on Skylake, port D: GEN9_AUX_CHANNEL_D in DE_PORT_IIR). */
#define VDISP_AUX_RAISE_IRQ		1

struct vdisp_aux_stats {
	uint32_t transactions;	/* SEND_BUSY writes */
	uint32_t native, i2c;	/* requests decoded, by kind */
	uint32_t nacks, defers;	/* replies other than ACK */
	uint32_t errors;	/* RECEIVE_ERROR or TIME_OUT_ERROR */
};

struct vdisp_aux {
	uint32_t ctl;				/* DP_AUX_CH_CTL */
	uint8_t data[VDISP_AUX_MSG_MAX];	/* DATA1..5, byte 0 first */
	bool connected;
	uint32_t defer;		/* requests still to answer DEFER */
	uint8_t i2c_offset;	/* EDID EEPROM's word address */
	uint8_t i2c_segment;	/* E-DDC segment, 0 after each stop */
	struct vdisp_dpcd dpcd;
	uint8_t edid[VDISP_EDID_SIZE];
	struct vdisp_aux_stats stats;
};

/* A connected monitor showing mode m; serial goes into its EDID. */
void vdisp_aux_init(struct vdisp_aux *aux, const struct vdisp_mode *m,
		    uint32_t serial);
/* Unplugged, the channel times out as hardware with nothing on the port. */
void vdisp_aux_set_connected(struct vdisp_aux *aux, bool connected);
/* The next n requests are answered DEFER (a sink not ready yet), so a
 * test can drive the driver's retry path. */
void vdisp_aux_defer(struct vdisp_aux *aux, uint32_t n);

/* 32-bit accesses at offset (from DP_AUX_CH_CTL, VDISP_AUX_CTL..DATA(4));
 * any other offset reads 0 and ignores writes. Returns 0 or
 * VDISP_AUX_RAISE_IRQ. */
int vdisp_aux_write(struct vdisp_aux *aux, uint32_t offset, uint32_t val);
uint32_t vdisp_aux_read(const struct vdisp_aux *aux, uint32_t offset);

#endif
