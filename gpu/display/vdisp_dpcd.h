/* The virtual monitor's DPCD: the DisplayPort receiver's registers that a
 * source reads and writes over native AUX (vdisp_aux.h).
 *
 * The sink is a DP 1.2 monitor with one receiver port, no branch device,
 * no MST, no PSR, no DSC, not eDP. It reports 4 lanes at up to HBR2
 * (5.4 Gbit/s), as GVT-g's virtual monitor does. Its link "trains" at
 * once: the lane status follows the training pattern the source writes. */
#ifndef GPU_DISPLAY_VDISP_DPCD_H
#define GPU_DISPLAY_VDISP_DPCD_H

#include <stdint.h>

/* Receiver capability (read-only). */
#define DP_DPCD_REV			0x000
#define  DP_DPCD_REV_12			0x12
#define DP_MAX_LINK_RATE		0x001
#define  DP_LINK_BW_5_4			0x14
#define DP_MAX_LANE_COUNT		0x002
#define  DP_MAX_LANE_COUNT_MASK		0x1f
#define  DP_TPS3_SUPPORTED		(1u << 6)
#define  DP_ENHANCED_FRAME_CAP		(1u << 7)
#define DP_MAX_DOWNSPREAD		0x003
#define  DP_MAX_DOWNSPREAD_0_5		(1u << 0)
#define DP_NORP				0x004
#define DP_DOWNSTREAMPORT_PRESENT	0x005
#define DP_MAIN_LINK_CHANNEL_CODING	0x006
#define  DP_CAP_ANSI_8B10B		(1u << 0)
#define DP_DOWN_STREAM_PORT_COUNT	0x007
#define DP_EDP_CONFIGURATION_CAP	0x00d
#define DP_TRAINING_AUX_RD_INTERVAL	0x00e
#define DP_MSTM_CAP			0x021
#define DP_PSR_SUPPORT			0x070

/* Link configuration (written by the source). */
#define DP_LINK_BW_SET			0x100
#define DP_LANE_COUNT_SET		0x101
#define  DP_LANE_COUNT_MASK		0x1f
#define  DP_LANE_COUNT_ENHANCED_FRAME_EN (1u << 7)
#define DP_TRAINING_PATTERN_SET		0x102
#define  DP_TRAINING_PATTERN_MASK	0x03
#define  DP_TRAINING_PATTERN_DISABLE	0
#define  DP_TRAINING_PATTERN_1		1
#define  DP_TRAINING_PATTERN_2		2
#define  DP_TRAINING_PATTERN_3		3
#define DP_TRAINING_LANE0_SET		0x103	/* ..0x106: lanes 0-3 */
#define DP_DOWNSPREAD_CTRL		0x107
#define DP_MAIN_LINK_CHANNEL_CODING_SET	0x108

/* Link and sink status. */
#define DP_SINK_COUNT			0x200
#define DP_DEVICE_SERVICE_IRQ_VECTOR	0x201
#define DP_LANE0_1_STATUS		0x202
#define DP_LANE2_3_STATUS		0x203
#define  DP_LANE_CR_DONE		(1u << 0)
#define  DP_LANE_CHANNEL_EQ_DONE	(1u << 1)
#define  DP_LANE_SYMBOL_LOCKED		(1u << 2)
#define DP_LANE_ALIGN_STATUS_UPDATED	0x204
#define  DP_INTERLANE_ALIGN_DONE	(1u << 0)
#define DP_SINK_STATUS			0x205
#define  DP_RECEIVE_PORT_0_STATUS	(1u << 0)
#define DP_ADJUST_REQUEST_LANE0_1	0x206
#define DP_ADJUST_REQUEST_LANE2_3	0x207

/* Sink power. */
#define DP_SET_POWER			0x600
#define  DP_SET_POWER_D0		0x1
#define  DP_SET_POWER_D3		0x2
#define  DP_SET_POWER_MASK		0x7

/* DPCD addresses are 20 bits; the model holds 0x00000-0x006ff, which
 * covers every register above. Reads elsewhere return 0 (reserved, as a
 * sink answers them) and writes there are dropped. */
#define VDISP_DPCD_SIZE 0x700
#define VDISP_DPCD_ADDR_MASK 0xfffffu

struct vdisp_dpcd {
	uint8_t reg[VDISP_DPCD_SIZE];
};

void vdisp_dpcd_init(struct vdisp_dpcd *d);
uint8_t vdisp_dpcd_read(const struct vdisp_dpcd *d, uint32_t addr);
/* Only the registers a source may write take the value (masked to their
 * defined bits); writes elsewhere are ignored, as a sink ignores writes
 * to its capability registers. */
void vdisp_dpcd_write(struct vdisp_dpcd *d, uint32_t addr, uint8_t val);

#endif
