# vGPU reset (hang, refused workload, fault window) and teardown on the
# model under the real mediator, with the hypervisor's fault policy.
UNIT_TESTS += test_vgpu_reset
test_vgpu_reset_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c
