/* The virtual monitor's DPCD (see vdisp_dpcd.h for what the sink is). */
#include "gpu/display/vdisp_dpcd.h"
#include "mini/string.h"

#define MAX_LANES 4

struct dpcd_init {
	uint16_t addr;
	uint8_t val;
};

/* Everything not listed reads 0: one port, no downstream (branch) port,
 * DPCD 1.2 without the extended capability field (bit 7 of
 * DP_TRAINING_AUX_RD_INTERVAL clear, so the source does not look at
 * 0x2200), the default 100 us / 400 us training read intervals, no MST,
 * no PSR, not eDP, the link untrained, the adjust requests at voltage
 * swing 0 / pre-emphasis 0 (what a short virtual cable wants). */
static const struct dpcd_init dpcd_caps[] = {
	{ DP_DPCD_REV, DP_DPCD_REV_12 },
	{ DP_MAX_LINK_RATE, DP_LINK_BW_5_4 },
	{ DP_MAX_LANE_COUNT, MAX_LANES | DP_TPS3_SUPPORTED |
			     DP_ENHANCED_FRAME_CAP },
	{ DP_MAX_DOWNSPREAD, DP_MAX_DOWNSPREAD_0_5 },
	{ DP_MAIN_LINK_CHANNEL_CODING, DP_CAP_ANSI_8B10B },
	{ DP_SINK_COUNT, 1 },
	{ DP_SET_POWER, DP_SET_POWER_D0 },
};

/* The registers a source writes, with the bits each defines. */
struct dpcd_rw {
	uint16_t first, last;
	uint8_t mask;
};

static const struct dpcd_rw dpcd_writable[] = {
	{ DP_LINK_BW_SET, DP_LINK_BW_SET, 0xff },
	{ DP_LANE_COUNT_SET, DP_LANE_COUNT_SET,
	  DP_LANE_COUNT_MASK | DP_LANE_COUNT_ENHANCED_FRAME_EN },
	{ DP_TRAINING_PATTERN_SET, DP_TRAINING_PATTERN_SET, 0xff },
	{ DP_TRAINING_LANE0_SET, DP_TRAINING_LANE0_SET + 3, 0x3f },
	{ DP_DOWNSPREAD_CTRL, DP_DOWNSPREAD_CTRL, 0x90 },
	{ DP_MAIN_LINK_CHANNEL_CODING_SET, DP_MAIN_LINK_CHANNEL_CODING_SET, 0x03 },
	{ DP_SET_POWER, DP_SET_POWER, DP_SET_POWER_MASK },
};

void vdisp_dpcd_init(struct vdisp_dpcd *d)
{
	memset(d, 0, sizeof(*d));
	for (size_t i = 0; i < sizeof(dpcd_caps) / sizeof(dpcd_caps[0]); i++)
		d->reg[dpcd_caps[i].addr] = dpcd_caps[i].val;
}

uint8_t vdisp_dpcd_read(const struct vdisp_dpcd *d, uint32_t addr)
{
	return addr < VDISP_DPCD_SIZE ? d->reg[addr] : 0;
}

static const struct dpcd_rw *writable(uint32_t addr)
{
	for (size_t i = 0; i < sizeof(dpcd_writable) / sizeof(dpcd_writable[0]);
	     i++)
		if (addr >= dpcd_writable[i].first &&
		    addr <= dpcd_writable[i].last)
			return &dpcd_writable[i];
	return NULL;
}

/* What each lane reports while the source sends a training pattern: the
 * clock recovers under TPS1, and under TPS2/TPS3 the channel equalises,
 * symbols lock and the lanes align at once (the link is a wire in
 * memory). With the pattern off, the status stays as training left it. */
static uint8_t lane_bits(unsigned pattern)
{
	static const uint8_t bits[4] = {
		[DP_TRAINING_PATTERN_1] = DP_LANE_CR_DONE,
		[DP_TRAINING_PATTERN_2] = DP_LANE_CR_DONE |
			DP_LANE_CHANNEL_EQ_DONE | DP_LANE_SYMBOL_LOCKED,
		[DP_TRAINING_PATTERN_3] = DP_LANE_CR_DONE |
			DP_LANE_CHANNEL_EQ_DONE | DP_LANE_SYMBOL_LOCKED,
	};

	return bits[pattern & DP_TRAINING_PATTERN_MASK];
}

/* Only the lanes the source enabled in DP_LANE_COUNT_SET report status,
 * as a sink's unused lanes do. */
static void train(struct vdisp_dpcd *d, uint8_t pattern)
{
	unsigned lanes = d->reg[DP_LANE_COUNT_SET] & DP_LANE_COUNT_MASK;
	uint8_t bits = lane_bits(pattern);
	int eq;

	if ((pattern & DP_TRAINING_PATTERN_MASK) == DP_TRAINING_PATTERN_DISABLE)
		return;
	if (lanes > MAX_LANES)
		lanes = MAX_LANES;
	d->reg[DP_LANE0_1_STATUS] = d->reg[DP_LANE2_3_STATUS] = 0;
	for (unsigned l = 0; l < lanes; l++)
		d->reg[DP_LANE0_1_STATUS + l / 2] |= (uint8_t)(bits << 4 * (l % 2));
	eq = (bits & DP_LANE_CHANNEL_EQ_DONE) && lanes;
	d->reg[DP_LANE_ALIGN_STATUS_UPDATED] = eq ? DP_INTERLANE_ALIGN_DONE : 0;
	d->reg[DP_SINK_STATUS] = eq ? DP_RECEIVE_PORT_0_STATUS : 0;
}

void vdisp_dpcd_write(struct vdisp_dpcd *d, uint32_t addr, uint8_t val)
{
	const struct dpcd_rw *rw = writable(addr);

	if (addr == DP_DEVICE_SERVICE_IRQ_VECTOR) {
		d->reg[addr] &= (uint8_t)~val;	/* write 1 to clear */
		return;
	}
	if (!rw)
		return;
	d->reg[addr] = val & rw->mask;
	if (addr == DP_TRAINING_PATTERN_SET)
		train(d, val);
}
