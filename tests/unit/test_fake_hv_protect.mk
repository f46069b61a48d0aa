UNIT_TESTS += test_fake_hv_protect
test_fake_hv_protect_SRCS := tests/world/fake_hv_ops.c
