# The virtual monitor's modes and EDID (gpu/display/vdisp_mode.c,
# vdisp_edid.c): host unit test.
UNIT_TESTS += test_display_edid
test_display_edid_SRCS := gpu/display/vdisp_mode.c gpu/display/vdisp_edid.c
