# Framebuffer text console (hv/console/fbcon.c) and its font: host unit test.
UNIT_TESTS += test_fbcon
test_fbcon_SRCS := hv/console/fbcon.c hv/console/fbcon_font.c
