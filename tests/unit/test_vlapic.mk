UNIT_TESTS += test_vlapic
test_vlapic_SRCS := hv/vm/vlapic.c
