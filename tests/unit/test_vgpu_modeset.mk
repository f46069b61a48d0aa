# i915's modeset, vblanks and page flips on the vGPU's monitor
# (gpu/vgpu/display/vgpu_display.c, gpu/display/vdisp_pipe.c) through BAR0: host
# unit test.
UNIT_TESTS += test_vgpu_modeset
test_vgpu_modeset_SRCS := $(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c
