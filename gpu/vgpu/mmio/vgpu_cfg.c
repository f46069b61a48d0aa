/* PCI configuration space of the virtual 00:02.0 (i915-guest §6,
 * gen9-facts §1.2).
 *
 * Built from what gpu_hw knows about the physical device: same vendor,
 * device and revision ids (i915 keys everything on the device id), VGA
 * class (GVT makes every vGPU "primary"), GGC with the GTT size kept and
 * stolen memory (GMS) zeroed, BAR0 16 MiB, BAR2 = the aperture, BAR4 64
 * bytes of I/O, no ROM, and a capability chain vendor(0x40) -> MSI(0xac) ->
 * PM(0xd0). Only a few fields are writable; BARs answer the sizing
 * protocol (write all ones, read back the size mask). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "mini/string.h"

#define CFG_CAP_VNDR 0x40
#define MSI_CTRL_ENABLE 0x1u
#define PCI_CMD_IO 0x1u
#define PCI_CMD_WRITABLE 0x0407u /* io, mem, master, intx disable */
#define PM_CSR (GEN9_PCI_PM_CAP + 4)

static void put8(struct vgpu *v, uint32_t off, uint8_t x)
{
	v->cfg[off] = x;
}

static void put16(struct vgpu *v, uint32_t off, uint16_t x)
{
	v->cfg[off] = (uint8_t)x;
	v->cfg[off + 1] = (uint8_t)(x >> 8);
}

static void put32(struct vgpu *v, uint32_t off, uint32_t x)
{
	put16(v, off, (uint16_t)x);
	put16(v, off + 2, (uint16_t)(x >> 16));
}

static uint32_t get32(const struct vgpu *v, uint32_t off)
{
	return v->cfg[off] | (uint32_t)v->cfg[off + 1] << 8 |
	       (uint32_t)v->cfg[off + 2] << 16 | (uint32_t)v->cfg[off + 3] << 24;
}

static uint8_t msac_for(uint64_t aperture)
{
	uint8_t apsz = 0;

	/* Inverse of gen9_msac_aperture_size(): 128 MiB -> 0, 256 -> 1, ... */
	while (aperture > (128ull << 20)) {
		apsz = (uint8_t)((apsz << 1) | 1);
		aperture >>= 1;
	}
	return apsz;
}

void vgpu_cfg_init(struct vgpu *v)
{
	const struct gpu_hw_info *info = &v->gvt->hw->info;
	uint16_t ggc = info->ggc;

	memset(v->cfg, 0, sizeof(v->cfg));
	put16(v, GEN9_PCI_VENDOR, PCI_VENDOR_ID_INTEL);
	put16(v, GEN9_PCI_DEVICE, info->device_id);
	put16(v, GEN9_PCI_COMMAND, 0); /* io, mem, master off (i915-guest §6) */
	put16(v, 0x06, 0x0010); /* status: capability list */
	put8(v, GEN9_PCI_REVISION, info->revision);
	put8(v, GEN9_PCI_CLASS, 0x00);
	put8(v, GEN9_PCI_CLASS + 1, 0x00);
	put8(v, GEN9_PCI_CLASS + 2, 0x03);
	put8(v, GEN9_PCI_HEADER_TYPE, 0x00);
	put32(v, GEN9_PCI_BAR0, 0x4); /* 64-bit, non-prefetchable */
	put32(v, GEN9_PCI_BAR2, 0xc); /* 64-bit, prefetchable */
	put32(v, GEN9_PCI_BAR4, 0x1); /* I/O */
	put16(v, GEN9_PCI_SUBSYS_VENDOR, PCI_VENDOR_ID_INTEL);
	put16(v, GEN9_PCI_SUBSYS_ID, info->device_id);
	put8(v, GEN9_PCI_CAP_PTR, CFG_CAP_VNDR);
	/* Interrupt pin 0: the vGPU has no INTx line (only MSI is injected), so
	 * the guest looks for no routing of one (Linux: "PCI INT A: no GSI"). */
	put8(v, 0x3d, 0x00);
	/* Vendor-specific capability (CAPID0 on hardware), 12 bytes. */
	put8(v, CFG_CAP_VNDR, 0x09);
	put8(v, CFG_CAP_VNDR + 1, GEN9_PCI_MSI_CAP);
	put8(v, CFG_CAP_VNDR + 2, 0x0c);
	/* GGC: keep the GTT size, no stolen memory (i915-guest §6.2). */
	ggc &= (uint16_t)~(BDW_GMCH_GMS_MASK << BDW_GMCH_GMS_SHIFT);
	put16(v, GEN9_PCI_GGC, ggc);
	put32(v, GEN9_PCI_BDSM, 0);
	put8(v, GEN9_PCI_MSAC, msac_for(v->gvt->aperture_size));
	/* MSI: one vector, 32-bit address (gen9-facts §1.2). */
	put8(v, GEN9_PCI_MSI_CAP, 0x05);
	put8(v, GEN9_PCI_MSI_CAP + 1, GEN9_PCI_PM_CAP);
	put16(v, GEN9_PCI_MSI_CTRL, 0);
	/* PM, version 2, D0. */
	put8(v, GEN9_PCI_PM_CAP, 0x01);
	put8(v, GEN9_PCI_PM_CAP + 1, 0x00);
	put16(v, GEN9_PCI_PM_CAP + 2, 0x0002);
	put32(v, GEN9_PCI_ASLS, v->opregion_gpa); /* vgpu_opregion.c */
	v->bar_size[0] = GEN9_BAR0_SIZE;
	v->bar_size[1] = v->gvt->aperture_size;
	v->bar_size[2] = 64;
	memset(v->bar_sizing, 0, sizeof(v->bar_sizing));
}

