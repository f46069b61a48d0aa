/* Skylake (Gen9) device ids, GT levels and engines: gen9-facts §1.1
 * (include/drm/intel/pciids.h; engines from i915_pci.c skl_gt*_info). */
#include "gpu/hw/gen9_regs.h"

#include <stddef.h>

struct gen9_dev {
	uint16_t did;
	uint8_t gt;
	const char *desc;
};

static const struct gen9_dev skl_ids[] = {
	{ 0x1902, GEN9_GT1, "DT GT1" },
	{ 0x1906, GEN9_GT1, "ULT GT1" },
	{ 0x190a, GEN9_GT1, "SRV GT1" },
	{ 0x190b, GEN9_GT1, "Halo GT1" },
	{ 0x190e, GEN9_GT1, "ULX GT1" },
	{ 0x1913, GEN9_GT1, "ULT GT1.5" },
	{ 0x1915, GEN9_GT1, "ULX GT1.5" },
	{ 0x1917, GEN9_GT1, "DT GT1.5" },
	{ 0x1912, GEN9_GT2, "DT GT2" },
	{ 0x1916, GEN9_GT2, "ULT GT2" },
	{ 0x191a, GEN9_GT2, "SRV GT2" },
	{ 0x191b, GEN9_GT2, "Halo GT2" },
	{ 0x191d, GEN9_GT2, "WKS GT2" },
	{ 0x191e, GEN9_GT2, "ULX GT2" },
	{ 0x1921, GEN9_GT2, "ULT GT2F" },
	{ 0x1923, GEN9_GT3, "ULT GT3" },
	{ 0x1926, GEN9_GT3, "ULT GT3e" },
	{ 0x1927, GEN9_GT3, "ULT GT3e" },
	{ 0x192a, GEN9_GT3, "SRV GT3" },
	{ 0x192b, GEN9_GT3, "Halo GT3e" },
	{ 0x192d, GEN9_GT3, "SRV GT3e" },
	{ 0x1932, GEN9_GT4, "DT GT4" },
	{ 0x193a, GEN9_GT4, "SRV GT4e" },
	{ 0x193b, GEN9_GT4, "Halo GT4e" },
	{ 0x193d, GEN9_GT4, "WKS GT4e" },
};

static const struct gen9_dev *lookup(uint16_t did)
{
	size_t i;

	for (i = 0; i < sizeof(skl_ids) / sizeof(skl_ids[0]); i++)
		if (skl_ids[i].did == did)
			return &skl_ids[i];
	return NULL;
}

bool gen9_is_supported_device(uint16_t did)
{
	return lookup(did) != NULL;
}

enum gen9_gt gen9_device_gt(uint16_t did)
{
	const struct gen9_dev *d = lookup(did);

	return d ? (enum gen9_gt)d->gt : GEN9_GT_UNKNOWN;
}

const char *gen9_gt_name(enum gen9_gt gt)
{
	switch (gt) {
	case GEN9_GT1: return "GT1";
	case GEN9_GT2: return "GT2";
	case GEN9_GT3: return "GT3";
	case GEN9_GT4: return "GT4";
	default: return "unknown";
	}
}

const char *gen9_device_desc(uint16_t did)
{
	const struct gen9_dev *d = lookup(did);

	return d ? d->desc : NULL;
}

/* GT1/GT2: RCS, BCS, VCS0, VECS; GT3/GT4 add the second VCS. */
uint32_t gen9_device_engine_mask(uint16_t did)
{
	enum gen9_gt gt = gen9_device_gt(did);
	uint32_t mask = BIT(GEN9_RCS0) | BIT(GEN9_BCS0) | BIT(GEN9_VCS0) |
			BIT(GEN9_VECS0);

	if (gt == GEN9_GT_UNKNOWN)
		return 0;
	if (gt >= GEN9_GT3)
		mask |= BIT(GEN9_VCS1);
	return mask;
}
