/* BAR0 trap dispatch (the guest MMIO flow of docs/architecture.md, "2.–5.").
 *
 * The hypervisor decodes the faulting instruction and calls in with an
 * offset, a width and (for writes) a value. BAR0 is
 *   [0, 2 MiB)         registers: one handler per register range
 *                      (vgpu_mmio_table.c), dword granularity;
 *   [8 MiB, 16 MiB)    GGTT entries (the GTT area's window hook:
 *                      gtt/vgpu_gtt_regs.c, vgpu_ggtt.c);
 *   everything else    reserved: reads 0, writes dropped.
 * Registers are handled as dwords: an 8-byte access is two dword accesses
 * (low first, as the CPU's split would be), 1- and 2-byte accesses work on
 * the containing dword. Misaligned accesses are refused (counted).
 *
 * A register in no range still has a defined outcome: it reads back the
 * last value written (vreg), and each such register is counted and logged
 * once per vGPU. So is a write to a register of an EMULATED range without
 * a write handler: the value is stored and read back, nothing else happens
 * (no hardware behaviour is modelled), which a driver that waits for an
 * effect needs to be told about; the log names the register
 * (vgpu_reg_names.c) and its range. */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "mini/string.h"

/* True the first time off is noted for this vGPU. */
static bool first_note(struct vgpu *v, uint32_t off)
{
	uint32_t bit = off >> 2;

	if (v->unknown_logged[bit >> 3] & (1u << (bit & 7)))
		return false;
	v->unknown_logged[bit >> 3] |= (uint8_t)(1u << (bit & 7));
	return true;
}

static const char *name_of(uint32_t off)
{
	const char *n = vgpu_reg_name(off);

	return n ? n : "(unnamed)";
}

static void note_unknown(struct vgpu *v, uint32_t off, bool write)
{
	v->stats.mmio_unknown++;
	if (first_note(v, off))
		vgpu_dbg(v, "untracked register %s 0x%05x %s", name_of(off), off,
			 write ? "write" : "read");
}

static void note_store_only(struct vgpu *v, const struct mmio_range *r,
			    uint32_t off, uint32_t val)
{
	v->stats.mmio_store_only++;
	if (first_note(v, off))
		vgpu_dbg(v, "register %s 0x%05x (%s) written 0x%x: stored, not "
			 "modelled", name_of(off), off, r->name, val);
}

int mmio_default_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	const struct mmio_range *r = mmio_lookup(v->gvt, off);

	if (r && r->policy == MMIO_PT_RO)
		*val = gpu_hw_read32(v->gvt->hw, off);
	else
		*val = vreg(v, off);
	return 0;
}

int mmio_default_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	const struct mmio_range *r = mmio_lookup(v->gvt, off);
	int sw = gvt_mmio_is_switched(off);
	uint32_t old = vreg(v, off);

	if (r && (r->policy == MMIO_PT_RO || r->policy == MMIO_RO)) {
		v->stats.mmio_ro_dropped++;
		return 0;
	}
	if ((r && (r->flags & MMIO_F_MASKED)) || (sw & MMIO_SWITCHED_MASKED))
		vreg_set(v, off, gen9_masked_update(old, val));
	else if (r && (r->flags & MMIO_F_W1C))
		vreg_set(v, off, old & ~val);
	else
		vreg_set(v, off, val);
	/* State that is switched with the vGPU goes to the hardware at once
	 * while this vGPU owns it; otherwise at its next switch-in. */
	if (v->gvt->owner == v && sw)
		gpu_hw_write32(v->gvt->hw, off, val);
	return 0;
}

int vgpu_reg_read32(struct vgpu *v, uint32_t off, uint32_t *val)
{
	const struct mmio_range *r = mmio_lookup(v->gvt, off);

	if (!r) {
		note_unknown(v, off, false);
		*val = vreg(v, off);
		return 0;
	}
	return r->read ? r->read(v, off, val) : mmio_default_read(v, off, val);
}

int vgpu_reg_write32(struct vgpu *v, uint32_t off, uint32_t val)
{
	const struct mmio_range *r = mmio_lookup(v->gvt, off);

	if (!r) {
		note_unknown(v, off, true);
		vreg_set(v, off, val);
		return 0;
	}
	if (r->write)
		return r->write(v, off, val);
	if (r->policy == MMIO_EMULATED)
		note_store_only(v, r, off, val);
	return mmio_default_write(v, off, val);
}

void vgpu_mmio_store_only(struct vgpu *v, uint32_t off, uint32_t val)
{
	const struct mmio_range *r = mmio_lookup(v->gvt, off);

	if (r)
		note_store_only(v, r, off, val);
	vreg_set(v, off, val);
}

static bool access_ok(uint64_t off, unsigned int size)
{
	return (size == 1 || size == 2 || size == 4 || size == 8) &&
	       !(off & (size - 1));
}

