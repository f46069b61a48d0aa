# The vGPU's virtual monitor (gpu/vgpu/display/vgpu_display.c) through BAR0, as i915
# detects and reads a DP monitor on port D: host unit test.
UNIT_TESTS += test_vgpu_display
test_vgpu_display_SRCS := $(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c
