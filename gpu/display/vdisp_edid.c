/* The EDID 1.4 base block of the virtual monitor.
 *
 * Layout (VESA E-EDID 1.4): header, vendor/product, version, basic display
 * parameters, chromaticity, established and standard timings, four 18-byte
 * descriptors (the preferred detailed timing, range limits, monitor name,
 * a dummy), extension count, checksum. Only modes no larger than the
 * configured one are listed, so the guest never picks a mode bigger than
 * the framebuffer its owner sized for. */
#include "gpu/display/vdisp_edid.h"
#include "mini/string.h"

#define EDID_VENDOR_OFF 8
#define EDID_VERSION_OFF 18
#define EDID_INPUT_OFF 20
#define EDID_CHROMA_OFF 25
#define EDID_STD_OFF 38
#define EDID_STD_SLOTS 8
#define EDID_DESC_OFF 54
#define EDID_DESC_SIZE 18
#define EDID_EXT_OFF 126
#define EDID_CSUM_OFF 127

/* Three letters, 5 bits each ('A' = 1), big-endian: "GHV". */
#define PNP_ID(a, b, c) \
	((((a) - '@') << 10) | (((b) - '@') << 5) | ((c) - '@'))
#define VENDOR_ID PNP_ID('G', 'H', 'V')
#define PRODUCT_CODE 0x0929	/* issue 29 */
#define MANUF_YEAR (2024 - 1990)

/* Digital input (bit 7), 8 bits per primary (6:4 = 010), DisplayPort
 * interface (3:0 = 0101). */
#define INPUT_DIGITAL_8BPC_DP 0xa5
#define GAMMA_2_2 (220 - 100)
/* DPMS active-off (bit 5), sRGB default colour space (2), the first
 * detailed timing is the preferred, native mode (1); RGB 4:4:4 only; not
 * continuous-frequency (0 clear), so the guest keeps to the listed modes. */
#define FEATURES 0x26

/* Standard timing byte 2, bits 5:0: refresh rate - 60 Hz. */
#define STD_REFRESH_60 0

#define TAG_DUMMY 0x10
#define TAG_RANGE 0xfd
#define TAG_NAME 0xfc
#define MONITOR_NAME "g9hv monitor"
/* Range limits flags: limits only, no GTF/CVT formula to extrapolate. */
#define RANGE_LIMITS_ONLY 0x01
#define RANGE_VMIN_HZ 50
#define RANGE_VMAX_HZ 61
#define RANGE_HMIN_KHZ 30

/* 96 dpi: 25.4 mm / 96 = 0.2646 mm a pixel, in units of 0.1 um. */
#define PIXEL_PITCH_0_1UM 2646

/* sRGB primaries and D65 white as 10-bit binary fractions (x * 1024):
 * red, green, blue, white; x then y. */
static const uint16_t srgb_chroma[8] = {
	655, 338, 307, 614, 154, 61, 320, 337,
};

static uint32_t px_to_mm(uint32_t px)
{
	return (px * PIXEL_PITCH_0_1UM + 5000) / 10000;
}

static void put_vendor(uint8_t *e, uint32_t serial)
{
	static const uint8_t header[8] = { 0, 0xff, 0xff, 0xff,
					   0xff, 0xff, 0xff, 0 };

	memcpy(e, header, sizeof(header));
	e[EDID_VENDOR_OFF] = VENDOR_ID >> 8;
	e[EDID_VENDOR_OFF + 1] = VENDOR_ID & 0xff;
	e[10] = PRODUCT_CODE & 0xff;
	e[11] = PRODUCT_CODE >> 8;
	for (int i = 0; i < 4; i++)
		e[12 + i] = (uint8_t)(serial >> (8 * i));
	e[16] = 1;		/* week of manufacture */
	e[17] = MANUF_YEAR;
	e[EDID_VERSION_OFF] = 1;
	e[EDID_VERSION_OFF + 1] = 4;
}

static void put_basic_params(uint8_t *e, const struct vdisp_mode *m)
{
	e[EDID_INPUT_OFF] = INPUT_DIGITAL_8BPC_DP;
	e[21] = (uint8_t)((px_to_mm(m->hactive) + 5) / 10);	/* cm */
	e[22] = (uint8_t)((px_to_mm(m->vactive) + 5) / 10);
	e[23] = GAMMA_2_2;
	e[24] = FEATURES;
}

/* Bytes 25-26 hold the two low bits of each 10-bit value, 27-34 the high
 * eight, in the order of srgb_chroma. */
static void put_chroma(uint8_t *e)
{
	for (int i = 0; i < 8; i++) {
		e[EDID_CHROMA_OFF + i / 4] |=
			(uint8_t)((srgb_chroma[i] & 3) << (6 - 2 * (i % 4)));
		e[EDID_CHROMA_OFF + 2 + i] = (uint8_t)(srgb_chroma[i] >> 2);
	}
}

static int mode_fits(const struct vdisp_mode *t, const struct vdisp_mode *m)
{
	return t->hactive <= m->hactive && t->vactive <= m->vactive;
}

