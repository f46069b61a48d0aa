/* The fixture the PPGTT shadowing tests share (test_vgpu_ppgtt: strict
 * shadowing; test_ghyvi: gHyvi's relaxed policies): VM 1 with a small
 * vGPU over the fake GPU, probed by the i915-like guest driver, which
 * has built its PPGTT. */
#ifndef TESTS_HARNESS_PPGTT_ENV_H
#define TESTS_HARNESS_PPGTT_ENV_H

#include "gpu/vgpu/vgpu_priv.h"
#include "gpu/vgpu/mmio/mmio.h"
#include "gpu/vgpu/gtt/gtt.h"
#include "gpu/vgpu/ppgtt/ppgtt.h"
#include "gpu/vgpu/exec/exec.h"
#include "gpu/vgpu/cmd/cmd.h"
#include "gpu/vgpu/display/display.h"
#include "gpu/gscale/mediator/gscale_mediator.h"
#include "tests/harness/guest_i915.h"
#include "tests/world/model_world.h"

struct ppgtt_env {
	struct model_world mw;
	struct vgpu *v;
	struct guest_i915 g;
};

/* cmocka setup / teardown; teardown also checks that no page leaked and
 * no page is left write-protected. */
int ppgtt_env_setup(void **state);
int ppgtt_env_teardown(void **state);

/* The vGPU's shadow of the guest's PML4 (found or created). */
int ppgtt_env_mm(struct ppgtt_env *e);

#endif
