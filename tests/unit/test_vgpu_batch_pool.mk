# The shadow batch pool (issue 26 part 2): per-VM budget, growth, waits,
# loops found by starts, requests larger than the budget failing alone,
# and gem_ringfill's request shape, on the mediator and the Gen9 model.
UNIT_TESTS += test_vgpu_batch_pool
test_vgpu_batch_pool_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/i915_shapes.c
