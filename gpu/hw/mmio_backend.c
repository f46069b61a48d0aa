/* gpu_hw backend for the real device: volatile accesses to the mapped
 * BAR0 (registers in the first 2 MiB, GGTT PTEs at +8 MiB) and BAR2.
 * Deliberately nothing clever: every access is one load or store of the
 * width the hardware expects (64-bit PTE writes, as gen8_set_pte does). */
#include "gpu/hw/gpu_hw.h"

static uint32_t mmio_read32(void *ctx, uint32_t off)
{
	struct gpu_mmio_backend *be = ctx;

	return *(volatile uint32_t *)(be->bar0 + off);
}

static void mmio_write32(void *ctx, uint32_t off, uint32_t val)
{
	struct gpu_mmio_backend *be = ctx;

	*(volatile uint32_t *)(be->bar0 + off) = val;
}

static volatile uint64_t *pte_ptr(struct gpu_mmio_backend *be, uint32_t index)
{
	return (volatile uint64_t *)(be->bar0 + GEN9_GGTT_OFFSET +
				     (uint64_t)index * 8);
}

static uint64_t mmio_ggtt_read(void *ctx, uint32_t index)
{
	return *pte_ptr(ctx, index);
}

static void mmio_ggtt_write(void *ctx, uint32_t index, uint64_t pte)
{
	*pte_ptr(ctx, index) = pte;
}

/* A run of 64-bit stores into the GGTT (mapped write-combined on the
 * machine, so consecutive stores merge into full-line bursts), then one
 * read of the last PTE: an uncached read from the same BAR that cannot
 * pass the stores before it, so the run has reached the device when this
 * returns (i915's gen8_ggtt_insert_entries does the same readback before
 * its invalidate). The sfence orders WC stores before that read. */
static void mmio_ggtt_write_range(void *ctx, uint32_t first,
				  const uint64_t *ptes, uint32_t count)
{
	volatile uint64_t *dst = pte_ptr(ctx, first);

	for (uint32_t i = 0; i < count; i++)
		dst[i] = ptes[i];
	__asm__ volatile("sfence" ::: "memory");
	(void)dst[count - 1];
}

/* Byte-wise through the aperture: the window is mapped WC, which does not
 * care about access width, and this path is for debugging, not speed. */
static int mmio_aperture_rw(void *ctx, uint64_t off, void *buf, size_t len,
			    bool write)
{
	struct gpu_mmio_backend *be = ctx;
	volatile uint8_t *ap = be->aperture + off;
	uint8_t *p = buf;
	size_t i;

	if (!be->aperture)
		return -GPU_ENODEV;
	for (i = 0; i < len; i++) {
		if (write)
			ap[i] = p[i];
		else
			p[i] = ap[i];
	}
	return 0;
}

static void mmio_udelay(void *ctx, uint32_t us)
{
	struct gpu_mmio_backend *be = ctx;

	if (be->udelay)
		be->udelay(us);
	else
		(void)mmio_read32(ctx, GEN6_GDRST); /* a read as a crude pause */
}

static const struct gpu_hw_ops mmio_ops = {
	.read32 = mmio_read32,
	.write32 = mmio_write32,
	.ggtt_read = mmio_ggtt_read,
	.ggtt_write = mmio_ggtt_write,
	.ggtt_write_range = mmio_ggtt_write_range,
	.aperture_rw = mmio_aperture_rw,
	.poll = NULL,
	.udelay = mmio_udelay,
};

int gpu_hw_mmio_init(struct gpu_hw *hw, struct gpu_mmio_backend *be,
		     const struct gpu_hw_info *info, const struct gpu_dma *dma)
{
	if (!hw || !be || !be->bar0 || !info || !dma)
		return -GPU_EINVAL;
	if (info->ggtt_entries > GEN9_GGTT_MAX_SIZE / 8)
		return -GPU_EINVAL;
	hw->ops = &mmio_ops;
	hw->ctx = be;
	hw->dma = *dma;
	hw->info = *info;
	hw->info.name = "skl-mmio";
	hw->info.is_model = false;
	return 0;
}
