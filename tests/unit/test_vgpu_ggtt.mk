UNIT_TESTS += test_vgpu_ggtt
test_vgpu_ggtt_SRCS := $(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c
