UNIT_TESTS += test_vgpu_ppgtt
test_vgpu_ppgtt_SRCS := $(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/ppgtt_env.c
