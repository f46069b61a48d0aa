# Bounded GPU time per vGPU: a looping guest against seqno victims, measured.
UNIT_TESTS += test_vgpu_stall
test_vgpu_stall_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
