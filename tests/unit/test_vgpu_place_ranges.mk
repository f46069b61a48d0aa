# Non-contiguous slots in the mediator: split, merge, move and balloon a running multi-range vGPU.
UNIT_TESTS += test_vgpu_place_ranges
test_vgpu_place_ranges_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
