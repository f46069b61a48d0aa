FUZZ_TARGETS += fuzz_ghyvi
fuzz_ghyvi_SRCS := $(GPU_SIDE_SRCS) tests/world/fake_hv_ops.c \
	tests/world/fake_gpu_hw.c tests/world/page_track.c tests/harness/guest_i915.c
