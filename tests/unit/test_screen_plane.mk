# The physical-plane path (hv/gpu/screen_plane.c, gpu/hw/pgpu_plane.c,
# gpu/vgpu/display/vgpu_scanout.c) end to end over the mediator on the software
# model: the plane's registers for the owner, its flips, refusals and
# stop, and what the model's display engine then scans out: host unit test.
UNIT_TESTS += test_screen_plane
test_screen_plane_SRCS := hv/gpu/screen_plane.c $(GPU_SIDE_SRCS) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c
