# PC keyboard scancodes to terminal bytes (hv/console/kbd_scancode.c): host unit test.
UNIT_TESTS += test_kbd_scancode
test_kbd_scancode_SRCS := hv/console/kbd_scancode.c
