# hv.cfg parser (boot/config.c): host unit test.
UNIT_TESTS += test_config
test_config_SRCS := boot/config.c boot/config_text.c boot/config_keys.c gpu/display/vdisp_mode.c
