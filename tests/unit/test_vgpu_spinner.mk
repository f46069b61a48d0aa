# IGT's spinner (issue 28): MI_CONDITIONAL_BATCH_BUFFER_END and a batch
# that starts itself, run as a loop in the scanned copies on the model.
UNIT_TESTS += test_vgpu_spinner
test_vgpu_spinner_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/i915_shapes.c tests/harness/i915_world.c tests/harness/igt_spinner.c
