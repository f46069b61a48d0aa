/* The vGPU's graphics memory (gpu/vgpu/gtt/): GM extents and ranges, the
 * guest's GGTT view and its entry writes, fences and aperture detiling.
 * Private to the mediator (and gScale's mediator part, which reshapes a
 * running vGPU's high GM: gpu/gscale/mediator/gscale_reshape.c). */
#ifndef GPU_VGPU_GTT_GTT_H
#define GPU_VGPU_GTT_GTT_H

#include "gpu/vgpu/vgpu_priv.h"

/* The area's part of the register table (vgpu_gtt_regs.c, mmio/mmio.h):
 * the fences and BAR0's GGTT window. */
extern const struct mmio_part gtt_regs_part;
/* v has workloads queued or on the GPU (they name its current GM;
 * vgpu_status.c). */
bool vgpu_work_pending(const struct vgpu *v);


/* ---- GM and GGTT (vgpu_gm.c, vgpu_ggtt.c, vgpu_fence.c) ----------------- */

/* The vGPU's high GM becomes ranges r[0..n) (sorted, checked by the
 * caller); high_base/high_size/high_total follow. */
void vgpu_gm_set_high(struct vgpu *v, const struct vgpu_gm_range *r,
		      uint32_t n);
/* GM address -> index in the vGPU's own arrays (low, then each high
 * range); -GPU_ERANGE outside its GM. And back. */
int vgpu_gm_local(const struct vgpu *v, uint64_t gm, uint32_t *idx);
uint64_t vgpu_gm_of_local(const struct vgpu *v, uint32_t idx);
uint64_t vgpu_gm_entries(const struct vgpu *v);
int gm_region_alloc(struct gm_region *r, uint64_t size, uint64_t *start);
void gm_region_free(struct gm_region *r, uint64_t start);
uint64_t gm_region_largest_free(const struct gm_region *r);
bool vgpu_gm_valid(const struct vgpu *v, uint64_t addr, uint64_t len);
/* Guest GGTT view: graphics address -> guest-physical address. */
int vgpu_gm_to_gpa(struct vgpu *v, uint64_t gm, uint64_t *gpa);
int vgpu_gm_rw(struct vgpu *v, uint64_t gm, void *buf, size_t len,
	       bool write);
int vgpu_ggtt_init(struct vgpu *v);
void vgpu_ggtt_fini(struct vgpu *v);
void vgpu_ggtt_reset(struct vgpu *v);
int vgpu_ggtt_read(struct vgpu *v, uint64_t off, uint64_t *val,
		   unsigned int size);
struct ggtt_arrays {
	struct parray guest, host;
	struct vgpu_gm_range hr[VGPU_MAX_RANGES];
	uint32_t nr_high;
	uint64_t present; /* entries with a host page, low and kept high */
	uint64_t high_present;	/* guest entries present in the new high GM */
};
/* The arrays for high GM made of ranges r[0..n) (ballooning): entries at
 * GM addresses old and new layout share keep their values. */
int vgpu_ggtt_prepare_high(struct vgpu *v, const struct vgpu_gm_range *r,
			   uint32_t n, struct ggtt_arrays *out);
void vgpu_ggtt_commit_high(struct vgpu *v, struct ggtt_arrays *a);
void vgpu_ggtt_abandon_high(struct vgpu *v, struct ggtt_arrays *a);
int vgpu_ggtt_write(struct vgpu *v, uint64_t off, uint64_t val,
		    unsigned int size);
int vgpu_fence_read(struct vgpu *v, uint32_t off, uint32_t *val);
int vgpu_fence_write(struct vgpu *v, uint32_t off, uint32_t val);
void vgpu_fence_load(struct vgpu *v);
void vgpu_fence_reset(struct vgpu *v);

void vgpu_fence_recheck_high(struct vgpu *v);

#endif
