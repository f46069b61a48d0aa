# The virtual monitor's DP AUX channel (gpu/display/): libFuzzer target,
# arbitrary register write sequences from a guest.
FUZZ_TARGETS += fuzz_display_aux
fuzz_display_aux_SRCS := gpu/display/vdisp_aux.c gpu/display/vdisp_dpcd.c \
	gpu/display/vdisp_edid.c gpu/display/vdisp_mode.c
