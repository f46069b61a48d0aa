# The physical-plane path (hv/gpu/screen_plane.c, gpu/hw/pgpu_plane.c,
# gpu/vgpu/display/vgpu_scanout.c) end to end over the mediator on the software
# model: the plane's registers for the owner, its flips, refusals and
# stop, and what the model's display engine then scans out: host unit test.
UNIT_TESTS += test_screen_plane
test_screen_plane_SRCS := hv/gpu/screen_plane.c $(wildcard gpu/vgpu/*.c gpu/vgpu/*/*.c gpu/gscale/mediator/*.c) $(wildcard gpu/display/*.c) $(wildcard gpu/ghyvi/*.c) $(wildcard gpu/policy/*.c) $(wildcard gpu/gballoon/*.c) $(wildcard gpu/dymgpu/*.c) $(wildcard gpu/gscale/*.c) $(wildcard gpu/hw/*.c) \
	$(wildcard gpu/model/*.c) tests/world/fake_hv_ops.c tests/world/fake_gpu_hw.c tests/world/model_world.c
