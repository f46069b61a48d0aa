/* Taking the physical Gen9 over from the firmware (pgpu_takeover.h). One
 * function per step, run from a table in i915's order. */
#include "gpu/hw/pgpu_takeover.h"
#include "mini/string.h"

static const uint32_t fw_ack[GEN9_FW_DOMAINS] = {
	[GEN9_FW_RENDER] = FORCEWAKE_ACK_RENDER_GEN9,
	[GEN9_FW_GT] = FORCEWAKE_ACK_GT_GEN9,
	[GEN9_FW_MEDIA] = FORCEWAKE_ACK_MEDIA_GEN9,
};

static const uint32_t mocs_table_base[GEN9_NUM_ENGINES] = {
	[GEN9_RCS0] = GEN9_GFX_MOCS(0), [GEN9_BCS0] = GEN9_BLT_MOCS(0),
	[GEN9_VCS0] = GEN9_MFX0_MOCS(0), [GEN9_VCS1] = GEN9_MFX1_MOCS(0),
	[GEN9_VECS0] = GEN9_VEBOX_MOCS(0),
};

#define FW_ALL (GEN9_FW_RENDER_BIT | GEN9_FW_GT_BIT | GEN9_FW_MEDIA_BIT)

/* ---- 1. the firmware's scanout --------------------------------------- */

/* Planes and the cursor off, each disable latched by the surface write
 * (skl_plane_disable_arm writes PLANE_CTL then PLANE_SURF = 0). */
static unsigned pipe_planes_off(struct gpu_hw *hw, unsigned pipe)
{
	unsigned n = 0;

	for (unsigned pl = 0; pl < SKL_PLANES_PER_PIPE; pl++) {
		uint32_t ctl = gpu_hw_read32(hw, SKL_PLANE_CTL(pipe, pl));

		if (!(ctl & PLANE_CTL_ENABLE))
			continue;
		gpu_hw_write32(hw, SKL_PLANE_CTL(pipe, pl),
			       ctl & ~PLANE_CTL_ENABLE);
		gpu_hw_write32(hw, SKL_PLANE_SURF(pipe, pl), 0);
		n++;
	}
	if (gpu_hw_read32(hw, SKL_CURCNTR(pipe))) {
		gpu_hw_write32(hw, SKL_CURCNTR(pipe), 0);
		gpu_hw_write32(hw, SKL_CURBASE(pipe), 0);
		n++;
	}
	return n;
}

/* The disables take effect at the next vblank: wait for the frame
 * counter to move (intel_wait_for_vblank's budget). */
static bool wait_vblank(struct gpu_hw *hw, unsigned pipe)
{
	uint32_t f0 = gpu_hw_read32(hw, SKL_PIPE_FRMCOUNT(pipe));

	for (uint32_t us = 0; us < SKL_VBLANK_TIMEOUT_US; us += 100) {
		if (gpu_hw_read32(hw, SKL_PIPE_FRMCOUNT(pipe)) != f0)
			return true;
		gpu_hw_udelay(hw, 100);
	}
	return false;
}

static int step_quiesce(struct pgpu *p, struct pgpu_takeover_report *r)
{
	for (unsigned pipe = 0; pipe < SKL_PIPES; pipe++) {
		uint32_t conf = gpu_hw_read32(p->hw, SKL_TRANSCONF(pipe));
		unsigned n = pipe_planes_off(p->hw, pipe);

		r->planes_disabled += n;
		if (!(conf & TRANSCONF_STATE))
			continue;
		r->pipes_active++;
		if (n && !wait_vblank(p->hw, pipe))
			r->vblank_timeout = true;
	}
	return 0;
}

/* ---- 2. forcewake, 3. reset ------------------------------------------ */

static int step_forcewake(struct pgpu *p, struct pgpu_takeover_report *r)
{
	r->fw_err = pgpu_forcewake_get(p, FW_ALL);
	for (int d = 0; d < GEN9_FW_DOMAINS; d++)
		if (gpu_hw_read32(p->hw, fw_ack[d]) & FORCEWAKE_KERNEL)
			r->fw_acks |= BIT(d);
	return r->fw_err;
}

/* i915's full-GT sanitize (gen8_reset_engines): every engine asked to
 * get ready (a hung one may never say so: the reset goes ahead), GDRST
 * full twice, the requests withdrawn. */
