# The mediator on the software Gen9 model, driven by the i915-like guest.
UNIT_TESTS += test_vgpu_e2e
test_vgpu_e2e_SRCS := $(wildcard gpu/vgpu/*.c) $(wildcard gpu/policy/*.c) $(wildcard gpu/gscale/*.c) $(wildcard gpu/hw/*.c) $(wildcard gpu/model/*.c) \
	tests/unit/fake_hv_ops.c tests/unit/fake_gpu_hw.c tests/unit/model_world.c \
	tests/unit/guest_i915.c
