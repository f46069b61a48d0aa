/* Gen9 (Skylake) register map: offsets and fields the physical-GPU driver,
 * the software model and the mediator share.
 *
 * Names follow Linux i915 (and through it the hardware documentation) so a
 * reader can grep either. Every group names where its facts come from; the
 * project's digest of those sources is docs/gen9-facts.md, cited here as
 * "gen9-facts §N". Offsets are byte offsets into BAR0 (GTTMMADR) unless said
 * otherwise. Plain integers, no i915_reg_t wrapper: gpu_hw takes uint32_t.
 *
 * This header is an API other code builds on: change it only by adding. */
#ifndef GPU_HW_GEN9_REGS_H
#define GPU_HW_GEN9_REGS_H

#include <stdbool.h>
#include <stdint.h>

#ifndef BIT
#define BIT(n) (1u << (n))
#endif
#define BIT_ULL(n) (1ull << (n))
/* Bits h..l inclusive, 32 and 64 bit. */
#define GEN9_GENMASK(h, l) ((~0u >> (31 - (h))) & (~0u << (l)))
#define GEN9_GENMASK_ULL(h, l) ((~0ull >> (63 - (h))) & (~0ull << (l)))

/* Masked registers: the upper 16 bits select which of the lower 16 bits a
 * write changes (i915 _MASKED_BIT_ENABLE etc.; gen9-facts §4.2, §8). */
#define _MASKED_FIELD(mask, value) (((uint32_t)(mask) << 16) | (value))
#define _MASKED_BIT_ENABLE(a) _MASKED_FIELD((a), (a))
#define _MASKED_BIT_DISABLE(a) _MASKED_FIELD((a), 0)

/* Apply a masked write to the current 16-bit value. */
static inline uint32_t gen9_masked_update(uint32_t old, uint32_t wr)
{
	uint32_t mask = wr >> 16;

	return (old & ~mask & 0xffffu) | (wr & mask);
}

/* ---- PCI (device 00:02.0): gen9-facts §1.1, §1.2 ------------------------- */

#define PCI_VENDOR_ID_INTEL 0x8086
#define GEN9_PCI_BDF_DEV 2 /* 00:02.0 */

#define GEN9_PCI_VENDOR 0x00
#define GEN9_PCI_DEVICE 0x02
#define GEN9_PCI_COMMAND 0x04
#define   GEN9_PCI_CMD_MEM BIT(1)
#define   GEN9_PCI_CMD_MASTER BIT(2)
#define GEN9_PCI_REVISION 0x08
#define GEN9_PCI_CLASS 0x09 /* 3 bytes: prog-if, subclass, class */
#define   GEN9_PCI_CLASS_VGA 0x030000
#define   GEN9_PCI_CLASS_VGA_OTHER 0x038000 /* gvt/reg.h: non-primary vGPU */
#define GEN9_PCI_HEADER_TYPE 0x0e
#define GEN9_PCI_BAR0 0x10 /* GTTMMADR: 64-bit, non-prefetchable, 16 MiB */
#define GEN9_PCI_BAR2 0x18 /* GMADR (aperture): 64-bit, prefetchable */
#define GEN9_PCI_BAR4 0x20 /* IOBAR, 64 bytes, unused by i915 */
#define   GEN9_PCI_BAR_MEM_MASK (~0xfull)
#define GEN9_PCI_SUBSYS_VENDOR 0x2c
#define GEN9_PCI_SUBSYS_ID 0x2e
#define GEN9_PCI_ROM 0x30
#define GEN9_PCI_CAP_PTR 0x34 /* 0x40 on hardware */
#define GEN9_PCI_GGC 0x50 /* 16 bit, see below */
#define GEN9_PCI_BDSM 0x5c /* 32 bit: 31:20 stolen base, bit 0 lock */
#define   GEN9_BDSM_MASK 0xfff00000u
#define GEN9_PCI_MSAC 0x62 /* 8 bit: aperture size */
#define GEN9_PCI_PCIE_CAP 0x70
#define GEN9_PCI_MSI_CAP 0xac
#define GEN9_PCI_MSI_CTRL 0xae
#define GEN9_PCI_MSI_ADDR 0xb0
#define GEN9_PCI_MSI_DATA 0xb4
#define GEN9_PCI_PM_CAP 0xd0
#define GEN9_PCI_ASLE 0xe4
#define GEN9_PCI_SWSCI 0xe8
#define GEN9_PCI_ASLS 0xfc /* OpRegion physical address */
#define GEN9_PCI_CFG_SIZE 256

#define GEN9_BAR0_SIZE 0x1000000u /* 16 MiB */
#define GEN9_MMIO_SIZE 0x200000u /* registers: first 2 MiB of BAR0 */
#define GEN9_GGTT_OFFSET 0x800000u /* PTEs: BAR0 + 8 MiB, gen9-facts §1.4 */
#define GEN9_GGTT_MAX_SIZE 0x800000u /* at most 8 MiB of PTEs */

