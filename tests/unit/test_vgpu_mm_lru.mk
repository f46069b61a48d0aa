# Shadow PPGTTs at scale (issue 26 part 2): thousands of i915 contexts over
# the shadow page-table budget, eviction, rebuild, waiting, over-budget.
UNIT_TESTS += test_vgpu_mm_lru
test_vgpu_mm_lru_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/i915_shapes.c tests/harness/i915_world.c