static int reg_read(struct vgpu *v, uint32_t off, uint64_t *val,
		    unsigned int size)
{
	uint32_t lo, hi, shift;
	int ret;

	ret = vgpu_reg_read32(v, off & ~3u, &lo);
	if (ret)
		return ret;
	if (size == 8) {
		ret = vgpu_reg_read32(v, off + 4, &hi);
		*val = (uint64_t)hi << 32 | lo;
		return ret;
	}
	shift = (off & 3) * 8;
	*val = size == 4 ? lo : (lo >> shift) & ((1u << (size * 8)) - 1);
	return 0;
}

static int reg_write(struct vgpu *v, uint32_t off, uint64_t val,
		     unsigned int size)
{
	const struct mmio_range *r;
	uint32_t shift, mask, cur;
	int ret;

	if (size == 8) {
		ret = vgpu_reg_write32(v, off, (uint32_t)val);
		if (!ret)
			ret = vgpu_reg_write32(v, off + 4, (uint32_t)(val >> 32));
		return ret;
	}
	if (size == 4)
		return vgpu_reg_write32(v, off, (uint32_t)val);
	/* Sub-dword: merge into the dword, except for write-1-to-clear
	 * registers where the untouched bytes must write as 0. */
	shift = (off & 3) * 8;
	mask = ((1u << (size * 8)) - 1) << shift;
	r = mmio_lookup(v->gvt, off & ~3u);
	cur = r && (r->flags & MMIO_F_W1C) ? 0 : vreg(v, off & ~3u);
	return vgpu_reg_write32(v, off & ~3u,
				(cur & ~mask) | (((uint32_t)val << shift) & mask));
}

/* The GGTT window, when an area filled its hooks (gvt_regs_join). */
static bool in_ggtt(const struct vgpu *v, uint64_t off)
{
	return v->gvt->regs.window_read && off >= GEN9_GGTT_OFFSET &&
	       off - GEN9_GGTT_OFFSET < (uint64_t)v->gvt->ggtt_entries * 8;
}

int vgpu_mmio_read(struct vgpu *v, uint64_t off, uint64_t *val,
		   unsigned int size)
{
	int ret;

	v->stats.mmio_reads++;
	if (!access_ok(off, size)) {
		v->stats.mmio_bad_access++;
		*val = ~0ull;
		return -GPU_EINVAL;
	}
	if (off < GEN9_MMIO_SIZE)
		ret = reg_read(v, (uint32_t)off, val, size);
	else if (in_ggtt(v, off))
		ret = v->gvt->regs.window_read(v, off, val, size);
	else {
		*val = 0;
		ret = 0;
	}
	return ret;
}

int vgpu_mmio_write(struct vgpu *v, uint64_t off, uint64_t val,
		    unsigned int size)
{
	int ret = 0;

	v->stats.mmio_writes++;
	if (!access_ok(off, size)) {
		v->stats.mmio_bad_access++;
		return -GPU_EINVAL;
	}
	if (off < GEN9_MMIO_SIZE)
		ret = reg_write(v, (uint32_t)off, val, size);
	else if (in_ggtt(v, off))
		ret = v->gvt->regs.window_write(v, off, val, size);
	return ret;
}

/* The vreg file a vGPU starts from: zero, plus the snapshot of the ranges
 * flagged MMIO_F_SNAP (read once from the hardware at gvt_create). */
int gvt_snapshot_golden(struct gvt *gvt)
{
	size_t n, i;
	const struct mmio_range *t = mmio_table(gvt, &n);
	uint32_t off;
	int ret;

	ret = parray_init(gvt, &gvt->golden, GEN9_MMIO_SIZE);
	if (ret)
		return ret;
	for (i = 0; i < n; i++) {
		if (!(t[i].flags & MMIO_F_SNAP))
			continue;
		for (off = t[i].start; off <= t[i].end; off += 4)
			*(uint32_t *)parray_at(&gvt->golden, off) =
				gpu_hw_read32(gvt->hw, off);
	}
	return 0;
}

/* Restore registers below `below` from the snapshot (GVT restores
 * [0, 0x44200) on a full reset and keeps display/IRQ state above). */
void vgpu_vreg_reset_range(struct vgpu *v, uint32_t start, uint32_t end)
{
	uint32_t off = start;

	while (off < end) {
		uint32_t room = VGPU_PAGE - off % VGPU_PAGE;
		uint32_t len = end - off < room ? end - off : room;

		memcpy(parray_at(&v->vreg, off), parray_at(&v->gvt->golden, off),
		       len);
		off += len;
	}
}

void vgpu_vreg_reset(struct vgpu *v, uint32_t below)
{
	uint32_t off;

	for (off = 0; off < below; off += VGPU_PAGE) {
		uint32_t len = below - off < VGPU_PAGE ? below - off : VGPU_PAGE;

		memcpy(parray_at(&v->vreg, off), parray_at(&v->gvt->golden, off),
		       len);
	}
}
