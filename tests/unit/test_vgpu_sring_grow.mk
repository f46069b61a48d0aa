# Shadow rings that grow (issue 26): a guest ring segment larger than the
# 64 KiB shadow ring at rest runs from a ring of its size taken from the
# VM's shadow batch pool, on the mediator and the Gen9 model.
UNIT_TESTS += test_vgpu_sring_grow
test_vgpu_sring_grow_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/i915_shapes.c
