# Shadow batches on the software Gen9 model: the GPU runs the checked
# copy of every batch (TOCTOU), non-privileged copies keep hardware
# semantics, i915 6.1's index-mode flushes (issue 13 items 1-3, issue 15).
UNIT_TESTS += test_vgpu_shadow_bb
test_vgpu_shadow_bb_SRCS := $(wildcard gpu/vgpu/*.c gpu/vgpu/*/*.c gpu/gscale/mediator/*.c) $(wildcard gpu/display/*.c) $(wildcard gpu/ghyvi/*.c) $(wildcard gpu/policy/*.c) $(wildcard gpu/gballoon/*.c) $(wildcard gpu/dymgpu/*.c) $(wildcard gpu/gscale/*.c) $(wildcard gpu/hw/*.c) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
