# The mediator on the software Gen9 model, driven by the i915-like guest.
UNIT_TESTS += test_vgpu_e2e
test_vgpu_e2e_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
