# Fitting the owner VM's picture into the box's screen: whole-factor
# magnification, nearest shrinking, letterbox and pillarbox
# (gpu/display/vdisp_fit.c): host unit test.
UNIT_TESTS += test_display_fit
test_display_fit_SRCS := gpu/display/vdisp_fit.c
