# The owner VM's picture composed into the box's framebuffer, owners,
# hotkeys, pacing, the hand-over to the physical plane (hv/gpu/screen_compose.c) against a framebuffer in
# memory and fake vGPUs: host unit test.
UNIT_TESTS += test_screen_compose
test_screen_compose_SRCS := hv/gpu/screen_compose.c gpu/display/vdisp_fit.c \
	gpu/display/vdisp_plane.c
