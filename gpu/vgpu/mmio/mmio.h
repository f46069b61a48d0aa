/* The vGPU's register interfaces (gpu/vgpu/mmio/): BAR0's register policy
 * table and its handlers, register names, the vreg file's reset and golden
 * snapshot, PVINFO, PCI config space, the virtual interrupt tree, and the
 * registers switched at a vGPU switch. Private to the mediator. */
#ifndef GPU_VGPU_MMIO_MMIO_H
#define GPU_VGPU_MMIO_MMIO_H

#include "gpu/vgpu/vgpu_priv.h"

/* Register policy (vgpu_mmio_table.c). */
enum mmio_policy {
	MMIO_EMULATED = 0, /* vreg only (initial value from the snapshot) */
	MMIO_TRACKED, /* vreg; on the hardware while the vGPU owns it */
	MMIO_PT_RO, /* reads come from the hardware; writes dropped */
	MMIO_RO, /* vreg, writes dropped */
};

#define MMIO_F_SNAP 0x1u /* initial value read from the hardware */
#define MMIO_F_MASKED 0x2u /* upper 16 bits are a write-enable mask */
#define MMIO_F_W1C 0x4u /* write 1 to clear (IIR-like) */

typedef int (*mmio_read_fn)(struct vgpu *v, uint32_t off, uint32_t *val);
typedef int (*mmio_write_fn)(struct vgpu *v, uint32_t off, uint32_t val);

struct mmio_range {
	uint32_t start, end; /* [start, end], dword aligned */
	uint8_t policy;
	uint8_t flags;
	mmio_read_fn read; /* NULL: by policy */
	mmio_write_fn write;
	const char *name;
};

/* ---- the register table: where the areas meet (vgpu_mmio_table.c) -----
 * mmio/ owns the table and the dispatch only. Every other area hands in
 * its registers' handlers as a part: its ranges (sorted, non-overlapping)
 * and, for at most one part each, a hook below. gvt_create
 * (vgpu_create.c) joins mmio/'s own ranges and the areas' parts into
 * gvt->regs, sorted; a range that overlaps another refuses the join. So
 * this area includes no other area's header, and the areas call it only
 * through the functions of this header. */
struct mmio_part {
	const char *area; /* for the join's error log */
	const struct mmio_range *ranges;
	size_t n;
	/* BAR0's GGTT window [GEN9_GGTT_OFFSET, + 8 * ggtt_entries): gtt/ */
	mmio_window_read_fn window_read;
	mmio_window_write_fn window_write;
	/* PVINFO's PPGTT notifications (L3/L4 create and destroy of the root
	 * in PV_PDP0): ppgtt/; 0 or -GPU_E*. */
	mmio_g2v_fn g2v_ppgtt;
};
int gvt_regs_join(struct gvt *gvt, const struct mmio_part *const *parts,
		  size_t n);
void gvt_regs_fini(struct gvt *gvt);
const struct mmio_range *mmio_lookup(const struct gvt *gvt, uint32_t off);
const struct mmio_range *mmio_table(const struct gvt *gvt, size_t *n);
/* BAR0's map where mmio/'s ranges and the display area's meet (port D,
 * the pipes: display/vgpu_display_regs.c). */
#define DDI_BUF_CTL_D 0x64300
#define DP_TP_CTL_D 0x64340
#define DP_TP_STATUS_D 0x64344
#define PIPE_A_FIRST 0x70000
#define PIPE_C_LAST 0x72fff
#define PCH_PORT_HOTPLUG 0xc4030
/* Default behaviour of a range (vreg, policy, flags). */
int mmio_default_read(struct vgpu *v, uint32_t off, uint32_t *val);
int mmio_default_write(struct vgpu *v, uint32_t off, uint32_t val);
int vgpu_reg_read32(struct vgpu *v, uint32_t off, uint32_t *val);
/* vgpu_reg_names.c: a register's name for the log, NULL if not listed. */
const char *vgpu_reg_name(uint32_t off);
bool vgpu_reg_names_sorted(void);
int vgpu_reg_write32(struct vgpu *v, uint32_t off, uint32_t val);
void vgpu_vreg_reset(struct vgpu *v, uint32_t below);
/* The same for [start, end) only (one engine's register block). */
void vgpu_vreg_reset_range(struct vgpu *v, uint32_t start, uint32_t end);
int gvt_snapshot_golden(struct gvt *gvt);


/* ---- PVINFO (vgpu_pvinfo.c) --------------------------------------------- */

