# Detach key of `console <vm>` (hv/shell/attach_keys.c): host unit test.
UNIT_TESTS += test_attach_keys
test_attach_keys_SRCS := hv/shell/attach_keys.c
