# hv.cfg parser (boot/config.c): host unit test.
UNIT_TESTS += test_config
test_config_SRCS := boot/config.c
