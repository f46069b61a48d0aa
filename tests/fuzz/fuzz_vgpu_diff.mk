# Differential: what the scanner accepts runs on the Gen9 model; every GPU
# memory access and every privileged register is checked (issue 13).
FUZZ_TARGETS += fuzz_vgpu_diff
fuzz_vgpu_diff_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c \
	tests/world/fake_gpu_hw.c tests/harness/guest_i915.c
# The same under gVirt partitioning, where vGPUs' GM ranges are adjacent.
FUZZ_TARGETS += fuzz_vgpu_diff_gvirt
fuzz_vgpu_diff_gvirt_SRCS := $(fuzz_vgpu_diff_SRCS)
$(BUILD)/host/fuzz/fuzz_vgpu_diff_gvirt: tests/fuzz/fuzz_vgpu_diff.c
fuzz_vgpu_diff_CFLAGS := -O2
fuzz_vgpu_diff_gvirt_CFLAGS := -O2
