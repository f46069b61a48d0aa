# Plane registers from a guest (gpu/display/vdisp_plane.c): libFuzzer
# target, every byte an accepted plane scans lies inside the GM it names.
FUZZ_TARGETS += fuzz_display_plane
fuzz_display_plane_SRCS := gpu/display/vdisp_plane.c