/* GGC (GMCH control), gen9-facts §1.3 (i915_drm.h, early-quirks.c). */
#define BDW_GMCH_GMS_SHIFT 8
#define BDW_GMCH_GMS_MASK 0xff
#define BDW_GMCH_GGMS_SHIFT 6
#define BDW_GMCH_GGMS_MASK 0x3
#define INTEL_GMCH_VGA_DISABLE BIT(1)

/* Stolen ("data stolen memory") size in bytes from GGC.GMS, gen9 rule. */
static inline uint64_t gen9_ggc_stolen_size(uint16_t ggc)
{
	uint64_t gms = (ggc >> BDW_GMCH_GMS_SHIFT) & BDW_GMCH_GMS_MASK;

	if (gms < 0xf0)
		return gms * (32ull << 20);
	return (gms - 0xef) * (4ull << 20);
}

/* Size of the PTE table (GSM) in bytes from GGC.GGMS: 0, 2, 4 or 8 MiB. */
static inline uint64_t gen9_ggc_gsm_size(uint16_t ggc)
{
	uint32_t ggms = (ggc >> BDW_GMCH_GGMS_SHIFT) & BDW_GMCH_GGMS_MASK;

	return ggms ? (1ull << ggms) << 20 : 0;
}

/* Global graphics memory (GGTT address space) size: 4 KiB per 8-byte PTE. */
static inline uint64_t gen9_ggc_ggtt_size(uint16_t ggc)
{
	return gen9_ggc_gsm_size(ggc) / 8 * 4096;
}

/* MSAC APSZ[4:0] -> aperture size (datasheet page-109, gen9-facts §1.2). */
static inline uint64_t gen9_msac_aperture_size(uint8_t msac)
{
	uint32_t apsz = msac & 0x1f;
	uint64_t size = 128ull << 20;

	/* 0 = 128M, 1 = 256M, 3 = 512M, 7 = 1G, 0xf = 2G, 0x1f = 4G */
	while (apsz & 1) {
		size <<= 1;
		apsz >>= 1;
	}
	return size;
}

/* ---- GGTT PTE (gen8 64-bit format), gen9-facts §2 ------------------------ */

#define GEN8_PAGE_PRESENT BIT_ULL(0)
#define GEN8_PAGE_RW BIT_ULL(1) /* PPGTT entries only */
#define GEN8_PAGE_PWT BIT_ULL(3)
#define GEN8_PAGE_PCD BIT_ULL(4)
#define GEN8_PAGE_PAT BIT_ULL(7) /* PTE: PAT bit 2 */
#define GEN8_PDE_PS_2M BIT_ULL(7) /* PDE: 2 MiB page */
#define GEN8_PDPE_PS_1G BIT_ULL(7) /* PDPE: 1 GiB page */
#define GEN8_PDE_IPS_64K BIT_ULL(11) /* PDE: table of 64 KiB pages */
/* GVT masks addresses with bits 45:12 (GTT_HAW 46); SKL's DMA mask is 39
 * bits, so real entries never have bits above 38 set. */
#define GEN8_PTE_ADDR_MASK GEN9_GENMASK_ULL(45, 12)
#define GEN8_PDE_2M_ADDR_MASK GEN9_GENMASK_ULL(45, 21)
#define GEN8_PDPE_1G_ADDR_MASK GEN9_GENMASK_ULL(45, 30)
#define GEN8_PTE_64K_ADDR_MASK GEN9_GENMASK_ULL(45, 16)
#define GEN9_DMA_MASK_BITS 39
#define GEN8_PTES_PER_PAGE 512
#define GEN9_PAGE_SIZE 4096u
#define GEN9_PAGE_SHIFT 12

/* i915's GGTT encoding: just address | present (gen8_ggtt_pte_encode). */
static inline uint64_t gen8_ggtt_pte_encode(uint64_t addr)
{
	return (addr & GEN8_PTE_ADDR_MASK) | GEN8_PAGE_PRESENT;
}

static inline uint64_t gen8_pte_addr(uint64_t pte)
{
	return pte & GEN8_PTE_ADDR_MASK;
}

/* GGTT invalidation after PTE updates (gen8_ggtt_invalidate). */
#define GFX_FLSH_CNTL_GEN6 0x101008
#define   GFX_FLSH_CNTL_EN BIT(0)

/* Per-engine TLB invalidation, gen8-11 (gt/intel_tlb.c). */
#define GEN8_RTCR 0x4260
#define GEN8_M1TCR 0x4264
#define GEN8_M2TCR 0x4268
#define GEN8_BTCR 0x426c
#define GEN8_VTCR 0x4270

/* Private PAT (gt/intel_gtt.c), 8 one-byte entries. */
#define GEN8_PRIVATE_PAT_LO 0x40e0
#define GEN8_PRIVATE_PAT_HI 0x40e4