bool vgpu_msi_enabled(const struct vgpu *v)
{
	return v->cfg[GEN9_PCI_MSI_CTRL] & MSI_CTRL_ENABLE;
}

void vgpu_msi_message(const struct vgpu *v, uint32_t *addr, uint32_t *data)
{
	uint32_t at = GEN9_PCI_MSI_DATA;

	*addr = get32(v, GEN9_PCI_MSI_ADDR);
	*data = (get32(v, at & ~3u) >> ((at & 3) * 8)) & 0xffffu;
}

/* BAR dword i (0..5) read: sizing pattern while the guest is sizing. */
static uint32_t bar_dword(const struct vgpu *v, unsigned int i)
{
	unsigned int bar = i / 2;
	uint64_t mask;

	if (!v->bar_sizing[i])
		return get32(v, GEN9_PCI_BAR0 + 4 * i);
	if (bar == 2)
		return (uint32_t)~(v->bar_size[2] - 1) | 0x1;
	mask = ~(v->bar_size[bar] - 1);
	if (i & 1)
		return (uint32_t)(mask >> 32);
	return ((uint32_t)mask & ~0xfu) | (get32(v, GEN9_PCI_BAR0 + 4 * i) & 0xf);
}

static uint64_t bar_base(const struct vgpu *v, unsigned int bar)
{
	uint64_t lo = get32(v, GEN9_PCI_BAR0 + 8 * bar);

	if (bar == 2)
		return lo & ~0x3ull;
	return (lo & ~0xfull) | (uint64_t)get32(v, GEN9_PCI_BAR0 + 8 * bar + 4) << 32;
}

/* The aperture: guest BAR2 offset X is host aperture offset X, for X in
 * the vGPU's low slice only (i915-guest §3, "Aperture access path"); the rest
 * of the guest's BAR2 stays unmapped and traps.
 *
 * A guest may move BAR2 as often as it likes (a REP OUTSD of 256 BAR
 * writes is one instruction): with a hypervisor that maps on demand
 * (hv_ops ept_unmap_range), a move is one range unmap and nothing else,
 * and each page is mapped when the guest first touches it
 * (vgpu_aperture_fault). Without it, every page at every move. */
static bool on_demand(const struct vgpu *v)
{
	return v->gvt->hv.ops->ept_unmap_range != NULL;
}

