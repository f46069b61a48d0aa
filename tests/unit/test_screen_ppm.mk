# The console's PPM blocks (hv/shell/screen_ppm.c): host unit test.
UNIT_TESTS += test_screen_ppm
test_screen_ppm_SRCS := hv/shell/screen_ppm.c
