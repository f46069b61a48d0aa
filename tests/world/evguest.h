/* A synthetic guest driver for the gScale study: it reaches its vGPU only
 * as i915 does for GM (PCI config space to place and enable BAR2, BAR0
 * GGTT entry writes, fence registers, CPU loads/stores through its
 * aperture), so every access runs the mediator's real trap paths. The GM
 * ranges come from vgpu_gm_ranges() - what i915 reads from PVINFO.
 *
 * The world under it is the unit tests' (tests/world/model_world.h: the
 * fake hypervisor, the Gen9 model, the mediator in gScale mode), with the
 * hypervisor recording the EPT in the guests' aperture window: the ladder
 * mapping can be checked and is the guest CPU's path to its aperture. */
#ifndef TOOLS_EVAL_GSCALE_EVGUEST_H
#define TOOLS_EVAL_GSCALE_EVGUEST_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/vgpu/vgpu.h"
#include "tests/world/model_world.h"

/* Where every guest places BAR2 (guest-physical), above its RAM. */
#define EVG_AP_GPA 0x80000000ull
#define EVG_MAX_VMS 72
#define EVG_RAM (1ull << 20) /* per VM */

struct evguest {
	struct model_world *w;
	struct vgpu *v;
	uint32_t vm;
	uint64_t low_base, low_size, high_base, high_size;
};

/* The study's world: mw_init(w, c) with the study's pool, RAM, VM count
 * and BAR2 base filled into c, the EPT recorded in the aperture window,
 * then GVTg_V5_8 vGPUs for VMs 1..n with EVG_RAM each and a guest
 * attached (v[i], g[i] for VM i + 1) while they fit. Returns how many,
 * -1 on error (mw_fini cleans up either way). */
int evg_world(struct model_world *w, struct mw_config c, int n,
	      struct vgpu **v, struct evguest *g);
/* Places BAR2 at EVG_AP_GPA and enables memory decoding. */
int evg_attach(struct evguest *g, struct model_world *w, struct vgpu *v,
	       uint32_t vm);
/* GGTT entry for GM address gm -> guest page gpa (present). */
int evg_bind(struct evguest *g, uint64_t gm, uint64_t gpa);
/* Raw 8-byte GGTT entry write (any value, any index: bad input too). */
int evg_ggtt_raw(struct evguest *g, uint32_t index, uint64_t pte);
/* Fence i over [gm, gm + pages * 4 KiB), Y-tiled pitch 512; pages 0 clears. */
int evg_fence(struct evguest *g, unsigned int i, uint64_t gm, uint32_t pages);
/* What the guest CPU's access to BAR2 offset off reaches: the hpa the EPT
 * maps there (page-aligned + offset), 0 when unmapped (would trap). */
uint64_t evg_ap_hpa(const struct evguest *g, uint64_t off);
/* CPU access to BAR2 offset off (4 bytes): -1 when the EPT has no mapping
 * there (the access would trap to the hypervisor). */
int evg_ap_read(struct evguest *g, uint64_t off, uint32_t *val);
int evg_ap_write(struct evguest *g, uint64_t off, uint32_t val);
/* Guest RAM. */
void evg_ram_write32(struct evguest *g, uint64_t gpa, uint32_t val);
uint32_t evg_ram_read32(struct evguest *g, uint64_t gpa);

#endif