/* Page-fault reporting, gen8 (i915_reg.h / intel_gt_regs.h GEN8_RING_FAULT_REG,
 * GEN8_FAULT_TLB_DATA0/1; read by intel_gt.c gen8_check_faults); from i915
 * directly, not in docs/gen9-facts.md. */
#define GEN8_RING_FAULT_REG 0x4094
#define   RING_FAULT_VALID BIT(0)
#define   RING_FAULT_FAULT_TYPE_SHIFT 1 /* 2:1 */
#define   RING_FAULT_SRCID_SHIFT 3 /* 10:3 */
#define   RING_FAULT_GTTSEL_MASK BIT(11)
#define   GEN8_RING_FAULT_ENGINE_ID_SHIFT 12 /* 14:12 */
#define GEN8_FAULT_TLB_DATA0 0x4b10 /* fault address bits 43:12 */
#define GEN8_FAULT_TLB_DATA1 0x4b14
#define   FAULT_VA_HIGH_BITS 0xf /* address bits 47:44 */
#define   FAULT_GTT_SEL BIT(4)

/* ---- Fence registers, gen9-facts §3 -------------------------------------- */

#define GEN9_NUM_FENCES 32
#define FENCE_REG_GEN6_LO(i) (0x100000 + 8 * (i))
#define FENCE_REG_GEN6_HI(i) (0x100004 + 8 * (i))
#define   I965_FENCE_REG_VALID BIT_ULL(0)
#define   I965_FENCE_TILING_Y_SHIFT 1
#define   GEN6_FENCE_START_MASK GEN9_GENMASK_ULL(31, 12)
#define   GEN6_FENCE_PITCH_SHIFT 32 /* (stride / 128) - 1, 12 bits */
#define   GEN6_FENCE_PITCH_MASK (0xfffull << GEN6_FENCE_PITCH_SHIFT)
#define   GEN6_FENCE_END_MASK GEN9_GENMASK_ULL(63, 44) /* last page, incl. */
#define   GEN7_FENCE_MAX_PITCH_VAL 0x0800

/* ---- Engines, gen9-facts §4.1 -------------------------------------------- */

/* i915's engine ids and order. */
enum gen9_engine_id {
	GEN9_RCS0 = 0,
	GEN9_BCS0 = 1,
	GEN9_VCS0 = 2,
	GEN9_VCS1 = 3, /* GT3/GT4 only */
	GEN9_VECS0 = 4,
	GEN9_NUM_ENGINES = 5,
};

#define RENDER_RING_BASE 0x02000
#define BLT_RING_BASE 0x22000
#define GEN6_BSD_RING_BASE 0x12000
#define GEN8_BSD2_RING_BASE 0x1c000
#define VEBOX_RING_BASE 0x1a000
#define GEN9_RING_REG_SPAN 0x1000 /* per-engine register block size */

/* Per-engine registers, offsets from the engine base (gen9-facts §4.2). */
#define RING_EXCC(base) ((base) + 0x028)
#define RING_TAIL(base) ((base) + 0x030)
#define   TAIL_ADDR 0x001ffff8
#define RING_HEAD(base) ((base) + 0x034)
#define   HEAD_ADDR 0x001ffffc
#define   HEAD_WRAP_COUNT 0xffe00000
#define   HEAD_WRAP_ONE 0x00200000
#define RING_START(base) ((base) + 0x038)
#define RING_CTL(base) ((base) + 0x03c)
#define   RING_VALID BIT(0)
#define   RING_NR_PAGES 0x001ff000
#define   RING_WAIT_SEMAPHORE BIT(10)
#define   RING_WAIT BIT(11)
/* Ring size in bytes from RING_CTL: (pages - 1) << 12 stored. */
#define RING_CTL_SIZE(size) (((size) - 4096) & RING_NR_PAGES)
#define RING_ACTHD_UDW(base) ((base) + 0x05c)
#define RING_IPEIR(base) ((base) + 0x064)
#define RING_IPEHR(base) ((base) + 0x068)
#define RING_INSTDONE(base) ((base) + 0x06c)
#define RING_ACTHD(base) ((base) + 0x074)
/* MI_NOOP with bit 22 writes it; i915 fills unused FORCE_TO_NONPRIV slots
 * with it: writing or reading it has no effect on the engine. */
