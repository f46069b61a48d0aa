# The hypervisor's ballooning as sets (vgpu_balloon_set) picks the slots the balloon study's "ours" picks.
UNIT_TESTS += test_vgpu_balloon_sets
test_vgpu_balloon_sets_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
