FUZZ_TARGETS += fuzz_screen_plane
fuzz_screen_plane_SRCS := $(GPU_SIDE_SRCS) tests/world/fake_hv_ops.c \
	tests/world/fake_gpu_hw.c tests/world/page_track.c tests/harness/guest_i915.c