#define RING_NOPID(base) ((base) + 0x094)
#define RING_HWS_PGA(base) ((base) + 0x080)
#define RING_HWSTAM(base) ((base) + 0x098)
#define RING_MI_MODE(base) ((base) + 0x09c)
#define   STOP_RING BIT(8)
#define   MODE_IDLE BIT(9)
#define RING_IMR(base) ((base) + 0x0a8)
#define RING_EIR(base) ((base) + 0x0b0)
#define RING_EMR(base) ((base) + 0x0b4)
#define RING_ESR(base) ((base) + 0x0b8)
/* EIR/EMR/ESR bits (i915_reg.h; not in docs/gen9-facts.md). */
#define   I915_ERROR_INSTRUCTION BIT(0)
#define   I915_ERROR_MEMORY_REFRESH BIT(1)
#define   I915_ERROR_PAGE_TABLE BIT(4)
#define RING_INSTPM(base) ((base) + 0x0c0)
#define GEN8_R_PWR_CLK_STATE(base) ((base) + 0x0c8)
#define RING_RESET_CTL(base) ((base) + 0x0d0)
#define   RESET_CTL_REQUEST_RESET BIT(0)
#define   RESET_CTL_READY_TO_RESET BIT(1)
#define   RESET_CTL_CAT_ERROR BIT(2)
#define RING_BBSTATE(base) ((base) + 0x110)
#define   RING_BB_PPGTT BIT(5)
#define RING_SBBADDR(base) ((base) + 0x114)
#define RING_SBBSTATE(base) ((base) + 0x118)
#define RING_SBBADDR_UDW(base) ((base) + 0x11c)
#define RING_BBADDR(base) ((base) + 0x140)
#define RING_BB_OFFSET(base) ((base) + 0x158)
#define RING_BBADDR_UDW(base) ((base) + 0x168)
#define CCID(base) ((base) + 0x180)
#define RING_BB_PER_CTX_PTR(base) ((base) + 0x1c0)
#define RING_INDIRECT_CTX(base) ((base) + 0x1c4)
#define RING_INDIRECT_CTX_OFFSET(base) ((base) + 0x1c8)
#define RING_PP_DIR_DCLV(base) ((base) + 0x220)
#define RING_PP_DIR_BASE(base) ((base) + 0x228)
#define RING_ELSP(base) ((base) + 0x230)
#define RING_EXECLIST_STATUS_LO(base) ((base) + 0x234)
#define RING_EXECLIST_STATUS_HI(base) ((base) + 0x238)
#define RING_CONTEXT_CONTROL(base) ((base) + 0x244)
#define   CTX_CTRL_ENGINE_CTX_RESTORE_INHIBIT BIT(0)
#define   CTX_CTRL_RS_CTX_ENABLE BIT(1)
#define   CTX_CTRL_ENGINE_CTX_SAVE_INHIBIT BIT(2)
#define   CTX_CTRL_INHIBIT_SYN_CTX_SWITCH BIT(3)
#define GEN8_RING_PDP_UDW(base, n) ((base) + 0x270 + (n) * 8 + 4)
#define GEN8_RING_PDP_LDW(base, n) ((base) + 0x270 + (n) * 8)
#define RING_MODE_GEN7(base) ((base) + 0x29c)
#define   GEN8_GFX_PPGTT_48B BIT(7)
#define   GFX_PPGTT_ENABLE BIT(9)
#define   GFX_TLB_INVALIDATE_EXPLICIT BIT(13)
#define   GFX_RUN_LIST_ENABLE BIT(15)
#define RING_TIMESTAMP(base) ((base) + 0x358)
#define RING_TIMESTAMP_UDW(base) ((base) + 0x35c)
#define RING_CONTEXT_STATUS_BUF_LO(base, i) ((base) + 0x370 + (i) * 8)
#define RING_CONTEXT_STATUS_BUF_HI(base, i) ((base) + 0x370 + (i) * 8 + 4)
#define RING_CONTEXT_STATUS_PTR(base) ((base) + 0x3a0)
#define RING_CTX_TIMESTAMP(base) ((base) + 0x3a8)
#define RING_FORCE_TO_NONPRIV(base, i) ((base) + 0x4d0 + (i) * 4)
#define GEN8_RING_CS_GPR(base, n) ((base) + 0x600 + (n) * 8)
#define GEN8_RING_CS_GPR_UDW(base, n) ((base) + 0x600 + (n) * 8 + 4)

/* Blitter Y-tiling control (masked: bit 0 src Y, bit 1 dst Y),
 * gen9-facts §6.2. */
#define BCS_SWCTRL 0x22200
#define   BCS_SRC_Y BIT(0)
#define   BCS_DST_Y BIT(1)

/* ---- Execlists, gen9-facts §4.3 - §4.5 ----------------------------------- */

/* Context descriptor (64 bit; the upper dword is the context ID). */
#define GEN8_CTX_VALID BIT(0)
#define GEN8_CTX_FORCE_PD_RESTORE BIT(1)
#define GEN8_CTX_FORCE_RESTORE BIT(2)
#define GEN8_CTX_ADDRESSING_MODE_SHIFT 3
#define GEN8_CTX_ADDRESSING_MODE_MASK (3u << GEN8_CTX_ADDRESSING_MODE_SHIFT)
#define   INTEL_ADVANCED_CONTEXT 0
#define   INTEL_LEGACY_32B_CONTEXT 1 /* 3-level PPGTT, 4 PDPs */
#define   INTEL_ADVANCED_AD_CONTEXT 2
#define   INTEL_LEGACY_64B_CONTEXT 3 /* 4-level PPGTT, PML4 in PDP0 */
#define GEN8_CTX_L3LLC_COHERENT BIT(5)
#define GEN8_CTX_FAULT_SHIFT 6
#define GEN8_CTX_PRIVILEGE BIT(8)
#define GEN8_CTX_LRCA_MASK 0xfffff000u
#define GEN8_CTX_ID_SHIFT 32