/* The table's modes that fit in m: established-timing bits where they
 * have one, standard timings (60 Hz) for the rest; unused slots 01 01. */
static void put_mode_list(uint8_t *e, const struct vdisp_mode *m)
{
	int slot = 0;

	memset(e + EDID_STD_OFF, 0x01, 2 * EDID_STD_SLOTS);
	for (size_t i = 0; i < vdisp_mode_count; i++) {
		const struct vdisp_mode *t = &vdisp_modes[i];

		if (!mode_fits(t, m))
			continue;
		if (t->est_byte) {
			e[t->est_byte] |= (uint8_t)(1u << t->est_bit);
		} else if (slot < EDID_STD_SLOTS) {
			e[EDID_STD_OFF + 2 * slot] = (uint8_t)(t->hactive / 8 - 31);
			e[EDID_STD_OFF + 2 * slot + 1] =
				(uint8_t)(t->std_aspect << 6 | STD_REFRESH_60);
			slot++;
		}
	}
}

/* Low eight bits of a and b, then their high nibbles in one byte. */
static void put_pair12(uint8_t *d, uint32_t a, uint32_t b)
{
	d[0] = (uint8_t)a;
	d[1] = (uint8_t)b;
	d[2] = (uint8_t)((a >> 8 & 0xf) << 4 | (b >> 8 & 0xf));
}

static void put_detailed_timing(uint8_t *d, const struct vdisp_mode *m)
{
	uint32_t clk = m->clock_khz / 10;	/* 10 kHz units */
	uint32_t hblank = vdisp_mode_htotal(m) - m->hactive;
	uint32_t vblank = vdisp_mode_vtotal(m) - m->vactive;

	d[0] = (uint8_t)clk;
	d[1] = (uint8_t)(clk >> 8);
	put_pair12(d + 2, m->hactive, hblank);
	put_pair12(d + 5, m->vactive, vblank);
	d[8] = (uint8_t)m->hfront;
	d[9] = (uint8_t)m->hsync;
	d[10] = (uint8_t)((m->vfront & 0xf) << 4 | (m->vsync & 0xf));
	d[11] = (uint8_t)((m->hfront >> 8 & 3) << 6 | (m->hsync >> 8 & 3) << 4 |
			  (m->vfront >> 4 & 3) << 2 | (m->vsync >> 4 & 3));
	put_pair12(d + 12, px_to_mm(m->hactive), px_to_mm(m->vactive));
	/* d[15], d[16]: no border. Digital separate sync (4:3 = 11), then
	 * the polarities: vertical bit 2, horizontal bit 1. */
	d[17] = 0x18 | ((m->flags & VDISP_VSYNC_POS) ? 4 : 0) |
		((m->flags & VDISP_HSYNC_POS) ? 2 : 0);
}

/* A display descriptor: 00 00 00 tag 00, then 13 bytes of data. */
static uint8_t *put_descriptor(uint8_t *d, uint8_t tag)
{
	d[3] = tag;
	return d + 5;
}

static void put_range_limits(uint8_t *d, const struct vdisp_mode *m)
{
	uint32_t hz_khz = m->clock_khz / vdisp_mode_htotal(m) + 1;
	uint8_t *p = put_descriptor(d, TAG_RANGE);

	p[0] = RANGE_VMIN_HZ;
	p[1] = RANGE_VMAX_HZ;
	p[2] = RANGE_HMIN_KHZ;
	p[3] = (uint8_t)hz_khz;
	p[4] = (uint8_t)((m->clock_khz + 9999) / 10000);	/* 10 MHz */
	p[5] = RANGE_LIMITS_ONLY;
	p[6] = 0x0a;
	memset(p + 7, 0x20, 6);
}

/* Up to 13 characters, ended by a line feed and padded with spaces. */
static void put_name(uint8_t *d)
{
	uint8_t *p = put_descriptor(d, TAG_NAME);
	size_t n = sizeof(MONITOR_NAME) - 1;

	memset(p, 0x20, 13);
	memcpy(p, MONITOR_NAME, n);
	p[n] = 0x0a;
}

static void put_checksum(uint8_t *e)
{
	uint8_t sum = 0;

	for (int i = 0; i < EDID_CSUM_OFF; i++)
		sum = (uint8_t)(sum + e[i]);
	e[EDID_CSUM_OFF] = (uint8_t)(0x100 - sum);
}

void vdisp_edid_build(uint8_t e[VDISP_EDID_SIZE], const struct vdisp_mode *m,
		      uint32_t serial)
{
	uint8_t *desc = e + EDID_DESC_OFF;

	memset(e, 0, VDISP_EDID_SIZE);
	put_vendor(e, serial);
	put_basic_params(e, m);
	put_chroma(e);
	put_mode_list(e, m);
	put_detailed_timing(desc, m);
	put_range_limits(desc + EDID_DESC_SIZE, m);
	put_name(desc + 2 * EDID_DESC_SIZE);
	put_descriptor(desc + 3 * EDID_DESC_SIZE, TAG_DUMMY);
	e[EDID_EXT_OFF] = 0;
	put_checksum(e);
}
