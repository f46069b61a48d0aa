UNIT_TESTS += test_vgpu_i915_replay
test_vgpu_i915_replay_SRCS := $(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c
test_vgpu_i915_replay_CFLAGS := -DREPLAY_FIXTURE='"$(CURDIR)/tests/fixtures/i915-probe.trace"'
