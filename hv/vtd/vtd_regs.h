/* The registers of a VT-d remapping unit (Intel VT-d spec, chapter 10),
 * named as the spec names them. Offsets are from the unit's register page
 * (the DRHD's base). IOTLB_REG and IVA_REG sit at ECAP.IRO, the fault
 * recording registers at CAP.FRO; both are given in 16-byte units. */
#ifndef HV_VTD_REGS_H
#define HV_VTD_REGS_H

#define VTD_VER_REG	0x00	/* 32: major 7:4, minor 3:0 */
#define VTD_CAP_REG	0x08	/* 64 */
#define VTD_ECAP_REG	0x10	/* 64 */
#define VTD_GCMD_REG	0x18	/* 32, write-only */
#define VTD_GSTS_REG	0x1c	/* 32 */
#define VTD_RTADDR_REG	0x20	/* 64 */
#define VTD_CCMD_REG	0x28	/* 64 */
#define VTD_FSTS_REG	0x34	/* 32 */
#define VTD_FECTL_REG	0x38	/* 32 */
#define VTD_FEDATA_REG	0x3c	/* 32 */
#define VTD_FEADDR_REG	0x40	/* 32 */
#define VTD_FEUADDR_REG	0x44	/* 32 */
#define VTD_PMEN_REG	0x64	/* 32 */
#define VTD_IQH_REG	0x80	/* 64 */
#define VTD_IQT_REG	0x88	/* 64 */
#define VTD_IQA_REG	0x90	/* 64 */
#define VTD_ICS_REG	0x9c	/* 32 */
#define VTD_REG_PAGE	0x1000	/* everything above fits in one page */

/* VER_REG: register-based invalidation is gone from major version 6
 * (spec 6.5): such a unit must use the invalidation queue. */
#define VTD_VER_MAJOR(v)	(((v) >> 4) & 0xf)
#define VTD_VER_MINOR(v)	((v) & 0xf)
#define VTD_VER_NO_REG_INVAL	6

/* CAP_REG */
#define VTD_CAP_ND(c)		((unsigned)(c) & 7)	/* 4 + 2n domain-id bits */
#define VTD_CAP_RWBF		(1ull << 4)	/* flush the write buffer */
#define VTD_CAP_PLMR		(1ull << 5)
#define VTD_CAP_PHMR		(1ull << 6)
#define VTD_CAP_CM		(1ull << 7)	/* not-present entries cached */
#define VTD_CAP_SAGAW(c)	((unsigned)((c) >> 8) & 0x1f)
#define VTD_SAGAW_39		(1u << 1)	/* 3-level tables */
#define VTD_SAGAW_48		(1u << 2)	/* 4-level tables */
#define VTD_CAP_MGAW(c)		((unsigned)((c) >> 16) & 0x3f)	/* width - 1 */
#define VTD_CAP_FRO(c)		((unsigned)((c) >> 24) & 0x3ff)	/* x 16 */
#define VTD_CAP_NFR(c)		((unsigned)((c) >> 40) & 0xff)	/* count - 1 */
#define VTD_CAP_DWD		(1ull << 54)	/* write draining */
#define VTD_CAP_DRD		(1ull << 55)	/* read draining */

/* ECAP_REG */
#define VTD_ECAP_C		(1ull << 0)	/* page walks snoop the caches */
#define VTD_ECAP_QI		(1ull << 1)	/* invalidation queue */
#define VTD_ECAP_IRO(e)		((unsigned)((e) >> 8) & 0x3ff)	/* x 16 */

/* GCMD_REG commands and their GSTS_REG status bits (same positions). */
#define VTD_GCMD_TE		(1u << 31)	/* translation enable */
#define VTD_GCMD_SRTP		(1u << 30)	/* set root table pointer */
#define VTD_GCMD_SFL		(1u << 29)
#define VTD_GCMD_WBF		(1u << 27)	/* write buffer flush */
#define VTD_GCMD_QIE		(1u << 26)	/* queued invalidation */
#define VTD_GCMD_SIRTP		(1u << 24)
#define VTD_GSTS_TES		VTD_GCMD_TE
#define VTD_GSTS_RTPS		VTD_GCMD_SRTP
#define VTD_GSTS_WBFS		VTD_GCMD_WBF
#define VTD_GSTS_QIES		VTD_GCMD_QIE
/* Commands that act once when written as 1 (their status bits are not a
 * state to preserve when another command is written). */
