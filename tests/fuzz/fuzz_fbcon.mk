FUZZ_TARGETS += fuzz_fbcon
fuzz_fbcon_SRCS := hv/fbcon.c hv/fbcon_font.c hv/kbd_scancode.c
