/* Unit tests of the virtual monitor's mode table, the vgpu_display= parser
 * and the EDID base block (gpu/display/vdisp_mode.c, vdisp_edid.c).
 *
 * The expected timings below are written in drm's form (display, sync
 * start, sync end, total) from the VESA DMT as Linux's drm_dmt_modes
 * lists them, independently of the table under test, and the block is
 * checked with the rules drm_edid applies before it trusts an EDID. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "gpu/display/vdisp_edid.h"

struct drm_timing {
	const char *name;
	uint32_t clock;		/* kHz */
	uint16_t hdisplay, hsync_start, hsync_end, htotal;
	uint16_t vdisplay, vsync_start, vsync_end, vtotal;
	int hpos, vpos;		/* sync polarity positive */
};

static const struct drm_timing dmt[] = {
	{ "640x480", 25175, 640, 656, 752, 800, 480, 490, 492, 525, 0, 0 },
	{ "800x600", 40000, 800, 840, 968, 1056, 600, 601, 605, 628, 1, 1 },
	{ "1024x768", 65000, 1024, 1048, 1184, 1344, 768, 771, 777, 806, 0, 0 },
	{ "1280x720", 74250, 1280, 1390, 1430, 1650, 720, 725, 730, 750, 1, 1 },
	{ "1280x1024", 108000, 1280, 1328, 1440, 1688, 1024, 1025, 1028, 1066, 1, 1 },
	{ "1920x1080", 148500, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125, 1, 1 },
};
#define NDMT (sizeof(dmt) / sizeof(dmt[0]))

static uint8_t edid[VDISP_EDID_SIZE];

static const struct vdisp_mode *mode(const char *name)
{
	const char *err = NULL;
	const struct vdisp_mode *m = vdisp_mode_parse(name, &err);

	assert_non_null(m);
	return m;
}

static void test_table_matches_dmt(void **state)
{
	(void)state;
	assert_int_equal(vdisp_mode_count, NDMT);
	for (size_t i = 0; i < NDMT; i++) {
		const struct vdisp_mode *m = &vdisp_modes[i];
		uint32_t mhz_x100;

		assert_string_equal(m->name, dmt[i].name);
		assert_int_equal(m->clock_khz, dmt[i].clock);
		assert_int_equal(m->hactive + m->hfront, dmt[i].hsync_start);
		assert_int_equal(m->hactive + m->hfront + m->hsync, dmt[i].hsync_end);
		assert_int_equal(vdisp_mode_htotal(m), dmt[i].htotal);
		assert_int_equal(m->vactive + m->vfront, dmt[i].vsync_start);
		assert_int_equal(m->vactive + m->vfront + m->vsync, dmt[i].vsync_end);
		assert_int_equal(vdisp_mode_vtotal(m), dmt[i].vtotal);
		/* DMT's "60 Hz": 59.94 (640x480) to 60.32 (800x600). */
		mhz_x100 = (uint32_t)((uint64_t)m->clock_khz * 100000 /
				      (vdisp_mode_htotal(m) * vdisp_mode_vtotal(m)));
		assert_in_range(mhz_x100, 5990, 6035);
	}
}

static void test_parse(void **state)
{
	static const char *const bad[] = {
		"", "1024x769", "1024X768", " 1024x768", "1024x768 ",
		"01024x768", "1024", "x768", "1024x768@60", "1920x1200",
	};
	char names[256] = "";
	const char *err;

	(void)state;
	for (size_t i = 0; i < vdisp_mode_count; i++) {
		assert_ptr_equal(mode(vdisp_modes[i].name), &vdisp_modes[i]);
		if (i)
			strcat(names, " ");
		strcat(names, vdisp_modes[i].name);
	}
	/* The error names exactly the table's modes, in order. */
	assert_string_equal(names, VDISP_MODE_NAMES);
	assert_string_equal(VDISP_MODE_FIRST, vdisp_modes[0].name);
	assert_string_equal(VDISP_MODE_LAST, vdisp_modes[vdisp_mode_count - 1].name);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = NULL;
		assert_null(vdisp_mode_parse(bad[i], &err));
		assert_non_null(err);
		assert_non_null(strstr(err, "vgpu_display"));
		assert_non_null(strstr(err, VDISP_MODE_NAMES));
	}
	assert_null(vdisp_mode_parse(NULL, &err));
	assert_null(vdisp_mode_parse("bad", NULL));
	assert_string_equal(vdisp_mode_default()->name, "1024x768");
}

