# The mediator resetting a stuck engine on the pGPU watchdog's word (the
# MMIO backend's hang detection), on the model under the real mediator.
UNIT_TESTS += test_vgpu_watchdog
test_vgpu_watchdog_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
