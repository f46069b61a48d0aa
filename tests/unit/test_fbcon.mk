# Framebuffer text console (hv/fbcon.c) and its font: host unit test.
UNIT_TESTS += test_fbcon
test_fbcon_SRCS := hv/fbcon.c hv/fbcon_font.c
