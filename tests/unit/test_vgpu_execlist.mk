UNIT_TESTS += test_vgpu_execlist
test_vgpu_execlist_SRCS := $(wildcard gpu/vgpu/*.c gpu/vgpu/*/*.c gpu/gscale/mediator/*.c) $(wildcard gpu/display/*.c) $(wildcard gpu/ghyvi/*.c) $(wildcard gpu/policy/*.c) $(wildcard gpu/gballoon/*.c) $(wildcard gpu/dymgpu/*.c) $(wildcard gpu/gscale/*.c) $(wildcard gpu/hw/*.c) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
