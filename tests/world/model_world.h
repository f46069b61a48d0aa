/* The mediator on a GPU over the fake hypervisor: what every mediator test
 * (and tools/eval/gscale) builds before its guests. The GPU is the software
 * Gen9 model (4 GiB GGTT; hw is its gpu_hw) or, with fake_gpu, the fake
 * gpu_hw of tests/world/fake_gpu_hw.h (gpu), which completes contexts
 * without executing them. Trapped guest stores (fake_hv_guest_store on a
 * write-protected page) go to the VM's vGPU, as the hypervisor's EPT
 * handler sends them.
 *
 * No cmocka here (the gScale study links it too): calls return 0 or an
 * error, and what the fake hypervisor holds once the mediator is gone is
 * the caller's to check, between mw_stop and mw_fini. */
#ifndef TESTS_UNIT_MODEL_WORLD_H
#define TESTS_UNIT_MODEL_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "gpu/hw/gpu_hw.h"
#include "gpu/hw/pgpu.h"
#include "gpu/model/gen9_model.h"
#include "gpu/vgpu/vgpu.h"
#include "tests/world/fake_gpu_hw.h"
#include "tests/world/fake_hv_ops.h"

struct mw_config {
	uint32_t pool_mib, ram_mib; /* fake_hv_init: mediator pool, all RAM */
	uint32_t nr_vms;            /* VM ids 0 .. nr_vms - 1; 0: the default */
	bool fake_gpu;              /* the fake gpu_hw instead of the model */
	uint32_t aperture_mib;      /* 0: 256 */
	uint32_t ggtt_entries;      /* model: 0: 4 GiB of GGTT */
	uint64_t gmadr;             /* model: BAR2 base; 0: the model's */
	/* Model: bring this pGPU driver up on it and drive engines through
	 * it (gvt_params.pgpu). */
	struct pgpu *pgpu;
	const struct gvt_params *params; /* NULL: defaults */
	uint64_t (*clock)(void *arg);    /* fake_hv's clock, if any */
	void *clock_arg;
};

struct model_world {
	struct fake_hv hv;
	/* The model ... */
	struct gen9_model m;
	uint32_t *regs;
	uint64_t *ggtt;
	struct gpu_hw hw;
	/* ... or the fake GPU. */
	struct fake_gpu gpu;
	struct gvt *gvt;
};

/* Builds hypervisor, GPU and mediator. On failure, mw_fini undoes what
 * was built. */
int mw_init(struct model_world *w, const struct mw_config *c);
/* VM vm with ram bytes of RAM (none when 0) and its vGPU of type t. */
int mw_add_vgpu(struct model_world *w, const struct vgpu_type *t,
		uint32_t vm, uint64_t ram, struct vgpu **v);
/* Destroys the mediator (and its vGPUs); mw_fini does it if not done. */
void mw_stop(struct model_world *w);
void mw_fini(struct model_world *w);
/* For guest_i915's poll hook, arg the world: lets the model run. */
void mw_poll(void *arg);
/* What the GPU reaches at va through the 4-level PPGTT whose root table
 * is at hpa root (e.g. a shadow the mediator built): the hpa, 0 on a
 * fault. */
uint64_t mw_ppgtt_walk(struct model_world *w, uint64_t root, uint64_t va);

#endif
