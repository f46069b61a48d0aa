# IGT gem_wsim's timed batch (MI_MATH, CTX_TIMESTAMP, LRR, a conditional end
# and a loop) through the i915-like guest, the mediator and the model.
UNIT_TESTS += test_vgpu_wsim
test_vgpu_wsim_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/i915_shapes.c tests/harness/i915_world.c tests/harness/gem_wsim.c
