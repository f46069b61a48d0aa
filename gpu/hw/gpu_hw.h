/* gpu_hw: the one door between gpu/ and a physical Gen9 GPU.
 *
 * Everything above it (pGPU driver, mediator) reaches the device only
 * through these calls, so the same code drives either backend:
 *  - "skl-mmio"   (gpu/hw/mmio_backend.c): volatile accesses to the real
 *                  BAR0 (registers, GGTT at +8 MiB) and BAR2 (aperture);
 *  - "gen9-model" (gpu/model/): the software Gen9 GPU, which executes work
 *                  when poll() is called.
 *
 * Memory the GPU reads and writes by DMA (rings, batches, contexts, page
 * tables, the status page, render targets) is host-physical memory; it is
 * reached through struct gpu_dma, so host tests back it with a buffer and
 * the hypervisor with its identity map.
 *
 * Errors are negative GPU_E* values (Linux errno numbers, so a log line
 * saying -110 reads as ETIMEDOUT to anyone who knows Linux).
 *
 * This header is an API other code builds on: change it only by adding. */
#ifndef GPU_HW_GPU_HW_H
#define GPU_HW_GPU_HW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu/hw/gen9_regs.h"

#define GPU_EPERM 1
#define GPU_EIO 5
#define GPU_ENOMEM 12
#define GPU_EAGAIN 11
#define GPU_EFAULT 14
#define GPU_EBUSY 16
#define GPU_ENODEV 19
#define GPU_EINVAL 22
#define GPU_ERANGE 34
#define GPU_ENOSPC 28
#define GPU_ETIMEDOUT 110

/* Access to GPU-visible (host-physical) memory. */
struct gpu_dma {
	void *ctx;
	/* A CPU pointer through which [hpa, hpa + len) can be read and
	 * written, or NULL when any part of the range is not RAM the GPU may
	 * touch. len > 0. The range never needs to cross a 4 KiB page for
	 * callers in gpu/ unless they say so. */
	void *(*phys_ptr)(void *ctx, uint64_t hpa, size_t len);
};

static inline void *gpu_dma_ptr(const struct gpu_dma *dma, uint64_t hpa,
				size_t len)
{
	if (!dma || !dma->phys_ptr || len == 0)
		return NULL;
	return dma->phys_ptr(dma->ctx, hpa, len);
}

/* What the backend knows about the device; filled before first use (for the
 * real device from PCI config space: pgpu_decode_config()). */
struct gpu_hw_info {
	const char *name; /* "skl-mmio" or "gen9-model" */
	bool is_model;
	uint16_t vendor_id; /* 0x8086 */
	uint16_t device_id; /* e.g. 0x1912 */
	uint8_t revision;
	enum gen9_gt gt;
	uint32_t engine_mask; /* BIT(enum gen9_engine_id) */
	uint16_t ggc; /* GMCH control as read from config 0x50 */
	uint64_t gttmmadr; /* BAR0 physical base; 0 for the model */
	uint64_t ggtt_size; /* bytes of GGTT address space */
	uint32_t ggtt_entries; /* = ggtt_size / 4096 */
	uint64_t aperture_base; /* BAR2 (GMADR) physical base */
	uint64_t aperture_size; /* CPU window on GGTT [0, aperture_size) */
	uint64_t stolen_base; /* BDSM */
	uint64_t stolen_size;
	uint32_t num_fences; /* 32 */
};

struct gpu_hw_ops {
	/* 32-bit register access, off < GEN9_MMIO_SIZE, 4-byte aligned. */
	uint32_t (*read32)(void *ctx, uint32_t off);
	void (*write32)(void *ctx, uint32_t off, uint32_t val);
	/* One 64-bit GGTT PTE, index < info.ggtt_entries. */
	uint64_t (*ggtt_read)(void *ctx, uint32_t index);
	void (*ggtt_write)(void *ctx, uint32_t index, uint64_t pte);
	/* count PTEs from ptes[] into [first, first + count), already
	 * range-checked by the wrapper. One call per range so a backend can
	 * copy at memory speed (the model: one memcpy; hardware: a run of
	 * 64-bit write-combined stores and one posting read). Optional
	 * (NULL: the wrapper loops over ggtt_write). */
	void (*ggtt_write_range)(void *ctx, uint32_t first,
				 const uint64_t *ptes, uint32_t count);
	/* CPU access through the aperture (BAR2): off is a GGTT address below
	 * info.aperture_size; the backend translates through the GGTT as the
	 * hardware does. Optional (NULL: -GPU_ENODEV). Returns 0 or -GPU_E*;
	 * -GPU_EFAULT when a page is not present. */
	int (*aperture_rw)(void *ctx, uint64_t off, void *buf, size_t len,
			   bool write);
	/* Let the device make progress. The model runs submitted work (a
	 * bounded amount per call); real hardware needs nothing. Optional. */
	void (*poll)(void *ctx);
	/* Wait about us microseconds (real: the environment's delay; model:
	 * advances its clock and polls). Optional. */
	void (*udelay)(void *ctx, uint32_t us);
};

struct gpu_hw {
	const struct gpu_hw_ops *ops;
	void *ctx;
	struct gpu_dma dma;
	struct gpu_hw_info info;
};

