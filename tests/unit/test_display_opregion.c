/* The OpRegion of gpu/display/vdisp_opregion.c read back as Linux 6.1's
 * i915 reads one (facts in docs/display.md, "The OpRegion and its VBT"):
 * intel_opregion_setup (signature, version, mailboxes, the VBT at
 * mailbox 4 when there is no ASLE mailbox), intel_bios_is_valid_vbt
 * (signature, sizes), the BDB walk of find_raw_section, the child device
 * size check of parse_general_definitions and the port each child gives
 * (parse_ddi_port). The checker is written from those facts, not from
 * the builder: a builder bug the guest would trip over fails here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "gpu/display/vdisp_opregion.h"

#define OPREGION_SIZE 8192u
#define VBT_OFFSET 0x400u

static uint8_t op[OPREGION_SIZE];

static unsigned rd16(const uint8_t *p) { return p[0] | p[1] << 8; }
static uint32_t rd32(const uint8_t *p)
{
	return rd16(p) | (uint32_t)rd16(p + 2) << 16;
}

/* What the guest's i915 ends up with. */
struct parsed {
	const uint8_t *vbt, *bdb;
	unsigned vbt_size, bdb_version, nr_children, child_size;
	const uint8_t *child[8];
	bool has_features, has_driver;
};

/* find_raw_section: blocks from bdb + header_size while an id and a size
 * fit; a block running past bdb_size ends the walk (NULL). */
static const uint8_t *find_block(const uint8_t *bdb, unsigned id,
				 unsigned *size)
{
	unsigned total = rd16(bdb + 0x14), index = rd16(bdb + 0x12);

	while (index + 3 < total) {
		unsigned bid = bdb[index], bsize = rd16(bdb + index + 1);

		index += 3;
		if (index + bsize > total)
			return NULL;
		if (bid == id) {
			*size = bsize;
			return bdb + index;
		}
		index += bsize;
	}
	return NULL;
}

/* child_device_expected_size for the versions below 195. */
static unsigned expected_child_size(unsigned version)
{
	return version >= 111 ? 33 : version >= 106 ? 27 : 22;
}

static void parse(struct parsed *p)
{
	const uint8_t *defs;
	unsigned size, i, vbt_avail = OPREGION_SIZE - VBT_OFFSET;
	uint32_t mboxes = rd32(op + 0x58);

	memset(p, 0, sizeof(*p));
	/* intel_opregion_setup */
	assert_memory_equal(op, "IntelGraphicsMem", 16);
	assert_int_equal(op[0x17], 2);		/* over.major: 2.x */
	assert_int_equal(rd32(op + 0x10), 8);	/* size in KiB */
	/* No ACPI (1), SWSCI (2), ASLE (4): no methods, no RVDA; VBT (8). */
	assert_int_equal(mboxes, 1u << 3);
	p->vbt = op + VBT_OFFSET;
	/* intel_bios_is_valid_vbt */
	assert_memory_equal(p->vbt, "$VBT", 4);
	p->vbt_size = rd16(p->vbt + 0x18);
	assert_true(p->vbt_size >= 48 && p->vbt_size <= vbt_avail);
	assert_true(rd32(p->vbt + 0x1c) + 22 <= p->vbt_size);
	p->bdb = p->vbt + rd32(p->vbt + 0x1c);
	assert_memory_equal(p->bdb, "BIOS_DATA_BLOCK ", 16);
	assert_true(rd32(p->vbt + 0x1c) + rd16(p->bdb + 0x14) <= p->vbt_size);
	p->bdb_version = rd16(p->bdb + 0x10);
	assert_int_equal(rd16(p->bdb + 0x12), 22);	/* header_size */
	p->has_features = find_block(p->bdb, 1, &size) != NULL;
	p->has_driver = find_block(p->bdb, 12, &size) != NULL;
	/* parse_general_definitions */
	defs = find_block(p->bdb, 2, &size);
	assert_non_null(defs);
	assert_true(size >= 5);
	p->child_size = defs[4];
	p->nr_children = (size - 5) / p->child_size;
	assert_true(p->nr_children <= 8);
	for (i = 0; i < p->nr_children; i++)
		p->child[i] = defs + 5 + i * p->child_size;
}

static void test_opregion_header(void **state)
{
	size_t vbt;

	(void)state;
	memset(op, 0x5a, sizeof(op));
	vbt = vdisp_opregion_build(op);
	assert_int_equal(vbt, rd16(op + VBT_OFFSET + 0x18));
	assert_int_equal(op[0x1ac], 3);	/* lid open, as GVT-g */
	/* Every byte past the VBT is 0, not what the buffer held. */
	for (size_t i = VBT_OFFSET + vbt; i < OPREGION_SIZE; i++)
		assert_int_equal(op[i], 0);
}

/* The VBT as i915 validates it; its checksum (which Windows' driver
 * checks and i915 does not) makes its bytes sum to 0. */
static void test_vbt_valid(void **state)
{
	struct parsed p;
	uint8_t sum = 0;

	(void)state;
	vdisp_opregion_build(op);
	parse(&p);
	for (unsigned i = 0; i < p.vbt_size; i++)
		sum = (uint8_t)(sum + p.vbt[i]);
	assert_int_equal(sum, 0);
	/* struct vbt_header: signature[20], version, header_size 48. */
	assert_memory_equal(p.vbt, "$VBT SKYLAKE        ", 20);
	assert_int_equal(rd16(p.vbt + 0x16), 48);
	assert_int_equal(p.bdb_version, 186);
	assert_true(p.has_features);
	assert_true(p.has_driver);
	/* "Unexpected child device config size" would be an error line. */
	assert_int_equal(p.child_size, expected_child_size(p.bdb_version));
}

/* ONE child: DP (not HDMI, not DVI) on port D over AUX D, integrated,
 * hot-plug signalling; no DDC pin (the EDID comes over AUX). */
static void test_one_child_dp_on_port_d(void **state)
{
	struct parsed p;
	const uint8_t *c;
	unsigned type;

	(void)state;
	vdisp_opregion_build(op);
	parse(&p);
	assert_int_equal(p.nr_children, 1);
	c = p.child[0];
	type = rd16(c + 2);
	assert_int_equal(type, 0x68c6);		/* DEVICE_TYPE_DP */
	assert_true(type & (1u << 2));		/* DISPLAYPORT_OUTPUT */
	assert_false(type & (1u << 4));		/* no TMDS: no HDMI/DVI */
	assert_true(type & (1u << 13));		/* HOTPLUG_SIGNALING */
	assert_false(type & (1u << 12));	/* not internal: not eDP */
	assert_int_equal(c[16], 9);		/* DVO_PORT_DPD */
	assert_int_equal(c[25], 0x30);		/* DP_AUX_D */
	assert_int_equal(c[19], 0);		/* no DDC pin */
	assert_int_equal(c[24], 1u << 1);	/* dp_compat only */
	assert_int_equal(c[27] & (1u << 5), 1u << 5);	/* integrated */
	assert_int_equal(rd16(c), 0x10);	/* handle: EFP4 */
}

/* A cut OpRegion fails the checker: it can fail. */
static void test_checker_catches_a_short_bdb(void **state)
{
	unsigned size;

	(void)state;
	vdisp_opregion_build(op);
	op[VBT_OFFSET + 48 + 0x14] = 30;	/* bdb_size: header + 8 */
	assert_null(find_block(op + VBT_OFFSET + 48, 2, &size));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_opregion_header),
		cmocka_unit_test(test_vbt_valid),
		cmocka_unit_test(test_one_child_dp_on_port_d),
		cmocka_unit_test(test_checker_catches_a_short_bdb),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
