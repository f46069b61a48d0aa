/* gScale attached to the mediator: the hook table it fills (gpu/vgpu/
 * vgpu_ext.h, the shared-GM entries; defined in mediator/vgpu_gscale.c)
 * and its own settings. Whoever creates the gvt lists &gscale_ext_ops in
 * gvt_params.ext and its settings at the same index of
 * gvt_params.ext_params (hv/gpu/gpu_host.c, a test's world); without
 * settings, or with `on` false, the listed system makes no state and GM
 * stays partitioned (the gVirt baseline alone). */
#ifndef GPU_GSCALE_GSCALE_EXT_H
#define GPU_GSCALE_GSCALE_EXT_H

#include <stdbool.h>
#include <stdint.h>

struct vgpu_ext_ops;

extern const struct vgpu_ext_ops gscale_ext_ops;

/* gScale's knobs: vGPUs share the guest GM instead of getting disjoint
 * slices; each keeps a private shadow of its GGTT entries, copied to the
 * hardware at vGPU switches; the CPU reaches low GM through the ladder
 * mapping (EPT straight to the backing pages). Read by its gvt_attach,
 * kept in its per-gvt state. */
struct gscale_settings {
	bool on;
	bool basic;      /* no slot sharing (the paper's baseline) */
	bool predictive; /* copy the next vGPU's entries ahead */
	uint32_t slot_mib; /* 0: 64 */
	uint32_t fence_pool_mib; /* 0: 32; taken from the guests' low GM */
	/* The GPU has no physical aperture guests could be pointed at (the
	 * plain software model): fences over low GM are not pooled, the
	 * guest keeps its ladder mapping (undetiled). Otherwise fenced low
	 * GM goes through the pool and the physical aperture
	 * (mediator/vgpu_fence_pool.c; docs/hardware.md "The aperture"). */
	bool no_aperture;
};

/* On, every other knob at its default. */
extern const struct gscale_settings gscale_on;

#endif
