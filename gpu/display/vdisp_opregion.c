/* See vdisp_opregion.h. Layouts: i915's intel_opregion.c (header,
 * mailboxes) and intel_vbt_defs.h (VBT, BDB, blocks, child devices), the
 * content as GVT-g's gvt/opregion.c builds its virtual VBT, cut to the
 * one port the vGPU's monitor sits on (docs/display.md). */
#include "gpu/display/vdisp_opregion.h"
#include "mini/string.h"

#define GENERAL_FEATURES_LEN	5u	/* bytes 1-5: all off (no CRT, TV, SSC) */
#define DRIVER_FEATURES_LEN	19u	/* all 0: lvds_config "no LVDS" */
#define OPREGION_VER_2_0	0x02000000u
#define CLID_OPEN		0x03	/* lid open, as GVT-g forces it */

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)v);
	put16(p + 2, (uint16_t)(v >> 16));
}

/* A block's id and size at p; returns where its data starts. */
static uint8_t *block(uint8_t *p, uint8_t id, uint16_t size)
{
	p[0] = id;
	put16(p + 1, size);
	return p + 3;
}

/* The monitor of gpu/vgpu/display/vgpu_display.c: DP on port D. */
static void child_port_d(uint8_t *c)
{
	put16(c + VDISP_CHILD_HANDLE, VDISP_HANDLE_EFP4);
	put16(c + VDISP_CHILD_TYPE, VDISP_DEVICE_TYPE_DP);
	c[VDISP_CHILD_DVO_PORT] = VDISP_DVO_PORT_DPD;
	c[VDISP_CHILD_SUPPORT] = VDISP_CHILD_DP_SUPPORT;
	c[VDISP_CHILD_AUX] = VDISP_DP_AUX_D;
	c[VDISP_CHILD_CAPS] = VDISP_CHILD_INTEGRATED;
}

/* The BDB at b: header, general features, general definitions with the
 * one child, driver features. Returns its size. */
static size_t bdb(uint8_t *b)
{
	uint8_t *p = b + VDISP_BDB_HEADER_LEN, *defs;

	memcpy(b, VDISP_BDB_SIG, 16);
	put16(b + VDISP_BDB_VERSION, VDISP_BDB_VERSION_GVT);
	put16(b + VDISP_BDB_HDR_SIZE, VDISP_BDB_HEADER_LEN);
	p = block(p, VDISP_BDB_GENERAL_FEATURES, GENERAL_FEATURES_LEN) +
	    GENERAL_FEATURES_LEN;
	defs = block(p, VDISP_BDB_GENERAL_DEFINITIONS,
		     VDISP_DEFS_LEN + VDISP_CHILD_LEN);
	defs[VDISP_DEFS_CHILD_SIZE] = VDISP_CHILD_LEN;
	child_port_d(defs + VDISP_DEFS_LEN);
	p = defs + VDISP_DEFS_LEN + VDISP_CHILD_LEN;
	p = block(p, VDISP_BDB_DRIVER_FEATURES, DRIVER_FEATURES_LEN) +
	    DRIVER_FEATURES_LEN;
	put16(b + VDISP_BDB_SIZE, (uint16_t)(p - b));
	return (size_t)(p - b);
}

static size_t vbt(uint8_t *v)
{
	size_t size = VDISP_VBT_HEADER_LEN + bdb(v + VDISP_VBT_HEADER_LEN), i;
	uint8_t sum = 0;

	memcpy(v, VDISP_VBT_SIG, sizeof(VDISP_VBT_SIG) - 1);
	memset(v + sizeof(VDISP_VBT_SIG) - 1, ' ',
	       VDISP_VBT_SIG_LEN - (sizeof(VDISP_VBT_SIG) - 1));
	put16(v + VDISP_VBT_VERSION, 155);	/* as GVT-g's */
	put16(v + VDISP_VBT_HDR_SIZE, VDISP_VBT_HEADER_LEN);
	put16(v + VDISP_VBT_SIZE, (uint16_t)size);
	put32(v + VDISP_VBT_BDB_OFF, VDISP_VBT_HEADER_LEN);
	for (i = 0; i < size; i++)
		sum = (uint8_t)(sum + v[i]);
	v[VDISP_VBT_CSUM] = (uint8_t)-sum;
	return size;
}

size_t vdisp_opregion_build(uint8_t *buf)
{
	memset(buf, 0, VDISP_OPREGION_SIZE);
	memcpy(buf, VDISP_OPREGION_SIG, 16);
	put32(buf + VDISP_OPR_SIZE_KB, VDISP_OPREGION_SIZE / 1024);
	put32(buf + VDISP_OPR_OVER, OPREGION_VER_2_0);
	put32(buf + VDISP_OPR_MBOXES, VDISP_OPR_MBOX_VBT);
	buf[VDISP_OPR_CLID] = CLID_OPEN;
	return vbt(buf + VDISP_OPR_VBT);
}