#define VTD_GCMD_ONE_SHOT	(VTD_GCMD_SRTP | VTD_GCMD_SFL | \
				 VTD_GCMD_WBF | VTD_GCMD_SIRTP)

/* CCMD_REG: context-cache invalidation. */
#define VTD_CCMD_ICC		(1ull << 63)
#define VTD_CCMD_CIRG_GLOBAL	(1ull << 61)
#define VTD_CCMD_CIRG_DOMAIN	(2ull << 61)
#define VTD_CCMD_CAIG(v)	((unsigned)((v) >> 59) & 3)	/* 0: not done */

/* IOTLB_REG (ECAP.IRO + 8): IOTLB invalidation. */
#define VTD_IOTLB_IVT		(1ull << 63)
#define VTD_IOTLB_IIRG_GLOBAL	(1ull << 60)
#define VTD_IOTLB_IIRG_DOMAIN	(2ull << 60)
#define VTD_IOTLB_IAIG(v)	((unsigned)((v) >> 57) & 3)	/* 0: not done */
#define VTD_IOTLB_DR		(1ull << 49)
#define VTD_IOTLB_DW		(1ull << 48)
#define VTD_IOTLB_DID(d)	((uint64_t)(d) << 32)

/* FSTS_REG */
#define VTD_FSTS_PFO		(1u << 0)	/* primary fault overflow, RW1C */
#define VTD_FSTS_PPF		(1u << 1)	/* a fault record is valid */
#define VTD_FSTS_IQE		(1u << 4)	/* invalidation queue error, RW1C */
#define VTD_FSTS_ICE		(1u << 5)
#define VTD_FSTS_ITE		(1u << 6)
#define VTD_FSTS_FRI(v)		(((v) >> 8) & 0xff)
#define VTD_FSTS_W1C		(VTD_FSTS_PFO | VTD_FSTS_IQE | VTD_FSTS_ICE | \
				 VTD_FSTS_ITE)

/* FECTL_REG */
#define VTD_FECTL_IM		(1u << 31)	/* interrupt mask */

/* PMEN_REG: protected memory regions the firmware may have left on. */
#define VTD_PMEN_EPM		(1u << 31)
#define VTD_PMEN_PRS		(1u << 0)

/* Fault recording register i: 128 bits at CAP.FRO * 16 + 16 * i; the
 * F bit (write 1 to clear) is bit 31 of its last dword. */
#define VTD_FRCD_LO(fro, i)	((fro) + 16u * (i))
#define VTD_FRCD_HI(fro, i)	((fro) + 16u * (i) + 8)
#define VTD_FRCD_F_DWORD(fro, i) ((fro) + 16u * (i) + 12)
#define VTD_FRCD_F_BIT		(1u << 31)

/* IQA_REG: queue base, QS (size 2^QS pages) in bits 2:0, DW (256-bit
 * descriptors) bit 11: we use one page of 128-bit descriptors. */
#define VTD_IQ_DESC_BYTES	16
#define VTD_IQ_ENTRIES		(4096 / VTD_IQ_DESC_BYTES)
#define VTD_IQT_SHIFT		4	/* IQT/IQH hold index << 4 */

/* Invalidation descriptors (spec 6.5.2), low quadword. */
#define VTD_QI_CC		0x1ull		/* context-cache */
#define VTD_QI_IOTLB		0x2ull
#define VTD_QI_WAIT		0x5ull
#define VTD_QI_G_GLOBAL		(1ull << 4)
#define VTD_QI_G_DOMAIN		(2ull << 4)
#define VTD_QI_DID(d)		((uint64_t)(d) << 16)
#define VTD_QI_IOTLB_DW		(1ull << 6)
#define VTD_QI_IOTLB_DR		(1ull << 7)
#define VTD_QI_WAIT_SW		(1ull << 5)	/* write status data */
#define VTD_QI_WAIT_FN		(1ull << 6)	/* fence */
#define VTD_QI_WAIT_DATA(x)	((uint64_t)(x) << 32)

#endif
