/* A synthetic guest driver for the gScale study: it reaches its vGPU only
 * as i915 does for GM (PCI config space to place and enable BAR2, BAR0
 * GGTT entry writes, fence registers, CPU loads/stores through its
 * aperture), so every access runs the mediator's real trap paths. The GM
 * ranges come from vgpu_gm_ranges() - what i915 reads from PVINFO. */
#ifndef TOOLS_EVAL_GSCALE_EVGUEST_H
#define TOOLS_EVAL_GSCALE_EVGUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/vgpu/vgpu.h"
#include "tools/eval/gscale/evhv.h"

struct evguest {
	struct evhv *hv;
	struct vgpu *v;
	uint32_t vm;
	uint64_t low_base, low_size, high_base, high_size;
};

/* Places BAR2 at EVHV_AP_GPA and enables memory decoding. */
int evg_attach(struct evguest *g, struct evhv *hv, struct vgpu *v, uint32_t vm);
/* GGTT entry for GM address gm -> guest page gpa (present). */
int evg_bind(struct evguest *g, uint64_t gm, uint64_t gpa);
/* Raw 8-byte GGTT entry write (any value, any index: bad input too). */
int evg_ggtt_raw(struct evguest *g, uint32_t index, uint64_t pte);
/* Fence i over [gm, gm + pages * 4 KiB), Y-tiled pitch 512; pages 0 clears. */
int evg_fence(struct evguest *g, unsigned int i, uint64_t gm, uint32_t pages);
/* CPU access to BAR2 offset off (4 bytes): -1 when the EPT has no mapping
 * there (the access would trap to the hypervisor). */
int evg_ap_read(struct evguest *g, uint64_t off, uint32_t *val);
int evg_ap_write(struct evguest *g, uint64_t off, uint32_t val);
/* Guest RAM. */
void evg_ram_write32(struct evguest *g, uint64_t gpa, uint32_t val);
uint32_t evg_ram_read32(struct evguest *g, uint64_t gpa);

#endif
