# No register value crosses contexts or vGPUs (issue 26 §1): every register
# a user batch can write, enumerated from the allow-lists, through the
# mediator and the Gen9 model on every engine.
UNIT_TESTS += test_ctx_regs
test_ctx_regs_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