static void aperture_unmap(struct vgpu *v)
{
	const struct hv_if *hv = &v->gvt->hv;
	uint64_t x;

	if (!v->ap_mapped)
		return;
	v->ap_mapped = false;
	if (on_demand(v)) {
		hv->ops->ept_unmap_range(hv->ctx, v->vm,
					 v->ap_base + v->low_base, v->low_size);
		return;
	}
	for (x = 0; x < v->low_size; x += VGPU_PAGE)
		hv->ops->ept_unmap(hv->ctx, v->vm, v->ap_base + v->low_base + x);
}

static void map_one(struct vgpu *v, uint64_t x)
{
	const struct hv_if *hv = &v->gvt->hv;
	uint64_t host = v->gvt->hw->info.aperture_base;

	hv->ops->ept_map(hv->ctx, v->vm, v->ap_base + v->low_base + x,
			 host + v->low_base + x,
			 HV_MAP_READ | HV_MAP_WRITE | HV_MAP_WC);
}

static void aperture_map(struct vgpu *v, uint64_t base)
{
	uint64_t x;

	v->ap_base = base;
	v->ap_mapped = true;
	if (on_demand(v))
		return;
	if (v->gvt->gm) { /* gScale: the ladder (vgpu_ext.h) */
		gvt_gm_ops(v->gvt)->aperture_map(v, gvt_gm_state(v->gvt));
		return;
	}
	for (x = 0; x < v->low_size; x += VGPU_PAGE)
		map_one(v, x);
}

int vgpu_aperture_fault(struct vgpu *v, uint64_t off)
{
	uint64_t x = (off & ~(uint64_t)(VGPU_PAGE - 1)) - v->low_base;

	if (!v->ap_mapped || off < v->low_base || x >= v->low_size)
		return -GPU_EINVAL;
	v->stats.ap_faults++;
	if (v->gvt->gm)
		gvt_gm_ops(v->gvt)->aperture_page(v, gvt_gm_state(v->gvt),
				(uint32_t)((v->low_base + x) >> 12));
	else
		map_one(v, x);
	return 0;
}

void vgpu_aperture_unmap(struct vgpu *v)
{
	aperture_unmap(v);
}

/* Old aperture mappings go first, then the hypervisor learns the new BAR
 * places (it only lets the aperture be mapped inside the decoded BAR2),
 * then the aperture is mapped at its new place. */
static void bars_changed(struct vgpu *v)
{
	const struct hv_if *hv = &v->gvt->hv;
	uint16_t cmd = v->cfg[GEN9_PCI_COMMAND] | v->cfg[GEN9_PCI_COMMAND + 1] << 8;
	uint64_t ap = bar_base(v, 1);
	unsigned int bar;

	if (!(cmd & GEN9_PCI_CMD_MEM) || !ap || ap != v->ap_base)
		aperture_unmap(v);
	if (hv->ops->bar_moved)
		for (bar = 0; bar < 3; bar++)
			hv->ops->bar_moved(hv->ctx, v->vm, (int)bar * 2,
					   bar_base(v, bar), v->bar_size[bar],
					   bar == 2 ? cmd & PCI_CMD_IO
						    : cmd & GEN9_PCI_CMD_MEM);
	if ((cmd & GEN9_PCI_CMD_MEM) && ap && !v->ap_mapped &&
	    v->gvt->hw->info.aperture_base)
		aperture_map(v, ap);
}

static void bar_write(struct vgpu *v, unsigned int i, uint32_t val)
{
	unsigned int bar = i / 2;
	uint32_t keep = get32(v, GEN9_PCI_BAR0 + 4 * i);

	if (bar == 2 && (i & 1)) /* BAR4 is 32-bit I/O: dword 5 is BAR5 = 0 */
		return;
	v->bar_sizing[i] = val == 0xffffffffu;
	if (v->bar_sizing[i])
		return;
	if (i & 1) {
		put32(v, GEN9_PCI_BAR0 + 4 * i, val);
	} else {
		uint64_t align = v->bar_size[bar];

		val &= (uint32_t)~(align - 1);
		put32(v, GEN9_PCI_BAR0 + 4 * i, val | (keep & (bar == 2 ? 0x3 : 0xf)));
	}
	bars_changed(v);
}

