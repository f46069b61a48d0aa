/* gScale attached to the mediator: the hook table it fills (gpu/vgpu/
 * vgpu_ext.h, the shared-GM entries; defined in mediator/vgpu_gscale.c).
 * Whoever creates the gvt with gvt_params.gscale lists &gscale_ext_ops in
 * gvt_params.ext (hv/gpu/gpu_host.c, a test's world); with gscale off the
 * listed system makes no state and GM stays partitioned. */
#ifndef GPU_GSCALE_GSCALE_EXT_H
#define GPU_GSCALE_GSCALE_EXT_H

struct vgpu_ext_ops;

extern const struct vgpu_ext_ops gscale_ext_ops;

#endif
