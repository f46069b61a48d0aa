# The virtual monitor's DP AUX channel and DPCD (gpu/display/vdisp_aux.c,
# vdisp_dpcd.c), driven as i915 drives it: host unit test.
UNIT_TESTS += test_display_aux
test_display_aux_SRCS := gpu/display/vdisp_aux.c gpu/display/vdisp_dpcd.c \
	gpu/display/vdisp_edid.c gpu/display/vdisp_mode.c