static int step_reset(struct pgpu *p, struct pgpu_takeover_report *r)
{
	struct gpu_hw *hw = p->hw;
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		if (!p->engine[id].present)
			continue;
		gpu_hw_write32(hw, RING_RESET_CTL(p->engine[id].base),
			       _MASKED_BIT_ENABLE(RESET_CTL_REQUEST_RESET));
		(void)gpu_hw_wait_for(hw, RING_RESET_CTL(p->engine[id].base),
				      RESET_CTL_READY_TO_RESET,
				      RESET_CTL_READY_TO_RESET,
				      PGPU_RESET_READY_TIMEOUT_US);
	}
	r->reset_err = pgpu_full_reset(p);
	for (id = 0; id < GEN9_NUM_ENGINES; id++)
		if (p->engine[id].present)
			gpu_hw_write32(hw, RING_RESET_CTL(p->engine[id].base),
				       _MASKED_BIT_DISABLE(RESET_CTL_REQUEST_RESET));
	return r->reset_err;
}

/* ---- 4. GT workarounds, 5. PPAT, 6. MOCS ------------------------------ */

static const struct { uint32_t reg, set; bool h0_on; } skl_gt_was[] = {
	{ GAM_ECOCHK, ECOCHK_DIS_TLB | BDW_DISABLE_HDC_INVALIDATION, false },
	{ MMCD_MISC_CTRL, MMCD_PCLA | MMCD_HOTSPOT_EN, false },
	{ GEN7_UCGCTL4, GEN8_EU_GAUNIT_CLOCK_GATE_DISABLE, false },
	{ GEN9_GAMT_ECO_REG_RW_IA, GAMT_ECO_ENABLE_IN_PLACE_DECOMPRESS, true },
};

static int step_workarounds(struct pgpu *p, struct pgpu_takeover_report *r)
{
	for (unsigned i = 0; i < sizeof(skl_gt_was) / sizeof(skl_gt_was[0]);
	     i++) {
		if (skl_gt_was[i].h0_on &&
		    p->hw->info.revision < SKL_REVID_H0)
			continue;
		gpu_hw_rmw32(p->hw, skl_gt_was[i].reg, 0, skl_gt_was[i].set);
		r->workarounds++;
	}
	return 0;
}

uint64_t pgpu_gen9_ppat(void)
{
	return GEN8_PPAT(0, GEN8_PPAT_WB | GEN8_PPAT_LLC) |
	       GEN8_PPAT(1, GEN8_PPAT_WC | GEN8_PPAT_LLCELLC) |
	       GEN8_PPAT(2, GEN8_PPAT_WB | GEN8_PPAT_ELLC_OVERRIDE) |
	       GEN8_PPAT(3, GEN8_PPAT_UC) |
	       GEN8_PPAT(4, GEN8_PPAT_WB | GEN8_PPAT_LLCELLC | GEN8_PPAT_AGE(0)) |
	       GEN8_PPAT(5, GEN8_PPAT_WB | GEN8_PPAT_LLCELLC | GEN8_PPAT_AGE(1)) |
	       GEN8_PPAT(6, GEN8_PPAT_WB | GEN8_PPAT_LLCELLC | GEN8_PPAT_AGE(2)) |
	       GEN8_PPAT(7, GEN8_PPAT_WB | GEN8_PPAT_LLCELLC | GEN8_PPAT_AGE(3));
}

static int step_ppat(struct pgpu *p, struct pgpu_takeover_report *r)
{
	r->ppat = pgpu_gen9_ppat();
	gpu_hw_write32(p->hw, GEN8_PRIVATE_PAT_LO, (uint32_t)r->ppat);
	gpu_hw_write32(p->hw, GEN8_PRIVATE_PAT_HI, (uint32_t)(r->ppat >> 32));
	return 0;
}

/* skl_mocs_table: 0 uncached, 1 as the PTE says, 2 cached; every other
 * usable entry as the PTE entry (i915's unused_entries_index). */
enum { MOCS_UNCACHED, MOCS_PTE, MOCS_CACHED };

