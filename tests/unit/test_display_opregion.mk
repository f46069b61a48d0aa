# The vGPU's OpRegion and VBT (gpu/display/vdisp_opregion.c), read back
# the way i915 6.1 reads them: host unit test.
UNIT_TESTS += test_display_opregion
test_display_opregion_SRCS := gpu/display/vdisp_opregion.c
