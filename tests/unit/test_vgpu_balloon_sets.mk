# The hypervisor's ballooning as sets (vgpu_balloon_set) picks the slots the balloon study's "ours" picks.
UNIT_TESTS += test_vgpu_balloon_sets
test_vgpu_balloon_sets_SRCS := $(wildcard gpu/vgpu/*.c gpu/vgpu/*/*.c gpu/gscale/mediator/*.c) $(wildcard gpu/display/*.c) $(wildcard gpu/ghyvi/*.c) $(wildcard gpu/gscale/*.c) $(wildcard gpu/hw/*.c) $(wildcard gpu/model/*.c) \
	$(wildcard gpu/policy/*.c) $(wildcard gpu/gballoon/*.c) $(wildcard gpu/dymgpu/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
