/* The PPGTT area's part of the register table (mmio/mmio.h): no ranges,
 * the hook PVINFO's g2v notifications reach it by (mmio/vgpu_pvinfo.c):
 * the guest announces a 4-level PPGTT root (PV_PDP0) before it uses it and
 * when it drops it (i915-guest §2.4). Joined at gvt_create
 * (vgpu_create.c). */
#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"

static int g2v_ppgtt(struct vgpu *v, uint32_t what, uint64_t pdp0)
{
	int ret;

	switch (what) {
	case VGT_G2V_PPGTT_L4_CREATE:
		ret = vgpu_mm_get(v, pdp0, true);
		return ret < 0 ? ret : 0;
	case VGT_G2V_PPGTT_L4_DESTROY:
		return vgpu_mm_destroy_g2v(v, pdp0);
	default:
		/* i915 on Skylake uses no 3-level PPGTT (i915-guest §2.4);
		 * its workloads are refused at submission. */
		return -GPU_ENOTSUP;
	}
}

const struct mmio_part ppgtt_regs_part = {
	.area = "ppgtt",
	.g2v_ppgtt = g2v_ppgtt,
};
