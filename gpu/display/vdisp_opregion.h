/* The vGPU's ACPI IGD OpRegion with its Video BIOS Table, as GVT-g gives
 * every vGPU one (docs/display.md, "The OpRegion and its VBT"): 8 KiB,
 * header "IntelGraphicsMem" version 2.0, only mailbox 4 (the VBT, at
 * +0x400) announced, lid "open"; the VBT ("$VBT", BDB version 186, child
 * device entries of 33 bytes) lists ONE child device, the virtual monitor:
 * DisplayPort on port D (DVO port DPD, AUX channel D, hot-plug
 * signalling), plus the general features and driver features ("no LVDS")
 * blocks. i915 then makes one DDI encoder, port D, and probes nothing
 * else (without a VBT it takes DP and HDMI on every port and bit-bangs
 * DDC on each).
 *
 * Freestanding: the builder fills a caller's buffer; no state. */
#ifndef GPU_DISPLAY_VDISP_OPREGION_H
#define GPU_DISPLAY_VDISP_OPREGION_H

#include <stddef.h>
#include <stdint.h>

#define VDISP_OPREGION_SIZE	0x2000u	/* 8 KiB: header + 4 mailboxes + VBT */
#define VDISP_OPREGION_SIG	"IntelGraphicsMem"
/* Header fields (i915's struct opregion_header). */
#define VDISP_OPR_SIZE_KB	0x10	/* u32: size in KiB */
#define VDISP_OPR_OVER		0x14	/* rsvd, revision, minor, major */
#define VDISP_OPR_MBOXES	0x58	/* u32: mailboxes present */
#define VDISP_OPR_MBOX_VBT	(1u << 3)	/* mailbox 4 */
#define VDISP_OPR_CLID		0x1ac	/* ACPI mailbox's lid state */
#define VDISP_OPR_VBT		0x400	/* mailbox 4: the VBT */

/* VBT header (struct vbt_header): 48 bytes. */
#define VDISP_VBT_SIG		"$VBT SKYLAKE"	/* i915 checks "$VBT" */
#define VDISP_VBT_SIG_LEN	20	/* space-padded */
#define VDISP_VBT_VERSION	0x14	/* u16 */
#define VDISP_VBT_HDR_SIZE	0x16	/* u16 */
#define VDISP_VBT_SIZE		0x18	/* u16: the whole VBT */
#define VDISP_VBT_CSUM		0x1a	/* u8: the VBT's bytes sum to 0 */
#define VDISP_VBT_BDB_OFF	0x1c	/* u32: BDB header from the VBT */
#define VDISP_VBT_HEADER_LEN	48u
/* BDB header (struct bdb_header): 22 bytes, then the blocks, each an id
 * byte and a u16 size, then the data. */
#define VDISP_BDB_SIG		"BIOS_DATA_BLOCK "
#define VDISP_BDB_VERSION	0x10	/* u16 */
#define VDISP_BDB_HDR_SIZE	0x12	/* u16 */
#define VDISP_BDB_SIZE		0x14	/* u16: header + blocks */
#define VDISP_BDB_HEADER_LEN	22u
#define VDISP_BDB_VERSION_GVT	186u	/* GVT-g's; child entries 33 bytes */

#define VDISP_BDB_GENERAL_FEATURES	1
#define VDISP_BDB_GENERAL_DEFINITIONS	2
#define VDISP_BDB_DRIVER_FEATURES	12

/* General definitions (block 2): 5 bytes, then the child devices. */
#define VDISP_DEFS_CHILD_SIZE	4	/* u8: bytes per child entry */
#define VDISP_DEFS_LEN		5u
#define VDISP_CHILD_LEN		33u	/* the legacy child device entry */
/* A child device entry (struct child_device_config, first 33 bytes). */
#define VDISP_CHILD_HANDLE	0	/* u16 */
#define VDISP_CHILD_TYPE	2	/* u16: DEVICE_TYPE_* bits */
#define VDISP_CHILD_DVO_PORT	16
#define VDISP_CHILD_DDC_PIN	19
#define VDISP_CHILD_SUPPORT	24	/* bit 0 HDMI, 1 DP, 2 TMDS */
#define VDISP_CHILD_AUX		25
#define VDISP_CHILD_CAPS	27	/* bit 5 integrated encoder */

#define VDISP_HANDLE_EFP4	0x10	/* the fourth external flat panel */
/* DEVICE_TYPE_DP: power management, hot-plug signalling, not HDMI,
 * content protection, high-speed link, DisplayPort, digital. */
#define VDISP_DEVICE_TYPE_DP	0x68c6u
#define VDISP_DEVICE_TYPE_DP_OUT	(1u << 2)
#define VDISP_DEVICE_TYPE_TMDS	(1u << 4)
#define VDISP_DEVICE_TYPE_HOTPLUG	(1u << 13)
#define VDISP_DVO_PORT_DPD	9
#define VDISP_DP_AUX_D		0x30
#define VDISP_CHILD_DP_SUPPORT	(1u << 1)
#define VDISP_CHILD_INTEGRATED	(1u << 5)

/* Fills buf (VDISP_OPREGION_SIZE bytes) with the OpRegion; returns the
 * VBT's size in bytes. */
size_t vdisp_opregion_build(uint8_t *buf);

#endif
