# Host replay of stock i915 6.1's request shapes on Gen9 (issue 15 item 3):
# the mediator and the model run the real driver's rings and batches.
UNIT_TESTS += test_i915_replay
test_i915_replay_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/i915_shapes.c tests/harness/i915_world.c
