# DymGPU live in the mediator: monitor feed, moving a running vGPU, the policy period.
UNIT_TESTS += test_vgpu_place
test_vgpu_place_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
