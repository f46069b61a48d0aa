# hv.cfg parser (boot/config.c): libFuzzer target, invariants after every input.
FUZZ_TARGETS += fuzz_config
fuzz_config_SRCS := boot/config.c boot/config_text.c boot/config_keys.c gpu/display/vdisp_mode.c
