# String I/O in bounded chunks (hv/vm/strio.c): host unit test.
UNIT_TESTS += test_strio
test_strio_SRCS := hv/vm/strio.c
