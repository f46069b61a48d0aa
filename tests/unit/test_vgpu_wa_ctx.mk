# Host replay of the render context's workaround batches (issue 28):
# i915 6.1's indirect context batch and a per-context batch scanned, shadowed and run.
UNIT_TESTS += test_vgpu_wa_ctx
test_vgpu_wa_ctx_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/i915_shapes.c tests/harness/i915_world.c
