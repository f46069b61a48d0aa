UNIT_TESTS += test_vgpu_cmd_replay
test_vgpu_cmd_replay_SRCS := $(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
test_vgpu_cmd_replay_CFLAGS := -DREPLAY_DIR='"$(CURDIR)/tests/fixtures"'
