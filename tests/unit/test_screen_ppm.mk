# The console's picture blocks (hv/shell/screen_ppm.c: run-length coded, base64): host unit test.
UNIT_TESTS += test_screen_ppm
test_screen_ppm_SRCS := hv/shell/screen_ppm.c