#define GEN8_EXECLIST_PORTS 2 /* two elements per ELSP submission */

/* RING_EXECLIST_STATUS_LO bits (gvt/execlist.h). HI = running ctx id. */
#define EXECLIST_STATUS_CURRENT_PTR BIT(0)
#define EXECLIST_STATUS_WRITE_PTR BIT(1)
#define RING_EXECLIST_QFULL BIT(2)
#define RING_EXECLIST1_VALID BIT(3)
#define RING_EXECLIST0_VALID BIT(4)
#define EXECLIST_STATUS_SWITCH_REASON_SHIFT 5 /* 13:5 */
#define EXECLIST_STATUS_ACTIVE_STATUS_SHIFT 14 /* 15:14 */
#define EXECLIST_STATUS_ARB_ENABLE BIT(16)
#define RING_EXECLIST1_ACTIVE BIT(17)
#define RING_EXECLIST0_ACTIVE BIT(18)

/* Context Status Buffer. */
#define GEN8_CSB_ENTRIES 6
#define GEN8_CSB_PTR_MASK 0x7
#define GEN8_CSB_WRITE_PTR_MASK (GEN8_CSB_PTR_MASK << 0)
#define GEN8_CSB_READ_PTR_SHIFT 8
#define GEN8_CSB_READ_PTR_MASK (GEN8_CSB_PTR_MASK << GEN8_CSB_READ_PTR_SHIFT)
#define GEN8_CSB_PTR_NONE 7 /* "reset": next entry goes to 0 */
/* i915's value after reset: read = write = last entry. */
#define GEN8_CSB_PTR_RESET_VALUE                                               \
	_MASKED_FIELD(GEN8_CSB_WRITE_PTR_MASK | GEN8_CSB_READ_PTR_MASK,        \
		      (5 << GEN8_CSB_READ_PTR_SHIFT) | 5)

#define GEN8_CTX_STATUS_IDLE_ACTIVE BIT(0)
#define GEN8_CTX_STATUS_PREEMPTED BIT(1)
#define GEN8_CTX_STATUS_ELEMENT_SWITCH BIT(2)
#define GEN8_CTX_STATUS_ACTIVE_IDLE BIT(3)
#define GEN8_CTX_STATUS_COMPLETE BIT(4)
#define GEN8_CTX_STATUS_WAIT_SYNC_FLIP BIT(5)
#define GEN8_CTX_STATUS_WAIT_VBLANK BIT(6)
#define GEN8_CTX_STATUS_WAIT_SEMAPHORE BIT(7)
#define GEN8_CTX_STATUS_WAIT_SCANLINE BIT(8)
#define GEN8_CTX_STATUS_LITE_RESTORE BIT(15)
#define GEN8_CTX_STATUS_COMPLETED_MASK                                         \
	(GEN8_CTX_STATUS_COMPLETE | GEN8_CTX_STATUS_PREEMPTED)

/* Hardware status page (HWSP) dword indices. */
#define I915_HWS_CSB_BUF0_INDEX 0x10 /* entry i at 0x10 + 2i (lo, hi) */
#define I915_HWS_CSB_WRITE_INDEX 0x1f

/* ---- Logical ring context image, gen9-facts §5 --------------------------- */

#define LRC_PPHWSP_PN 0 /* page 0: per-process HWSP */
#define LRC_STATE_PN 1 /* page 1: register state */
#define LRC_STATE_OFFSET (LRC_STATE_PN * 4096)
#define GEN9_LR_CONTEXT_RENDER_SIZE (22 * 4096)
#define GEN8_LR_CONTEXT_OTHER_SIZE (2 * 4096)

/* Dword index of the *value* of each register in the state page; the
 * register offset (absolute, base + off) is at index - 1. */
#define CTX_LRI_HEADER_0 0x01
#define CTX_CONTEXT_CONTROL 0x03
#define CTX_RING_HEAD 0x05
#define CTX_RING_TAIL 0x07
#define CTX_RING_START 0x09
#define CTX_RING_CTL 0x0b
#define CTX_BB_ADDR_UDW 0x0d
#define CTX_BB_ADDR 0x0f
#define CTX_BB_STATE 0x11
#define CTX_SBB_ADDR_UDW 0x13
#define CTX_SBB_ADDR 0x15
#define CTX_SBB_STATE 0x17
#define CTX_BB_PER_CTX_PTR 0x19
#define CTX_RCS_INDIRECT_CTX 0x1b
#define CTX_RCS_INDIRECT_CTX_OFFSET 0x1d
/* The render context's workaround batches (i915 gt/intel_lrc.c
 * init_wa_bb_regs, lrc_setup_indirect_ctx; GVT gvt/scheduler.h):
 * INDIRECT_CTX is a GGTT address [31:6] and a size in 64-byte cachelines
 * [5:0] (no MI_BATCH_BUFFER_END: the engine runs that many bytes);
 * INDIRECT_CTX_OFFSET [15:6] says where in the restore it runs;
 * BB_PER_CTX_PTR is a GGTT address [31:12] with a valid bit 0, a batch
 * run to its MI_BATCH_BUFFER_END. */
