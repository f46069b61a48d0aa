# Plane registers decoded and checked against a vGPU's GM, X/Y detile of
# a known pattern, pixel formats (gpu/display/vdisp_plane.c): host unit test.
UNIT_TESTS += test_display_plane
test_display_plane_SRCS := gpu/display/vdisp_plane.c
