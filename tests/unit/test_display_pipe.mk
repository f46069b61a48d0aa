# One display pipe's vblank clock, counters and latched surfaces
# (gpu/display/vdisp_pipe.c): host unit test.
UNIT_TESTS += test_display_pipe
test_display_pipe_SRCS := gpu/display/vdisp_pipe.c gpu/display/vdisp_mode.c
