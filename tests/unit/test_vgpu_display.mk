# The vGPU's virtual monitor (gpu/vgpu/display/vgpu_display.c) through BAR0, as i915
# detects and reads a DP monitor on port D: host unit test.
UNIT_TESTS += test_vgpu_display
test_vgpu_display_SRCS := $(wildcard gpu/vgpu/*.c gpu/vgpu/*/*.c gpu/gscale/mediator/*.c) $(wildcard gpu/display/*.c) $(wildcard gpu/ghyvi/*.c) $(wildcard gpu/policy/*.c) $(wildcard gpu/gballoon/*.c) $(wildcard gpu/dymgpu/*.c) $(wildcard gpu/gscale/*.c) $(wildcard gpu/hw/*.c) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c
