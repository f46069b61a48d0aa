# Shadow batches on the software Gen9 model: the GPU runs the checked
# copy of every batch (TOCTOU), non-privileged copies keep hardware
# semantics, i915 6.1's index-mode flushes (issue 13 items 1-3, issue 15).
UNIT_TESTS += test_vgpu_shadow_bb
test_vgpu_shadow_bb_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