#define CTX_INDIRECT_ADDR_MASK 0xffffffc0u
#define CTX_INDIRECT_SIZE_MASK 0x3fu
#define CTX_INDIRECT_OFFSET_MASK 0xffc0u
#define CTX_PER_CTX_ADDR_MASK 0xfffff000u
#define CTX_PER_CTX_VALID 0x1u
#define CTX_LRI_HEADER_1 0x21
#define CTX_TIMESTAMP 0x23
#define CTX_PDP3_UDW 0x25
#define CTX_PDP3_LDW 0x27
#define CTX_PDP2_UDW 0x29
#define CTX_PDP2_LDW 0x2b
#define CTX_PDP1_UDW 0x2d
#define CTX_PDP1_LDW 0x2f
#define CTX_PDP0_UDW 0x31
#define CTX_PDP0_LDW 0x33
#define CTX_PDP_UDW(n) (CTX_PDP0_UDW - 4 * (n))
#define CTX_PDP_LDW(n) (CTX_PDP0_LDW - 4 * (n))
#define CTX_LRI_HEADER_2 0x41
#define CTX_R_PWR_CLK_STATE 0x43
#define CTX_LRI_HEADER_3 0x51
#define GEN9_CTX_RING_MI_MODE 0x54 /* dword of the address; value at 0x55 */
#define GEN9_CTX_REG_STATE_DWORDS 170 /* listed state ends here */
/* LRI headers i915 puts in the image. */
#define GEN9_CTX_LRI_HEADER_0_VAL 0x1100101b /* LRI(14), force posted */
#define GEN9_CTX_LRI_HEADER_1_VAL 0x11001011 /* LRI(9), force posted */

/* ---- Interrupts, gen9-facts §7 ------------------------------------------- */

#define GEN8_MASTER_IRQ 0x44200
#define   GEN8_MASTER_IRQ_CONTROL BIT(31)
#define   GEN8_PCU_IRQ BIT(30)
#define   GEN8_DE_PCH_IRQ BIT(23)
#define   GEN8_DE_MISC_IRQ BIT(22)
#define   GEN8_DE_PORT_IRQ BIT(20)
#define   GEN8_DE_PIPE_C_IRQ BIT(18)
#define   GEN8_DE_PIPE_B_IRQ BIT(17)
#define   GEN8_DE_PIPE_A_IRQ BIT(16)
#define   GEN8_GT_VECS_IRQ BIT(6)
#define   GEN8_GT_GUC_IRQ BIT(5)
#define   GEN8_GT_PM_IRQ BIT(4)
#define   GEN8_GT_VCS1_IRQ BIT(3) /* second VCS */
#define   GEN8_GT_VCS0_IRQ BIT(2)
#define   GEN8_GT_BCS_IRQ BIT(1)
#define   GEN8_GT_RCS_IRQ BIT(0)
#define   GEN8_GT_IRQS (GEN8_GT_RCS_IRQ | GEN8_GT_BCS_IRQ | GEN8_GT_VCS0_IRQ | \
			GEN8_GT_VCS1_IRQ | GEN8_GT_PM_IRQ | GEN8_GT_GUC_IRQ |  \
			GEN8_GT_VECS_IRQ)

#define GEN8_GT_BANKS 4
#define GEN8_GT_ISR(n) (0x44300 + 0x10 * (n))
#define GEN8_GT_IMR(n) (0x44304 + 0x10 * (n))
#define GEN8_GT_IIR(n) (0x44308 + 0x10 * (n))
#define GEN8_GT_IER(n) (0x4430c + 0x10 * (n))

/* Per-engine 16-bit field, shifted into its bank by the engine's shift. */
#define GT_RENDER_USER_INTERRUPT BIT(0)
#define GT_RENDER_DEBUG_INTERRUPT BIT(1)
#define GT_RENDER_SYNC_STATUS BIT(2)
#define GT_CS_MASTER_ERROR_INTERRUPT BIT(3)
#define GT_RENDER_PIPECTL_NOTIFY_INTERRUPT BIT(4) /* RCS: PIPE_CONTROL notify */
#define GT_FLUSH_DW_NOTIFY_INTERRUPT BIT(4) /* others: MI_FLUSH_DW notify */
#define GT_RENDER_L3_PARITY_ERROR_INTERRUPT BIT(5)
#define GT_CONTEXT_SWITCH_INTERRUPT BIT(8)
#define GT_WAIT_SEMAPHORE_INTERRUPT BIT(11)
/* What i915 enables per engine (logical_ring_default_irqs). */
#define GEN8_ENGINE_DEFAULT_IRQS                                               \
	(GT_RENDER_USER_INTERRUPT | GT_CS_MASTER_ERROR_INTERRUPT |             \
	 GT_CONTEXT_SWITCH_INTERRUPT | GT_WAIT_SEMAPHORE_INTERRUPT)

