/* Taking the physical Gen9 over from the firmware, in the order i915
 * brings a Skylake up (docs/hardware.md, "Takeover"; gen9-facts §1.3, §8,
 * §9, §10, and i915 6.1: intel_uncore.c, intel_reset.c,
 * intel_workarounds.c skl_gt_workarounds_init, intel_gtt.c
 * bdw_setup_private_ppat, intel_mocs.c skl_mocs_table,
 * i915_gem_stolen.c).
 *
 * Run once after pgpu_init and before anything writes the GGTT: the
 * firmware's GOP is still scanning out of stolen memory through GGTT
 * entries the mediator is about to reuse. */
#ifndef GPU_HW_PGPU_TAKEOVER_H
#define GPU_HW_PGPU_TAKEOVER_H

#include "gpu/hw/pgpu.h"

/* Display (gen9-facts §9): pipes A-C at +0x1000, universal planes at +0x100. */
#define SKL_TRANSCONF(pipe) (0x70008 + 0x1000 * (pipe))
#define   TRANSCONF_ENABLE BIT(31)
#define   TRANSCONF_STATE BIT(30)
#define SKL_PIPE_FRMCOUNT(pipe) (0x70040 + 0x1000 * (pipe))
#define SKL_PLANE_CTL(pipe, plane) (0x70180 + 0x1000 * (pipe) + 0x100 * (plane))
#define   PLANE_CTL_ENABLE (1u << 31) /* as gpu/display/vdisp_plane.h */
#define SKL_PLANE_SURF(pipe, plane) (0x7019c + 0x1000 * (pipe) + 0x100 * (plane))
#define SKL_CURCNTR(pipe) (0x70080 + 0x1000 * (pipe))
#define SKL_CURBASE(pipe) (0x70084 + 0x1000 * (pipe))
#define SKL_PIPES 3
#define SKL_PLANES_PER_PIPE 3 /* pipe C has 2; its third reads 0 */
#define SKL_VBLANK_TIMEOUT_US 50000

/* GT workarounds the host owns on Skylake (skl_gt_workarounds_init with
 * gen9_gt_workarounds_init): MMIO registers a GT reset clears. */
#define GAM_ECOCHK 0x4090
#define   ECOCHK_DIS_TLB BIT(8) /* WaDisableKillLogic */
#define   BDW_DISABLE_HDC_INVALIDATION BIT(25) /* WaDisableHDCInvalidation */
#define MMCD_MISC_CTRL 0x4ddc
#define   MMCD_PCLA BIT(31) /* WaCompressedResourceSamplerPbeMediaNewHashMode */
#define   MMCD_HOTSPOT_EN BIT(27)
#define GEN7_UCGCTL4 0x940c
#define   GEN8_EU_GAUNIT_CLOCK_GATE_DISABLE BIT(14) /* WaDisableGafsUnitClkGating */
#define GEN9_GAMT_ECO_REG_RW_IA 0x4ab0
#define   GAMT_ECO_ENABLE_IN_PLACE_DECOMPRESS BIT(18) /* WaInPlaceDecompressionHang, SKL H0+ */
#define SKL_REVID_H0 0x07

/* Private PAT (gen9-facts §2): eight bytes, type 1:0, target cache 3:2,
 * age 5:4. */
#define GEN8_PPAT_UC 0x0u
#define GEN8_PPAT_WC 0x1u
#define GEN8_PPAT_WT 0x2u
#define GEN8_PPAT_WB 0x3u
#define GEN8_PPAT_ELLC_OVERRIDE (0u << 2)
#define GEN8_PPAT_LLC (1u << 2)
#define GEN8_PPAT_LLCELLC (2u << 2)
#define GEN8_PPAT_AGE(x) ((uint32_t)(x) << 4)
#define GEN8_PPAT(i, x) ((uint64_t)(x) << ((i) * 8))

/* MOCS (intel_mocs.c): per-engine control tables of 62 usable entries
 * (the last two are the hardware's), the L3 half two entries per dword. */
#define GEN9_GFX_MOCS(i) (0xc800 + 4 * (i))
#define GEN9_MFX0_MOCS(i) (0xc900 + 4 * (i))
#define GEN9_MFX1_MOCS(i) (0xca00 + 4 * (i))
#define GEN9_VEBOX_MOCS(i) (0xcb00 + 4 * (i))
#define GEN9_BLT_MOCS(i) (0xcc00 + 4 * (i))
#define GEN9_LNCFCMOCS(i) (0xb020 + 4 * (i))
#define GEN9_NUM_MOCS_ENTRIES 62
#define LE_CACHEABILITY(x) ((uint32_t)(x) << 0) /* 0 PTE, 1 UC, 2 WT, 3 WB */
#define LE_TGT_CACHE(x) ((uint32_t)(x) << 2) /* 2 = LLC + eLLC */
#define LE_LRUM(x) ((uint32_t)(x) << 4)
#define L3_CACHEABILITY(x) ((uint32_t)(x) << 4) /* 1 UC, 3 WB */

/* Stolen memory's reserved top (i915_gem_stolen.c, gen9-facts §1.3). */
#define GEN6_STOLEN_RESERVED_ENABLE BIT(0)
#define GEN6_STOLEN_RESERVED_ADDR_MASK 0xfff00000u
#define GEN8_STOLEN_RESERVED_SIZE_SHIFT 7 /* 8:7: 1, 2, 4, 8 MiB */

struct pgpu_takeover_report {
	unsigned planes_disabled;	/* GOP planes/cursors switched off */
	unsigned pipes_active;		/* pipes still running (now black) */
	bool vblank_timeout;		/* a pipe never showed a new frame */
	uint32_t fw_acks;		/* ack registers' bit 0, per domain */
	int fw_err, reset_err;
	uint32_t workarounds;		/* registers written */
	uint64_t ppat;
	uint32_t mocs_writes;
	uint64_t stolen_base, stolen_size, stolen_usable;
	uint32_t dsmbase;		/* the MMIO mirror of BDSM */
	bool dsmbase_mismatch;
};

/* The value bdw_setup_private_ppat programs on gen9. */
uint64_t pgpu_gen9_ppat(void);
/* The skl MOCS table: control (per engine) and L3 halves of entry i. */
uint32_t pgpu_skl_mocs_control(unsigned i);
uint16_t pgpu_skl_mocs_l3(unsigned i);

/* The whole sequence; 0, or the first fatal step's -GPU_E* (forcewake
 * or reset that never completed). The report says what was found. */
int pgpu_takeover(struct pgpu *p, struct pgpu_takeover_report *r);

/* The host-owned GT state a full reset (GDRST FULL) loses, put back as
 * after the takeover's reset: GT workarounds, PPAT, MOCS (i915's
 * intel_gt_init_hw after intel_gt_reset). Caller holds forcewake. */
void pgpu_gt_init_hw(struct pgpu *p);

/* Names of the steps, in order (for logs and the order test). */
extern const char *const pgpu_takeover_step_names[];
extern const unsigned pgpu_takeover_nr_steps;

#endif
