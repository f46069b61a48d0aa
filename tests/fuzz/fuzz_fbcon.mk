FUZZ_TARGETS += fuzz_fbcon
fuzz_fbcon_SRCS := hv/console/fbcon.c hv/console/fbcon_font.c hv/console/kbd_scancode.c