#define VGT_PVINFO_PAGE 0x78000u
#define VGT_PVINFO_SIZE 0x1000u
#define VGT_MAGIC 0x4776544776544776ull /* "vGTvGTvG" */
#define VGT_VERSION_MAJOR 1
#define VGT_VERSION_MINOR 0
#define VGT_CAPS_FULL_PPGTT (1u << 2)
#define VGT_CAPS_HWSP_EMULATION (1u << 3)
#define VGT_CAPS_HUGE_GTT (1u << 4)
#define PV_MAGIC 0x000
#define PV_VERSION 0x008 /* u16 major, u16 minor at 0x00a */
#define PV_VGT_ID 0x00c
#define PV_CAPS 0x010
#define PV_MAPPABLE_BASE 0x040
#define PV_MAPPABLE_SIZE 0x044
#define PV_NONMAPPABLE_BASE 0x048
#define PV_NONMAPPABLE_SIZE 0x04c
#define PV_FENCE_NUM 0x050
#define PV_DISPLAY_READY 0x804
#define PV_RSV5 0x808 /* 0x808..0x817: "insufficient resources" */
#define PV_G2V_NOTIFY 0x818
#define PV_CURSOR_X_HOT 0x830
#define PV_CURSOR_Y_HOT 0x834
#define PV_PDP0_LO 0x838 /* pdp[i].lo/hi at 0x838 + 8i */
#define PV_EXECLIST_DESC_LO 0x858
#define PV_EXECLIST_DESC_HI 0x85c
enum vgt_g2v_type {
	VGT_G2V_PPGTT_L3_CREATE = 2,
	VGT_G2V_PPGTT_L3_DESTROY = 3,
	VGT_G2V_PPGTT_L4_CREATE = 4,
	VGT_G2V_PPGTT_L4_DESTROY = 5,
	VGT_G2V_EXECLIST_CTX_CREATE = 6,
	VGT_G2V_EXECLIST_CTX_DESTROY = 7,
};
/* g9hv's own G2V code, not GVT's: "log my counters now", the low 16 bits
 * a mark of the guest's choosing (guest-shim/drm-client -m mark), so a
 * guest program can bracket what it measures. At most VGPU_G2V_MARKS_LOGGED
 * per vGPU are logged; the rest are only counted. */
#define VGT_G2V_G9HV_MARK 0x67390000u
#define VGT_G2V_G9HV_MARK_MASK 0xffff0000u
#define VGPU_G2V_MARKS_LOGGED 64
void vgpu_pvinfo_init(struct vgpu *v);
void vgpu_pvinfo_update_gm(struct vgpu *v);
int vgpu_pvinfo_read(struct vgpu *v, uint32_t off, uint32_t *val);
int vgpu_pvinfo_write(struct vgpu *v, uint32_t off, uint32_t val);

/* ---- config space (vgpu_cfg.c) ------------------------------------------ */

void vgpu_cfg_init(struct vgpu *v);
void vgpu_aperture_unmap(struct vgpu *v);

/* The MSI capability as the guest programmed it, read from the vGPU's
 * config bytes (data only): delivering an interrupt is not a guest config
 * access, so it counts no cfg_reads and calls nothing in vgpu_cfg.c. */
#define VGPU_MSI_CTRL_ENABLE 0x1u
static inline bool vgpu_msi_enabled(const struct vgpu *v)
{
	return v->cfg[GEN9_PCI_MSI_CTRL] & VGPU_MSI_CTRL_ENABLE;
}
static inline uint32_t vgpu_cfg_le(const struct vgpu *v, uint32_t off,
				   unsigned int bytes)
{
	uint32_t x = 0;

	while (bytes--)
		x = x << 8 | v->cfg[off + bytes];
	return x;
}
static inline void vgpu_msi_msg(const struct vgpu *v, uint32_t *addr,
				uint32_t *data)
{
	*addr = vgpu_cfg_le(v, GEN9_PCI_MSI_ADDR, 4);
	*data = vgpu_cfg_le(v, GEN9_PCI_MSI_DATA, 2);
}


/* ---- interrupts (vgpu_irq.c) -------------------------------------------- */

void vgpu_irq_init(struct vgpu *v);
/* An engine event (GT_* bits of its 16-bit field). */
void vgpu_raise_engine_irq(struct vgpu *v, int engine, uint32_t bits);
int vgpu_irq_read(struct vgpu *v, uint32_t off, uint32_t *val);
/* A display event: bits into the bank's IIR (base = its ISR) unless IMR
 * masks them, then the master and MSI as for any event. */
void vgpu_raise_display_irq(struct vgpu *v, uint32_t bank, uint32_t bits);
int vgpu_irq_write(struct vgpu *v, uint32_t off, uint32_t val);


/* A register a special handler only stores (vgpu_mmio.c): counted and
 * logged once by name as "stored, not modelled", as the table's
 * handler-less ranges are. */
void vgpu_mmio_store_only(struct vgpu *v, uint32_t off, uint32_t val);

void vgpu_irq_update(struct vgpu *v);


/* MMIO context switch (vgpu_mmio_switch.c). */
int gvt_mmio_switch_init(struct gvt *gvt);
void gvt_mmio_switch_fini(struct gvt *gvt);
void gvt_mmio_switch(struct gvt *gvt, struct vgpu *prev, struct vgpu *next);
#define MMIO_SWITCHED 1
#define MMIO_SWITCHED_MASKED 2
int gvt_mmio_is_switched(uint32_t off);

#endif