uint32_t pgpu_skl_mocs_control(unsigned i)
{
	if (i == MOCS_UNCACHED)
		return LE_CACHEABILITY(1) | LE_TGT_CACHE(2);
	if (i == MOCS_CACHED)
		return LE_CACHEABILITY(3) | LE_TGT_CACHE(2) | LE_LRUM(3);
	return LE_CACHEABILITY(0) | LE_TGT_CACHE(2) | LE_LRUM(3);
}

uint16_t pgpu_skl_mocs_l3(unsigned i)
{
	return (uint16_t)(i == MOCS_UNCACHED ? L3_CACHEABILITY(1)
					     : L3_CACHEABILITY(3));
}

static int step_mocs(struct pgpu *p, struct pgpu_takeover_report *r)
{
	for (int id = 0; id < GEN9_NUM_ENGINES; id++) {
		if (!p->engine[id].present)
			continue;
		for (unsigned i = 0; i < GEN9_NUM_MOCS_ENTRIES; i++)
			gpu_hw_write32(p->hw, mocs_table_base[id] + 4 * i,
				       pgpu_skl_mocs_control(i));
		r->mocs_writes += GEN9_NUM_MOCS_ENTRIES;
	}
	for (unsigned i = 0; i < GEN9_NUM_MOCS_ENTRIES / 2; i++) {
		gpu_hw_write32(p->hw, GEN9_LNCFCMOCS(i),
			       pgpu_skl_mocs_l3(2 * i) |
				       (uint32_t)pgpu_skl_mocs_l3(2 * i + 1) << 16);
		r->mocs_writes++;
	}
	return 0;
}

/* ---- 7. stolen memory ------------------------------------------------- */

/* What the firmware gave the GPU (GGC.GMS, BDSM), checked against the
 * MMIO mirror, minus the reserved top (bdw_get_stolen_reserved). */
static int step_stolen(struct pgpu *p, struct pgpu_takeover_report *r)
{
	const struct gpu_hw_info *i = &p->hw->info;
	uint32_t res = gpu_hw_read32(p->hw, GEN6_STOLEN_RESERVED);
	uint64_t rbase = res & GEN6_STOLEN_RESERVED_ADDR_MASK;
	uint64_t rsize = (1ull << 20) << ((res >> GEN8_STOLEN_RESERVED_SIZE_SHIFT) & 3);

	r->stolen_base = i->stolen_base;
	r->stolen_size = i->stolen_size;
	r->stolen_usable = i->stolen_size;
	r->dsmbase = gpu_hw_read32(p->hw, GEN6_DSMBASE);
	r->dsmbase_mismatch = i->stolen_size &&
		(r->dsmbase & GEN9_BDSM_MASK) != (i->stolen_base & GEN9_BDSM_MASK);
	if ((res & GEN6_STOLEN_RESERVED_ENABLE) && rbase >= i->stolen_base &&
	    rbase + rsize <= i->stolen_base + i->stolen_size)
		r->stolen_usable = rbase - i->stolen_base;
	return 0;
}

/* ---- the sequence ----------------------------------------------------- */

static int (*const steps[])(struct pgpu *, struct pgpu_takeover_report *) = {
	step_quiesce, step_forcewake, step_reset, step_workarounds,
	step_ppat, step_mocs, step_stolen,
};

const char *const pgpu_takeover_step_names[] = {
	"quiesce the GOP scanout", "forcewake all domains",
	"reset the GT", "GT workarounds", "PPAT", "MOCS", "stolen memory",
};

const unsigned pgpu_takeover_nr_steps = sizeof(steps) / sizeof(steps[0]);

void pgpu_gt_init_hw(struct pgpu *p)
{
	struct pgpu_takeover_report r;

	memset(&r, 0, sizeof(r));
	(void)step_workarounds(p, &r);
	(void)step_ppat(p, &r);
	(void)step_mocs(p, &r);
}

int pgpu_takeover(struct pgpu *p, struct pgpu_takeover_report *r)
{
	int err = 0;

	if (!p || !p->hw || !r)
		return -GPU_EINVAL;
	memset(r, 0, sizeof(*r));
	for (unsigned s = 0; s < pgpu_takeover_nr_steps && !err; s++)
		err = steps[s](p, r);
	if (!r->fw_err)
		pgpu_forcewake_put(p, FW_ALL);
	return err;
}
