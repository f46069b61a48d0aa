# gHyvi relaxed shadowing end to end on the software Gen9 model.
UNIT_TESTS += test_ghyvi_e2e
test_ghyvi_e2e_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
