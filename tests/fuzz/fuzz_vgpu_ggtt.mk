FUZZ_TARGETS += fuzz_vgpu_ggtt
fuzz_vgpu_ggtt_SRCS := $(GPU_SIDE_SRCS) tests/world/fake_hv_ops.c \
	tests/world/fake_gpu_hw.c tests/world/page_track.c tests/harness/guest_i915.c
