# gScale in the mediator: 64 vGPUs, slot overlap, ladder mapping, fence pool,
# bad input, over the Gen9 model with synthetic guests (tools/eval/gscale).
UNIT_TESTS += test_gscale_vgpu
test_gscale_vgpu_SRCS := $(wildcard gpu/vgpu/*.c) $(wildcard gpu/policy/*.c) $(wildcard gpu/gscale/*.c) \
	$(wildcard gpu/hw/*.c) $(wildcard gpu/model/*.c) \
	tests/unit/fake_hv_ops.c tests/unit/fake_gpu_hw.c tests/unit/model_world.c \
	tools/eval/gscale/evguest.c