/* drm_edid_block_valid's rules for a base block, and EDID 1.4's. */
static void check_base_block(const uint8_t *e)
{
	static const uint8_t header[8] = { 0, 0xff, 0xff, 0xff,
					   0xff, 0xff, 0xff, 0 };
	uint8_t sum = 0;

	assert_memory_equal(e, header, 8);
	for (int i = 0; i < VDISP_EDID_SIZE; i++)
		sum = (uint8_t)(sum + e[i]);
	assert_int_equal(sum, 0);
	assert_int_equal(e[18], 1);		/* version 1 */
	assert_int_equal(e[19], 4);		/* revision 4 */
	assert_true(e[20] & 0x80);		/* digital input */
	assert_int_equal(e[20] & 0x0f, 5);	/* DisplayPort */
	assert_int_equal(e[20] & 0x70, 0x20);	/* 8 bits per colour */
	assert_true(e[24] & 0x02);		/* first DTD is preferred */
	assert_int_equal(e[126], 0);		/* no extension */
	assert_true(e[21] && e[22]);		/* a physical size */
}

static void test_header_vendor_serial(void **state)
{
	(void)state;
	vdisp_edid_build(edid, vdisp_mode_default(), 0x12345678);
	check_base_block(edid);
	/* "GHV": three 5-bit letters, big-endian, bit 15 clear. */
	assert_int_equal('@' + (edid[8] >> 2 & 0x1f), 'G');
	assert_int_equal('@' + ((edid[8] & 3) << 3 | edid[9] >> 5), 'H');
	assert_int_equal('@' + (edid[9] & 0x1f), 'V');
	assert_int_equal(edid[12] | edid[13] << 8 | edid[14] << 16 |
			 (uint32_t)edid[15] << 24, 0x12345678);
	assert_true(edid[17] >= 16);	/* 1.4: made 2006 or later */
}

/* The first descriptor, decoded as drm_mode_detailed does. */
static void test_detailed_timing_decodes(void **state)
{
	(void)state;
	for (size_t i = 0; i < NDMT; i++) {
		const uint8_t *d = edid + 54;
		unsigned ha, hb, va, vb, hso, hsw, vso, vsw;

		vdisp_edid_build(edid, &vdisp_modes[i], 1);
		check_base_block(edid);
		assert_int_equal((d[0] | d[1] << 8) * 10, dmt[i].clock / 10 * 10);
		ha = d[2] | (d[4] & 0xf0) << 4;
		hb = d[3] | (d[4] & 0x0f) << 8;
		va = d[5] | (d[7] & 0xf0) << 4;
		vb = d[6] | (d[7] & 0x0f) << 8;
		hso = d[8] | (d[11] & 0xc0) << 2;
		hsw = d[9] | (d[11] & 0x30) << 4;
		vso = (d[10] >> 4) | (d[11] & 0x0c) << 2;
		vsw = (d[10] & 0xf) | (d[11] & 0x03) << 4;
		assert_int_equal(ha, dmt[i].hdisplay);
		assert_int_equal(ha + hso, dmt[i].hsync_start);
		assert_int_equal(ha + hso + hsw, dmt[i].hsync_end);
		assert_int_equal(ha + hb, dmt[i].htotal);
		assert_int_equal(va, dmt[i].vdisplay);
		assert_int_equal(va + vso, dmt[i].vsync_start);
		assert_int_equal(va + vso + vsw, dmt[i].vsync_end);
		assert_int_equal(va + vb, dmt[i].vtotal);
		assert_int_equal(d[17] & 0x80, 0);	/* progressive */
		assert_int_equal(d[17] & 0x18, 0x18);	/* digital separate */
		assert_int_equal(!!(d[17] & 0x02), dmt[i].hpos);
		assert_int_equal(!!(d[17] & 0x04), dmt[i].vpos);
		/* Image size in mm agrees with the cm in the header. */
		assert_in_range((d[12] | (d[14] & 0xf0) << 4) / 10,
				edid[21] - 1u, edid[21]);
	}
}