#define GEN8_RCS_IRQ_SHIFT 0
#define GEN8_BCS_IRQ_SHIFT 16
#define GEN8_VCS0_IRQ_SHIFT 0
#define GEN8_VCS1_IRQ_SHIFT 16
#define GEN8_VECS_IRQ_SHIFT 0

/* Display interrupt banks (for a minimal fake), gen9-facts §7.3. */
#define GEN8_DE_PIPE_ISR(p) (0x44400 + 0x10 * (p))
#define GEN8_DE_PIPE_IMR(p) (0x44404 + 0x10 * (p))
#define GEN8_DE_PIPE_IIR(p) (0x44408 + 0x10 * (p))
#define GEN8_DE_PIPE_IER(p) (0x4440c + 0x10 * (p))
#define GEN8_DE_PORT_ISR 0x44440
#define GEN8_DE_PORT_IMR 0x44444
#define GEN8_DE_PORT_IIR 0x44448
#define GEN8_DE_PORT_IER 0x4444c
#define GEN8_DE_MISC_ISR 0x44460
#define GEN8_DE_MISC_IMR 0x44464
#define GEN8_DE_MISC_IIR 0x44468
#define GEN8_DE_MISC_IER 0x4446c
#define GEN8_PCU_ISR 0x444e0
#define GEN8_PCU_IMR 0x444e4
#define GEN8_PCU_IIR 0x444e8
#define GEN8_PCU_IER 0x444ec
#define SDEISR 0xc4000
#define SDEIMR 0xc4004
#define SDEIIR 0xc4008
#define SDEIER 0xc400c

/* ---- Forcewake, gen9-facts §8 -------------------------------------------- */

#define FORCEWAKE_RENDER_GEN9 0xa278
#define FORCEWAKE_ACK_RENDER_GEN9 0x0d84
#define FORCEWAKE_GT_GEN9 0xa188
#define FORCEWAKE_ACK_GT_GEN9 0x130044
#define FORCEWAKE_MEDIA_GEN9 0xa270
#define FORCEWAKE_ACK_MEDIA_GEN9 0x0d88
#define   FORCEWAKE_KERNEL BIT(0)
#define   FORCEWAKE_USER BIT(1)
#define   FORCEWAKE_KERNEL_FALLBACK BIT(15)

enum gen9_fw_domain {
	GEN9_FW_RENDER = 0,
	GEN9_FW_GT = 1, /* i915 FW_DOMAIN_ID_GT ("blitter") */
	GEN9_FW_MEDIA = 2,
	GEN9_FW_DOMAINS = 3,
};
#define GEN9_FW_RENDER_BIT BIT(GEN9_FW_RENDER)
#define GEN9_FW_GT_BIT BIT(GEN9_FW_GT)
#define GEN9_FW_MEDIA_BIT BIT(GEN9_FW_MEDIA)

/* Unclaimed-MMIO detection (should read 0 on a healthy device). */
#define FPGA_DBG 0x42300
#define   FPGA_DBG_RM_NOCLAIM BIT(31)

/* Early-probe registers a model should answer (gen9-facts §8). */
#define GEN8_FUSE2 0x9120
#define GEN9_EU_DISABLE(s) (0x9134 + 4 * (s))
#define CTC_MODE 0xa26c
#define GEN6_PCODE_MAILBOX 0x138124
#define   GEN6_PCODE_READY BIT(31)
#define GEN6_PCODE_DATA 0x138128
#define GEN6_PCODE_DATA1 0x13812c

/* Stolen memory mirrors, gen9-facts §1.3. */
#define GEN6_STOLEN_RESERVED 0x1082c0
#define GEN6_DSMBASE 0x1080c0
#define GEN6_GSMBASE 0x108100

/* ---- Reset, gen9-facts §10 ----------------------------------------------- */

#define GEN6_GDRST 0x941c
#define   GEN6_GRDOM_FULL BIT(0)
#define   GEN6_GRDOM_RENDER BIT(1)
#define   GEN6_GRDOM_MEDIA BIT(2)
#define   GEN6_GRDOM_BLT BIT(3)
#define   GEN6_GRDOM_VECS BIT(4)
#define   GEN9_GRDOM_GUC BIT(5)
#define   GEN8_GRDOM_MEDIA2 BIT(7)
#define GEN6_RSTCTL 0x9420
/* The GuC microcontroller's status; a GuC reset (GDRST GEN9_GRDOM_GUC)
 * leaves it with MIA in reset, which i915's __intel_uc_reset_hw checks. */
