# The guest DRM client's batches, decoded with the shared command table and
# run through the mediator and the model on every engine (issue 15 item 2).
UNIT_TESTS += test_drm_client_batches
test_drm_client_batches_SRCS := $(GPU_SIDE_SRCS) $(wildcard gpu/model/*.c) \
	tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c \
	tests/harness/guest_i915.c tests/harness/i915_shapes.c tests/harness/i915_world.c guest-shim/drm-client/batches.c
