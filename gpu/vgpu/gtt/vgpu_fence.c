/* Fence registers: guest fence i (i < fence_num from PVINFO) is physical
 * fence fence_base + i, written to the hardware at once as GVT does
 * (i915-guest §4). A fence names a GGTT range; a valid fence over GM that
 * is not this vGPU's would change how another VM's aperture reads detile,
 * so such a value reaches the hardware with its valid bit cleared (counted).
 *
 * gScale mode: every vGPU's fences use the same physical fences (shared
 * like its GM), live only while the vGPU owns the GPU: a write goes to the
 * hardware then, and the vGPU switch loads the incoming vGPU's set
 * (vgpu_fence_load). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/gtt/gtt.h"

static uint64_t fence_vreg(struct vgpu *v, unsigned int i)
{
	return ((uint64_t)vreg(v, FENCE_REG_GEN6_HI(i)) << 32) |
	       vreg(v, FENCE_REG_GEN6_LO(i));
}

static bool fence_ok(const struct vgpu *v, uint64_t f)
{
	uint64_t start = f & GEN6_FENCE_START_MASK;
	uint64_t end = ((f & GEN6_FENCE_END_MASK) >> 32) + VGPU_PAGE;

	if (!(f & I965_FENCE_REG_VALID))
		return true;
	return end > start && vgpu_gm_valid(v, start, end - start);
}

/* Validate guest fence i once, when written: a fence over GM that is not
 * this vGPU's goes to the hardware with its valid bit cleared (counted); under
 * gScale a CPU-visible range moves into the fence memory pool. */
static void fence_update(struct vgpu *v, unsigned int i)
{
	uint64_t f = fence_vreg(v, i);

	if (!fence_ok(v, f)) {
		v->stats.fence_rejected++;
		f &= ~I965_FENCE_REG_VALID;
	}
	if (v->gvt->gm) /* gScale: the fence memory space pool */
		f = gvt_gm_ops(v->gvt)->fence_map(v, gvt_gm_state(v->gvt), i, f);
	v->fence_hw[i] = f;
}

static void fence_to_hw(struct vgpu *v, unsigned int i, bool count)
{
	struct gpu_hw *hw = v->gvt->hw;
	uint64_t f = v->fence_hw[i];
	unsigned int p = v->fence_base + i;

	/* Same order as i915 so a half-updated fence is never live. */
	gpu_hw_write32(hw, FENCE_REG_GEN6_LO(p), 0);
	gpu_hw_write32(hw, FENCE_REG_GEN6_HI(p), (uint32_t)(f >> 32));
	gpu_hw_write32(hw, FENCE_REG_GEN6_LO(p), (uint32_t)f);
	if (count)
		v->stats.fence_writes++;
}

int vgpu_fence_read(struct vgpu *v, uint32_t off, uint32_t *val)
{
	unsigned int i = (off - FENCE_REG_GEN6_LO(0)) / 8;

	*val = i < v->fence_num ? vreg(v, off) : 0;
	return 0;
}

int vgpu_fence_write(struct vgpu *v, uint32_t off, uint32_t val)
{
	unsigned int i = (off - FENCE_REG_GEN6_LO(0)) / 8;

	if (i >= v->fence_num) {
		v->stats.fence_rejected++;
		return 0;
	}
	vreg_set(v, off, val);
	fence_update(v, i);
	if (!v->gvt->gm || v->gvt->owner == v)
		fence_to_hw(v, i, true);
	else
		v->stats.fence_writes++; /* applied at its next switch in */
	return 0;
}

void vgpu_fence_load(struct vgpu *v)
{
	for (unsigned int i = 0; i < v->fence_num; i++)
		fence_to_hw(v, i, false);
}

void vgpu_fence_reset(struct vgpu *v)
{
	unsigned int i;

	for (i = 0; i < v->fence_num; i++) {
		vreg_set(v, FENCE_REG_GEN6_LO(i), 0);
		vreg_set(v, FENCE_REG_GEN6_HI(i), 0);
		fence_update(v, i);
		if (!v->gvt->gm || v->gvt->owner == v)
			fence_to_hw(v, i, false);
	}
}

/* v's high GM moved (gpu/gscale/mediator/gscale_reshape.c): a fence the guest set over high GM was
 * checked against the old range; check it again so one left over the
 * old range reaches the hardware invalid. Fences over low GM (which never
 * moves) keep their pool mapping. */
void vgpu_fence_recheck_high(struct vgpu *v)
{
	for (unsigned int i = 0; i < v->fence_num; i++) {
		uint64_t f = fence_vreg(v, i);

		if (!(f & I965_FENCE_REG_VALID) ||
		    (f & GEN6_FENCE_START_MASK) < v->gvt->aperture_size)
			continue;
		fence_update(v, i);
		if (!v->gvt->gm || v->gvt->owner == v)
			fence_to_hw(v, i, false);
	}
}
