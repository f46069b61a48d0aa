FUZZ_TARGETS += fuzz_vgpu_scan
fuzz_vgpu_scan_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c \
	tests/world/fake_gpu_hw.c tests/harness/guest_i915.c
fuzz_vgpu_scan_CFLAGS := -O2
