/* Registers that belong to whoever owns the GPU and are not in the
 * context image: saved from the hardware into the outgoing owner's vreg
 * and loaded from the incoming owner's vreg at each vGPU switch (GVT's
 * Gen9 list, gvt-facts §9, trimmed to what the model and i915 touch;
 * MOCS and L3CC are the bulk). The host (owner NULL) has its own save area.
 * While a vGPU owns the GPU, guest writes to these go through at once
 * (mmio_default_write).
 *
 * The rule the list keeps (tests/unit/test_ctx_regs.c checks it): every
 * register a guest command may write (vgpu_cmd_tables.c) is either in the
 * context image (gpu/hw/gen9_ctx_image.h) or switched here; and so is
 * every register a user batch reaches through FORCE_TO_NONPRIV that real
 * Gen9 keeps outside the image (CTX_PREEMPT, RING_NOPID - the register
 * the scanner writes instead of one it refuses). Registers in both are
 * harmless: the image is loaded after the switch and wins. The slots of
 * the other engines are not switched and so never reach the hardware
 * (their hardware slots stay the host's). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "mini/string.h"

struct switch_range {
	uint32_t start, end; /* inclusive, dword step */
	bool masked;
};

static const struct switch_range switched[] = {
	{ 0x020c0, 0x020c0, true }, /* RCS INSTPM */
	{ 0x020d4, 0x020d4, true }, /* CSFE chicken 1 */
	{ 0x02094, 0x02094, false }, /* RCS RING_NOPID */
	{ 0x020e0, 0x020e4, true }, /* FF slice chicken, FF slice CS chicken 2 */
	{ 0x020ec, 0x020ec, true }, /* CS debug mode 1 */
	{ 0x02248, 0x02248, false }, /* CTX_PREEMPT (GVT: not in the image) */
	{ 0x024d0, 0x024fc, false }, /* RCS FORCE_TO_NONPRIV x12 */
	{ 0x02580, 0x02580, true }, /* CS chicken 1 */
	{ 0x040e0, 0x040e4, false }, /* PPAT */
	{ 0x07000, 0x0701c, true }, /* cache mode, GT mode, slice chicken */
	{ 0x07300, 0x07304, true }, /* HDC chicken */
	{ 0x0b020, 0x0b09c, false }, /* L3CC */
	{ 0x0b118, 0x0b118, false }, /* L3SQCREG4 */
	{ 0x0c800, 0x0cffc, false }, /* MOCS, all engines */
	{ 0x0e100, 0x0e1fc, true }, /* half slice chicken */
	{ 0x0e4f0, 0x0e4f4, true }, /* row chicken */
	{ 0x220c0, 0x220c0, true }, /* BCS INSTPM */
	{ 0x22200, 0x22200, true }, /* BCS_SWCTRL */
};

#define NR_SWITCHED (sizeof(switched) / sizeof(switched[0]))

static size_t nr_regs(void)
{
	size_t i, n = 0;

	for (i = 0; i < NR_SWITCHED; i++)
		n += (switched[i].end - switched[i].start) / 4 + 1;
	return n;
}

/* 0: not switched, MMIO_SWITCHED, or MMIO_SWITCHED | MMIO_SWITCHED_MASKED */
int gvt_mmio_is_switched(uint32_t off)
{
	size_t i;

	for (i = 0; i < NR_SWITCHED; i++)
		if (off >= switched[i].start && off <= switched[i].end)
			return MMIO_SWITCHED |
			       (switched[i].masked ? MMIO_SWITCHED_MASKED : 0);
	return 0;
}

int gvt_mmio_switch_init(struct gvt *gvt)
{
	gvt->host_mmio_save_pages = (nr_regs() * 4 + VGPU_PAGE - 1) / VGPU_PAGE;
	gvt->host_mmio_save = gvt_pages(gvt, gvt->host_mmio_save_pages, NULL);
	return gvt->host_mmio_save ? 0 : -GPU_ENOMEM;
}

void gvt_mmio_switch_fini(struct gvt *gvt)
{
	gvt_free_pages(gvt, gvt->host_mmio_save, gvt->host_mmio_save_pages);
	gvt->host_mmio_save = NULL;
}

void gvt_mmio_switch(struct gvt *gvt, struct vgpu *prev, struct vgpu *next)
{
	struct gpu_hw *hw = gvt->hw;
	size_t i, k = 0;
	uint32_t off, cur, val;

	for (i = 0; i < NR_SWITCHED; i++) {
		const struct switch_range *r = &switched[i];

		for (off = r->start; off <= r->end; off += 4, k++) {
			cur = gpu_hw_read32(hw, off);
			if (r->masked)
				cur &= 0xffff;
			if (prev)
				vreg_set(prev, off, cur);
			else
				gvt->host_mmio_save[k] = cur;
			val = next ? vreg(next, off) : gvt->host_mmio_save[k];
			if (r->masked)
				val = _MASKED_FIELD(0xffff, val & 0xffff);
			gpu_hw_write32(hw, off, val);
		}
	}
}
