# gScale in the mediator: 64 vGPUs, slot overlap, ladder mapping, fence pool,
# bad input, over the Gen9 model with synthetic guests (tools/eval/gscale).
UNIT_TESTS += test_gscale_vgpu
test_gscale_vgpu_SRCS := $(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/world/evguest.c
