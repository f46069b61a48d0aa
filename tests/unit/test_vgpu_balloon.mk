# Ballooning a running vGPU's high GM under gScale, on the Gen9 model.
UNIT_TESTS += test_vgpu_balloon
test_vgpu_balloon_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