/* ---- thin wrappers: use these, not ops directly ----------------------- */

static inline uint32_t gpu_hw_read32(struct gpu_hw *hw, uint32_t off)
{
	return hw->ops->read32(hw->ctx, off);
}

static inline void gpu_hw_write32(struct gpu_hw *hw, uint32_t off,
				  uint32_t val)
{
	hw->ops->write32(hw->ctx, off, val);
}

/* Read back to make sure earlier writes reached the device (i915
 * POSTING_READ). */
static inline void gpu_hw_posting_read(struct gpu_hw *hw, uint32_t off)
{
	(void)gpu_hw_read32(hw, off);
}

static inline void gpu_hw_rmw32(struct gpu_hw *hw, uint32_t off,
				uint32_t clear, uint32_t set)
{
	gpu_hw_write32(hw, off, (gpu_hw_read32(hw, off) & ~clear) | set);
}

static inline uint64_t gpu_hw_ggtt_read(struct gpu_hw *hw, uint32_t index)
{
	if (index >= hw->info.ggtt_entries)
		return 0;
	return hw->ops->ggtt_read(hw->ctx, index);
}

static inline int gpu_hw_ggtt_write(struct gpu_hw *hw, uint32_t index,
				    uint64_t pte)
{
	if (index >= hw->info.ggtt_entries)
		return -GPU_ERANGE;
	hw->ops->ggtt_write(hw->ctx, index, pte);
	return 0;
}

/* Writes ptes[0..count) to GGTT entries [first, first + count): the bulk
 * path of gScale's switch copy. Nothing is written unless the whole range
 * is inside the GGTT. The caller still flushes (gpu_hw_ggtt_flush). */
static inline int gpu_hw_ggtt_write_range(struct gpu_hw *hw, uint32_t first,
					  const uint64_t *ptes, uint32_t count)
{
	if (first > hw->info.ggtt_entries ||
	    count > hw->info.ggtt_entries - first)
		return -GPU_ERANGE;
	if (!count)
		return 0;
	if (hw->ops->ggtt_write_range) {
		hw->ops->ggtt_write_range(hw->ctx, first, ptes, count);
		return 0;
	}
	for (uint32_t i = 0; i < count; i++)
		hw->ops->ggtt_write(hw->ctx, first + i, ptes[i]);
	return 0;
}

/* After a batch of PTE writes: GFX_FLSH_CNTL invalidates the GGTT TLBs and,
 * being an uncached MMIO write, drains the WC buffer the PTEs went through
 * (gen9-facts §2, gen8_ggtt_invalidate). */
static inline void gpu_hw_ggtt_flush(struct gpu_hw *hw)
{
	gpu_hw_write32(hw, GFX_FLSH_CNTL_GEN6, GFX_FLSH_CNTL_EN);
	gpu_hw_posting_read(hw, GFX_FLSH_CNTL_GEN6);
}

static inline int gpu_hw_aperture_rw(struct gpu_hw *hw, uint64_t off,
				     void *buf, size_t len, bool write)
{
	if (!hw->ops->aperture_rw)
		return -GPU_ENODEV;
	if (off > hw->info.aperture_size || len > hw->info.aperture_size - off)
		return -GPU_ERANGE;
	return hw->ops->aperture_rw(hw->ctx, off, buf, len, write);
}

static inline void *gpu_hw_phys(struct gpu_hw *hw, uint64_t hpa, size_t len)
{
	return gpu_dma_ptr(&hw->dma, hpa, len);
}

static inline void gpu_hw_poll(struct gpu_hw *hw)
{
	if (hw->ops->poll)
		hw->ops->poll(hw->ctx);
}

static inline void gpu_hw_udelay(struct gpu_hw *hw, uint32_t us)
{
	if (hw->ops->udelay)
		hw->ops->udelay(hw->ctx, us);
	else
		gpu_hw_poll(hw);
}

/* Poll until (reg & mask) == value, giving the device ~1 us between reads,
 * for at most timeout_us. 0 or -GPU_ETIMEDOUT. */
static inline int gpu_hw_wait_for(struct gpu_hw *hw, uint32_t off,
				  uint32_t mask, uint32_t value,
				  uint32_t timeout_us)
{
	uint32_t waited = 0;

	for (;;) {
		if ((gpu_hw_read32(hw, off) & mask) == value)
			return 0;
		if (waited >= timeout_us)
			return -GPU_ETIMEDOUT;
		gpu_hw_udelay(hw, 1);
		waited++;
	}
}

/* ---- backend 1: the real device (gpu/hw/mmio_backend.c) --------------- */

struct gpu_mmio_backend {
	volatile uint8_t *bar0; /* mapped UC, 16 MiB */
	volatile uint8_t *aperture; /* mapped WC, info.aperture_size; or NULL */
	void (*udelay)(uint32_t us); /* environment's delay; NULL = spin */
};

/* Wire hw to the real device. info must already describe it (name is
 * forced to "skl-mmio"); dma is the environment's physical memory. */
int gpu_hw_mmio_init(struct gpu_hw *hw, struct gpu_mmio_backend *be,
		     const struct gpu_hw_info *info,
		     const struct gpu_dma *dma);

/* Backend 2, the model, is attached with gen9_model_attach()
 * (gpu/model/gen9_model.h). */

#endif