static const uint8_t *descriptor(uint8_t tag)
{
	for (int i = 1; i < 4; i++) {
		const uint8_t *d = edid + 54 + 18 * i;

		if (!d[0] && !d[1] && !d[2] && d[3] == tag)
			return d;
	}
	return NULL;
}

static void test_range_and_name(void **state)
{
	(void)state;
	for (size_t i = 0; i < NDMT; i++) {
		const struct drm_timing *t = &dmt[i];
		const uint8_t *r, *n;
		uint32_t hz_khz = t->clock / t->htotal;

		vdisp_edid_build(edid, &vdisp_modes[i], 1);
		r = descriptor(0xfd);
		assert_non_null(r);
		assert_int_equal(r[4], 0);		/* no 1.4 offsets */
		assert_true(r[5] <= 59 && r[6] >= 60);	/* vertical Hz */
		assert_true(r[7] <= hz_khz && r[8] > hz_khz);
		assert_true(r[9] * 10000u >= t->clock);
		assert_int_equal(r[10], 0x01);		/* limits only */
		n = descriptor(0xfc);
		assert_non_null(n);
		assert_memory_equal(n + 5, "g9hv monitor\n ", 14 - 1);
		assert_non_null(descriptor(0x10));
	}
}

/* Established bits and standard timings list the table's modes that fit
 * in the configured one, and no larger. */
static unsigned listed(const uint8_t *e, unsigned w, unsigned h)
{
	static const struct { unsigned w, h, byte, bit; } est[] = {
		{ 640, 480, 35, 5 }, { 800, 600, 35, 0 }, { 1024, 768, 36, 3 },
	};
	static const unsigned aspect_num[4] = { 10, 3, 4, 9 };
	static const unsigned aspect_den[4] = { 16, 4, 5, 16 };
	unsigned n = 0;

	for (size_t i = 0; i < 3; i++)
		if (est[i].w == w && est[i].h == h)
			n += !!(e[est[i].byte] & 1u << est[i].bit);
	for (int s = 0; s < 8; s++) {
		const uint8_t *st = e + 38 + 2 * s;
		unsigned sw, a;

		if (st[0] == 1 && st[1] == 1)
			continue;
		sw = (st[0] + 31u) * 8;
		a = st[1] >> 6;
		assert_int_equal(st[1] & 0x3f, 0);	/* 60 Hz */
		n += sw == w && sw * aspect_num[a] / aspect_den[a] == h;
	}
	return n;
}

static void test_mode_list(void **state)
{
	(void)state;
	for (size_t i = 0; i < NDMT; i++) {
		vdisp_edid_build(edid, &vdisp_modes[i], 1);
		for (size_t j = 0; j < NDMT; j++) {
			int fits = dmt[j].hdisplay <= dmt[i].hdisplay &&
				   dmt[j].vdisplay <= dmt[i].vdisplay;

			assert_int_equal(listed(edid, dmt[j].hdisplay,
						dmt[j].vdisplay), fits);
		}
		assert_int_equal(edid[37], 0);	/* no other established */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_matches_dmt),
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_header_vendor_serial),
		cmocka_unit_test(test_detailed_timing_decodes),
		cmocka_unit_test(test_range_and_name),
		cmocka_unit_test(test_mode_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