int vgpu_cfg_read(struct vgpu *v, uint32_t off, uint32_t *val,
		  unsigned int size)
{
	uint32_t dw, shift;

	v->stats.cfg_reads++;
	if ((size != 1 && size != 2 && size != 4) || off >= VGPU_CFG_SIZE ||
	    (off & (size - 1))) {
		*val = ~0u;
		return -GPU_EINVAL;
	}
	if (off >= GEN9_PCI_BAR0 && off < GEN9_PCI_BAR0 + 24)
		dw = bar_dword(v, (off - GEN9_PCI_BAR0) / 4);
	else
		dw = get32(v, off & ~3u);
	shift = (off & 3) * 8;
	*val = size == 4 ? dw : (dw >> shift) & ((1u << (size * 8)) - 1);
	return 0;
}

/* Byte-wise write of the fields the guest may change. */
static void cfg_write_byte(struct vgpu *v, uint32_t off, uint8_t b)
{
	switch (off) {
	case GEN9_PCI_COMMAND:
		v->cfg[off] = b & (uint8_t)PCI_CMD_WRITABLE;
		break;
	case GEN9_PCI_COMMAND + 1:
		v->cfg[off] = b & (uint8_t)(PCI_CMD_WRITABLE >> 8);
		break;
	case 0x3c: /* interrupt line: scratch */
	case GEN9_PCI_MSI_ADDR:
	case GEN9_PCI_MSI_ADDR + 1:
	case GEN9_PCI_MSI_ADDR + 2:
	case GEN9_PCI_MSI_ADDR + 3:
	case GEN9_PCI_MSI_DATA:
	case GEN9_PCI_MSI_DATA + 1:
	case GEN9_PCI_SWSCI:
	case GEN9_PCI_SWSCI + 1:
		v->cfg[off] = b;
		break;
	case GEN9_PCI_MSI_CTRL:
		/* GVT refuses anything but the enable bit (gen9-facts §1.2). */
		v->cfg[off] = b & MSI_CTRL_ENABLE;
		break;
	case PM_CSR:
		v->cfg[off] = b & 0x3; /* power state */
		break;
	default:
		break; /* read-only */
	}
}

/* ASLS is where the hypervisor put the OpRegion (vgpu_opregion.c): the
 * guest may not move it, as under GVT-g, whose OpRegion the VMM places.
 * Ignored, counted, logged once. */
static void asls_write(struct vgpu *v, uint32_t val)
{
	v->stats.asls_writes++;
	if (v->asls_write_logged)
		return;
	v->asls_write_logged = true;
	vgpu_warn(v, "guest wrote ASLS (0xfc) 0x%x: ignored, the OpRegion "
		  "stays at 0x%x (logged once)", val, v->opregion_gpa);
}

int vgpu_cfg_write(struct vgpu *v, uint32_t off, uint32_t val,
		   unsigned int size)
{
	uint16_t old_cmd = v->cfg[GEN9_PCI_COMMAND];
	unsigned int i;

	v->stats.cfg_writes++;
	if ((size != 1 && size != 2 && size != 4) || off >= VGPU_CFG_SIZE ||
	    (off & (size - 1)))
		return -GPU_EINVAL;
	if (off >= GEN9_PCI_BAR0 && off < GEN9_PCI_BAR0 + 24) {
		if (size != 4)
			return -GPU_EINVAL;
		bar_write(v, (off - GEN9_PCI_BAR0) / 4, val);
		return 0;
	}
	if (off < GEN9_PCI_ASLS + 4 && off + size > GEN9_PCI_ASLS)
		asls_write(v, val);
	for (i = 0; i < size; i++)
		cfg_write_byte(v, off + i, (uint8_t)(val >> (8 * i)));
	if (off <= GEN9_PCI_COMMAND && off + size > GEN9_PCI_COMMAND &&
	    (old_cmd ^ v->cfg[GEN9_PCI_COMMAND]) & (GEN9_PCI_CMD_MEM | PCI_CMD_IO))
		bars_changed(v);
	if (off <= GEN9_PCI_MSI_CTRL && off + size > GEN9_PCI_MSI_CTRL)
		vgpu_irq_update(v); /* an interrupt may have been waiting */
	return 0;
}
