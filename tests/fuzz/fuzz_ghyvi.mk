FUZZ_TARGETS += fuzz_ghyvi
fuzz_ghyvi_SRCS := $(wildcard gpu/vgpu/*.c) $(wildcard gpu/policy/*.c) $(wildcard gpu/gscale/*.c) $(wildcard gpu/hw/*.c) tests/unit/fake_hv_ops.c \
	tests/unit/fake_gpu_hw.c tests/unit/guest_i915.c
