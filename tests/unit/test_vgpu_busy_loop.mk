# gem_busy's busy batch (a loop with no conditional end, ended by the CPU
# rewriting its first command): watched pages, mirrored end, the cap.
UNIT_TESTS += test_vgpu_busy_loop
test_vgpu_busy_loop_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/i915_shapes.c tests/harness/i915_world.c
