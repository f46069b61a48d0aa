/* The GTT area's part of the register table (mmio/mmio.h): the fence
 * registers (vgpu_fence.c) and BAR0's GGTT window, every guest GGTT entry
 * read and write (vgpu_ggtt.c). Joined with the other areas' parts at
 * gvt_create (vgpu_create.c). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"

static const struct mmio_range gtt_ranges[] = {
	{ FENCE_REG_GEN6_LO(0), FENCE_REG_GEN6_HI(GEN9_NUM_FENCES - 1) + 3,
	  MMIO_EMULATED, 0, vgpu_fence_read, vgpu_fence_write, "fences" },
};

const struct mmio_part gtt_regs_part = {
	.area = "gtt",
	.ranges = gtt_ranges,
	.n = sizeof(gtt_ranges) / sizeof(gtt_ranges[0]),
	.window_read = vgpu_ggtt_read,
	.window_write = vgpu_ggtt_write,
};