#define GUC_STATUS 0xc000
#define   GS_MIA_IN_RESET BIT(0)

/* ---- Per-engine facts in one place ------------------------------------ */

static inline uint32_t gen9_engine_mmio_base(enum gen9_engine_id id)
{
	switch (id) {
	case GEN9_RCS0: return RENDER_RING_BASE;
	case GEN9_BCS0: return BLT_RING_BASE;
	case GEN9_VCS0: return GEN6_BSD_RING_BASE;
	case GEN9_VCS1: return GEN8_BSD2_RING_BASE;
	case GEN9_VECS0: return VEBOX_RING_BASE;
	default: return 0;
	}
}

/* Engine whose register block contains off, or -1. */
static inline int gen9_engine_from_mmio(uint32_t off)
{
	int id;

	for (id = 0; id < GEN9_NUM_ENGINES; id++) {
		uint32_t base = gen9_engine_mmio_base((enum gen9_engine_id)id);

		if (off >= base && off < base + GEN9_RING_REG_SPAN)
			return id;
	}
	return -1;
}

/* GT interrupt bank and shift of an engine's 16-bit field (gen9-facts §7.2). */
static inline unsigned int gen9_engine_irq_bank(enum gen9_engine_id id)
{
	switch (id) {
	case GEN9_RCS0: case GEN9_BCS0: return 0;
	case GEN9_VCS0: case GEN9_VCS1: return 1;
	default: return 3;
	}
}

static inline unsigned int gen9_engine_irq_shift(enum gen9_engine_id id)
{
	return (id == GEN9_BCS0 || id == GEN9_VCS1) ? 16 : 0;
}

/* Master-IRQ bit that reports this engine's bank half. */
static inline uint32_t gen9_engine_master_bit(enum gen9_engine_id id)
{
	switch (id) {
	case GEN9_RCS0: return GEN8_GT_RCS_IRQ;
	case GEN9_BCS0: return GEN8_GT_BCS_IRQ;
	case GEN9_VCS0: return GEN8_GT_VCS0_IRQ;
	case GEN9_VCS1: return GEN8_GT_VCS1_IRQ;
	default: return GEN8_GT_VECS_IRQ;
	}
}

/* GDRST domain bit for an engine (gen9-facts §10). */
static inline uint32_t gen9_engine_reset_domain(enum gen9_engine_id id)
{
	switch (id) {
	case GEN9_RCS0: return GEN6_GRDOM_RENDER;
	case GEN9_BCS0: return GEN6_GRDOM_BLT;
	case GEN9_VCS0: return GEN6_GRDOM_MEDIA;
	case GEN9_VCS1: return GEN8_GRDOM_MEDIA2;
	default: return GEN6_GRDOM_VECS;
	}
}

/* Forcewake domain(s) an engine's registers live in (__gen9_fw_ranges). */
static inline uint32_t gen9_engine_fw_domains(enum gen9_engine_id id)
{
	switch (id) {
	case GEN9_RCS0: return GEN9_FW_RENDER_BIT;
	case GEN9_BCS0: return GEN9_FW_GT_BIT;
	default: return GEN9_FW_MEDIA_BIT;
	}
}

/* gen6 hardware id used by GEN8_RING_FAULT_REG's engine field. */
static inline uint32_t gen9_engine_hw_id(enum gen9_engine_id id)
{
	switch (id) {
	case GEN9_RCS0: return 0;
	case GEN9_VCS0: return 1;
	case GEN9_BCS0: return 2;
	case GEN9_VECS0: return 3;
	default: return 4; /* VCS1 */
	}
}

static inline const char *gen9_engine_name(enum gen9_engine_id id)
{
	switch (id) {
	case GEN9_RCS0: return "rcs0";
	case GEN9_BCS0: return "bcs0";
	case GEN9_VCS0: return "vcs0";
	case GEN9_VCS1: return "vcs1";
	case GEN9_VECS0: return "vecs0";
	default: return "?";
	}
}

/* ---- Device identification (gpu/hw/pci_ids.c), gen9-facts §1.1 ----------- */

enum gen9_gt {
	GEN9_GT_UNKNOWN = 0,
	GEN9_GT1 = 1,
	GEN9_GT2 = 2,
	GEN9_GT3 = 3,
	GEN9_GT4 = 4,
};

bool gen9_is_supported_device(uint16_t did);
/* GT level of a supported device, GEN9_GT_UNKNOWN otherwise. */
enum gen9_gt gen9_device_gt(uint16_t did);
/* "GT2" etc.; "unknown" for an unsupported id. */
const char *gen9_gt_name(enum gen9_gt gt);
/* i915's comment for the id, e.g. "DT GT2"; NULL if unsupported. */
const char *gen9_device_desc(uint16_t did);
/* Bitmask of BIT(enum gen9_engine_id) present on this device. */
uint32_t gen9_device_engine_mask(uint16_t did);

#endif
