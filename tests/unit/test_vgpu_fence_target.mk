# Where a guest's fenced aperture pages go, per backend (issue 16 item 2):
# through the fence pool where there is a physical aperture, the ladder
# where there is none; fences that would detile past their end refused.
UNIT_TESTS += test_vgpu_fence_target
test_vgpu_fence_target_SRCS := $(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/world/evguest.c
